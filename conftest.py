"""The doctest collection of engine/ leaves out the modules whose optional extra is missing, as their tests skip.

``pytest`` imports every module of ``engine`` for its doctests (``--doctest-modules``): without the ``rl`` extra,
importing the PettingZoo environment failed the whole run at collection, before any test ran, where
tests/test_rl.py skips. Under CI (``CI`` set) nothing is left out: a missing extra fails, as the tests do.

Example: with NumPy and OpenSpiel but not PettingZoo, ``collect_ignore == ["engine/rl/environment.py", "engine/rl/parallel.py"]``.
"""

from __future__ import annotations

import importlib.util
import os

EXTRAS = {"engine/rl": "numpy", "engine/rl/environment.py": "pettingzoo", "engine/rl/parallel.py": "pettingzoo",
          "engine/rl/openspiel.py": "pyspiel"}
"""The modules (or folders) that need an optional package, and the package."""

collect_ignore = [] if os.environ.get("CI") else [
    path for path, package in EXTRAS.items() if importlib.util.find_spec(package) is None]
