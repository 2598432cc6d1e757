"""``fairypost db copy`` takes the secrets kept beside the database along (issue #45, item 4):
after a copy with games in progress (SQLite to SQLite, and to PostgreSQL when
FAIRYPOST_TEST_POSTGRES is set), a game link given out before the copy opens the game on the
copy, and a reply to a board mail sent before the copy moves on the copy. A target that already
keeps another secret is refused before anything is copied, saying how to settle it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.identity import page_tokens, signing
from bot.operations.service import GameService
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
from bot.web.work import Workers
from tests.email.conftest import as_proven
from tests.email.servers import reply_to_mail, text_of, write_mail

from .mail_bot import BOT, MailBot, mail_servers

pytestmark = pytest.mark.contract

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = "alice@a.test", "bob@b.test"


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    """The user's data folder (where a server database's secrets are kept), the test's own."""
    home = tmp_path / "data-home"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    for variable in ("FAIRYPOST_WEB_SECRET", "FAIRYPOST_EMAIL_SECRET", "FAIRYPOST_CONFIG"):
        monkeypatch.delenv(variable, raising=False)
    return home


@pytest.fixture
async def servers():
    async with mail_servers() as s:
        yield s


def db_copy(source: str, target: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-m", "bot.cli", "db", "copy", source, target],
                          capture_output=True, text=True, env=environment, timeout=120, check=False)


async def page_status(db: str, url: str) -> tuple[int, str]:
    """The copy's pages, served as ``fairypost run`` serves them (the secret found as it does)."""
    service = await GameService.open(Settings(db_path=db))
    try:
        app = make_app(service, page_tokens.load_secret(None, db))
        app[WORKERS] = Workers(processes=1)
        client = TestClient(TestServer(app, **RUNNER_OPTIONS))
        await client.start_server()
        try:
            response = await client.get(url)
            return response.status, await response.text()
        finally:
            await client.close()
    finally:
        await service.close()


async def test_old_links_and_replies_work_on_the_copy(db_target, tmp_path, data_home, servers, clock):
    source = str(tmp_path / "source.sqlite3")
    async with MailBot(source, servers, clock) as bot:   # a game by mail, in progress
        await as_proven(bot.adapter, ALICE)
        await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
        await bot.adapter.step()
        await servers.deliver(reply_to_mail(BOB, servers.last_to(BOB), "accept"))
        await bot.adapter.step()
        game = await bot.service.game(1)
        white, black = game.white.user_id, game.black.user_id
        await servers.deliver(reply_to_mail(white, servers.last_to(white), "e4"))
        await bot.adapter.step()
        assert (await bot.service.game(1)).ply == 1
    old_board_mail = servers.last_to(black)   # Black's board, to answer after the copy
    assert "Reply to this mail with your move" in text_of(old_board_mail)
    old_link = f"/g/1/{page_tokens.sign(page_tokens.load_secret(None, source), 1)}"
    assert (await page_status(source, old_link))[0] == 200

    done = db_copy(source, db_target)
    assert done.returncode == 0, done.stderr
    assert "web secret: " in done.stdout and "email secret: " in done.stdout
    if db_target.startswith("postgresql"):   # kept in the data folder: other machines need it set
        assert "FAIRYPOST_WEB_SECRET" in done.stdout and "FAIRYPOST_EMAIL_SECRET" in done.stdout
    copied = signing.secret_file(db_target, "web")
    assert copied.stat().st_mode & 0o777 == 0o600
    os.remove(source)   # the old database is gone: only the copy answers from here on

    status, page = await page_status(db_target, old_link)
    assert status == 200 and "e4" in page
    async with MailBot(db_target, servers, clock) as bot:
        mails_before = len(servers.sent_to(black))
        await servers.deliver(reply_to_mail(black, old_board_mail, "e5"))
        await bot.adapter.step()
        view = await bot.service.game(1)
        assert [m.san for m in view.moves] == ["e4", "e5"]
        assert len(servers.sent_to(black)) > mails_before   # answered, not "forged" and dropped


async def test_a_target_keeping_another_secret_is_refused(tmp_path, data_home, clock):
    source, target = str(tmp_path / "source.sqlite3"), str(tmp_path / "target.sqlite3")
    service = await GameService.open(Settings(db_path=source), clock=clock)
    await service.player("test", "a", "Alice")
    await service.close()
    page_tokens.load_secret(None, source)                  # a link was given out
    other = signing.secret_file(target, "web")
    other.write_text("another secret\n")

    refused = db_copy(source, target)
    assert refused.returncode == 1
    assert f"the target already has a web secret ({other})" in refused.stderr
    assert "FAIRYPOST_WEB_SECRET" in refused.stderr and f"Delete {other}" in refused.stderr
    assert not Path(target).exists()                     # nothing copied
    assert other.read_text() == "another secret\n"       # and the secret left as it was

    other.unlink()                                       # as the message says: then it copies
    done = db_copy(source, target)
    assert done.returncode == 0, done.stderr
    assert signing.secret_file(target, "web").read_text() == signing.secret_file(source, "web").read_text()
    assert not signing.secret_file(target, "email").exists()   # never made, nothing signed


async def test_configured_secrets_are_not_written(tmp_path, data_home, clock):
    source, target = str(tmp_path / "source.sqlite3"), str(tmp_path / "target.sqlite3")
    service = await GameService.open(Settings(db_path=source), clock=clock)
    await service.close()
    page_tokens.load_secret(None, source)
    done = db_copy(source, target, FAIRYPOST_WEB_SECRET="set by the operator")
    assert done.returncode == 0, done.stderr
    assert "FAIRYPOST_WEB_SECRET is set" in done.stdout
    assert not signing.secret_file(target, "web").exists()
