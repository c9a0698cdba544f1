"""Thresholds on a meter: code that runs when a change takes a value past a mark.

A meter (``meter:`` or an entry of ``meters:``) lists them::

    thresholds:
      - {below: 3, text: the line wavers, do: "lose(resolve(self), 1)"}
      - {above: 8, do: "gain(resolve(self), 1)"}
      - {at: 0, do: "..."}

``below: N`` runs when a change takes the value from N or more to less
than N; ``above: N`` from N or less to more than N; ``at: N`` when the value
reaches N or passes it, either way, from another value.  Each runs once per
crossing: a value that stays past the mark runs nothing more until it comes
back and crosses again.  Whatever changes the value runs them: the meter's
own moves, an assignment in code, a step writing the counter itself (an
``advance``, a cast's payment; see ``State.set_counter``).  The code sees
``self`` (the carrier), ``by`` (who made the change: the ``by =`` of
``gain``/``lose``/``damage``/``heal``, else the ``self`` of the code that
made it, else the current role for a step's change), ``source`` (where the
change came from), ``old`` and ``new`` (the values before and after it).

>>> low = Threshold("below", 3)
>>> low.crossed(5, 2), low.crossed(2, 1), low.crossed(2, 4)
(True, False, False)
>>> Threshold("at", 0).crossed(3, 0), Threshold("at", 5).crossed(3, 7), Threshold("at", 5).crossed(5, 4)
(True, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.blocks.hooks import Hook, Running, ToldAsHidden, compile_hook, unseen
from engine.core.errors import SourcePos
from engine.core.yamlsource import Mapping, Sequence

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView
    from engine.lang.types import Type

WAYS = ("below", "above", "at")
KEYS = (*WAYS, "text", "do")
VERBS = {"below": "falls below", "above": "rises above", "at": "reaches"}


@dataclass(frozen=True)
class Threshold:
    """A mark on a meter (``below``, ``above`` or ``at`` a number) and the code run when a change crosses it."""

    way: str
    mark: int
    hook: Hook | None = None  # None only in doctests
    text: str = ""

    def crossed(self, old: int, new: int) -> bool:
        """Whether a change from ``old`` to ``new`` crosses this mark."""
        if self.way == "below":
            return old >= self.mark > new
        if self.way == "above":
            return old <= self.mark < new
        return old != self.mark and min(old, new) <= self.mark <= max(old, new)

    def describe(self) -> str:
        """The threshold in English: ``below 3: the line wavers``.

        >>> Threshold("above", 8, text="a rally").describe()
        'above 8: a rally'
        """
        what = self.text or (self.hook.words if self.hook else "")
        return f"{self.way} {self.mark}: {what}"


def read_thresholds(b: "BuildContext", spec: Mapping, what: str, bind: dict[str, "Type"]) -> tuple[Threshold, ...]:
    """A meter's ``thresholds`` list, each compiled with ``bind``'s names (``self``, ``by``, ``source``, ``old``, ``new``)."""
    listed = spec.get("thresholds")
    if listed is None:
        return ()
    if not isinstance(listed, Sequence):
        b.error(b.pos(spec, "thresholds"), f"the thresholds of {what} are a list, like [{{below: 3, do: ...}}]")
        return ()
    found = []
    for i, entry in enumerate(listed):
        pos = b.pos(listed, i)
        if not isinstance(entry, Mapping):
            b.error(pos, f"a threshold of {what} is a mapping, like {{below: 3, do: ...}}")
            continue
        b.unknown_keys(entry, KEYS, f"a threshold of {what}")
        ways = [way for way in WAYS if way in entry]
        if len(ways) != 1:
            b.error(pos, f"a threshold of {what} says one of below: N, above: N or at: N"
                    + (f", not {' and '.join(ways)}" if ways else ""))
            continue
        if "do" in entry:  # required: the schema reports a threshold without it
            hook = compile_hook(b, entry["do"], entry.pos_of("do"), bind)
            found.append(Threshold(ways[0], b.int_setting(entry, ways[0], 0), hook, str(entry.get("text") or "")))
    return tuple(found)


def run_crossed(s: "StateView", thresholds: tuple[Threshold, ...], name: str, owner: Any, shown: str,
         old: int, new: int, by: Any, source: Any, pos: SourcePos | None = None) -> None:
    """Run the code of every threshold the change from ``old`` to ``new`` crosses, in the order they are listed
    (``pos``: the code that made the change, where the seats read a failure on a hidden component)."""
    for threshold in thresholds:
        if threshold.hook is None or not threshold.crossed(old, new):
            continue
        hidden = unseen(s, owner)  # which threshold would tell its value
        s.note(lambda t=threshold: f"the {name} of {shown} crosses a threshold" if hidden else f"the {name} of {shown} {VERBS[t.way]} {t.mark}")
        with (Running(s, f"a {name} threshold of {shown}" if hidden else f"the {name} threshold {threshold.way} {threshold.mark}"),
              ToldAsHidden(s, owner, f"{name} threshold of {{}}", pos)):
            threshold.hook.run(s, owner, by, source, old, new)
