"""The design as the folders show it (issue #39): every package of bot/ says in its docstring
what it holds and what it may import, and imports nothing else; no module is over 900 lines; no
import circle between any two files of the code, counting every import wherever it stands."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.bot.test_import_graph import cycles, imported

ROOT = Path(__file__).resolve().parents[2]
CODE = ("language", "rules", "ai", "render", "bot")
MAX_LINES = 900
#: the process: what ``fairypost`` runs; these may import anything
PROCESS = {"bot", "bot.cli", "bot.config", "bot.adapters", "bot.schemas"}
FRONT_ENDS = {"bot.discord_bot", "bot.email", "bot.web", "bot.terminal"}
EVERY_PACKAGE_BUT_FRONT_ENDS = "every package of ``bot`` but the other front ends"


def modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def graph(found: dict[str, tuple[Path, bool]]) -> dict[str, set[str]]:
    known = set(found)
    return {name: imported(ast.parse(path.read_text(encoding="utf-8")), name, is_package, known)
            for name, (path, is_package) in found.items()}


def group(module: str) -> str:
    """The unit a docstring speaks for: a top package (``rules``, ``ai``, ``render``), a
    package of bot (``bot.operations``), or one of the process's modules at bot's root."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "bot" else parts[0]


def allowed(docstring: str, packages: set[str]) -> set[str]:
    """The names after "May import:" in a package's docstring (``bot.store``, a module such as
    ``bot.words.timetext``, or every package of bot but the front ends)."""
    match = re.search(r"May import:(.*?)(?:\n\s*\n|\Z)", docstring, re.S)
    assert match, "no 'May import:' paragraph"
    text = " ".join(match.group(1).split())
    names = set(re.findall(r"``([\w.]+)``", text))
    if EVERY_PACKAGE_BUT_FRONT_ENDS in text:
        names |= packages - FRONT_ENDS - PROCESS | {"bot.config", "bot.schemas"}
    return names


def package_docstrings(found) -> dict[str, str]:
    groups = {group(m) for m in found} - PROCESS
    docs = {}
    for g in sorted(groups):
        path, is_package = found[g]
        assert is_package, f"{g} is a loose module: bot's root holds only the process {sorted(PROCESS)}"
        docs[g] = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return docs


def test_each_package_says_what_it_holds_and_what_it_may_import():
    found = modules()
    for name, doc in package_docstrings(found).items():
        assert len(doc.split()) >= 12, f"{name}'s docstring does not say what it holds"
        assert "May import:" in doc, f"{name}'s docstring does not say what it may import"


def test_bots_root_holds_only_the_process():
    loose = {p.stem for p in (ROOT / "bot").glob("*.py")} - {"__init__"}
    assert loose == {m.rpartition(".")[2] for m in PROCESS - {"bot"}}


def test_each_package_imports_only_what_its_docstring_allows():
    found = modules()
    docs = package_docstrings(found)
    packages = set(docs)
    edges = graph(found)
    wrong = []
    for name, targets in sorted(edges.items()):
        own = group(name)
        if own in PROCESS:
            continue
        may = allowed(docs[own], packages)
        for target in sorted(targets):
            other = group(target)
            if other == own:
                continue
            if not any(target == m or target.startswith(m + ".") for m in may):
                wrong.append(f"{name} imports {target}")
    assert wrong == []


def test_no_import_circle_between_files():
    assert cycles(graph(modules())) == []


def test_no_module_over_900_lines():
    long = {name: n for name, (path, _) in modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_the_checks_see_what_they_look_for():
    """The checks themselves on made-up text: the allowed names are read, and a layer that
    imports what it may not is caught."""
    doc = ("The store.\n\nMay import: ``bot.domain`` (its refusals), the standard library.\n\nMore.")
    assert allowed(doc, {"bot.domain", "bot.store"}) == {"bot.domain"}
    front = f"A front end.\n\nMay import: {EVERY_PACKAGE_BUT_FRONT_ENDS}, ``rules``."
    names = allowed(front, {"bot.domain", "bot.web", "bot.email", "bot.operations"})
    assert "bot.operations" in names and "bot.email" not in names and "rules" in names
    assert group("bot.operations.moves") == "bot.operations" and group("rules.hooks.wall") == "rules"
    with pytest.raises(AssertionError):
        allowed("No such paragraph.", set())
