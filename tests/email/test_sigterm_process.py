"""Once and for good, in a real process: ``fairypost run`` with play by email alone, against
the tests' IMAP and SMTP servers, is sent SIGTERM at several moments of a move mailed to it
(before it fetched the mail; once the move is played and its answer waits for the SMTP
server; while the SMTP server takes the answer), then started again. The move is played
once, each mail is sent once (counted by Message-ID at the SMTP server), and nothing is
left behind to be sent later (every kept mail handled, every queued mail sent)."""

from __future__ import annotations

import asyncio
import collections
import os
import signal
import sqlite3
import sys

import pytest

from bot.timekeeping.clock import SystemClock

from .conftest import BOT, Bot
from .servers import reply_to_mail, text_of
from .test_game_by_mail import start_game

RUN = "import sys; from bot.cli import main; sys.exit(main(['run']))"
MOMENTS = ["before the fetch", "move played, answer not yet taken by the server",
           "while the server takes the answer"]


class Process:
    """``fairypost run`` as a child process; its log lines read as they come."""

    def __init__(self, settings):
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("FAIRYPOST_") and k != "DISCORD_TOKEN"}
        self.env.update({"FAIRYPOST_DB": settings.db_path, "FAIRYPOST_EMAIL_ADDRESS": BOT,
                         "FAIRYPOST_IMAP_URL": settings.imap_url,
                         "FAIRYPOST_SMTP_URL": settings.smtp_url,
                         "FAIRYPOST_EMAIL_SECRET": settings.email_secret,
                         "FAIRYPOST_NOTIFY_RETRY_SECONDS": "1", "FAIRYPOST_COMMAND_RATE": "0"})
        self.lines: list[str] = []
        self.said = asyncio.Event()
        self.proc = None

    async def start(self) -> Process:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", RUN, env=self.env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        self._reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        while line := await self.proc.stdout.readline():
            self.lines.append(line.decode(errors="replace").rstrip())
            self.said.set()

    async def until_said(self, text: str, timeout: float = 60) -> None:
        async def wait():
            while not any(text in line for line in self.lines):
                self.said.clear()
                await self.said.wait()
        await asyncio.wait_for(wait(), timeout)

    async def stop(self) -> None:
        """SIGTERM, and its end: a clean exit (0), no error logged."""
        self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), 90)
        await self._reader
        log = "\n".join(self.lines)
        assert code == 0, log
        assert " ERROR " not in log and "Traceback" not in log, log


async def until(check, timeout: float = 60) -> None:
    async def wait():
        while not check():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(wait(), timeout)


def left_behind(db: str) -> tuple[int, int]:
    """(kept mails not handled, queued mails not sent)."""
    con = sqlite3.connect(db)
    try:
        inbox = con.execute("SELECT COUNT(*) FROM email_inbox WHERE handled_at IS NULL").fetchone()[0]
        outbox = con.execute("SELECT COUNT(*) FROM email_outbox WHERE sent_at IS NULL").fetchone()[0]
    finally:
        con.close()
    return inbox, outbox


def outbox(db: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, dedupe_key, recipient, attempts, next_at, sent_at, dropped "
                           "FROM email_outbox ORDER BY id").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("moment", MOMENTS)
async def test_sigterm_at_any_moment_plays_once_and_sends_once(settings, servers, moment):
    bot = await Bot(settings, SystemClock()).open()  # the process runs on the real clock
    try:
        game_id, side = await start_game(bot, servers)
    finally:
        await bot.close()
    white, black = side["w"], side["b"]
    move = reply_to_mail(white, servers.last_to(white), "e4")
    before = len(servers.recorder.mails)
    recorder = servers.recorder
    gate = asyncio.Event()  # closed: the server keeps the sender waiting (see below)
    tries = []
    real_data = recorder.handle_DATA  # (the hooks are the recorder's, read per connection)

    async def handle_MAIL(server, session, envelope, address, mail_options):  # noqa: N802
        tries.append(address)
        if not gate.is_set():
            return "451 4.3.0 try again later"  # the answer stays queued: the move is played
        envelope.mail_from, envelope.mail_options = address, list(mail_options)
        return "250 OK"

    async def handle_DATA(server, session, envelope):  # noqa: N802
        taken = await real_data(server, session, envelope)  # the server has the mail...
        tries.append("DATA")
        await gate.wait()  # ...and says so only once the stop came
        return taken

    first = Process(settings)
    if moment == "before the fetch":
        await servers.deliver(move)
        await first.start()
        await first.until_said("play by email:")  # its tasks made, not yet run
        await first.stop()
    else:
        if moment == "move played, answer not yet taken by the server":
            recorder.handle_MAIL = handle_MAIL
        else:
            gate.set()
            recorder.handle_DATA = handle_DATA
        await first.start()
        await first.until_said("running: email")
        await servers.deliver(move)
        await until(lambda: tries)
        gate.clear()
        stopping = asyncio.ensure_future(first.stop())
        await asyncio.sleep(0.3)  # the stop is under way while the server holds the mail
        gate.set()
        await stopping
    recorder.__dict__.pop("handle_DATA", None)
    recorder.__dict__.pop("handle_MAIL", None)
    second = await Process(settings).start()
    await second.until_said("running: email")

    def answered() -> bool:
        mails = [m for _, m in recorder.mails[before:]]
        return any("You played e4" in text_of(m) for m in mails) and \
            any("played e4" in text_of(m) for rcpt, m in recorder.mails[before:] if rcpt == black)
    try:
        await until(answered)
        await until(lambda: left_behind(settings.db_path) == (0, 0), 30)
    except TimeoutError:
        pytest.fail(f"not answered, or left behind: {left_behind(settings.db_path)}; "
                    f"{outbox(settings.db_path)}\nfirst run:\n" + "\n".join(first.lines)
                    + "\nsecond run:\n" + "\n".join(second.lines))
    finally:
        await second.stop()
    new = recorder.mails[before:]
    ids = collections.Counter(str(m["Message-ID"]) for _, m in new)
    assert [i for i, n in ids.items() if n > 1] == []  # no mail sent twice
    assert len([m for rcpt, m in new if rcpt == white and "You played e4" in text_of(m)]) == 1
    assert len([m for rcpt, m in new if rcpt == black and "played e4" in text_of(m)]) == 1
    con = sqlite3.connect(settings.db_path)
    try:
        plies = con.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0]
    finally:
        con.close()
    assert plies == 1
