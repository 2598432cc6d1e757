"""A real Dovecot (Debian's ``dovecot-imapd``) on 127.0.0.1 for the email tests: a throwaway
configuration in a temporary folder, a test certificate made with ``openssl`` (its own CA
for the client's certificate check), STARTTLS offered, one user in a passwd-file. Run by
root it runs the mail user as ``nobody``; run by anyone else, every process as that user.

Dovecot counts a client on 127.0.0.1 as secure and would accept a clear LOGIN from it, so
the tests that show the bot never sends its password in clear look at the bytes on the
wire (``WireTap``, a small TCP relay in front of the server) instead of trusting Dovecot to
refuse."""

from __future__ import annotations

import asyncio
import grp
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import aioimaplib
from aiosmtpd.smtp import SMTP, AuthResult

from .servers import Recorder, free_port

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
USER, PASSWORD = "bot", "dovecot-password"
SMTP_PASSWORD = "smtp-secret-pw"


def dovecot_missing_reason() -> str | None:
    """Why the Dovecot tests cannot run here (None: they can). In CI a missing Dovecot is a
    failure, not a skip: .ci/run installs it."""
    if os.path.exists(DOVECOT):
        return None
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        raise RuntimeError(f"{DOVECOT} is missing in CI: .ci/run installs dovecot-imapd")
    return "Dovecot is not installed (apt-get install dovecot-imapd): the real-server tests are skipped"


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost (its own CA): (cert, key)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    return cert, key


class Dovecot:
    def __init__(self):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="fairypost-dovecot-"))
        self.cert = self.key = None
        self.config = self.dir / "dovecot.conf"

    @property
    def client_tls(self) -> ssl.SSLContext:
        """A client context that trusts the test certificate (and checks it)."""
        return ssl.create_default_context(cafile=str(self.cert))

    def url(self, port: int | None = None) -> str:
        return f"imap://{USER}:{PASSWORD}@127.0.0.1:{port or self.port}/INBOX"

    def start(self) -> Dovecot:
        self.cert, self.key = make_certificate(self.dir)
        root = os.geteuid() == 0
        me = pwd.getpwuid(os.geteuid()).pw_name
        mail_user = pwd.getpwnam("nobody") if root else pwd.getpwuid(os.geteuid())
        internal, login = ("dovecot", "dovenull") if root else (me, me)
        mail = self.dir / "mail"
        mail.mkdir()
        os.chmod(self.dir, 0o755)
        if root:
            os.chown(mail, mail_user.pw_uid, mail_user.pw_gid)
            os.chmod(self.key, 0o600)
        (self.dir / "users").write_text(
            f"{USER}:{{PLAIN}}{PASSWORD}:{mail_user.pw_uid}:{mail_user.pw_gid}::{mail}/%u\n")
        self.config.write_text(f"""\
base_dir = {self.dir}/run
state_dir = {self.dir}/state
log_path = {self.dir}/dovecot.log
instance_name = fairypost-test-{self.port}
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{self.cert}
ssl_key = <{self.key}
default_internal_user = {internal}
default_internal_group = {grp.getgrgid(pwd.getpwnam(internal).pw_gid if root else os.getegid()).gr_name}
default_login_user = {login}
first_valid_uid = {min(mail_user.pw_uid, 1)}
first_valid_gid = 0
mail_location = maildir:~/Maildir
auth_mechanisms = plain login
passdb {{
  driver = passwd-file
  args = {self.dir}/users
}}
userdb {{
  driver = passwd-file
  args = {self.dir}/users
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
""")
        # (no pipes: the daemon it forks would keep them open, and run() would wait for it)
        done = subprocess.run([DOVECOT, "-c", str(self.config)], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=open(self.dir / "start.err", "wb"))
        if done.returncode:
            raise RuntimeError(f"Dovecot did not start: {(self.dir / 'start.err').read_text()}")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the master forks; the listener comes soon after
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.02)
        raise RuntimeError(f"Dovecot did not start: {self.log()}")

    def log(self) -> str:
        path = self.dir / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        pid_file = self.dir / "run" / "master.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().strip())
            try:
                os.kill(pid, signal.SIGTERM)
                for _ in range(200):
                    os.kill(pid, 0)
                    time.sleep(0.02)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- the players' side: their mails delivered into the bot's mailbox ---

    async def _client(self) -> aioimaplib.IMAP4:
        client = aioimaplib.IMAP4(host="127.0.0.1", port=self.port, timeout=5)
        await client.wait_hello_from_server()
        await client.login(USER, PASSWORD)  # (127.0.0.1: Dovecot takes it; the test's side)
        return client

    async def deliver(self, raw: bytes) -> None:
        """Put a mail in the bot's mailbox, unseen (as a mail server's delivery would)."""
        client = await self._client()
        r = await client.append(raw, mailbox="INBOX")
        assert r.result == "OK", r
        await client.logout()

    async def empty(self) -> None:
        """The bot's mailbox emptied: each test begins with none of another's mails."""
        client = await self._client()
        await client.select("INBOX")
        await client.store("1:*", "+FLAGS.SILENT (\\Deleted)")
        await client.expunge()
        await client.logout()


class WireTap:
    """A TCP relay on 127.0.0.1 in front of a server that keeps every byte the client sent;
    ``strip`` takes these bytes out of what the server says (a downgrade attack that hides
    STARTTLS: ``b" STARTTLS"`` from IMAP's capabilities, ``b"250-STARTTLS\r\n"`` from SMTP's
    EHLO)."""

    def __init__(self, port: int, *, strip: tuple[bytes, ...] = ()):
        self.target = port
        self.strip = strip
        self.from_client = bytearray()
        self.port = 0
        self._server = None

    async def start(self) -> WireTap:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def _relay(self, client_r, client_w):
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target)

        async def pipe(r, w, record: bool):
            try:
                while data := await r.read(65536):
                    if record:
                        self.from_client.extend(data)
                    else:
                        for word in self.strip:
                            data = data.replace(word, b"")
                    w.write(data)
                    await w.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                w.close()
        try:
            await asyncio.gather(pipe(client_r, server_w, True), pipe(server_r, client_w, False))
        except asyncio.CancelledError:  # the relay closed with a connection open: no error
            pass

    async def close(self) -> None:
        self._server.close()
        await self._server.wait_closed()


class SMTPWithTLS:
    """aiosmtpd on 127.0.0.1 with AUTH (user bot, ``SMTP_PASSWORD``), requiring STARTTLS
    with the test certificate (``tls``), or offering no STARTTLS at all; it records each mail
    as tests/email/servers.py's does."""

    def __init__(self, dovecot: Dovecot, *, tls: bool = True):
        self.recorder = Recorder()
        self.tls = None
        if tls:
            self.tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            self.tls.load_cert_chain(dovecot.cert, dovecot.key)

    async def start(self) -> SMTPWithTLS:
        def check(server, session, envelope, mechanism, auth_data):
            return AuthResult(success=auth_data.login == b"bot"
                              and auth_data.password == SMTP_PASSWORD.encode())
        self.server = await asyncio.get_running_loop().create_server(
            lambda: SMTP(self.recorder, hostname="mail.test", tls_context=self.tls,
                         require_starttls=self.tls is not None, authenticator=check,
                         auth_require_tls=False, enable_SMTPUTF8=True), "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"smtp://bot:{SMTP_PASSWORD}@127.0.0.1:{self.port}"

    def sent_to(self, address: str):
        return [m for rcpt, m in self.recorder.mails if rcpt == address.lower()]

    def close(self) -> None:
        self.server.close()
