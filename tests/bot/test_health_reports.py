"""``fairypost health`` tells the truth (issue #45, item 2): each running process reports its
listener, life lock and adapters in the database (bot/store/reports.py), and ``fairypost
health`` (run as the command it is) lists them per process and exits non-zero when a part is
down or a report is stale. The listener is taken down for real: its backend ended with
``pg_terminate_backend`` while the process's role may not log in again, so it cannot come back
until it may."""

from __future__ import annotations

import time
import uuid
from contextlib import AsyncExitStack
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.schemas import open_store
from bot.store.reports import STALE_SECONDS, Heartbeat

from .backends import POSTGRES_URL, fresh_postgres
from .test_run_processes import ROOT, command, until

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="FAIRYPOST_TEST_POSTGRES is not set")


def env_for(url: str) -> dict[str, str]:
    import os
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAIRYPOST_", "DISCORD_"))}
    return env | {"FAIRYPOST_DB": url, "PYTHONPATH": str(ROOT)}


def as_role(url: str, role: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{role}@{parts.netloc.rsplit('@', 1)[1]}"))


async def process(stack: AsyncExitStack, url: str, *, now=time.time, web: bool = True):
    """A store as a ``fairypost run`` process holds it (its life, its LISTEN), reporting."""
    store = await open_store(url)
    stack.push_async_callback(store.close)
    await store.watch(lambda: None)
    beat = Heartbeat(store, lambda: store.health() | {"web": web}, now=now)
    await beat.start()
    stack.push_async_callback(beat.stop)
    return store, beat


async def health(url: str, *args: str) -> tuple[int, str]:
    code, out, err = await command("health", *args, env=env_for(url))
    return code, out + err


async def test_healthy_processes_are_listed_with_their_parts_up():
    async with fresh_postgres() as url, AsyncExitStack() as stack:
        code, said = await health(url)
        assert code == 0 and "no running processes reporting" in said, said
        code, said = await health(url, "--here")  # a container's check: its own process must report
        assert code == 1 and "no fairypost run process on this host" in said, said
        first, _ = await process(stack, url)
        second, _ = await process(stack, url)
        code, said = await health(url)
        assert code == 0, said
        assert "2 running processes reporting" in said
        for store in (first, second):
            line, = [line for line in said.splitlines() if store.life[:8] in line]
            assert line.startswith("ok: ") and "life lock up" in line and "listener up" in line \
                and "web up" in line, line
        assert (await health(url, "--here"))[0] == 0
        await stack.aclose()  # stopped: their reports go with them
        code, said = await health(url)
        assert code == 0 and "no running processes reporting" in said, said


async def test_a_listener_down_is_unhealthy_until_it_comes_back():
    import asyncpg

    async with fresh_postgres() as url, AsyncExitStack() as stack:
        admin = await asyncpg.connect(url)
        stack.push_async_callback(admin.close)
        role = f"bot_{uuid.uuid4().hex[:8]}"
        await admin.execute(f"CREATE ROLE {role} LOGIN")
        await admin.execute(f"GRANT ALL ON SCHEMA public TO {role}")
        await admin.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        stack.push_async_callback(admin.execute, f"DROP OWNED BY {role}; DROP ROLE {role}")
        await (await open_store(url)).close()  # the tables made, as the owner
        await admin.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        await admin.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
        process_stack = AsyncExitStack()
        stack.push_async_callback(process_stack.aclose)
        store, beat = await process(process_stack, as_role(url, role))
        assert (await health(url))[0] == 0

        # the process may not make a connection now; its LISTEN's backend is ended
        await admin.execute(f"ALTER ROLE {role} NOLOGIN")
        stack.push_async_callback(admin.execute, f"ALTER ROLE {role} LOGIN")
        session = await admin.fetch(  # the backend holding its life lock, and LISTENing
            "SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND a.usename = $1", role)
        assert len(session) == 1, session
        await admin.execute("SELECT pg_terminate_backend($1)", session[0]["pid"])
        await until(lambda: beat.written == {"life lock": False, "listener": False, "web": True},
                    "the report of the listener down", timeout=10)
        code, said = await health(url)
        assert code == 1, said
        line, = [line for line in said.splitlines() if store.life[:8] in line]
        assert line.startswith("unhealthy: ") and "listener DOWN" in line and "life lock DOWN" in line, line

        await admin.execute(f"ALTER ROLE {role} LOGIN")  # it may again: it comes back by itself
        await until(lambda: beat.written == {"life lock": True, "listener": True, "web": True},
                    "the report of the listener back", timeout=10)
        code, said = await health(url)
        assert code == 0, said


async def test_a_stale_report_is_unhealthy():
    async with fresh_postgres() as url, AsyncExitStack() as stack:
        await process(stack, url)
        hanging, _ = await process(stack, url, now=lambda: time.time() - STALE_SECONDS - 5)
        code, said = await health(url)
        assert code == 1, said
        line, = [line for line in said.splitlines() if hanging.life[:8] in line]
        assert line.startswith("unhealthy: ") and "stale" in line, line
        assert len([line for line in said.splitlines() if line.startswith("ok: process")]) == 1, said


async def test_an_adapter_down_is_unhealthy():
    async with fresh_postgres() as url, AsyncExitStack() as stack:
        await process(stack, url, web=False)
        code, said = await health(url)
        assert code == 1 and "web DOWN" in said and "web down" in said, said
