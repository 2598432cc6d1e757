"""Who may do what (issue 40, item 2), walked: every row of the table (permissions.py, shown
in docs/permissions.md) done on its front end — Discord through the spec'd double of
tests/discord_bot, mail through the real SMTP/IMAP test servers, the web through the real
aiohttp server, the CLI as ``fairypost play`` — and the cell's answer checked: an allowed
action takes effect, a refused one changes nothing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.discord_bot import commands, typed
from bot.discord_bot.views import AcceptChallenge, ConfirmResign, DeclineChallenge, challenge_view
from bot.email.sending import STOP_AFTER_BOUNCES
from bot.identity import page_tokens as tokens
from tests.discord_bot.conftest import clock as discord_clock  # noqa: F401 - a fixture
from tests.discord_bot.conftest import open_world, press, run, start_game
from tests.discord_bot.helpers import custom_ids, last_answer, make_guild
from tests.email.conftest import BOT, as_proven, bot, clock, servers, settings  # noqa: F401 - fixtures
from tests.email.servers import reply_to_mail, text_of, write_mail

from .conftest import SECRET, svc, web_client  # noqa: F401 - a fixture
from .permissions import ROWS, Row
from .test_code_mails import ask_code
from .test_code_mails import open_world as open_mail_world

DOC = Path(__file__).resolve().parents[2] / "docs" / "permissions.md"


def rows_of(front: str) -> list[Row]:
    return [r for r in ROWS if r.front == front]


def ids(rows: list[Row]) -> list[str]:
    return [f"{r.what} | {r.who} | {'yes' if r.allowed else 'no'}" for r in rows]


# --- the doc's table is this one --------------------------------------------------------

def doc_rows() -> list[Row]:
    """The rows of docs/permissions.md's tables (| what | front end | who | allowed |)."""
    out = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) == 4 and cells[3] in ("yes", "no"):
            out.append(Row(cells[0], cells[1], cells[2], cells[3] == "yes"))
    return out


def test_the_docs_table_is_the_tests_table():
    assert doc_rows() == ROWS
    text = DOC.read_text(encoding="utf-8")
    assert "## Tournaments" in text and "See docs/permissions-tournaments.md" in text
    assert "FAIRYPOST_ALLOW_ENGINE_IN_CASUAL" in text


def test_every_row_is_walked():
    walked = set(DISCORD) | set(MAIL) | set(WEB) | set(CLI) | set(DISCORD_AND_MAIL)
    assert {(r.what, r.front, r.who) for r in ROWS} == walked


# --- Discord ----------------------------------------------------------------------------

def other_server(w):
    return w.text_channel("elsewhere", guild=make_guild())


async def status_of_challenge(w, cid: int = 1) -> str:
    return (await w.fairy.service.get_challenge(cid)).status


async def alice_challenges_bob(w):
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob, days=3, colour="white")
    return i


async def d_make(w, row):
    i = w.interaction(w.carol, dm=True)
    await run(commands.challenge, i, game="chess", opponent=w.alice, days=3)
    return await status_of_challenge(w) == "open"


async def d_accept(w, who):
    await alice_challenges_bob(w)
    user = w.bob if who == "bob" else w.carol
    where = w.dm_channel(user)   # the DM notice carries the buttons too
    j = w.interaction(user, channel=where, message=w.message(where, view=challenge_view(1)))
    await press(AcceptChallenge, "fp:accept:1", j)
    return await status_of_challenge(w) == "accepted"


async def d_accept_open(w, here: bool):
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess")
    if here:
        j = w.interaction(w.carol, message=i.original_response.return_value)
    else:
        where = other_server(w)
        j = w.interaction(w.carol, channel=where, message=w.message(where, view=challenge_view(1)))
    await press(AcceptChallenge, "fp:accept:1", j)
    return await status_of_challenge(w) == "accepted"


async def d_decline(w, user_name):
    i = await alice_challenges_bob(w)
    user = {"bob": w.bob, "carol": w.carol, "alice": w.alice}[user_name]
    j = w.interaction(user, message=i.original_response.return_value)
    await press(DeclineChallenge, "fp:decline:1", j)
    return await status_of_challenge(w) in ("declined", "cancelled")


async def game(w):
    gv, thread = await start_game(w)
    return gv, thread


async def ply_of(w, gid=1) -> int:
    return (await w.fairy.service.game(gid)).ply


