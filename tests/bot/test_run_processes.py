"""``fairypost run`` as real processes on one PostgreSQL database (issue #22): two of them,
each serving the game pages on its own port and both reading ONE mailbox of real mail
servers on 127.0.0.1 (tests/email/servers.py, in this test's event loop). Two players play
a game to mate by mail; every mail is acted on once and answered once, each process's
pages show what the other did, the game-over mail reaches each player once, and SIGTERM
stops both at once, cleanly. Then ``fairypost health``, ``play`` and ``games`` as processes
on the same database.

Which process handles a mail is the mailbox's race; to be sure each one acts while the
other cannot, one is paused (SIGSTOP) for some moves, once the database shows nothing in
flight."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from tests.email.servers import MailServers, free_port, reply_to_mail, text_of, write_mail

from .backends import POSTGRES_URL, fresh_postgres

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="FAIRYPOST_TEST_POSTGRES is not set")

ROOT = Path(__file__).resolve().parents[2]
BOT = "bot@fairy.test"
ALICE, BOB = "alice@a.test", "bob@b.test"
WEB_SECRET = "pages-secret-shared-by-both"
TIMEOUT = 20.0  # the longest any one thing may take before the test fails


async def until(condition, what: str, timeout: float = TIMEOUT):
    """Poll ``condition`` (sync or async) until it returns something true; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


