"""How many examples a fuzz test tries: a few, fixed, in CI; the campaign profile's count in a campaign.

>>> examples(5) >= 1
True
"""

from __future__ import annotations

from hypothesis import settings


def examples(ci: int) -> int:
    """``ci`` under the derandomized "ci" profile; the loaded profile's ``max_examples`` under "campaign"."""
    current = settings.default
    return ci if current.derandomize else current.max_examples
