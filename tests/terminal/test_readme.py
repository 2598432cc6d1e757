"""The README tells the truth about what it points at, and so do the guides it sends to
(docs/): a newcomer's README of at most 250 lines, the operator's and developer's details
in docs/ (issue 41, item 6), the commands' help as the program says it (item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules
from bot.cli import _parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# the guides the README's details went to (issue 41, item 6)
MOVED = ["terminal", "discord", "mail", "web", "postgresql", "configuration", "data",
         "tournaments-guide", "testing", "benchmarks", "engine", "architecture"]
GUIDES = {name: (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8") for name in MOVED}


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


@pytest.mark.parametrize("name", ["README", *MOVED])
def test_the_commands_it_names_exist(name):
    text = README if name == "README" else GUIDES[name]
    sub = next(a for a in _parser()._actions if a.dest == "command")
    code = [line for line in text.splitlines() if line.startswith("    ")]
    code += re.findall(r"`([^`\n]+)`", text)
    for command in re.findall(r"\bfairypost (\w+)", "\n".join(code)):
        if command != "fairypost":  # `docker run ... fairypost fairypost play`: the image, then the command
            assert command in sub.choices, f"{name} names 'fairypost {command}'"
    # every variable it names is read somewhere: by the program, or by the tests (test knobs)
    readers = [ROOT / "bot" / "config.py", ROOT / "bot" / "cli.py", *(ROOT / "tests").rglob("*.py")]
    sources = "\n".join(p.read_text() for p in readers)
    for var in re.findall(r"`(FAIRYPOST_[A-Z_]+)", text):
        assert f'"{var}"' in sources, (name, var)


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
    assert f"budget of fifteen minutes ({CPU_BUDGET_SECONDS} s)" in " ".join(section.split())
    assert CPU_BUDGET_SECONDS == 900  # raised from 600 when the suite grew by ~400 tests (#40-#45)


def test_a_newcomers_readme_of_at_most_250_lines():
    assert len(README.splitlines()) <= 250
    # what it is, install and play, the games, running it for others, the test command
    headings = re.findall(r"^## (.+)$", README, re.MULTILINE)
    for needed in ("Install and play", "The games", "Running it for others", "Run the tests", "More"):
        assert needed in headings, needed
    assert headings[-1] == "More"


def test_every_link_leads_to_a_file_and_every_guide_is_linked():
    """The links (relative ones) of the README and of each guide moved out of it lead to a
    file; the README's "More" lists every guide at the top of docs/."""
    for name, text, folder in [("README", README, ROOT)] + [
            (n, t, ROOT / "docs") for n, t in GUIDES.items()]:
        for target in re.findall(r"\]\(([^)#]+)[^)]*\)", text):
            if "://" not in target:
                assert (folder / target).exists(), f"{name}: {target} is missing"
    more = README.split("\n## More\n", 1)[1]
    linked = set(re.findall(r"\]\((docs/[^)]+\.md)\)", more))
    guides = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert guides <= linked, f"not in the README's More: {sorted(guides - linked)}"


def test_each_guide_begins_with_its_title_and_the_way_back():
    for name, text in GUIDES.items():
        title, blank, back = text.splitlines()[:3]
        assert title.startswith("# ") and not blank, name
        assert back.startswith("Back to the [README](../README.md)"), name


def test_what_left_the_readme_is_in_its_guide():
    """A few facts of each moved section, found in the guide that holds it now."""
    facts = {
        "discord": ["permissions=309237763072", "FAIRYPOST_DISCORD_MESSAGE_CONTENT", "/challenge"],
        "mail": ["Reply-To", "recipient_delimiter = +", "retention_days"],
        "web": ["reverse_proxy 127.0.0.1:8080", "FAIRYPOST_WEB_TRUSTED_PROXIES", "/g/<id>/<token>"],
        "postgresql": ["FOR UPDATE SKIP LOCKED", "--shard-count 8", "fairypost db copy"],
        "configuration": ["| `FAIRYPOST_DB` | `db` |", "| `FAIRYPOST_EMAIL_SECRET` |"],
        "data": ["synchronous = FULL", ".backup fairypost-backup.sqlite3"],
        "testing": ["FAIRYPOST_TEST_POSTGRES", "tools/pg_throwaway.sh", "--durations=20"],
        "benchmarks": ["python -m bench", "bench/RESULTS.md", "FAIRYPOST_LONG=1"],
        "engine": ["python -m rules perft", "fairypost think"],
        "architecture": ["GameService", "tests/layout"],
        "terminal": ["premove LINES", "--setup default|players", "confirm on default"],
        "tournaments-guide": ["Sonneborn-Berger", "fairypost tournament new"],
    }
    for name, needles in facts.items():
        flat = " ".join(GUIDES[name].split())  # as wrapped anywhere
        for needle in needles:
            assert needle in flat, (name, needle)


def _cells(row: str) -> list[str]:
    """A Markdown table row's cells (``\\|`` is a ``|`` inside a cell)."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def test_the_readmes_list_of_commands_is_the_programs_help():
    """The README's "The fairypost command" table: one row for each command of ``fairypost
    --help``, in its order, saying word for word what the help says (issue 41, item 5)."""
    section = README.split("\n## The fairypost command\n", 1)[1].split("\n## ", 1)[0]
    rows = [_cells(r) for r in section.splitlines() if r.startswith("| `fairypost ")]
    sub = next(a for a in _parser()._actions if a.dest == "command")
    helps = [(a.dest, a.help) for a in sub._choices_actions]
    assert [cmd.strip("`").split()[1] for cmd, _ in rows] == [name for name, _ in helps]
    for (_, does), (name, help_text) in zip(rows, helps, strict=True):
        assert does == help_text, name