async def d_move(w, player: bool):
    await game(w)
    i = w.interaction(w.alice, dm=True) if player else w.interaction(w.carol)
    await run(commands.move, i, move="e4", game=1)
    return await ply_of(w) == 1


async def d_resign(w, player: bool):
    await game(w)
    i = w.interaction(w.alice if player else w.carol)
    await run(commands.resign, i, game=1)
    view = i.response.send_message.call_args.kwargs.get("view") if i.response.send_message.called else None
    if view is not None:
        (cid,) = custom_ids(view)
        j = w.interaction(w.alice if player else w.carol, message=w.message(w.channel, view=view))
        await press(ConfirmResign, cid, j)
    return (await w.fairy.service.game(1)).status != "active"


async def d_draw(w, player: bool):
    await game(w)
    i = w.interaction(w.alice if player else w.carol)
    await run(commands.draw, i, game=1)
    return (await w.fairy.service.game(1)).draw_offer is not None


async def d_abort(w, player: bool):
    _, thread = await game(w)
    author = w.alice if player else w.carol
    await typed.on_message(w.fairy, w.message(thread, author=author, content="abort"))
    return (await w.fairy.service.game(1)).status != "active"


async def d_premove(w, player: bool):
    await game(w)
    i = w.interaction(w.bob if player else w.carol)
    await run(commands.premove, i, lines="e4 e5", game=1)
    return (await w.fairy.service.premoves(1, w.bob_id)).count > 0   # Bob's lines, whoever typed


async def d_hint(w, row):
    await game(w)
    i = w.interaction(w.alice)
    await run(commands.hint, i, game=1)
    answer = last_answer(i)["content"]
    assert "only for games against the computer" in answer, answer   # refused for that reason
    return False


async def d_settings_self(w, row):
    i = w.interaction(w.carol)
    await run(commands.settings, i, vacation="start", timezone="Europe/Paris")
    carol = await w.fairy.player(w.carol)
    return (await w.fairy.service.vacation(carol.id)).on_vacation and \
        (await w.fairy.service.get_player(carol.id)).settings.timezone == "Europe/Paris"


async def d_notice_channel(w, here: bool):
    target = w.text_channel("mine") if here else other_server(w)
    i = w.interaction(w.carol)
    await run(commands.settings, i, notify="channel", channel=target)
    return "notices go to" in last_answer(i)["content"]


async def d_share(w, player: bool):
    w.fairy.service.settings = w.fairy.service.settings.with_(web_url="https://games.example.org")
    await game(w)
    i = w.interaction(w.alice if player else w.carol)
    await run(commands.share, i, game=1)
    content = last_answer(i)["content"]
    return "/g/1/" in content


DISCORD = {
    ("challenge: make one", "Discord", "any member, in a server or a direct message"): d_make,
    ("challenge: accept", "Discord", "the member challenged, in any server or a direct message"):
        lambda w, r: d_accept(w, "bob"),
    ("challenge: accept", "Discord", "another member, when it was made to someone"):
        lambda w, r: d_accept(w, "carol"),
    ("challenge: accept an open one", "Discord", "any member, in the server it was made in"):
        lambda w, r: d_accept_open(w, True),
    ("challenge: accept an open one", "Discord", "a member in another server or a direct message"):
        lambda w, r: d_accept_open(w, False),
    ("challenge: decline", "Discord", "the member challenged"): lambda w, r: d_decline(w, "bob"),
    ("challenge: decline", "Discord", "another member"): lambda w, r: d_decline(w, "carol"),
    ("challenge: withdraw", "Discord", "the challenger"): lambda w, r: d_decline(w, "alice"),
    ("game: move", "Discord", "the player to move, in any server or a direct message"): lambda w, r: d_move(w, True),
    ("game: move", "Discord", "a member who is not a player"): lambda w, r: d_move(w, False),
    ("game: resign", "Discord", "a player, confirming"): lambda w, r: d_resign(w, True),
    ("game: resign", "Discord", "a member who is not a player"): lambda w, r: d_resign(w, False),
    ("game: offer a draw", "Discord", "a player"): lambda w, r: d_draw(w, True),
    ("game: offer a draw", "Discord", "a member who is not a player"): lambda w, r: d_draw(w, False),
    ("game: abort (before both sides moved)", "Discord", "a player, typing it in the game's thread"):
        lambda w, r: d_abort(w, True),
    ("game: abort (before both sides moved)", "Discord", "a member who is not a player, in the thread"):
        lambda w, r: d_abort(w, False),
    ("game: premoves", "Discord", "the player not to move"): lambda w, r: d_premove(w, True),
    ("game: premoves", "Discord", "a member who is not a player"): lambda w, r: d_premove(w, False),
    ("game: a hint", "Discord", "a player, in a game between people"): d_hint,
    ("settings: vacation, time zone, quiet hours, digest, confirmations", "Discord",
     "the member, for themself only (no option names another player)"): d_settings_self,
    ("settings: notices to a channel", "Discord", "the member: a channel here they and the bot may post in"):
        lambda w, r: d_notice_channel(w, True),
    ("settings: notices to a channel", "Discord", "the member, a channel of another server"):
        lambda w, r: d_notice_channel(w, False),
    ("link: a game's page (/share)", "Discord", "a player of the game"): lambda w, r: d_share(w, True),
    ("link: a game's page (/share)", "Discord", "a member who is not a player"): lambda w, r: d_share(w, False),
}


