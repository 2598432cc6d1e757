"""No import cycles between the modules of ``bot``.

Every import counts, wherever it stands: at the top, under ``if TYPE_CHECKING:``, or
inside a function (a deferred import still says one module needs the other). Packages in
``EXCLUDED`` would be left out; none is any more (the adapters' cycles, core <-> views in
bot/discord_bot and play/conditional <-> session in bot/terminal, are gone)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
EXCLUDED: tuple[str, ...] = ()


def module_name(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module``'s source imports (``from . import x``
    names the submodule ``x`` when there is one, else the package)."""
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # bot.store.Tx -> bot.store
                target = target.rpartition(".")[0]
            if target and target != module:
                out.add(target)
    return out


def import_graph(excluded: tuple[str, ...]) -> dict[str, set[str]]:
    def kept(name: str) -> bool:
        return not any(name == p or name.startswith(p + ".") for p in excluded)

    sources = {module_name(p): p for p in sorted(BOT.rglob("*.py"))}
    known = set(sources)
    graph = {}
    for name, path in sources.items():
        if not kept(name):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = {t for t in imported(tree, name, path.name == "__init__.py", known)
                       if kept(t)}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_walker_sees_a_cycle():
    """The check itself: a made-up graph with a cycle is caught, one without is not."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_walker_reads_every_kind_of_import():
    known = {"bot", "bot.service", "bot.timekeeping.reminders", "bot.store", "bot.web", "bot.web.server"}
    source = ("from .store import Tx\n"
              "import bot.timekeeping.reminders\n"
              "from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from . import web\n"
              "def f():\n    from .web.server import serve\n")
    assert imported(ast.parse(source), "bot.service", False, known) == {
        "bot.store", "bot.timekeeping.reminders", "bot.web", "bot.web.server"}


@pytest.mark.parametrize("excluded", [EXCLUDED])
def test_no_import_cycles_in_bot(excluded):
    graph = import_graph(excluded)
    assert "bot.operations.service" in graph and "bot.timekeeping.reminders" in graph  # the walk found the modules
    assert "bot.discord_bot.core" in graph and "bot.terminal.session" in graph  # the adapters too
    assert cycles(graph) == []
