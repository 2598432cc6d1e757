"""#40 item 2 and #43 item 1: who may do what with a tournament, as a table (the data below,
which docs/permissions-tournaments.md must say too), walked cell by cell — allowed and
refused — on every front end: Discord (the adapter's real commands on the test double of
tests/discord_bot), mail (real SMTP and IMAP servers on 127.0.0.1, the bot's real mail
handling), the web (the real aiohttp server) and the owner's command line (real processes).

A cell is checked by its effect: an allowed act changes the event, a refused one leaves it
exactly as it was (its state, players, directors, games, results and clocks). Each act is
tried on a fresh event in the state it needs (open, running or paused)."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.discord_bot import access
from bot.discord_bot import tournament_commands as tc
from bot.identity import page_tokens
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
from bot.web.work import Workers
from tests.bot.conftest import T0
from tests.discord_bot.conftest import run
from tests.discord_bot.conftest import world as world  # noqa: F401 - the fixture, used by name
from tests.discord_bot.helpers import last_answer, make_guild
from tests.email.conftest import BOT, Bot
from tests.email.conftest import servers as servers  # noqa: F401 - the fixture, used by name
from tests.email.servers import reply_to_mail, text_of, write_mail
from tests.tournaments.test_cli import fairypost, with_service

DOC = Path(__file__).resolve().parents[2] / "docs" / "permissions-tournaments.md"

FRONTS = ("discord, server event", "discord, dm or cli event", "mail", "web", "cli")
ANYONE = "anyone"
DIRECTORS = {"maker", "director"}
T = {  # act -> who may, per front end (FRONTS' order); an empty set: no one
    "create": ({ANYONE}, set(), set(), set(), {"owner"}),
    "join": ({"maker", "director", "manager", "stranger"},
             {"maker", "director", "manager", "other manager", "stranger"},
             {"maker", "director", "stranger"}, set(), set()),
    "leave": ({"player"}, {"player"}, {"player"}, set(), set()),
    "withdraw": ({"player"}, {"player"}, {"player"}, set(), set()),
    **{act: (DIRECTORS | {"manager"}, DIRECTORS, DIRECTORS, set(), {"owner"})
       for act in ("start", "pause", "resume", "remove", "result", "replace", "extend", "close")},
    "director": ({"maker"}, {"maker"}, {"maker"}, set(), {"owner"}),
}
PERSONAS = {
    "discord": ("maker", "director", "manager", "other manager", "player", "stranger"),
    "mail": ("maker", "director", "player", "stranger"),
}
STATE = {"create": None, "join": "open", "leave": "open", "start": "open", "close": "open", "director": "open",
         "withdraw": "running", "pause": "running", "remove": "running", "result": "running",
         "replace": "running", "extend": "running", "resume": "paused"}


# what a refusal says: why, in words (never an error of the machinery)
REFUSED = re.compile(r"only the organiser of|only the server owner and the maker|there is no tournament #\d+|"
                     r"is not playing in|you are not in|you are in .* already|tournaments are made on a server|"
                     r"is not something to do in a tournament|reply to this mail with", re.IGNORECASE)


def allowed(act: str, front: str, persona: str) -> bool:
    cell = T[act][FRONTS.index(front)]
    return persona in cell or ANYONE in cell


# --- the page says the same -------------------------------------------------------------------

def test_the_page_has_the_table():
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] in T:
            rows[cells[0]] = tuple(set() if c == "—" else {w.strip() for w in c.split(",")} for c in cells[1:])
    assert rows == T
    header = next(line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| Act"))
    assert [h.strip().lower() for h in header.strip("|").split("|")][1:] == [
        "discord, an event made on a server", "discord, an event made in a dm or at the command line",
        "mail (a signed reply)", "web (the event's link)", "command line"]


# --- an event in the state an act needs, and its fingerprint -------------------------------------

async def prepare(svc: GameService, t_id: int, state: str | None, p1: int, p2: int, director: int) -> None:
    await svc.join_tournament(t_id, p1)
    await svc.join_tournament(t_id, p2)
    await svc.add_tournament_director(t_id, director)  # the owner names them
    if state in ("running", "paused"):
        await svc.start_tournament(t_id)
    if state == "paused":
        await svc.pause_tournament(t_id)


async def fingerprint(svc: GameService, t_id: int | None):
    async with svc.store.read() as tx:
        count = (await tx.fetch_one("SELECT COUNT(*) FROM tournaments"))[0]
    if t_id is None:
        return count
    t = await svc.tournament(t_id)
    games = [p.game_id for p in t.pairings if p.game_id is not None]
    return (count, t.status, t.round, sorted(p.id for p in t.entrants), sorted(d.id for d in t.directors),
            [(p.game_id, p.result, p.white.id, p.black and p.black.id) for p in t.pairings],
            [s.withdrawn for s in t.standings], [(await svc.game(g)).deadline for g in games])


def game_of(view) -> int | None:
    return next((p.game_id for p in view.pairings if p.game_id is not None), None)


# --- Discord ---------------------------------------------------------------------------------

@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def settings(tmp_path) -> Settings:  # the Discord world's: every cell makes an event
    return Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0,
                    tournaments_total_per_hour=100_000)


@pytest.mark.parametrize("front", FRONTS[:2])
async def test_every_cell_on_discord(world, front):  # noqa: F811 - the imported fixture
    w = world
    svc = w.fairy.service
    server_event = front == FRONTS[0]
    elsewhere = w.text_channel("elsewhere", guild=make_guild())
    mia, otto, sam = w.member("Mia"), w.member("Otto"), w.member("Sam")
    checked = 0
    for act in T:
        for persona in PERSONAS["discord"]:
            maker, director, p1, p2, newcomer = (w.member(n) for n in ("Maker", "Dee", "Pia", "Pat", "Nick"))
            ids = {m: (await w.fairy.player(m)).id for m in (maker, director, p1, p2, newcomer)}
            t_id = None
            if STATE[act] is not None:
                t = await svc.create_tournament("chess", name="Cup", format="round-robin", creator_id=ids[maker],
                                                scope=access.scope_of(w.guild.id) if server_event else None)
                t_id = t.id
                await prepare(svc, t_id, STATE[act], ids[p1], ids[p2], ids[director])
            who = {"maker": maker, "director": director, "manager": mia, "other manager": otto, "player": p1,
                   "stranger": sam}[persona]
            channel = elsewhere if persona == "other manager" else None
            i = w.interaction(who, channel=channel, dm=act == "create" and not server_event)
            i.user.guild_permissions.manage_guild = persona in ("manager", "other manager")
            view = None if t_id is None else await svc.tournament(t_id)
            options = {
                "create": (tc.create, {"game": "chess", "name": "New cup", "format": "round-robin"}),
                "remove": (tc.remove, {"player": p2}),
                "result": (tc.result, {"game": view and game_of(view), "result": "1-0", "reason": "adjudicated"}),
                "replace": (tc.replace, {"old": p2, "new": newcomer}),
                "extend": (tc.extend, {"game": view and game_of(view), "days": 2}),
                "director": (tc.director, {"action": "add", "player": newcomer}),
            }
            command, more = options.get(act, (getattr(tc, act), {}))
            if t_id is not None:
                more = {"id": t_id, **more}
            before = await fingerprint(svc, t_id)
            await run(command, i, **more)
            changed = await fingerprint(svc, t_id) != before
            said = last_answer(i).get("content") or ""
            assert changed == allowed(act, front, persona), (act, persona, front, said)
            assert changed or REFUSED.search(said), (act, persona, front, said)
            checked += 1
    assert checked == len(T) * len(PERSONAS["discord"])


# --- mail ------------------------------------------------------------------------------------

ADDRESSES = {"maker": "maker@m.test", "director": "dee@d.test", "player": "pia@p.test", "stranger": "sam@s.test",
             "p2": "pat@p.test", "newcomer": "nick@n.test"}


@pytest.fixture
async def mailbot(tmp_path, servers):  # noqa: F811 - the imported fixture
    settings = Settings(db_path=str(tmp_path / "games.db"), email_address=BOT, imap_url=servers.imap_url,
                        smtp_url=servers.smtp_url, email_secret="test-secret", command_rate_per_minute=0,
                        tournaments_total_per_hour=100_000)
    b = await Bot(settings, ManualClock(T0)).open()
    yield b
    await b.close()


async def test_every_cell_by_mail(mailbot, servers):  # noqa: F811 - the imported fixture
    bot, svc = mailbot, mailbot.service
    ids = {k: (await bot.adapter.accounts.player_for(a)).id for k, a in ADDRESSES.items()}
    signed = {}  # each persona's signed mail (the list of tournaments), to reply to: a proven address
    for persona in PERSONAS["mail"]:
        await servers.deliver(write_mail(ADDRESSES[persona], BOT, "list", "tournaments"))
        await bot.step()
        signed[persona] = servers.last_to(ADDRESSES[persona])
        assert str(signed[persona]["Reply-To"]).startswith("bot+t0-p")

    async def fresh(act):
        if STATE[act] is None:
            return None
        bot.clock.advance(timedelta(hours=1))  # one maker makes them all: a new hour's budget each
        t = await svc.create_tournament("chess", name="Cup", format="round-robin", creator_id=ids["maker"])
        await prepare(svc, t.id, STATE[act], ids["player"], ids["p2"], ids["director"])
        return await svc.tournament(t.id)

    def line(act, t):
        return {"create": "tournament create chess Cup",
                "remove": f"tournament remove {t and t.id} {ADDRESSES['p2']}",
                "result": f"tournament result {t and t.id} {t and game_of(t)} 1-0 adjudicated",
                "replace": f"tournament replace {t and t.id} {ADDRESSES['p2']} {ADDRESSES['newcomer']}",
                "extend": f"tournament extend {t and t.id} {t and game_of(t)} 2",
                "director": f"tournament director {t and t.id} add {ADDRESSES['newcomer']}",
                }.get(act, f"tournament {act} {t and t.id}")

    checked = 0
    for act in T:
        for persona in PERSONAS["mail"]:
            t = await fresh(act)
            before = await fingerprint(svc, t and t.id)
            await servers.deliver(reply_to_mail(ADDRESSES[persona], signed[persona], line(act, t)))
            await bot.step()
            changed = await fingerprint(svc, t and t.id) != before
            said = text_of(servers.last_to(ADDRESSES[persona]))
            assert changed == allowed(act, "mail", persona), (act, persona, said)
            assert changed or REFUSED.search(said), (act, persona, said)
            checked += 1
        # the maker's address at the plain address (any From could say it): never acts
        t = await fresh(act)
        before = await fingerprint(svc, t and t.id)
        await servers.deliver(write_mail(ADDRESSES["maker"], BOT, "act", line(act, t)))
        await bot.step()
        assert await fingerprint(svc, t and t.id) == before, act
        said = text_of(servers.last_to(ADDRESSES["maker"]))
        assert REFUSED.search(said) or "done in a reply" in said, (act, said)
    assert checked == len(T) * len(PERSONAS["mail"])


# --- the web ---------------------------------------------------------------------------------

async def test_the_web_has_no_act_on_a_tournament_and_no_list(tmp_path):
    svc = await GameService.open(Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0),
                                 clock=ManualClock(T0))
    secret = b"tournament permissions"
    app = make_app(svc, secret)
    app[WORKERS] = Workers(processes=1)
    client = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await client.start_server()
    try:
        a, b = [await svc.player("test", n, n) for n in ("a", "b")]
        t = await svc.create_tournament("chess", name="Cup", format="round-robin", creator_id=a.id)
        await prepare(svc, t.id, "running", a.id, b.id, b.id)
        base = f"/t/{t.id}/{page_tokens.sign_tournament(secret, t.id)}"
        assert (await client.get(base)).status == 200  # the link shows it
        before = await fingerprint(svc, t.id)
        for act in T:
            assert not T[act][FRONTS.index("web")]
            for method in ("POST", "PUT", "DELETE", "PATCH"):
                for path in (base, f"{base}/{act}", f"/t/{t.id}/{act}", f"/tournament/{t.id}/{act}"):
                    r = await client.request(method, path, json={"act": act, "player": b.id})
                    assert r.status in (403, 404, 405), (method, path, r.status)
            assert (await client.get(f"{base}/{act}")).status == 404
        assert await fingerprint(svc, t.id) == before
        for path in ("/t", "/t/", "/tournaments", "/t/list"):
            assert (await client.get(path)).status == 404, path
    finally:
        await client.close()
        await svc.close()


# --- the owner's command line ----------------------------------------------------------------

CLI = {"create": ["tournament", "new", "chess", "--name", "Made here", "--format", "swiss", "--rounds", "2"],
       "join": ["tournament", "join", "{t}"], "leave": ["tournament", "leave", "{t}"],
       "withdraw": ["tournament", "withdraw", "{t}"], "remove": ["tournament", "remove", "{t}", "{p2}"],
       "result": ["tournament", "result", "{t}", "{g}", "1-0", "adjudicated"],
       "replace": ["tournament", "replace", "{t}", "{p2}", "{new}"],
       "extend": ["tournament", "extend", "{t}", "{g}", "2"],
       "director": ["tournament", "director", "{t}", "add", "{new}"]}


def test_every_cell_at_the_command_line(tmp_path):
    db = tmp_path / "games.db"

    async def setup(svc):
        made = {}
        names = ("maker", "dee", "pia", "pat", "nick")
        people = {n: (await svc.player("test", n, n)).id for n in names}
        for act in T:
            if STATE[act] is None:
                continue
            t = await svc.create_tournament("chess", name=f"For {act}", format="round-robin",
                                            creator_id=people["maker"])
            await prepare(svc, t.id, STATE[act], people["pia"], people["pat"], people["dee"])
            made[act] = (t.id, game_of(await svc.tournament(t.id)))
        return made, people
    made, people = asyncio.run(with_service(db, setup))
    for act in T:
        t_id, game = made.get(act, (None, None))
        args = [a.format(t=t_id, g=game, p2=people["pat"], new=people["nick"])
                for a in CLI.get(act, ["tournament", act, "{t}"])]
        before = asyncio.run(with_service(db, lambda svc: fingerprint(svc, t_id)))  # noqa: B023
        done = fairypost(db, *args)
        after = asyncio.run(with_service(db, lambda svc: fingerprint(svc, t_id)))  # noqa: B023
        if allowed(act, "cli", "owner"):
            assert done.returncode == 0 and after != before, (act, done.stderr)
        else:
            assert done.returncode == 2 and after == before, (act, done.stdout)
            assert re.search(r"invalid choice: '" + act, done.stderr), done.stderr
