"""Game logs for the command line: the replay format of :mod:`engine.runner.replay`, under its first names.

``rulecraft play`` writes logs (``save FILE``, ``--log FILE``) and reads them
(``--load``); ``rulecraft replay`` plays them back.  Everything lives in
:mod:`engine.runner.replay`; this module keeps the names the command line first used:

>>> log = GameLog.from_json({"ruleset": "my-game", "variant": "short+fast", "players": 2, "seed": 4}, "<test>")
>>> log.variant, log.actions
(['short', 'fast'], [])

Replaying: ``game, state = log.start(); replay(state, log.actions)`` (or
``log.play(state)``, which also checks every position against the recorded one).
"""

from __future__ import annotations

from engine.runner.replay import GameLog, Replay, ReplayDiverged, RulesetChanged, replay, ruleset_ref, state_hash

__all__ = ["GameLog", "Replay", "ReplayDiverged", "RulesetChanged", "replay", "ruleset_ref", "state_hash"]
