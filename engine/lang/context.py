"""What compiling a ruleset's own code asks of the compiler: the narrow interface :mod:`engine.lang.defined` is written against.

The compiler sits above the language, so the language never imports it; the
compiler's ``Builder`` satisfies :class:`CodeContext` structurally (the
mechanisms widen it to :class:`engine.blocks.context.BuildContext`).

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> isinstance(Builder(load_yaml("r.yaml", "name: r\\n")), CodeContext)
True
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, runtime_checkable

from engine.core.errors import DiagnosticSink, SourcePos
from engine.core.views import GameData
from engine.core.yamlsource import Mapping
from engine.lang.scope import Compiled, Scope, Vocabulary


@runtime_checkable
class CodeGame(GameData, Protocol):
    """A game being compiled, as its code sees it: the core's view and the vocabulary its code is checked against."""

    vocab: Vocabulary


@runtime_checkable
class CodeContext(Protocol):
    """What the language may ask of the compiler: the ruleset tree, where things were written, reporting, compiling."""

    @property
    def tree(self) -> Mapping: ...

    @property
    def sink(self) -> DiagnosticSink: ...

    @property
    def game(self) -> CodeGame: ...

    def error(self, pos: SourcePos | None, message: str, hint: str | None = None) -> None: ...

    def pos(self, node: Any, key: str | int | None = None) -> SourcePos | None: ...

    def check_identifier(self, name: str, pos: SourcePos | None, what: str, any_script: bool = False,
                         read_as: str | None = None) -> None: ...

    def unknown_keys(self, spec: Mapping, allowed: Iterable[str], what: str) -> None: ...

    def parse(self, text: Any, pos: SourcePos | None, program: bool = False) -> Any: ...

    def compile_node(self, node: Any, scope: Scope, nested: bool = True) -> Compiled: ...
