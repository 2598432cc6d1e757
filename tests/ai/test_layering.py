"""ai/ stands beside rules/: it imports rules and the standard library, never bot or render."""
import ast
import sys
from pathlib import Path

AI = Path(__file__).resolve().parents[2] / "ai"


def test_ai_imports_only_rules_and_the_standard_library():
    seen = set()
    for path in AI.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                seen |= {(path.name, a.name.split(".")[0]) for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                seen.add((path.name, node.module.split(".")[0]))
    outside = {(f, m) for f, m in seen
               if m not in ("rules", "__future__") and m not in sys.stdlib_module_names}
    assert not outside, outside
    assert any(m == "rules" for _f, m in seen)
