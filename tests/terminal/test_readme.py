"""The README tells the truth about what it points at."""

from __future__ import annotations

import re
from pathlib import Path

import rules
from bot.cli import _parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_each_game_has_a_line_and_a_small_start_picture():
    images = re.findall(r'src="(docs/images/[^"]+\.png)"', README)
    games = [g for g in rules.variants() if g != "chess"]
    assert sorted(Path(i).stem for i in images) == sorted(games)
    for image in images:
        data = (ROOT / image).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < 200_000, f"{image} is {len(data)} bytes"


def test_one_test_command_and_ci_runs_it():
    assert re.findall(r"python -m pytest[^\n`]*", README) == ["python -m pytest"]
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == "python -m pytest"


def test_the_commands_it_names_exist():
    sub = next(a for a in _parser()._actions if a.dest == "command")
    code = [line for line in README.splitlines() if line.startswith("    ")]
    code += re.findall(r"`([^`\n]+)`", README)
    for name in re.findall(r"\bfairypost (\w+)", "\n".join(code)):
        if name != "fairypost":  # `docker run ... fairypost fairypost play`: the image, then the command
            assert name in sub.choices, f"README names 'fairypost {name}'"
    # every variable it names is read somewhere: by the program, or by the tests (test knobs)
    readers = [ROOT / "bot" / "config.py", ROOT / "bot" / "cli.py", *(ROOT / "tests").rglob("*.py")]
    sources = "\n".join(p.read_text() for p in readers)
    for var in re.findall(r"`(FAIRYPOST_[A-Z_]+)", README):
        assert f'"{var}"' in sources, var


def test_the_first_screen_installs_and_plays_a_friend_and_the_computer():
    """A newcomer's first screen (issue 29, item 6): what fairypost is, the install, a game
    against a friend and one against the computer; running it for others follows, in the
    order Discord, mail, the web, PostgreSQL, Docker."""
    first = "\n".join(README.splitlines()[:30])
    assert first.startswith("# fairypost\n\nCorrespondence chess")
    assert "pip install ." in first
    play = re.findall(r"^\s+\S*fairypost play (.+?)\s+# (.+)$", first, re.MULTILINE)
    assert [args for args, _ in play] == ["grandducal", "chess --vs computer"]
    assert "two players at one keyboard" in play[0][1] and "computer" in play[1][1]
    headings = re.findall(r"^## (.+)$", README, re.MULTILINE)
    assert headings[0] == "Install and play"
    order = ["Running it for others", "The bot on Discord", "Play by email", "Game pages on the web",
             "Outgrowing one machine: PostgreSQL", "Docker"]
    assert [h for h in headings if h in order] == order
    assert headings.index("Run the tests") > headings.index("Docker")  # for developers, later


def test_the_suites_budget_is_the_one_the_readme_states():
    from tests.conftest import CPU_BUDGET_SECONDS
    section = README.split("\n## Run the tests\n", 1)[1].split("\n## ", 1)[0]
    assert f"budget of ten minutes ({CPU_BUDGET_SECONDS} s)" in " ".join(section.split())
    assert CPU_BUDGET_SECONDS == 600
