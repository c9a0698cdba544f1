"""A command-line argument naming a file or folder, or a built-in ruleset by name.

``rulecraft validate`` and ``rulecraft check`` take paths; a designer also
types the name ``rulecraft list`` shows, as the other commands accept it.
An existing path wins over a built-in of the same spelling.

Example::

    @click.argument("paths", nargs=-1, type=PathOrBuiltin())
    def validate(paths): ...          # rulecraft validate my-game/ another-game
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

import click


EMPTY = "an empty text names no ruleset: give a built-in name, a file or a folder ('.' for this one)"


def named(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A click callback refusing an empty ruleset name, which would otherwise stand for a default or this folder
    (``--from ''`` copied the tutorial, ``--compare ''`` compared a ruleset with itself, ``serve ''`` served the
    folder it runs in).

    >>> named(None, None, "my-game"), named(None, None, None)
    ('my-game', None)
    """
    if value is not None and not value.strip():
        raise click.BadParameter(EMPTY, ctx, param)
    return value


class PathOrBuiltin(click.ParamType):
    """An existing path, or a built-in ruleset's name (its folder). Anything else is refused with the choices.

    >>> PathOrBuiltin().convert(".", None, None)
    '.'
    >>> PathOrBuiltin().convert("", None, None)
    Traceback (most recent call last):
    click.exceptions.BadParameter: an empty text names no ruleset: give a built-in name, a file or a folder ('.' for this one)
    """

    name = "path"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """``value`` when it is an existing path, else the folder of the built-in ruleset it names."""
        text = str(value)
        if not text:  # Path("") is the current folder: validate '' walked every file below it
            self.fail(EMPTY, param, ctx)
        if Path(text).exists():
            return text
        from engine.core.errors import did_you_mean
        from engine.core.paths import builtin_names, in_own_folder, rulesets_dir

        names = builtin_names()
        if text in names:
            return str(rulesets_dir() / text)
        if "/" in text or "\\" in text or Path(text).suffix:  # written as a path: say so as click does
            own = in_own_folder(text) or _spelt_alike(Path(text))
            self.fail(f"Path '{text}' does not exist{_builtin_inside(text, names) or (f' ({own})' if own else '')}.",
                      param, ctx)
        hint = _an_agent(text, ctx) or did_you_mean(text, names)
        self.fail(f"no file or folder '{text}', and no built-in ruleset of that name"
                  f"{f' ({hint})' if hint else ''}: rulecraft list shows the built-in ones", param, ctx)


def _an_agent(text: str, ctx: click.Context | None) -> str | None:
    """For a path that is an agent's name, given to a command that takes ``--agents`` (``validate --agents random
    greedy my-game`` takes ``greedy`` as a ruleset): what --agents takes instead.

    >>> ctx = click.Context(click.Command("validate", params=[click.Option(["--agents", "agent"])]))
    >>> _an_agent("mcts:200", ctx), _an_agent("my-game", ctx), _an_agent("greedy", None)
    ("'mcts:200' is an agent: --agents takes one, which plays every seat (--agents mcts:200)", None, None)
    """
    from engine.runner.agents import AGENT_KINDS

    takes_agents = ctx is not None and any(p.name in ("agent", "agents") for p in ctx.command.params)
    if not takes_agents or text.partition(":")[0].strip().lower() not in AGENT_KINDS:
        return None
    return f"'{text}' is an agent: --agents takes one, which plays every seat (--agents {text})"


def _spelt_alike(path: Path) -> str | None:
    """For a path whose folder exists but whose last part does not: the name there spelt alike
    (``my-game/ruleset.yml`` for ``ruleset.yaml``, ``my-game/scenario`` for ``scenarios``), or None.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()); (folder / "ruleset.yaml").write_text("")
    0
    >>> _spelt_alike(folder / "ruleset.yml")
    "did you mean 'ruleset.yaml'?"
    """
    from engine.core.errors import did_you_mean

    try:
        names = sorted(islice((entry.name for entry in path.parent.iterdir()), 10_000)) if path.parent.is_dir() else []
    except OSError:
        return None
    return did_you_mean(path.name, names)


def _builtin_inside(text: str, names: list[str]) -> str:
    """For a path through a built-in ruleset's folder written from outside a clone (``rulesets/NAME/scenarios``):
    how to name that ruleset from anywhere; else "".

    >>> _builtin_inside("rulesets/some-game/scenarios", ["some-game"])
    ' (some-game is a built-in ruleset: name it alone, as in rulecraft validate some-game or rulecraft check some-game)'
    >>> _builtin_inside("my-game/ruleset.yaml", ["some-game"])
    ''
    """
    parts = Path(text).parts
    name = next((part for part in parts if part in names), None)
    if name is None:
        return ""
    return f" ({name} is a built-in ruleset: name it alone, as in rulecraft validate {name} or rulecraft check {name})"
