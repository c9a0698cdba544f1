"""The broken-ruleset corpus: every mistake gives one positioned diagnostic, never a traceback.

Each case in ``tests/data/broken/`` is a ruleset with ONE mistake: a top-level
``*.yaml`` file, or a folder holding a ``ruleset.yaml`` (for mistakes in files
it includes).  Most extend the shipped card game and override one thing, so
they stay small and also check that errors point into the file that holds the
mistake.  The case states what it expects in header comments::

    # expect: 14:7 unknown element 'Fier' (did you mean 'Fire'?)
    # expect: tables.yaml:9:31 unknown element 'Fier' ...   (in another file, relative to the case)
    # expect: - unknown variant 'quik' ...                  (no position)
    # load: variant=quik          check engine.load(case, variant=...) instead of validate_path
    # diagnostics: 2              how many diagnostics (default 1: one mistake, one message)
    # xfail: REASON               a known engine bug: the validate test is expected to fail
    # xfail-load: REASON          the same for the engine.load test

The expected text must appear in ``message (hint)``; ``...`` in it matches
anything.  ``engine.runner.validate.validate_path`` must return diagnostics, never
raise, and ``engine.load`` must raise :class:`RulesetError` and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import engine
from engine.core.compose import compose
from engine.core.errors import Diagnostic, RulesetError
from engine.runner.validate import validate_path

BROKEN = Path(__file__).parent / "data" / "broken"
REPO = Path(__file__).resolve().parents[1]

_EXPECT = re.compile(r"^# expect: (?:(?:(?P<file>[^\s:]+):)?(?P<line>\d+):(?P<col>\d+)|-) (?P<text>.+)$", re.M)
_HEADER = re.compile(r"^# (?P<key>load|diagnostics|xfail|xfail-load): (?P<value>.+)$", re.M)
_WITH_VARIANT = re.compile(r"\(with variant '([^']+)'\)| in variant '([^']+)'")  # found only with that variant


@dataclass
class Case:
    path: Path
    file: Path | None  # where the first diagnostic must be (None: no position)
    line: int
    col: int
    text: str
    load_variant: str | None
    count: int
    xfail: str | None
    xfail_load: str | None

    @property
    def name(self) -> str:
        return self.path.parent.name if self.path.name == "ruleset.yaml" else self.path.stem


def read_case(path: Path) -> Case:
    header = path.read_text(encoding="utf-8")
    found = _EXPECT.search(header)
    assert found, f"{path}: no '# expect: LINE:COL TEXT' header"
    opts = {m["key"]: m["value"].strip() for m in _HEADER.finditer(header)}
    where: Path | None = None
    if found["line"]:
        where = (path.parent / found["file"]).resolve() if found["file"] else path.resolve()
    load = opts.get("load")
    if load is not None:
        assert load.startswith("variant="), f"{path}: '# load:' takes variant=NAME"
    return Case(
        path=path,
        file=where,
        line=int(found["line"] or 0),
        col=int(found["col"] or 0),
        text=found["text"].strip(),
        load_variant=load.removeprefix("variant=") if load else None,
        count=int(opts.get("diagnostics", "1")),
        xfail=opts.get("xfail"),
        xfail_load=opts.get("xfail-load"),
    )


def all_cases() -> list[Case]:
    paths = sorted(BROKEN.glob("*.yaml")) + sorted(BROKEN.glob("*/ruleset.yaml"))
    return [read_case(p) for p in paths]


CASES = all_cases()


def params(xfail_attr: str) -> list[object]:
    out = []
    for case in CASES:
        reason = getattr(case, xfail_attr)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out


def said(d: Diagnostic) -> str:
    return d.message + (f" ({d.hint})" if d.hint else "")


def says(d: Diagnostic, expected: str) -> bool:
    """``expected`` appears in the diagnostic; '...' matches anything."""
    pattern = ".*".join(re.escape(part.strip()) for part in expected.split("..."))
    return re.search(pattern, said(d)) is not None


def assert_first(found: list[Diagnostic], case: Case) -> None:
    shown = "\n".join(d.headline() for d in found)
    assert found, f"{case.name}: no diagnostic; expected {case.text!r}"
    first = found[0]
    if case.file is None:
        assert first.pos is None, f"{case.name}: expected no position, got:\n{shown}"
    else:
        assert first.pos is not None, f"{case.name}: no position:\n{shown}"
        got = (Path(first.pos.file).resolve(), first.pos.line, first.pos.col)
        assert got == (case.file, case.line, case.col), f"{case.name}: wrong position:\n{shown}"
    assert says(first, case.text), f"{case.name}: expected {case.text!r} in:\n{shown}"


def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 20
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", params("xfail"))
def test_broken_ruleset_is_diagnosed(case: Case) -> None:
    if case.load_variant is not None:
        assert validate_path(str(case.path)) == [], "the file itself is valid; only the variant asked for is wrong"
        with pytest.raises(RulesetError) as info:
            engine.load(case.path, variant=case.load_variant)
        found = info.value.diagnostics
    else:
        found = validate_path(str(case.path))  # must return, never raise
    assert_first(found, case)
    assert len(found) == case.count, "one mistake, one diagnostic; got:\n" + "\n".join(d.headline() for d in found)


@pytest.mark.parametrize("case", params("xfail_load"))
def test_loading_a_broken_ruleset_raises_ruleset_error(case: Case) -> None:
    variant = case.load_variant
    if variant is None:
        m = _WITH_VARIANT.search(case.text)
        variant = (m.group(1) or m.group(2)) if m else None
    with pytest.raises(RulesetError) as info:  # any other exception fails the test
        engine.load(case.path, variant=variant)
    first = info.value.diagnostics[0]
    if case.file is not None:
        assert first.pos is not None
        assert (Path(first.pos.file).resolve(), first.pos.line, first.pos.col) == (case.file, case.line, case.col), str(info.value)


def test_validate_path_names_the_file_position_and_caret() -> None:
    case = next(c for c in CASES if c.name == "clash-misspelled-element")
    d = validate_path(str(case.path))[0]
    assert d.headline() == f"{case.path}:14:7: unknown element 'Fier' (did you mean 'Fire'?)"
    assert d.format().splitlines()[1:] == ["          Fier:  {Earth: neighbour, Water: both, Air: placed}", "          ^"]


# --- engine bugs found while writing the corpus (not broken rulesets as such) -------------------


def test_validate_path_accepts_a_scenario_with_a_name() -> None:
    scenario = REPO / "rulesets" / "iconoclasm-cards" / "scenarios" / "rulebook-clash-example.yaml"
    assert validate_path(str(scenario)) == []


def test_append_in_an_included_file_appends_to_the_extended_base(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text("name: five\nextends: iconoclasm-cards\ninclude: more.yaml\n")
    (tmp_path / "more.yaml").write_text("players+: [5]\n")
    assert compose(tmp_path / "ruleset.yaml")["players"] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("name,known,hint", [
    ("Fier", ["Fire", "Water"], "did you mean 'Fire'?"),      # a close match
    ("FIRE", ["Fire", "Water"], "did you mean 'Fire'?"),      # too far for difflib: the same name in another case
    ("wATER", ["Fire", "Water"], "did you mean 'Water'?"),
    ("Lava", ["Fire", "Water"], None),                         # nothing close, in any case
    ("turn_begin", ["turn_end", "turn_start"], "did you mean 'turn_start'?"),   # the same words, one said another way
    ("end_turn", ["turn_end", "turn_start"], "did you mean 'turn_end'?"),       # the same words in another order
])
def test_did_you_mean_falls_back_to_a_name_in_another_case(name: str, known: list[str], hint: str | None) -> None:
    from engine.core.errors import did_you_mean

    assert did_you_mean(name, known) == hint
