"""The effect language: syntax tree, types, parser, functions and compiled programs.

The language keeps no registry of functions: code is compiled against a
:class:`~engine.lang.scope.Vocabulary` handed the functions it may call — the
language's own (:data:`engine.lang.language.LANGUAGE`), the engine's, those
of the blocks a ruleset uses and the ruleset's own.  Compiling a call binds
it to its function, whose English then describes it:

>>> from engine.lang.language import LANGUAGE, by_name
>>> from engine.lang.parser import parse_expression
>>> from engine.lang.scope import Scope, Vocabulary
>>> node = parse_expression("count(hand(r)) >= 3")
>>> _ = node.compile(Scope(Vocabulary(functions=by_name(LANGUAGE))))
>>> node.describe()
'the number of items in the hand of r is at least 3'
"""