@pytest.fixture
async def world(tmp_path, discord_clock):  # noqa: F811
    from bot.config import Settings
    w = await open_world(Settings(db_path=str(tmp_path / "games.db"), vacation_days_per_year=14), discord_clock)
    w.alice, w.bob, w.carol = w.member("Alice"), w.member("Bob"), w.member("Carol")
    w.bob_id = (await w.fairy.player(w.bob)).id
    yield w
    await w.fairy.service.close()


DISCORD_ROWS = [r for r in rows_of("Discord") if (r.what, r.front, r.who) in DISCORD]


@pytest.mark.parametrize("row", DISCORD_ROWS, ids=ids(DISCORD_ROWS))
async def test_discord(world, row):
    done = await DISCORD[(row.what, row.front, row.who)](world, row)
    assert bool(done) is row.allowed


# --- Discord with mail: the account links ------------------------------------------------

STOPPED = "stopped@s.test"


async def dm_link(w, servers, row):  # noqa: F811
    w.carol = w.member("Carol")
    if "stopped" in row.who:  # (it bounced)
        await w.adapter.accounts.player_for(STOPPED)
        async with w.fairy.service.store.write() as tx:
            from bot.email.tables import EmailTables
            for _ in range(STOP_AFTER_BOUNCES):
                await EmailTables(tx).hard_bounce(STOPPED, STOP_AFTER_BOUNCES, 0, 0)
        answer = await ask_code(w, w.mallory, STOPPED)
        await w.adapter.step()
        return "a code was mailed" in answer and bool(servers.sent_to(STOPPED))
    answer = await ask_code(w, w.bob, "bob@b.test")
    await w.adapter.step()
    return "a code was mailed" in answer and bool(servers.sent_to("bob@b.test"))


async def dm_confirm(w, servers, row):  # noqa: F811
    await ask_code(w, w.bob, "bob@b.test")
    await w.adapter.step()
    code = re.search(r"Your code is (\d{6})", text_of(servers.last_to("bob@b.test")))[1]
    who = w.bob if row.who.startswith("the member") else w.mallory
    i = w.interaction(who)
    await run(commands.settings, i, email_code=code)
    linked = await w.adapter.accounts.player_of("bob@b.test")
    return linked is not None and linked.id == (await w.fairy.player(who)).id


DISCORD_AND_MAIL = {
    ("link: a mail address (/settings email)", "Discord",
     "any member (one code an hour per address, 20 addresses an hour each)"): dm_link,
    ("link: a mail address (/settings email)", "Discord", "any member, for an address whose mail stopped"): dm_link,
    ("link: confirm it (/settings email_code)", "Discord", "the member the code was mailed for"): dm_confirm,
    ("link: confirm it (/settings email_code)", "Discord", "another member, with that code"): dm_confirm,
}
LINK_ROWS = [r for r in rows_of("Discord") if (r.what, r.front, r.who) in DISCORD_AND_MAIL]


@pytest.mark.parametrize("row", LINK_ROWS, ids=ids(LINK_ROWS))
async def test_discord_account_links(settings, clock, servers, row):  # noqa: F811
    w = await open_mail_world(settings, clock)
    try:
        done = await DISCORD_AND_MAIL[(row.what, row.front, row.who)](w, servers, row)
    finally:
        await w.adapter.close()
        await w.fairy.service.close()
    assert bool(done) is row.allowed


