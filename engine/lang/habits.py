"""Habits from Python (and C-like languages) that a designer brings to the effect language, and what to write instead.

A syntax error that matches one of them gets this language's way in its message, in place of the list of
tokens the parser expected there.

>>> python_habit("  def ", "deal", "deal(r):")
"the effect language has no 'def': name a value or condition of your own under 'functions:' in the ruleset (like 'total(role r): count(hand(r))'), and write a program's steps where they run"
>>> python_habit("if a ", "is", "is none:"), python_habit("a = 7 ", "/", "// 2") is not None
("'is' is not a comparison here: write '==' (a == none), or '!=' for 'is not'", True)
>>> python_habit("let n = ", "count", "count(deck)") is None
True
>>> python_habit("const ", "c", "c = 1"), python_habit("let c", ":", ": card = 1")
("write 'let' for 'const': let c = ...", 'a name takes no type: write let c = ...')
>>> python_habit("let xs = [c.rank ", "for", "for c in hand(r)]")
"a list is not built with '[VALUE for x in C]': write list(VALUE for x in C where CONDITION), or list(x in C where CONDITION) for the items themselves"
>>> python_habit("n += 2", "d6", "d6")
"'2d6' is not written so: each roll(...) rolls one die, so 2 of them are roll(d6) + roll(d6) (a 'roll dN:' statement rolls one die)"
"""

from __future__ import annotations

import re

_RETURN = ("there is no 'return': a program runs to its end (put the steps to skip under if/else), "
           "and a function under 'functions:' is one expression, which is its value")


MAX_DICE = 10_000
"""The most dice a hint writes as a sum over ``numbers(1, N)``: as many numbers as numbers() lists."""


def _dice(n: int, die: str) -> str:
    """What to write for ``n`` dice ``die`` written as in a rulebook (``2d6``): a roll per die, added up (a sum over
    numbers() past three, and only as many as numbers() lists).

    >>> _dice(1, "d6"), _dice(3, "d4")
    ("'1d6' is not written so: roll(d6) rolls one die (a 'roll dN:' statement rolls one die)", "'3d4' is not written so: each roll(...) rolls one die, so 3 of them are roll(d4) + roll(d4) + roll(d4) (a 'roll dN:' statement rolls one die)")
    >>> _dice(0, "d6")
    "'0d6' is not written so: roll(d6) rolls one die, and no dice roll nothing (a 'roll dN:' statement rolls one die)"
    """
    if n == 1 or not 0 < n <= MAX_DICE:
        nothing = ", and no dice roll nothing" if n == 0 else ""
        return f"'{n}{die}' is not written so: roll({die}) rolls one die{nothing} (a 'roll dN:' statement rolls one die)"
    added = " + ".join([f"roll({die})"] * n) if n <= 3 else f"sum(roll({die}) for i in numbers(1, {n}))"
    return (f"'{n}{die}' is not written so: each roll(...) rolls one die, so {n} of them are {added} "
            "(a 'roll dN:' statement rolls one die)")


def python_habit(before: str, token: str, rest: str) -> str | None:
    """What to write instead of a habit the parser stopped at, or None when the error is no known habit.

    ``before`` is the line up to the unexpected token, ``token`` its text (empty at the end of the line) and
    ``rest`` the line from the token on.
    """
    head = before.strip()
    if head == "def":
        return ("the effect language has no 'def': name a value or condition of your own under 'functions:' in the "
                "ruleset (like 'total(role r): count(hand(r))'), and write a program's steps where they run")
    if re.search(r"\blambda\s*\w*\s*$", before) or token == "lambda":
        return ("there is no 'lambda': name a value or condition of your own under 'functions:' in the ruleset "
                "(like 'mine(tile t): t.symbol == current_role'), or write the condition where it is used "
                "(x in C where CONDITION)")
    if head in ("const", "var", "val", "auto", "my") and re.fullmatch(r"\w+", token or ""):
        return f"write 'let' for '{head}': let {token} = ..."
    if re.fullmatch(r"let\s+\w+", head) and token == ":":
        return f"a name takes no type: write {head} = ..."
    if head in ("import", "from"):
        return "nothing is imported: every function of the effect language is always there (docs/effects.md lists them)"
    if head == "return" or re.search(r"\b_\(return\s*$", before):  # a line of a program, or a function's body
        return _RETURN
    if head in ("break", "continue"):
        return (f"there is no '{head}': a 'while' loop ends when its condition fails, and the steps to skip go under "
                "if/else")
    if re.fullmatch(r"let\s+\w+", head) and token in ("+=", "-="):
        return "'let' names a value once; a number that changes is a counter (declare it under 'counters:')"
    if token in ("AND", "OR", "NOT", "And", "Or", "Not"):
        return f"write '{token.lower()}', in lower case"
    if token == "*" and before.endswith("*"):
        return "there is no power operator: multiply (2 * 2 * 2)"
    if token == ">" and before.endswith("<"):
        return "write '!=' for '<>'"
    if token == "." and re.search(r"\bfor\s+\w+\s+in\s+\d+\s*\.$", before):
        return "write the numbers as a list, like [1, 2, 3]"
    if token == "for" and before.count("[") > before.count("]"):
        return ("a list is not built with '[VALUE for x in C]': write list(VALUE for x in C where CONDITION), "
                "or list(x in C where CONDITION) for the items themselves")
    if token == "if" and re.search(r"\bfor\s+\w+\s+in\s+\S", before):
        return "to pick some of the items, write 'where': for x in C where CONDITION"
    if token == "if" and re.search(r"[\w)\]\"']\s*$", before) and not re.search(r"\b(else|elif|let \w+ =)\s*$", before):
        return "a value chosen by a condition is written 'if CONDITION then A else B'"
    if re.fullmatch(r"[<>=!]=|[<>]", token) and re.search(r"(<=|>=|==|!=|<|>)[^<>=!()]*$", before):
        return "comparisons do not chain: write 'a < x and x < b'"
    if token == "if" and re.search(r"\belse\s*$", before):
        return "write 'elif' for 'else if'"
    if token == "is":
        return "'is' is not a comparison here: write '==' (a == none), or '!=' for 'is not'"
    if token == "not" and re.match(r"not\s+in\b", rest):
        return "write 'not X in C' for 'X not in C'"
    if token.startswith(("\"", "'")) and re.search(r"(?<![\w.])[fF]\s*$", before):
        return "there are no f-strings: write the text in plain quotes, as it is"
    if rest.startswith("//") or (token == "/" and before.endswith("/")):
        return "'//' is not in the language: '#' starts a comment, and '/' divides whole numbers (rounding down)"
    if rest.startswith(("++", "--")):
        return f"write '{rest[0]}= 1' for '{rest[:2]}' (only a counter can change: see 'counters:')"
    dice = re.search(r"(?<![\w.])(\d{1,6})\s*$", before) if re.fullmatch(r"d\d+", token) else None  # no int() of 5,000 digits
    if dice:
        return _dice(int(dice.group(1)), token)
    method = re.search(r"\.\s*(\w+)\s*$", before) if token == "(" else None
    if method:
        return _method(method.group(1))
    return None


def _method(name: str) -> str:
    """The message for ``value.name(...)``: values have attributes but no methods."""
    if name in ("append", "extend", "add", "insert", "remove", "pop", "push"):
        return (f"'.{name}(...)': a list cannot be changed once made; pick what you need where you use it "
                "(count(c in hand(r) where ...)), or move components between zones with move(...)")
    return f"'.{name}(...)': values have attributes (t.symbol) but no methods; if '{name}' is a function, write {name}(VALUE)"
