"""A game's record is PGN that other programs read (issue 41, item 4): python-chess reads
every orthodox-chess record, played through the service, back to the same moves and
position; each tag stays on one line; ``SetUp``/``FEN`` stand where the start is not
PGN's default; ``TimeControl`` is PGN's."""

import io
import random
import re
from dataclasses import replace

import chess
import chess.pgn
import pytest

import rules
from bot.operations.record import game_pgn
from bot.operations.results import MoveRecord

from .conftest import new_game

# Played through the service, each in the notation players type. Between them: castling on
# both wings, en passant, promotion with and without capture, under-promotion to a Knight
# and a Rook, checks, a mate, resignations.
SCRIPTED = [
    "e4 Nf6 e5 d5 exd6 Qxd6 Nf3 Bg4 Be2 Nc6 O-O O-O-O d4 Bxf3 Bxf3 Qxd4 Qxd4 Rxd4 Bxc6 bxc6 "
    "Nc3 e5 Be3 Rd6 Bxa7 Rd2 Rad1 Bc5 Rxd2 Bxa7 Rd8+ Kxd8",
    "e4 d5 exd5 c6 dxc6 Nf6 cxb7 Nbd7 bxa8=Q e5 Qxa7 Bc5 d4 exd4 c3 d3 Qdb3 d2+ Kd1 dxc1=N "
    "Kxc1 Qe7 Qxd7+ Kxd7",
    "d4 e5 dxe5 f6 exf6 Nh6 fxg7 Nc6 gxh8=R+ Ke7 Rxf8 Kxf8 Qd6+ cxd6",
    "f3 e5 g4 Qh4#",
]
TAG = re.compile(r'^\[[A-Za-z0-9_]+ "(?:[^"\\\n]|\\.)*"\]$')


@pytest.fixture
async def real(opener, engine, settings):
    # hundreds of moves by two players in seconds: no command budget
    svc = await opener(settings=settings.with_(command_rate_per_minute=0))
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", 'Bob "the Rook" \\ Smith')  # escaped in a tag
    return svc, alice, bob


async def _play(svc, white, black, moves, game="chess", **kw):
    g = await new_game(svc, white, black, game=game, **kw)
    for i, move in enumerate(moves):
        g = (await svc.move(g.id, (white, black)[i % 2].id, move, expected_ply=i)).game
    return g


async def _random_game(svc, white, black, seed: int, plies: int):
    rng = random.Random(seed)
    g = await new_game(svc, white, black, game="chess", days=None)
    while g.status == "active" and g.ply < plies:
        lan = rng.choice(await svc.legal_moves(g.id))
        g = (await svc.move(g.id, g.to_move.id, lan, expected_ply=g.ply)).game
    return g


def _read(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors, game and game.errors
    return game


def _uci(lan: str) -> str:
    """fairypost's LAN in UCI: a promotion's ``=Q`` is written ``q``."""
    return re.sub(r"=([A-Z])$", lambda m: m[1].lower(), lan)


def _check_reads_back(text: str, view) -> None:
    """python-chess reads ``text`` to the game ``view`` is: the same moves (in LAN, and in
    SAN as written), the same last position, the same players and result."""
    head, movetext = text.split("\n\n")
    assert all(TAG.match(line) for line in head.splitlines()), head
    assert all(len(line) < 80 for line in movetext.splitlines()), movetext
    game = _read(text)
    assert [m.uci() for m in game.mainline_moves()] == [_uci(m.lan) for m in view.moves]
    assert [n.san() for n in game.mainline()] == [m.san for m in view.moves]
    assert game.end().board().fen() == view.fen
    for side in ("White", "Black"):  # (python-chess before 1.10 keeps a tag's escapes)
        read = game.headers[side].replace('\\"', '"').replace("\\\\", "\\")
        assert read == getattr(view, side.lower()).name.replace("\n", " ")
    assert game.headers["Result"] == (view.result or "*")
    assert game.headers["Variant"] == "chess"


@pytest.mark.parametrize("moves", SCRIPTED, ids=["castling-en-passant", "promotions", "rook-promotion",
                                                 "mate"])
async def test_python_chess_reads_each_played_game_back(real, moves):
    svc, alice, bob = real
    g = await _play(svc, alice, bob, moves.split())
    if g.status == "active":  # a game that stops short of mate is resigned, as players do
        g = await svc.resign(g.id, g.to_move.id, expected_ply=g.ply)
    text = await svc.record(g.id)
    _check_reads_back(text, g)
    assert any("=" in m.san for m in g.moves) or any(m.san.endswith("#") for m in g.moves) \
        or any(m.san.startswith("O-O") for m in g.moves)
    head = text.split("\n\n")[0]
    assert "[SetUp " not in head and "[FEN " not in head  # the start PGN assumes
    assert r'[Black "Bob \"the Rook\" \\ Smith"]' in head


async def test_python_chess_reads_random_played_games_back(real):
    svc, alice, bob = real
    sans = []
    for seed in range(4):
        g = await _random_game(svc, alice, bob, seed, plies=90)
        _check_reads_back(await svc.record(g.id), g)
        sans += [m.san for m in g.moves]
    assert len(sans) == 360 and any("+" in san for san in sans) and any("x" in san for san in sans)


async def test_a_start_that_is_not_the_standard_one_is_written_in_fen(real):
    """A chess game from another position (Black to move, castling and en passant to come): ``SetUp``
    and ``FEN``, the first move numbered ``1...``, and python-chess plays it from there."""
    svc, alice, bob = real
    g = await _play(svc, alice, bob, ["e4"])
    start = "r3k2r/1P1p4/8/4P3/8/8/8/R3K2R b KQkq - 0 30"
    pos, records = rules.from_fen("chess", start), []
    for i, move in enumerate(["d5", "exd6", "O-O", "bxa8=Q", "Rxa8", "O-O-O", "Ra1+"]):
        m = pos.parse(move)
        records.append(MoveRecord(i + 1, m.lan, pos.san(m), pos.turn, alice.id, g.created_at))
        pos = pos.play(m)
    # a name from elsewhere with a line break in it (the service's own names have none)
    view = replace(g, start_vfen=start, moves=tuple(records), fen=pos.fen(),
                   white=replace(g.white, name="Ann\nLee"))
    text = game_pgn(view)
    assert f'[SetUp "1"]\n[FEN "{start}"]' in text
    assert '[White "Ann Lee"]' in text
    assert text.split("\n\n")[1].startswith("30... d5 31. exd6 O-O 32. bxa8=Q Rxa8 33. O-O-O Ra1+ *")
    _check_reads_back(text, view)


@pytest.mark.parametrize("game", ["ganymede", "gigachess2", "grandducal", "kingqueen", "superchess"])
async def test_every_variant_names_itself_and_its_start(real, game):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game=game, days=2)
    g = (await svc.move(g.id, alice.id, (await svc.legal_moves(g.id))[0], expected_ply=0)).game
    head, movetext = (await svc.record(g.id)).split("\n\n")
    assert all(TAG.match(line) for line in head.splitlines()), head
    assert f'[Variant "{game}"]' in head and '[TimeControl "1/172800"]' in head
    assert f'[SetUp "1"]\n[FEN "{g.start_vfen}"]' in head
    assert chess.pgn.read_headers(io.StringIO(head + "\n\n*\n"))["FEN"] == g.start_vfen
    assert movetext.startswith("1. ") or movetext.startswith("{Set-up")