# --- mail -------------------------------------------------------------------------------

ALICE, BOB, EVE = "alice@a.test", "bob@b.test", "eve@e.test"


async def challenges(bot) -> list:  # noqa: F811
    async with bot.service.store.read() as tx:
        return await tx.fetch_all("SELECT status FROM challenges")


async def m_make(bot, servers, row):  # noqa: F811
    if row.allowed:
        await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "c", f"challenge chess {BOB}"))
    await bot.step()
    return len(await challenges(bot)) == 1 and bool(servers.sent_to(BOB))


async def m_challenged(bot, servers):  # noqa: F811
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "c", f"challenge chess {BOB} days 3"))
    await bot.step()
    return servers.last_to(BOB)


async def m_accept(bot, servers, row):  # noqa: F811
    invitation = await m_challenged(bot, servers)
    if "bot's own address" in row.who:
        await servers.deliver(write_mail(BOB, BOT, "x", "accept 1"))
    else:
        await servers.deliver(reply_to_mail(BOB if row.allowed else EVE, invitation, "accept"))
    await bot.step()
    return [r[0] for r in await challenges(bot)] == ["accepted"]


async def m_game(bot, servers):  # noqa: F811
    invitation = await m_challenged(bot, servers)
    await servers.deliver(reply_to_mail(BOB, invitation, "accept"))
    await bot.step()
    view = await bot.service.game(1)
    white = view.white.user_id
    return view, white, servers.last_to(white)


async def m_move(bot, servers, row):  # noqa: F811
    view, white, board_mail = await m_game(bot, servers)
    if "bot's own address" in row.who:
        await servers.deliver(write_mail(white, BOT, "x", "e4"))
    else:
        await servers.deliver(reply_to_mail(white if row.allowed else EVE, board_mail, "e4"))
    await bot.step()
    return (await bot.service.game(1)).ply == 1


async def m_vacation(bot, servers, row):  # noqa: F811
    view, white, board_mail = await m_game(bot, servers)
    if row.allowed:
        await servers.deliver(reply_to_mail(white, board_mail, "vacation 3"))
    else:
        await servers.deliver(write_mail(white, BOT, "x", "vacation 3"))
    await bot.step()
    player = await bot.adapter.accounts.player_of(white)
    return (await bot.service.vacation(player.id)).on_vacation


MAIL = {
    ("challenge: make one", "mail", "a proven address (a signed reply came from it), at the bot's address"): m_make,
    ("challenge: make one", "mail", "an address only named in a From header"): m_make,
    ("challenge: accept", "mail", "the address challenged, replying to the challenge's signed mail"): m_accept,
    ("challenge: accept", "mail", "another From on a reply to that mail"): m_accept,
    ("challenge: accept", "mail", "anyone, at the bot's own address"): m_accept,
    ("game: move", "mail", "the player's address, replying to the game's signed mail"): m_move,
    ("game: move", "mail", "another From on a reply to the game's mail"): m_move,
    ("game: move", "mail", "anyone, at the bot's own address"): m_move,
    ("settings: vacation", "mail", "the player's address, replying to a game's signed mail"): m_vacation,
    ("settings: vacation", "mail", "anyone, at the bot's own address"): m_vacation,
}


@pytest.mark.parametrize("row", rows_of("mail"), ids=ids(rows_of("mail")))
async def test_mail(bot, servers, row):  # noqa: F811
    assert bool(await MAIL[(row.what, row.front, row.who)](bot, servers, row)) is row.allowed


# --- the web ----------------------------------------------------------------------------

async def web_game(svc):  # noqa: F811
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    ch = await svc.challenge(alice.id, "chess", opponent_id=bob.id, days=3, colour="white")
    return await svc.accept_challenge(ch.id, bob.id), alice, bob


def link(game_id: int, who: str) -> str:
    token = {"own": tokens.sign_side(SECRET, game_id, "w"), "other": tokens.sign_side(SECRET, game_id, "b"),
             "watch": tokens.sign(SECRET, game_id), "forged": tokens.sign(b"another key", game_id)}[who]
    return f"/g/{game_id}/{token}"