class RunProcess:
    """One ``fairypost run`` process; its log (stderr) kept for the failure messages."""

    def __init__(self, name: str, env: dict[str, str], web_port: int):
        self.name, self.env, self.web_port = name, env, web_port
        self.proc: asyncio.subprocess.Process | None = None
        self.log: list[str] = []
        self._reader: asyncio.Task | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def life(self) -> str:
        """Its process life, as its start-up line says: the id on its claims."""
        line = next(line for line in self.log if "running: " in line)
        return line.rpartition("process life ")[2].rstrip(")")

    @property
    def web(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    async def start(self) -> RunProcess:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", env=self.env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for line in self.proc.stderr:
            self.log.append(line.decode(errors="replace").rstrip())

    def logged(self) -> str:
        return f"--- {self.name} (pid {self.pid}) ---\n" + "\n".join(self.log[-40:])

    async def ready(self) -> None:
        def running():
            assert self.proc.returncode is None, f"{self.name} ended early\n{self.logged()}"
            return any("running: " in line for line in self.log)
        await until(running, f"{self.name} to start")

    async def stop(self) -> tuple[int, float]:
        """SIGTERM; (its exit status, the seconds it took to end)."""
        began = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), TIMEOUT)
        await self._reader
        return code, time.monotonic() - began

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            await self.proc.wait()

    def stopped(self) -> bool:
        with open(f"/proc/{self.pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] == "T"

    @asynccontextmanager
    async def paused(self, db: Database):
        """The process stopped (SIGSTOP) meanwhile: it reads no mail, takes no notice. Stopped
        only where it holds no transaction open: one held would keep the other's writes
        waiting (the database's write lock) until it went on."""
        while True:
            os.kill(self.pid, signal.SIGSTOP)
            await until(self.stopped, f"{self.name} to stop")
            if await db.quiet() and await db.quiet():  # twice: a query on its way is begun by then
                break
            os.kill(self.pid, signal.SIGCONT)
            await until(db.quiet, "the open transactions to end")
        try:
            yield
        finally:
            os.kill(self.pid, signal.SIGCONT)


def environment(db_url: str, servers: MailServers, web_port: int, home: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAIRYPOST_", "DISCORD_"))}
    return env | {
        "FAIRYPOST_DB": db_url, "HOME": home, "XDG_DATA_HOME": home,
        "FAIRYPOST_WEB_HOST": "127.0.0.1", "FAIRYPOST_WEB_PORT": str(web_port),
        "FAIRYPOST_WEB_URL": f"http://127.0.0.1:{web_port}", "FAIRYPOST_WEB_SECRET": WEB_SECRET,
        "FAIRYPOST_EMAIL_ADDRESS": BOT, "FAIRYPOST_IMAP_URL": servers.imap_url,
        "FAIRYPOST_SMTP_URL": servers.smtp_url, "FAIRYPOST_EMAIL_SECRET": "mail-secret",
        "FAIRYPOST_COMMAND_RATE": "0", "PYTHONPATH": str(ROOT),
    }


class Database:
    """The test's own look at the shared database (asyncpg, the schema of the URL)."""

    def __init__(self, conn):
        self.conn = conn

    async def value(self, sql: str, *args):
        return await self.conn.fetchval(sql, *args)

    async def settled(self) -> bool:
        """Nothing in flight: every mail read is handled, every mail queued is sent (or
        given up), no notice is pending or claimed."""
        return not await self.value(
            "SELECT (SELECT count(*) FROM email_inbox WHERE handled_at IS NULL)"
            " + (SELECT count(*) FROM email_outbox WHERE sent_at IS NULL AND dropped IS NULL)"
            " + (SELECT count(*) FROM events WHERE status IN ('pending', 'claimed'))")

    async def quiet(self) -> bool:
        """No transaction open on the server but this connection's."""
        return not await self.value("SELECT count(*) FROM pg_stat_activity WHERE xact_start IS NOT NULL "
                                    "AND pid <> pg_backend_pid()")

    async def ply_is(self, game_id: int, ply: int) -> bool:
        return await self.value("SELECT ply FROM games WHERE id = $1", game_id) == ply

    async def moves(self, game_id: int) -> list[str]:
        rows = await self.conn.fetch("SELECT san FROM moves WHERE game_id = $1 ORDER BY ply", game_id)
        return [r["san"] for r in rows]

    async def handler(self, message_id: str) -> str:
        """The process life that handled the mail (its claim's holder)."""
        return await self.value("SELECT claimed_by FROM email_inbox WHERE message_key LIKE $1",
                                f"%{message_id.strip('<>')}%")


async def page_moves(http: aiohttp.ClientSession, run: RunProcess, link: str) -> list[str]:
    """The moves the game's page shows, served by ``run`` (the link's path on its port)."""
    path = "/" + link.split("/", 3)[3]
    async with http.get(run.web + path + "/state.json") as r:
        assert r.status == 200, await r.text()
        state = await r.json()
    async with http.get(run.web + path) as r:
        html = await r.text()
    sans = [m["san"] for m in state["moves"]]
    assert all(f">{san}</li>" in html for san in sans)  # the page itself lists them too
    return sans


async def command(*args: str, env: dict[str, str], stdin: bytes | None = None) -> tuple[int, str, str]:
    p = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", *args, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(p.communicate(stdin), TIMEOUT)
    return p.returncode, out.decode(), err.decode()


async def test_two_run_processes_on_one_postgres_play_a_game_by_mail_each_mail_once(tmp_path):
    import asyncpg

    from bot.config import Settings
    from bot.identity.links import game_link

    async with AsyncExitStack() as stack:
        servers = await MailServers().start()
        stack.push_async_callback(servers.close)
        url = await stack.enter_async_context(fresh_postgres())
        db = Database(await asyncpg.connect(url))
        stack.push_async_callback(db.conn.close)
        a, b = (RunProcess(name, environment(url, servers, port, str(tmp_path)), port)
                for name, port in (("A", free_port()), ("B", free_port())))
        for run in (a, b):
            stack.push_async_callback(run.kill)  # whatever happens, nothing is left running
            stack.callback(lambda run=run: print(run.logged()))  # (pytest shows it on a failure)
            await run.start()
        await a.ready()
        await b.ready()
        http = await stack.enter_async_context(aiohttp.ClientSession())

        def mails_to(address: str, containing: str):
            return [m for m in servers.sent_to(address) if containing in text_of(m)]

        async def settled_after(condition, what: str) -> None:
            await until(condition, what)
            await until(db.settled, f"nothing in flight after {what}")

        # the challenge, to the bot's plain address, and its acceptance: both processes race
        # (from an address no signed reply has come from yet: the bot's signed answer is
        # replied to, which proves it)
        line = "challenge chess bob@b.test days 3"
        await servers.deliver(write_mail(ALICE, BOT, "challenge", line))
        await settled_after(lambda: mails_to(ALICE, "To send this challenge"), "the way to challenge")
        way, = mails_to(ALICE, "To send this challenge")
        await servers.deliver(reply_to_mail(ALICE, way, line))
        await settled_after(lambda: mails_to(BOB, "challenges you"), "the challenge")
        assert await db.value("SELECT count(*) FROM challenges") == 1
        assert len(mails_to(ALICE, "Challenge #1 sent")) == 1
        invitation, = mails_to(BOB, "challenges you")
        await servers.deliver(reply_to_mail(BOB, invitation, "accept"))
        game_id = await until(lambda: db.value("SELECT id FROM games"), "the game")
        await settled_after(lambda: True, "the acceptance")
        white = await db.value("SELECT p.user_id FROM games g JOIN players p ON p.id = g.white_id")
        black = {ALICE: BOB, BOB: ALICE}[white]
        link = game_link(Settings(web_url=a.web, web_secret=WEB_SECRET), game_id)

        played, handled_by, move_mails = [], {}, {}
        for mover, move, pause in ((white, "f3", None), (black, "e5", None),
                                   (white, "g4", a), (black, "Qh4#", b)):
            board_mail = mails_to(mover, "Reply to this mail with your move")[-1]
            mail = reply_to_mail(mover, board_mail, move)
            message_id = f"<{mail.split(b'Message-ID: <')[1].split(b'>')[0].decode()}>"
            move_mails[move] = message_id
            async with AsyncExitStack() as pausing:
                if pause is not None:
                    await pausing.enter_async_context(pause.paused(db))
                await servers.deliver(mail)
                await settled_after(lambda: db.ply_is(game_id, len(played) + 1), move)
            played.append(move)
            handled_by[move] = await db.handler(message_id)
            assert await db.moves(game_id) == played  # applied once, in its place
            # the process that did not handle it shows it on its pages
            other = b if handled_by[move] == a.life else a
            assert (await page_moves(http, other, link))[-1] == move
        assert handled_by["g4"] == b.life and handled_by["Qh4#"] == a.life  # the other was paused

        assert await db.value("SELECT status || ' ' || result || ' ' || reason FROM games") == \
            "finished 0-1 checkmate"
        for run in (a, b):
            assert await page_moves(http, run, link) == ["f3", "e5", "g4", "Qh4#"]
        # each move mail answered once (the mate's answer is the mover's game-over mail
        # itself, which says what it read), and no mail sent twice
        sent = [m for _, m in servers.recorder.mails]
        for move, message_id in move_mails.items():
            answers = [text_of(m) for m in sent if m["In-Reply-To"] == message_id]
            assert len(answers) == 1, (move, answers)
            says = "is over: 0-1" if move == "Qh4#" else f"You played {move}"
            assert answers[0].startswith(f"I read: `{move}`") and says in answers[0], (move, answers)
        for player in (ALICE, BOB):
            ids = [m["Message-ID"] for m in servers.sent_to(player)]
            assert len(ids) == len(set(ids))
        for player in (ALICE, BOB):  # the game-over notice, once each
            assert len(mails_to(player, "is over: 0-1")) == 1, [text_of(m) for m in servers.sent_to(player)]

        # the one-shot commands, as processes, on the same database while both run
        env = a.env
        code, out, err = await command("health", env=env)
        assert code == 0 and out.startswith("ok: database postgresql://"), out + err
        code, out, err = await command("play", "chess", "--no-images", "--white", "carol",
                                       "--black", "dave", env=env, stdin=b"f3\ne5\ng4\nQh4#\n")
        assert code == 0 and "Game over: 0-1, dave (Black) wins (checkmate)." in out, out + err
        code, out, err = await command("games", env=env)
        assert code == 0 and "carol" in out and "dave" in out and "0-1 (checkmate)" in out, out + err

        # SIGTERM: each ends at once, with status 0, and leaves nothing half done
        for run in (a, b):
            code, took = await run.stop()
            assert code == 0 and took < 10, f"exit {code} after {took:.1f} s\n{run.logged()}"
            assert not [line for line in run.log if "Traceback" in line or " ERROR " in line], \
                run.logged()
        assert await db.settled()
        assert await db.value("SELECT count(*) FROM games WHERE ply <> "
                              "(SELECT count(*) FROM moves WHERE moves.game_id = games.id)") == 0


async def test_a_stop_in_the_middle_of_a_transaction_leaves_no_transaction_open(caplog):
    """A task cancelled (as at a stop) at any point of its transactions, BEGIN and COMMIT
    included: the connection goes back to the pool with no transaction open (else asyncpg
    resets it with an error in the log, as ``fairypost run`` once did at SIGTERM), and the
    store goes on working."""
    from bot.store import Store

    async with fresh_postgres() as url:
        store = await Store.open(url)
        try:
            async def work():
                while True:
                    async with store.write() as tx:
                        await tx.execute("SELECT 1")
                    async with store.read() as tx:
                        await tx.execute("SELECT 1")
            for turns in range(60):  # cancelled after 0, 1, 2, ... turns of the loop: every step
                task = asyncio.create_task(work())
                for _ in range(turns % 23):
                    await asyncio.sleep(0)
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
                async with store.write() as tx:
                    assert tuple(await tx.fetch_one("SELECT 1")) == (1,)
        finally:
            await store.close()
    assert not [r for r in caplog.records if "active transaction" in r.getMessage()]


async def test_only_a_write_that_changes_something_wakes_the_other_processes():
    """Each process's delivery round writes (releasing lapsed claims, claiming the next
    notice) whether or not there is anything to do. Were every write announced, each
    process's idle round would wake the other, whose round would wake it back: two idle
    ``fairypost run`` processes spent most of a core each, thousands of commits a second."""
    import asyncpg

    from bot.store import Store
    from bot.store.postgres import CHANNEL

    async with fresh_postgres() as url:
        idle, busy = await Store.open(url), await Store.open(url)
        listener = await asyncpg.connect(url)
        heard: asyncio.Queue[str] = asyncio.Queue()
        await listener.add_listener(CHANNEL, lambda _c, _pid, _ch, payload: heard.put_nowait(payload))
        try:
            async with idle.write() as tx:  # what an idle delivery round does: nothing found
                await tx.release_claimed_events(None, 0)
                assert await tx.claim_event(0, None, "me", 300) is None
            async with busy.write() as tx:
                await tx.insert_player("test", "a", "Alice", "{}", 0)
            # notices come in the order of the commits: the first heard is the second write's
            first = await asyncio.wait_for(heard.get(), TIMEOUT)
            assert first == busy._token and heard.empty()
        finally:
            await listener.close()
            await idle.close()
            await busy.close()
