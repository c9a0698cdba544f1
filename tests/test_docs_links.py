"""Links between the documentation pages lead somewhere: every relative link's file exists and every `#anchor`
names a heading of the page it points to (as GitHub makes anchors: lower case, punctuation dropped, spaces to `-`).

>>> _anchor("### place: only_triggering, if_none")
'place-only_triggering-if_none'
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", ROOT / "benchmarks" / "README.md", *ROOT.glob("docs/**/*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")  # [text](target), a link's text may run over lines
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _anchor(heading: str) -> str:
    """The anchor GitHub gives a heading line."""
    text = heading.lstrip("#").strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    """Every anchor of a page: its headings' (a repeated heading's with -1, -2 ...) and explicit `<a id=...>`s."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found: set[str] = set(re.findall(r'<a (?:name|id)="([^"]+)"', text))
    counts: dict[str, int] = {}
    for heading in re.findall(r"^#+ .*$", text, re.M):
        anchor = _anchor(heading)
        found.add(f"{anchor}-{counts[anchor]}" if anchor in counts else anchor)
        counts[anchor] = counts.get(anchor, 0) + 1
    return found


def _broken(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with that anchor")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    assert _broken(page) == []


def test_a_broken_link_and_a_broken_anchor_are_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A title\n\n## Two words\n\n[ok](#two-words) [bad](#three-words) [gone](other.md)\n"
                    "```\n[in code](nowhere.md)\n```\n", encoding="utf-8")
    assert _broken(page) == ["#three-words: no heading with that anchor", "other.md: no such file"]


CODE_PATH = re.compile(r"`((?:tests|docs|engine|cli|rulesets|benchmarks|schemas)/[\w./*-]+)`")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_page_names_exists(page: Path) -> None:
    """A path in code quotes (`tests/test_x.py`, `docs/examples/pig`) names a file or folder of the repository, or
    of the page's own folder: docs/classics.md sent readers to a test module merged into another."""
    named = CODE_PATH.findall(FENCE.sub("", page.read_text(encoding="utf-8")))
    missing = [p for p in named if not list(ROOT.glob(p)) and not list(page.parent.glob(p))]
    assert missing == []


def test_every_benchmark_script_is_in_the_benchmarks_readme() -> None:
    """benchmarks/README.md lists what the folder holds: soak.py, fuzz.py and game_logs.py were not in it."""
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    assert [p.name for p in sorted((ROOT / "benchmarks").glob("*.py")) if f"`{p.name}`" not in readme] == []


def test_the_readme_leads_to_every_page() -> None:
    """Every page of docs/ is linked from README.md (docs/hardening.md was not), every rules page from it or from
    docs/classics.md (the showcases' were from neither)."""
    readme = LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    classics = [f"docs/{t}" for t in LINK.findall((ROOT / "docs" / "classics.md").read_text(encoding="utf-8"))]
    pages = [p.relative_to(ROOT).as_posix() for p in [*(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "rules").glob("*.md")]]
    assert sorted(p for p in pages if p not in readme and p not in classics) == []


def test_every_shipped_game_has_its_picture_on_the_web_page() -> None:
    """docs/web.md's "Every shipped game" showed twelve of the fifteen (not the showcases)."""
    from engine.core.paths import builtin_names

    section = (ROOT / "docs" / "web.md").read_text(encoding="utf-8").split("## Every shipped game", 1)[1].split("\n## ", 1)[0]
    assert [n for n in builtin_names() if f"![{n}](images/{n}.png) `{n}`" not in section] == []


def test_the_examples_catalogue_lists_every_example() -> None:
    """docs/examples/README.md is where a designer looks for a model to copy: every example there is, and only
    those, each linked by its folder's (or file's) name."""
    folder = ROOT / "docs" / "examples"
    listed = set(re.findall(r"^\| \[([\w.-]+)\]\(\1\) \|", (folder / "README.md").read_text(encoding="utf-8"), re.M))
    there = {p.name for p in folder.iterdir() if p.name != "README.md"}
    assert (sorted(there - listed), sorted(listed - there)) == ([], [])
