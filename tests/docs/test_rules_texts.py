"""The rules pages, the terminal's ``rules``/``piece`` and Discord's ``/rules``/``/piece``
say the same things: each piece's move in words, each game's summary, special rules and
end live once, in data/variants/<game>.toml, and every one of them is checked here to
stand in all three. Also: the README links the pages, their pictures exist and are
small, and nothing in the project points outside it."""
from __future__ import annotations

import html
import re
import subprocess

import pytest

import rules
from bot.discord_bot import format as discord_format
from bot.terminal.console import DEFAULT_WIDTH as WIDTH
from bot.words.game_texts import piece_text, rules_text
from bot.words.text import HTML, PLAIN
from tests.terminal.conftest import Fairypost

from .pages import README, ROOT, RULES_DIR, flat

GAMES = ["ganymede", "gigachess2", "grandducal", "superchess", "kingqueen"]


def texts(game_id: str) -> list[str]:
    """Every text of a game that players read: summary, special rules, end, pieces."""
    g = rules.game(game_id)
    return [g.summary, *g.special_rules, g.game_end, *(t.description for t in g.types.values())]


def embed_text(e) -> str:
    return "\n".join([e.title or "", e.description or "", *(f"{f.name}\n{f.value}" for f in e.fields)])


@pytest.mark.parametrize("game_id", GAMES + ["chess"])
def test_every_text_of_the_data_is_filled_in(game_id):
    g = rules.game(game_id)
    assert g.summary and g.special_rules and g.game_end
    assert all(t.description for t in g.types.values()), [k for k, t in g.types.items() if not t.description]


@pytest.mark.parametrize("game_id", GAMES + ["chess"])
def test_the_page_says_every_text_of_the_data(game_id):
    page = flat((RULES_DIR / f"{game_id}.md").read_text(encoding="utf-8"))
    missing = [t for t in texts(game_id) if flat(t) not in page]
    assert not missing, f"docs/rules/{game_id}.md lacks: {missing}"


@pytest.mark.parametrize("game_id", GAMES + ["chess"])
def test_the_terminal_and_discord_rules_say_the_same_texts(game_id):
    terminal = flat(rules_text(game_id, PLAIN, WIDTH))
    typed = flat(rules_text(game_id, PLAIN))  # a thread's or an email's typed rules
    mail = flat(html.unescape(rules_text(game_id, HTML)))
    embed = discord_format.rules_embed(game_id)
    discord = flat(embed_text(embed))
    for text in texts(game_id):
        assert flat(text) in terminal, text
        assert flat(text) in typed, text
        assert flat(text) in mail, text
        assert flat(text) in discord, text
    # Discord's limits: description 4096, a field 1024, 25 fields, 6000 in all
    assert len(embed.description) <= 4096 and len(embed.fields) <= 25 and len(embed) <= 6000
    assert all(len(f.value) <= 1024 for f in embed.fields)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_terminal_and_discord_piece_say_the_pages_words(game_id):
    g = rules.game(game_id)
    page = flat((RULES_DIR / f"{game_id}.md").read_text(encoding="utf-8"))
    for key, t in g.types.items():
        words = flat(t.description)
        assert words in flat(piece_text(g, t, PLAIN, WIDTH)), key
        assert words in flat(html.unescape(piece_text(g, t, HTML))), key
        assert words == flat(discord_format.piece_embed(game_id, key).description), key
        assert words in page


def test_the_terminal_program_says_them(tmp_path):
    run = Fairypost(tmp_path).play("superchess", "--setup", "default", lines=["rules", "piece C", "quit"])
    assert run.code == 0, run.err
    out = flat(run.out)
    for text in texts("superchess"):
        assert flat(text) in out, text


@pytest.mark.parametrize("game_id", GAMES)
def test_each_page_shows_the_board_and_a_card_per_piece(game_id):
    text = (RULES_DIR / f"{game_id}.md").read_text(encoding="utf-8")
    images = re.findall(r'<img src="([^"]+)"', text) + re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert f"../images/{game_id}.png" in images
    for key in rules.game(game_id).types:
        assert f"images/{game_id}-{key.replace('+', 'plus-')}.png" in images, key
    for image in images:
        data = (RULES_DIR / image).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", image
        assert len(data) < 200_000 if image.startswith("..") else len(data) < 40_000, image


def test_the_readme_links_the_five_pages():
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Rules\n", 1)[1].split("\n## ", 1)[0]
    links = re.findall(r"\]\((docs/rules/[^)]+\.md)\)", section)
    assert sorted(links) == sorted(f"docs/rules/{g}.md" for g in GAMES)
    assert all((ROOT / link).is_file() for link in links)


def test_every_link_of_the_pages_leads_inside_the_project():
    for page in RULES_DIR.glob("*.md"):
        for target in re.findall(r"\]\(([^)#]+)[^)]*\)", page.read_text(encoding="utf-8")):
            assert "://" not in target, f"{page.name} links outside: {target}"
            assert (page.parent / target).exists(), f"{page.name}: {target} is missing"


# built from parts so that this file does not name them itself
OUTSIDE = ["shared" + "/rules", "/" + "work/", ".." + "/shared"]


def test_nothing_in_the_project_points_outside_it():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    hits = []
    for name in files.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        hits += [f"{name}: {p}" for p in OUTSIDE if p in text]
    assert not hits, hits