def holder(row: Row) -> str:
    return ("own" if "side's own" in row.who else "other" if "other side" in row.who
            else "forged" if "altered" in row.who else "watch")


async def w_move(client, svc, row):  # noqa: F811
    view, _, _ = await web_game(svc)
    r = await client.post(link(view.id, holder(row)) + "/move", json={"text": "e4", "ply": 0})
    return r.status == 200 and (await svc.game(view.id)).ply == 1


async def w_resign_draw(client, svc, row):  # noqa: F811
    view, _, _ = await web_game(svc)
    r = await client.post(link(view.id, holder(row)) + "/action", json={"action": "offer_draw", "ply": 0})
    offered = r.status == 200 and (await svc.game(view.id)).draw_offer is not None
    r = await client.post(link(view.id, holder(row)) + "/action", json={"action": "resign", "ply": 0})
    return offered and r.status == 200 and (await svc.game(view.id)).status != "active"


async def w_page(client, svc, row):  # noqa: F811
    view, _, _ = await web_game(svc)
    r = await client.get(link(view.id, holder(row)) + "/state.json")
    return r.status == 200 and (await r.json())["ply"] == 0


async def w_eval(client, svc, row):  # noqa: F811
    from bot.web.server import EVALUATOR
    client.server.app[EVALUATOR].seconds = 0.1
    view, alice, bob = await web_game(svc)
    if row.allowed:
        await svc.resign(view.id, bob.id)
    oks = [(await client.get(link(view.id, who) + "/eval.json")).status == 200 for who in ("own", "other", "watch")]
    return all(oks) if row.allowed else any(oks)


WEB = {
    ("game: move", "web", "the holder of the side's own link"): w_move,
    ("game: move", "web", "the holder of the watch link"): w_move,
    ("game: move", "web", "the holder of the other side's link"): w_move,
    ("game: resign, offer a draw", "web", "the holder of the side's own link"): w_resign_draw,
    ("game: resign, offer a draw", "web", "the holder of the watch link"): w_resign_draw,
    ("game: the computer's evaluation", "web", "any link, while a game between people is on"): w_eval,
    ("game: the computer's evaluation", "web", "any link, once the game is over"): w_eval,
    ("link: a game's page", "web", "the holder of a link signed by the bot (or anyone, for a public game)"): w_page,
    ("link: a game's page", "web", "a link altered or signed with another key"): w_page,
}


@pytest.fixture
async def client(svc):  # noqa: F811
    c = await web_client(svc)
    yield c
    await c.close()


@pytest.mark.parametrize("row", rows_of("web"), ids=ids(rows_of("web")))
async def test_web(client, svc, row):  # noqa: F811
    assert bool(await WEB[(row.what, row.front, row.who)](client, svc, row)) is row.allowed


# --- the CLI: the owner -------------------------------------------------------------------

def fairypost(tmp_path: Path, *args: str, lines: list[str]) -> subprocess.CompletedProcess:
    import os
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAIRYPOST_") and k != "DISCORD_TOKEN"}
    env.update({"FAIRYPOST_DB": str(tmp_path / "games.sqlite3"), "XDG_DATA_HOME": str(tmp_path / "xdg"),
                "COLUMNS": "200", "PYTHONIOENCODING": "utf-8"})
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], input="".join(f"{x}\n" for x in lines),
                          capture_output=True, text=True, env=env, timeout=120, check=False,
                          cwd=Path(__file__).resolve().parents[2])


def c_play(tmp_path, row):
    done = fairypost(tmp_path, "play", "chess", "--no-images", lines=["e4", "e5", "resign", "y"])
    import sqlite3
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        made = db.execute("SELECT count(*) FROM challenges").fetchone()[0]
        moves = db.execute("SELECT count(*) FROM moves").fetchone()[0]
        status = db.execute("SELECT status FROM games").fetchone()[0]
    if "challenge" in row.what:
        return made == 1
    return done.returncode == 0 and moves == 2 and status != "active"


CLI = {
    ("challenge: make one", "CLI", "the owner, at the terminal (fairypost play)"): c_play,
    ("game: move, resign", "CLI", "the owner, at the terminal (fairypost play)"): c_play,
}


@pytest.mark.parametrize("row", rows_of("CLI"), ids=ids(rows_of("CLI")))
def test_cli(tmp_path, row):
    assert bool(CLI[(row.what, row.front, row.who)](tmp_path, row)) is row.allowed

