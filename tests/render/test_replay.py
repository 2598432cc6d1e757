"""Animated replays (render/replay.py): one frame per position, each the board the bot
would post seen from one side, one palette, the unchanged pixels left transparent; and
``fairypost replay`` on a stored game."""
from __future__ import annotations

import asyncio
import io
import random

from PIL import Image, ImageChops, ImageStat

import rules
from render import board_image
from render.replay import REPLAY_SQUARE, positions, replay_gif

SCHOLARS_MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


def _frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    out = []
    for i in range(gif.n_frames):
        gif.seek(i)
        out.append(gif.convert("RGB"))
    return out


def _distance(a: Image.Image, b: Image.Image) -> float:
    """Mean difference per channel (0..255) of two pictures of one size."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _local_colour_tables(data: bytes) -> int:
    """How many frames of a GIF carry a colour table of their own."""
    i, flags = 13, data[10]
    if flags & 0x80:
        i += 3 * 2 ** ((flags & 7) + 1)
    local = 0
    while i < len(data) and data[i] != 0x3B:
        if data[i] == 0x21:  # an extension: label, then sub-blocks
            i += 2
        else:                # an image: descriptor, maybe its table, LZW size, sub-blocks
            packed = data[i + 9]
            i += 10
            if packed & 0x80:
                local += 1
                i += 3 * 2 ** ((packed & 7) + 1)
            i += 1
        while data[i]:
            i += data[i] + 1
        i += 1
    return local


def test_each_frame_is_its_position_seen_from_one_side():
    start = rules.start("chess")
    boards, captions = positions(start, SCHOLARS_MATE)
    data = replay_gif(start, SCHOLARS_MATE, flip=True)
    frames = _frames(data)
    assert len(frames) == len(SCHOLARS_MATE) + 1
    drawn = [board_image(p, flip=True, square=REPLAY_SQUARE, result=c)
             for p, c in zip(boards, captions[:-1] + ["4. Qxf7#  Checkmate \u2014 White wins"], strict=True)]
    for i, frame in enumerate(frames):
        assert frame.size == drawn[i].size
        own = _distance(frame, drawn[i])
        assert own < 2.0, f"frame {i} is not its position (mean difference {own:.1f})"
        others = [_distance(frame, d) for j, d in enumerate(drawn) if j != i]
        assert min(others) > own
    # seen from Black throughout: the a1 corner is at the top right in every frame
    white_side = board_image(boards[0], flip=False, square=REPLAY_SQUARE, result=captions[0])
    assert _distance(frames[0], white_side) > 5 * _distance(frames[0], drawn[0])


def test_captions_name_each_move_and_the_last_the_result():
    start = rules.start("chess")
    _, captions = positions(start, SCHOLARS_MATE)
    assert captions == ["Chess", "1. e4", "1... e5", "2. Bc4", "2... Nc6", "3. Qh5", "3... Nf6",
                        "4. Qxf7#"]
    gif = Image.open(io.BytesIO(replay_gif(start, SCHOLARS_MATE)))
    assert gif.info["loop"] == 0
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations[0] > durations[1] and durations[-1] > durations[1]


def test_one_palette_and_only_the_changes_stored():
    lans, pos = [], rules.start("gigachess2")
    rng = random.Random(5)
    for _ in range(60):
        move = rng.choice(pos.legal_moves())
        lans.append(move.lan)
        pos = pos.play(move.lan)
    data = replay_gif(rules.start("gigachess2"), lans)
    assert _local_colour_tables(data) == 0
    # a frame costs about the squares that changed, not a board: 60 plies well under the
    # 8 MB that 300 may take (bench/replay.py measures 300: about 1.3 MB)
    first = len(replay_gif(rules.start("gigachess2"), []))
    assert len(data) < 61 * first / 5
    assert len(data) * 300 / 60 < 8_000_000


def test_special_moves_play_through(tmp_path):
    # a drop, a Cyclops with its facing, a set-up phase: frames like any other
    kq = rules.start("kingqueen")
    kq_moves = [m.lan for m in kq.legal_moves()[:1]]
    assert len(_frames(replay_gif(kq, kq_moves))) == 2
    setup = rules.from_fen("superchess", rules.game("superchess").setup_start_fen)
    lans = ["S@e2,S@f2", "S@e9,S@f9", "d1(NE)", "d10(N)", "Cd1f3(N)"]
    boards, captions = positions(setup, lans)
    assert len(_frames(replay_gif(setup, lans))) == 6
    assert captions[1:] == ["1. S@e2,S@f2", "1... S@e9,S@f9", "1. d1(NE)", "1... d10(N)", "1. Cf3(N)"]


def test_the_command_writes_a_stored_games_replay(tmp_path, monkeypatch, capsys):
    from bot.cli import main
    from bot.config import Settings
    from bot.operations.service import GameService

    db = tmp_path / "games.sqlite3"

    async def a_game():
        svc = await GameService.open(Settings(db_path=str(db)))
        try:
            a = await svc.player("terminal", "a", "Ann")
            b = await svc.player("terminal", "b", "Bob")
            c = await svc.challenge(a.id, "chess", opponent_id=b.id, days=None, colour="white")
            g = await svc.accept_challenge(c.id, b.id)
            for i, san in enumerate(SCHOLARS_MATE):
                await svc.move(g.id, (a if i % 2 == 0 else b).id, san)
            return g.id
        finally:
            await svc.close()

    game_id = asyncio.run(a_game())
    monkeypatch.setenv("FAIRYPOST_DB", str(db))
    out = tmp_path / "game.gif"
    assert main(["replay", str(game_id), str(out)]) == 0
    assert len(_frames(out.read_bytes())) == 8
    assert main(["replay", "99", str(tmp_path / "x.gif")]) == 2
    assert "no game #99" in capsys.readouterr().err
    assert main(["replay", str(game_id), str(tmp_path / "x.png")]) == 2
    assert main(["replay", str(game_id), str(tmp_path / "nowhere" / "x.gif")]) == 2
    assert not (tmp_path / "x.gif").exists() and not (tmp_path / "x.png").exists()
