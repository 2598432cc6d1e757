"""No import cycles among the adapters' modules (bot/discord_bot, bot/terminal) nor
between them and the rest of bot/: every import counts, one inside a function too, but
not one made only for type checking (``if TYPE_CHECKING:``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"


def module_name(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The bot modules ``path`` imports."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")
                    up = up[:len(up) - child.level + 1]
                    base = ".".join(up + ([child.module] if child.module else []))
                found.add(base)
                found.update(f"{base}.{a.name}" for a in child.names)
            visit(child)
    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules and m != me}


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in BOT.rglob("*.py")}
    return {m: imports_of(p, set(files)) for m, p in files.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))
    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def test_the_checker_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_it_reads_lazy_imports_and_skips_type_checking_ones():
    edges = graph()
    assert "bot.discord_bot.core" not in edges["bot.discord_bot.shared"]  # only for types
    assert "bot.discord_bot.views" in edges["bot.discord_bot.notifier"]  # imported in a function


@pytest.mark.parametrize("package", ["bot.discord_bot", "bot.terminal"])
def test_no_cycle_through_an_adapter(package):
    found = [c for c in cycles(graph()) if any(m.startswith(package) for m in c)]
    assert not found, f"import cycles: {found}"
