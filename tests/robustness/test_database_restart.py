"""Connections come back by themselves (issue #45, item 1): two ``fairypost run`` processes on
one PostgreSQL cluster of this test's own (tools/pg_throwaway.sh: never the shared one, which
other tests use), A with mail and the pages, B with the pages only. The cluster is restarted
(``pg_ctl restart``) between moves made through the two processes' pages; after each restart
the move is seen on the other process's page stream and its notice mail reaches the opponent
within 2 s, and both processes hold their life locks again (pg_locks). On a busy machine, where
the same path without a restart is slower than on a quiet one, the bound is 2 s plus twice the
difference, measured in the same run before the restarts. While the cluster is stopped a move
POSTed gets 503 with Retry-After, and a move mailed meanwhile is played once it is back. Each
process logs one line per outage and no traceback, and ``fairypost health`` lists both with
every part up (item 2)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
from contextlib import AsyncExitStack
from pathlib import Path

import aiohttp
import pytest

from tests.bot.test_run_processes import BOT, WEB_SECRET, Database, RunProcess, command, environment, until
from tests.email.servers import MailServers, free_port, reply_to_mail, text_of, write_mail

ROOT = Path(__file__).resolve().parents[2]
THROWAWAY = ROOT / "tools" / "pg_throwaway.sh"
WITHIN = 2.0  # seconds after the restart: the page's stream and the notice mail (the issue's)
QUIET = 0.5  # seconds the same path takes on a quiet machine without a restart (issue #45: 0.47 s)
LOST = "lost the connection to the database"

HAS_POSTGRES = bool(shutil.which("initdb")) or bool(list(Path("/usr/lib/postgresql").glob("*/bin/initdb")))
pytestmark = pytest.mark.skipif(not HAS_POSTGRES, reason="no PostgreSQL binaries to make a cluster of the test's own")


class Cluster:
    """A PostgreSQL cluster of this test's own (tools/pg_throwaway.sh), to restart at will."""

    def __init__(self):
        out = subprocess.run([str(THROWAWAY), "start"], check=True, capture_output=True, text=True).stdout
        env = dict(line.removeprefix("export ").split("=", 1) for line in out.splitlines())
        self.url, self.dir = env["FAIRYPOST_TEST_POSTGRES"], env["PG_THROWAWAY_DIR"]
        self.bin = next(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), None) or Path(shutil.which("pg_ctl"))
        owner = Path(self.dir).owner()
        self.as_owner = ["runuser", "-u", owner, "--"] if os.getuid() == 0 else []

    def pg_ctl(self, *args: str) -> None:
        subprocess.run([*self.as_owner, str(self.bin), "-D", f"{self.dir}/data", "-l", f"{self.dir}/server.log",
                        "-w", "-t", "30", *args], check=True, capture_output=True)

    def restart(self) -> None:
        self.pg_ctl("-m", "fast", "restart")

    def stop(self) -> None:
        self.pg_ctl("-m", "fast", "stop")

    def start(self) -> None:  # with the options it was started with (a restart keeps them itself)
        port = self.url.rsplit(":", 1)[1].split("/")[0]
        self.pg_ctl("-o", f"-c listen_addresses=127.0.0.1 -p {port} -k {self.dir} -c fsync=off "
                          "-c max_connections=200", "start")

    def remove(self) -> None:
        subprocess.run([str(THROWAWAY), "stop", self.dir], capture_output=True)


class Stream:
    """A game page's event stream, each state it is sent kept with the time it came."""

    def __init__(self, http: aiohttp.ClientSession, url: str):
        self.states: list[tuple[float, dict]] = []
        self.open = False  # its first line (a comment) came
        self._task = asyncio.ensure_future(self._read(http, url))

    async def _read(self, http, url) -> None:
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=None)) as r:
            assert r.status == 200
            async for line in r.content:
                self.open = True
                if line.startswith(b"data: "):
                    self.states.append((time.monotonic(), json.loads(line[6:])))

    def ply_seen(self, ply: int) -> float | None:
        return next((when for when, state in self.states if state["ply"] >= ply), None)

    def close(self) -> None:
        self._task.cancel()


