"""A whole game by mail, to mate, between two addresses, through real SMTP and IMAP servers
on 127.0.0.1: the challenge, the answer, every move a reply to the last board's mail."""

from __future__ import annotations

from bot.words.textboard import text_board

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail

ALICE, BOB = "alice@a.test", "bob@b.test"


def board_png(msg) -> bytes | None:
    """The board's picture, which the HTML part shows (its Content-ID in the img)."""
    html = msg.get_body(preferencelist=("html",))
    for part in msg.walk():
        if part.get_content_type() == "image/png":
            assert f'src="cid:{part["Content-ID"].strip("<>")}"' in html.get_content()
            return part.get_content()
    return None


async def start_game(bot, servers) -> tuple[int, dict[str, str]]:
    """Alice challenges Bob by mail, Bob accepts by replying: (game id, side -> address)."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
    await bot.step()
    answer = text_of(servers.last_to(ALICE))
    assert "Challenge #1 sent" in answer and "Chess" in answer
    invitation = servers.last_to(BOB)
    assert "alice challenges you to Chess (#1)" in text_of(invitation)
    assert str(invitation["Reply-To"]).startswith("bot+c1-p2-")
    await servers.deliver(reply_to_mail(BOB, invitation, "accept"))
    await bot.step()
    view = await bot.service.game(1)
    return view.id, {"w": view.white.user_id, "b": view.black.user_id}


async def test_a_whole_game_by_mail_to_mate(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    started = servers.sent_to(black)[-1]
    assert "has begun" in text_of(started)
    root = f"<fairypost.g{game_id}.p"
    assert str(started["Message-ID"]).startswith(root)  # the thread's first mail
    for mover, move in ((white, "f3"), (black, "e5"), (white, "g4"), (black, "Qh4#")):
        board_mail = servers.last_to(mover)
        assert "Reply to this mail with your move" in text_of(board_mail)
        assert board_png(board_mail) is not None and board_png(board_mail).startswith(b"\x89PNG")
        assert str(board_mail["Reply-To"]).startswith(f"bot+g{game_id}-p")
        assert (str(board_mail["In-Reply-To"]).startswith(root)  # one thread per game: White's
                or "has begun" in text_of(board_mail))             # first is the game's start
        await servers.deliver(reply_to_mail(mover, board_mail, move))
        await bot.step()
    view = await bot.service.game(game_id)
    assert (view.status, view.result, view.reason) == ("finished", "0-1", "checkmate")
    assert [m.san for m in view.moves] == ["f3", "e5", "g4", "Qh4#"]
    for player in (white, black):
        last = text_of(servers.last_to(player))
        assert "Game #1 (Chess) is over: 0-1" in last and f"{black.split('@')[0]} (Black) wins by checkmate." in last
        assert "1. f3 e5 2. g4 Qh4#" in last  # the whole move list
        assert "Last move: Qh4#" in last
        flip = player == black
        assert text_board(await bot.service.position(game_id), flip=flip) in last.replace("\r\n", "\n")
    # the move after Black's: the mail to White carried the last move and the time left
    your_move = [text_of(m) for m in servers.sent_to(white) if "Your move in game #1" in text_of(m)]
    assert len(your_move) == 1  # after e5 (at the start the game's first mail said it; mate ends it)
    assert f"{black.split('@')[0]} played e5." in your_move[-1]
    assert "3 days left" in your_move[-1]  # the clock did not move: a fresh 3-day turn
