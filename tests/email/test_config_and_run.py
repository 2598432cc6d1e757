"""The settings (environment and file), the servers' URLs, and ``fairypost run`` with play
by email alone: the background tasks read new mail as IDLE reports it and answer it."""

from __future__ import annotations

import asyncio
import socket

import pytest

from bot import adapters
from bot.cli import main
from bot.config import ConfigError, Settings
from bot.email.adapter import EmailAdapter
from bot.email.urls import imap_server, smtp_server

from .conftest import BOT
from .servers import text_of, write_mail

ENV = {"FAIRYPOST_EMAIL_ADDRESS": "bot@example.org",
       "FAIRYPOST_IMAP_URL": "imaps://bot%40example.org:app%20pw@imap.example.org/Games",
       "FAIRYPOST_SMTP_URL": "smtp://bot%40example.org:app%20pw@smtp.example.org:587",
       "FAIRYPOST_EMAIL_SECRET": "k"}


def test_the_settings_from_the_environment_and_the_file(tmp_path):
    s = Settings.load(env=ENV)
    assert s.email_enabled and s.email_address == "bot@example.org" and s.email_secret == "k"
    imap, smtp = imap_server(s.imap_url), smtp_server(s.smtp_url)
    assert (imap.host, imap.port, imap.tls, imap.user, imap.password, imap.mailbox) == (
        "imap.example.org", 993, True, "bot@example.org", "app pw", "Games")
    assert (smtp.host, smtp.port, smtp.tls, smtp.user) == ("smtp.example.org", 587, False, "bot@example.org")
    assert "app pw" not in repr(s) and "app%20pw" not in repr(s)  # passwords stay out of logs
    f = tmp_path / "fairypost.toml"
    f.write_text('email_address = "bot@example.org"\nimap_url = "imap://u:p@127.0.0.1:1143"\n'
                 'smtp_url = "smtps://u:p@127.0.0.1"\nemail_secret = "s"\n')
    s = Settings.load(f, env={})
    assert s.email_enabled and imap_server(s.imap_url).mailbox == "INBOX"
    assert smtp_server(s.smtp_url).port == 465 and smtp_server(s.smtp_url).tls


@pytest.mark.parametrize("env, says", [
    ({"FAIRYPOST_EMAIL_ADDRESS": "bot@example.org"}, "FAIRYPOST_IMAP_URL, FAIRYPOST_SMTP_URL are not set"),
    ({**ENV, "FAIRYPOST_IMAP_URL": "pop3://x@y"}, "FAIRYPOST_IMAP_URL must start with imap:// or imaps://"),
    ({**ENV, "FAIRYPOST_SMTP_URL": "smtp://"}, "FAIRYPOST_SMTP_URL names no server"),
    ({**ENV, "FAIRYPOST_SMTP_URL": "smtp://h:port"}, "FAIRYPOST_SMTP_URL"),
    ({**ENV, "FAIRYPOST_EMAIL_ADDRESS": "not an address"}, "must be a mail address"),
    ({**ENV, "FAIRYPOST_EMAIL_ADDRESS": "bot+x@example.org"}, "must have no '+'"),
])
def test_bad_settings_say_what_is_wrong(env, says):
    with pytest.raises(ConfigError, match=None) as e:
        Settings.load(env=env)
    assert says in str(e.value)


def test_fairypost_run_refuses_bad_mail_settings_plainly(capsys, monkeypatch, tmp_path):
    for k, v in {**ENV, "FAIRYPOST_IMAP_URL": "pop3://x@y", "FAIRYPOST_DB": str(tmp_path / "g.db")}.items():
        monkeypatch.setenv(k, v)
    assert main(["run"]) == 2
    assert "FAIRYPOST_IMAP_URL must start with imap://" in capsys.readouterr().err


def test_fairypost_run_starts_the_email_adapter_when_it_is_configured(settings):
    kinds = adapters.configured(settings.with_(discord_token=None, web_port=None))
    assert [k.name for k in kinds] == ["email"]
    assert "FAIRYPOST_IMAP_URL" in adapters.nothing_configured()


async def idling(adapter) -> None:
    """Until the adapter's mailbox connection is in IDLE (short awaits, with a timeout)."""
    async def check():
        while not adapter.mailbox.idling:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(check(), 15)


async def test_run_with_email_alone_answers_mail_as_it_comes(settings, servers):
    """The email adapter hosted as ``fairypost run`` hosts it (bot/adapters.py): its own
    tasks read the mailbox and send, with no step by hand. Each mail comes while the
    adapter idles (IMAP IDLE), whose poll interval (a minute) is far longer than the test
    waits: the server's word that mail came is what wakes it."""
    adapter = EmailAdapter(settings)
    host = await adapters.Host.open(settings, [adapter], computer=None)
    try:
        assert adapter.poll_seconds >= 60
        await idling(adapter)
        await servers.deliver(write_mail("carol@c.test", BOT, "help", ""))
        await asyncio.wait_for(servers.recorder.arrived.wait(), 15)  # read, answered
        assert "challenge GAME OPPONENT [days N]" in text_of(servers.last_to("carol@c.test"))
        servers.recorder.arrived.clear()
        await idling(adapter)
        await servers.deliver(write_mail("carol@c.test", BOT, "x", "games"))
        await asyncio.wait_for(servers.recorder.arrived.wait(), 15)
        assert "No games yet." in text_of(servers.last_to("carol@c.test"))
    finally:
        await host.close()


async def test_without_idle_the_adapter_polls(settings, servers, monkeypatch):
    """A server that does not offer IDLE (the capability hidden from the client): the
    adapter reads the mailbox every poll interval instead."""
    import aioimaplib
    real = aioimaplib.IMAP4.has_capability
    monkeypatch.setattr(aioimaplib.IMAP4, "has_capability",
                        lambda self, cap: cap != "IDLE" and real(self, cap))
    adapter = EmailAdapter(settings, poll_seconds=0.05)
    host = await adapters.Host.open(settings, [adapter], computer=None)
    try:
        await servers.deliver(write_mail("carol@c.test", BOT, "help", ""))
        await asyncio.wait_for(servers.recorder.arrived.wait(), 15)
        assert "challenge GAME OPPONENT [days N]" in text_of(servers.last_to("carol@c.test"))
        assert not adapter.mailbox.idling and not adapter.mailbox.has_idle
    finally:
        await host.close()


async def test_a_refused_login_stops_the_start_with_what_to_check(settings, caplog):
    from bot.email.transport import MailboxRefused
    wrong = settings.with_(imap_url=settings.imap_url.replace("imap-password", "not-it"))
    assert wrong.imap_url != settings.imap_url
    with pytest.raises(MailboxRefused) as refused:
        await adapters.Host.open(wrong, [EmailAdapter(wrong)], computer=None, reminders=False)
    said = adapters.EMAIL.explain(refused.value)
    assert "refused" in said and "FAIRYPOST_IMAP_URL" in said and "app password" in said


async def test_a_mailbox_away_at_the_start_is_tried_again_in_the_background(settings, caplog):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    away = settings.with_(imap_url=f"imap://bot:imap-password@127.0.0.1:{port}/INBOX?tls=off")
    adapter = EmailAdapter(away)
    host = await adapters.Host.open(away, [adapter], computer=None, reminders=False)
    try:
        assert host.adapters == [adapter]
        assert "cannot be reached yet" in caplog.text
    finally:
        await host.close()