async def test_after_a_restart_pages_notices_and_life_locks_come_back_at_once(tmp_path):
    import asyncpg

    from bot.config import Settings
    from bot.identity.links import game_link, player_link
    from bot.store import lives
    from bot.store.postgres import LIFE_LOCKS

    async with AsyncExitStack() as stack:
        cluster = await asyncio.to_thread(Cluster)
        stack.callback(cluster.remove)
        servers = await MailServers().start()
        stack.push_async_callback(servers.close)
        url = cluster.url
        a_port, b_port = free_port(), free_port()
        a = RunProcess("A", environment(url, servers, a_port, str(tmp_path)), a_port)
        b_env = {k: v for k, v in environment(url, servers, b_port, str(tmp_path)).items()
                 if not k.startswith(("FAIRYPOST_EMAIL", "FAIRYPOST_IMAP", "FAIRYPOST_SMTP"))}
        b = RunProcess("B", b_env, b_port)
        for run in (a, b):
            stack.push_async_callback(run.kill)
            stack.callback(lambda run=run: print(run.logged()))
            await run.start()
            await run.ready()
        http = await stack.enter_async_context(aiohttp.ClientSession())

        async def db() -> Database:
            return Database(await asyncpg.connect(url))

        # a game by mail: alice challenges bob, bob accepts
        look = await db()
        # (a From alone never starts a challenge: the bot's signed answer is replied to)
        line = "challenge chess bob@b.test days 3"
        await servers.deliver(write_mail("alice@a.test", BOT, "c", line))
        way = await until(lambda: servers.sent_to("alice@a.test"), "the way to challenge")
        await servers.deliver(reply_to_mail("alice@a.test", way[-1], line))
        invitation = await until(lambda: servers.sent_to("bob@b.test"), "the challenge")
        await servers.deliver(reply_to_mail("bob@b.test", invitation[-1], "accept"))
        game_id = await until(lambda: look.value("SELECT id FROM games"), "the game")
        await until(look.settled, "the game's first mails")
        white = await look.value("SELECT p.user_id FROM games g JOIN players p ON p.id = g.white_id")
        black = {"alice@a.test": "bob@b.test", "bob@b.test": "alice@a.test"}[white]
        await look.conn.close()

        def link(run: RunProcess, side: str | None = None) -> str:
            settings = Settings(web_url=run.web, web_secret=WEB_SECRET)
            return player_link(settings, game_id, side) if side else game_link(settings, game_id)

        async def post_move(run: RunProcess, side: str, text: str, ply: int) -> aiohttp.ClientResponse:
            async with http.post(link(run, side) + "/move", json={"text": text, "ply": ply},
                                 headers={"Origin": run.web}) as r:
                await r.read()
                return r

        def board_mails(to: str) -> int:
            return len([m for m in servers.sent_to(to) if "Reply to this mail with your move" in text_of(m)])

        async def life_locks_held() -> bool:
            conn = await asyncpg.connect(url)
            try:
                held = {row[0] for row in await conn.fetch(
                    "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks "
                    "WHERE locktype = 'advisory' AND granted AND objsubid = 1")}
            finally:
                await conn.close()
            return all(LIFE_LOCKS + lives.lock_key(run.life) in held for run in (a, b))

        assert await life_locks_held()

        async def healthy() -> str:
            """``fairypost health``: both processes report every part up (item 2)."""
            code, out, err = await command("health", env=a.env)
            assert code == 0, out + err
            lines = {run.name: [line for line in out.splitlines() if run.life[:8] in line] for run in (a, b)}
            assert lines["A"][0].endswith(" s ago") and "email up" in lines["A"][0] and "web up" in lines["A"][0]
            assert "listener up" in lines["B"][0] and "life lock up" in lines["B"][0] and "email" not in lines["B"][0]
            return out
        await healthy()
        # two restarts: white's move made through B's page (web only: its notice mail is A's
        # to send, heard through LISTEN), then black's through A's, watched on B's page
        # first a move with no restart: how long the path takes on this machine now (the
        # baseline); then two restarts: black's move made through A's page, watched on B's,
        # and white's through B's (web only: its notice mail is A's to send, heard through LISTEN)
        baseline = None
        rounds = ((b, a, "white", "e4", False), (a, b, "black", "e5", True), (b, a, "white", "Nf3", True))
        for ply, (mover, watcher, side, move, restart) in enumerate(rounds):
            stream = Stream(http, link(watcher) + "/events")
            await until(lambda stream=stream: stream.open, "the stream to open")
            to = black if side == "white" else white
            mails_before = board_mails(to)
            if restart:
                await asyncio.to_thread(cluster.restart)
            began = time.monotonic()
            answer = await post_move(mover, side, move, ply)
            moved = time.monotonic()
            assert answer.status == 200, (answer.status, await answer.text())
            seen = await until(lambda stream=stream, ply=ply: stream.ply_seen(ply + 1), "the move on the other page",
                               timeout=10) - began
            mailed = await until(lambda to=to, n=mails_before: board_mails(to) > n and time.monotonic(),
                                 "the notice mail", timeout=10) - began
            stream.close()
            print(f"ply {ply + 1}, {'after the restart' if restart else 'no restart'}: the move made "
                  f"{moved - began:.2f} s, the page {seen:.2f} s, the notice {mailed:.2f} s")
            if not restart:
                baseline = max(seen, mailed)
                continue
            # 2 s on a quiet machine, where the path takes QUIET; on a busy one the path itself
            # is slower (here, without a restart: baseline): that much more, twice, is allowed
            bound = WITHIN + 2 * max(0.0, baseline - QUIET)
            assert seen <= bound, f"the page saw the move {seen:.2f} s after the restart (bound {bound:.2f} s)"
            assert mailed <= bound, f"the notice came {mailed:.2f} s after the restart (bound {bound:.2f} s)"
            await until(life_locks_held, "the life locks held again", timeout=bound)

        # an outage: a move POSTed meanwhile is 503 + Retry-After (never a 500); one mailed
        # meanwhile is played once the database is back
        await asyncio.to_thread(cluster.stop)
        answer = await post_move(a, "black", "Nc6", 3)
        assert answer.status == 503 and int(answer.headers["Retry-After"]) > 0, answer.status
        body = json.loads(await answer.text())
        assert "busy, try again" in body["error"]
        board = [m for m in servers.sent_to(black) if "Reply to this mail with your move" in text_of(m)][-1]
        await servers.deliver(reply_to_mail(black, board, "Nc6"))
        await asyncio.sleep(1.5)  # the mail is read while the database is away
        await asyncio.to_thread(cluster.start)
        look = await db()
        stack.push_async_callback(look.conn.close)
        await until(lambda: look.ply_is(game_id, 4), "the mailed move, once the database is back", timeout=15)
        assert await look.moves(game_id) == ["e4", "e5", "Nf3", "Nc6"]
        await until(life_locks_held, "the life locks held again", timeout=5)
        await until(look.settled, "every mail handled and answered")
        await healthy()

        for run in (a, b):
            code, _took = await run.stop()
            assert code == 0, run.logged()
            outages = [line for line in run.log if LOST in line]
            assert len(outages) == 3, run.logged()  # one line each: two restarts and the stop
            assert not [line for line in run.log if "Traceback" in line or " ERROR " in line], run.logged()
