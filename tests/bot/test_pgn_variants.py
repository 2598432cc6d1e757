"""Every game's record is PGN a reader can tokenise and fairypost can replay (issue 41,
item 4): a game of each of the six, played through the service (Super Chess with its set-up
phase), is written with each movetext token outside comments one PGN symbol token (no
bracket, brace or semicolon: rules.pgn_forms), and reading the record back -- its Variant and
FEN tags, the set-up comment, then every move through the notation reader -- replays the
game to the same final position."""
import random
import re

import pytest

import rules
from bot.operations.record import PGN_DEFAULT_START

from ..rules.test_pgn_forms import is_record_token
from .conftest import new_game
from .test_pgn import real  # noqa: F401 - the service with two players

COMMENT = re.compile(r"\{([^}]*)\}")
MOVE_NUMBER = re.compile(r"^\d+\.(?:\.\.)?$")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


async def _random_game(svc, white, black, game: str, seed: int, plies: int, setup: str):
    rng = random.Random(seed)
    g = await new_game(svc, white, black, game=game, days=None, setup=setup)
    while g.status == "active" and g.ply < plies:
        lan = rng.choice(sorted(await svc.legal_moves(g.id)))
        g = (await svc.move(g.id, g.to_move.id, lan, expected_ply=g.ply)).game
    return g


def replay(record: str):
    """The final rules position of a record read as a reader would: tags, the set-up
    comment's actions, then the movetext's moves, each through ``Position.parse``."""
    head, movetext = record.split("\n\n", 1)
    tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', head, re.M))
    pos = rules.from_fen(tags["Variant"], tags.get("FEN", PGN_DEFAULT_START))
    comments = COMMENT.findall(movetext)
    texts = [t for c in comments if c.startswith("Set-up: ") for t in c[len("Set-up: "):].split()]
    outside = COMMENT.sub(" ", movetext).split()
    for token in outside:
        assert not set(token) & set("(){}[];"), token
        if MOVE_NUMBER.match(token) or token in RESULTS:
            continue
        assert is_record_token(token), token
        texts.append(token)
    for text in texts:
        pos = pos.play(pos.parse(text))
    return pos, texts


@pytest.mark.parametrize(("game", "setup"), [(game, "default") for game in rules.variants()]
                         + [("superchess", "players")])
async def test_each_games_record_is_tokens_that_replay_the_game(real, game, setup):  # noqa: F811
    svc, alice, bob = real
    g = await _random_game(svc, alice, bob, game, seed=41, plies=70, setup=setup)
    record = await svc.record(g.id)
    pos, texts = replay(record)
    assert len(texts) == g.ply and pos.fen() == g.fen
    sans = " ".join(m.san for m in g.moves)
    if game in ("superchess", "ganymede"):   # moves the engine writes with brackets were played
        assert "(" in sans and "(" not in record.split("\n\n", 1)[1], sans
    if setup == "players":   # the set-up phase's facings, in the comment, without brackets
        assert "{Set-up: S@" in record and g.moves[2].san.endswith(")"), record
        assert re.search(r"\{Set-up: S@\w+,S@\w+ S@\w+,S@\w+ [a-k]\d+=[NESW]{1,2} [a-k]\d+=[NESW]{1,2}\}", record)
