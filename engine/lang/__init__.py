"""The effect language: syntax tree, types, parser, functions and compiled programs.

Importing any part of it loads :mod:`engine.lang.functions`, whose registry
describes a call of a built-in function in English (``Call.builtins``); the
functions the mechanisms add (``shuffle``, ``damage``, ...) join the registry
when their modules load, as they do for any game that is loaded:

>>> from engine.lang.parser import parse_expression
>>> parse_expression("count(hand(r)) >= 3").describe()
'the number of the hand of r is at least 3'
"""

from engine.lang import functions  # noqa: F401  (hands the built-in functions to engine.lang.ast)
