"""The mails the bot sends: queued in the database (``email_outbox``) in order, each under a
key that makes queueing it twice a no-op, then sent by a background task.

Like a mail server's queue, a mail the server does not take is tried again with growing
pauses (``retry_seconds``, doubling, at most ``MAX_PAUSE``) for ``GIVE_UP_AFTER`` (five
days, Postfix's default), and only then given up, with a log line. Each is taken before it
is sent (``LEASE_SECONDS``), so that of several processes on one database only one sends
it; a send under way when the bot is stopped is finished first (``settle``), so a stop
never leaves a mail the server took unmarked (it would be sent again).

A process killed outright (kill -9, the kernel's OOM killer) cannot finish anything: its
claim carries its life's id (``bot.store.lives``), and when that life is over the mail is
taken over at once by whichever process looks next (each looks at least every
``CHECK_CLAIMS_SECONDS``; a restarted process at its start), not after the lease. Whether
the dead sender had given the mail to the server is told by ``handed_at``, committed after
the server took the recipient and before the mail's text goes (the text, ending with its
final ".", is what makes the server take the mail). Not handed: the server cannot have it,
so it is sent now. Handed: the server has it, unless the process died in the one round trip
between that commit and the text's end (or the server refused the text): it is marked sent
and not sent again. The choice is at most once, because a mail sent twice carries the same
Message-ID and shows twice, while the window in which a handed mail is lost is one command
to the server long (the DATA line and its 354 answer), against the whole send for the other
choice; a log line names each such mail.

Bounces prove themselves: each mail's envelope sender is the bot's own signed bounce
address (``bot+b-<id>-<token>@domain``, bot/email/tokens.py), so a report counts only when
it comes back to that address, for that mail and its recipient (a 5xx refusal while
sending counts too). After ``STOP_AFTER_BOUNCES`` the bot mails the address no more, says
so in the log and tells the player by another route where there is one (``on_stopped``).
The count recovers: bounces older than ``FORGET_AFTER`` are forgotten, a stopped address
gets one more try after ``RETRY_STOPPED_AFTER``, and a signed reply from the address or a
confirmed link clears it.

No loops: at most ``ANSWERS_PER_HOUR`` answers to mails at the plain address go to one
address an hour (what an autoresponder that slipped through the checks in parse.py gets);
those beyond are queued for when the hour allows, with a log line, never dropped. Answers
to signed replies from a player's own address (``SIGNED_ANSWER`` keys) never count.

``retention_days`` after a mail was handled or sent, its body is dropped and its headers
kept (``prune``): the keys that make reading it again, or queueing its answer again, a
no-op stay."""

from __future__ import annotations

import asyncio
import logging
import time
from email.message import EmailMessage

from ..domain.errors import DatabaseUnavailable
from ..store import lives
from . import tokens
from .tables import EmailTables
from .transport import HardBounce, TransientFailure

log = logging.getLogger("bot.email")

HOUR, DAY = 3600, 86400
STOP_AFTER_BOUNCES = 3
FORGET_AFTER = 14 * DAY  # a bounce this old no longer counts
RETRY_STOPPED_AFTER = 7 * DAY  # a stopped address is tried once more after this
GIVE_UP_AFTER = 5 * DAY  # a mail the server will not take, tried this long
MAX_PAUSE = HOUR  # the longest wait between two tries
ANSWERS_PER_HOUR = 10  # unsigned answers to one address: beyond, a mail loop (paced)
UNSIGNED_ANSWER = "reply:"  # an answer to a mail at the plain address: the loop breaker paces it
SIGNED_ANSWER = "signed:"  # an answer to a signed reply from its player's own address: never


async def answer_slot(t: EmailTables, recipient: str, now: int) -> int:
    """When an answer at the plain address to ``recipient`` goes: now, or when the loop
    breaker allows (no hour holds more than ANSWERS_PER_HOUR of them): the answer is never
    dropped, only delayed."""
    times = await t.answer_times(recipient, UNSIGNED_ANSWER, now - HOUR)
    if len(times) < ANSWERS_PER_HOUR:
        return now
    return max(now, times[len(times) - ANSWERS_PER_HOUR] + HOUR)


def _clock_time(at: int) -> str:
    return time.strftime("%H:%M:%S UTC", time.gmtime(at))


def headers_only(raw: bytes) -> bytes:
    """A mail's headers (what exactly-once needs: its Message-ID, threading), its body gone."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        at = raw.find(sep)
        if at >= 0:
            return raw[:at + len(sep)]
    return raw


class Mailer:
    # a mail taken for sending is not due again for this long: another process reading the
    # same outbox (PostgreSQL) leaves it alone; one that stopped mid-send is sent again after
    LEASE_SECONDS = 300
    # how often a claim another process holds is looked at again (is that process gone?)
    CHECK_CLAIMS_SECONDS = 10

    def __init__(self, store, smtp, bot_address: str, clock, *, secret: bytes,
                 retry_seconds: int = 60, give_up_seconds: int = GIVE_UP_AFTER,
                 retention_days: int = 0, on_stopped=None):
        self.store = store
        self.smtp = smtp
        self.bot_address = bot_address
        self.clock = clock
        self.secret = secret
        self.retry_seconds = max(1, retry_seconds)
        self.give_up_seconds = give_up_seconds
        self.retention_days = retention_days
        self.on_stopped = on_stopped  # async (address) -> None: tell the player elsewhere
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()  # one sending round at a time: each mail sent once
        self._sending: set[asyncio.Future] = set()  # sends a stop lets finish
        self._next_prune = 0

    def _now(self) -> int:
        return int(self.clock.now().timestamp())

    async def queue(self, dedupe_key: str, recipient: str, message: EmailMessage, *,
                    asked: bool = False) -> bool:
        """Queue a mail (False: one with this key was queued before, or the address is
        stopped after its bounces); an answer at the plain address beyond the hour's
        answers waits until the hour allows (``answer_slot``). The sending task is woken.
        ``asked``: a mail a player asked for just now for this address (a link code), sent
        even when it is stopped (it stays stopped until the code comes back)."""
        now = self._now()
        async with self.store.write() as tx:
            t = EmailTables(tx)
            row = await t.email_address(recipient)
            if row is not None and row.stopped_at is not None and not asked:
                if now - row.stopped_at < RETRY_STOPPED_AFTER:
                    log.info("not mailing %s (stopped after %d hard bounces): %s", recipient,
                             row.hard_bounces, message.get("Subject"))
                    return False
                # one more try: a bounce stops it again at once
                await t.bounces_forgotten(recipient, STOP_AFTER_BOUNCES - 1)
                log.info("mailing %s again, %d days after it was stopped", recipient,
                         (now - row.stopped_at) // DAY)
            send_at = now
            if dedupe_key.startswith(UNSIGNED_ANSWER):
                send_at = await answer_slot(t, recipient, now)
                if send_at > now:
                    log.warning("answering %s at %s, not now: %d answers an hour go to one "
                                "address (a mail loop?): %s", recipient, _clock_time(send_at),
                                ANSWERS_PER_HOUR, dedupe_key)
            added = await t.queue_mail_at(dedupe_key, recipient, bytes(message), now, send_at)
        self._wake.set()
        return added

    async def drain(self) -> int:
        """Send every mail that is due now, and those whose sender died; how many were sent."""
        sent = 0
        async with self._lock:
            for mail in await self._orphans():
                sent += await self._send(mail, taken_over=True)
            while True:
                async with self.store.read() as tx:
                    due = await EmailTables(tx).due_mails(self._now())
                if not due:
                    return sent
                for mail in due:
                    sent += await self._send(mail)

    async def _orphans(self) -> list:
        """The mails claimed by processes that are gone (their life's lock free), taken over
        now rather than after their lease. One handed to the server already is marked sent,
        not sent again (at most once: see the module's docstring)."""
        now, life = self._now(), self._life
        async with self.store.read() as tx:  # (most often none: no write then)
            if not await EmailTables(tx).claimed_mails(now, life, limit=1):
                return []
        taken = []
        async with self.store.write() as tx:
            t = EmailTables(tx)
            for mail, holder, handed_at in await t.claimed_mails(now, life):
                if not await lives.known_dead(tx, holder):
                    continue
                if handed_at is not None:
                    if await t.mail_sent(mail.id, now, holder):
                        log.warning("mail %d to %s: its sender died as the server took it; taken "
                                    "as sent, not sent twice", mail.id, mail.recipient)
                elif await t.take_over_mail(mail.id, holder, life, now + self.LEASE_SECONDS):
                    log.info("mail %d to %s: its sender died before sending it; sent now",
                             mail.id, mail.recipient)
                    taken.append(mail)
        return taken

    @property
    def _life(self) -> str | None:
        return getattr(self.store, "life", None)

    async def _send(self, mail, *, taken_over: bool = False) -> int:
        # a stop (SIGTERM) must leave no mail half done: the claim, the send and its mark
        # finish on their own, and the stop waits for them (settle). A mail the server took
        # and left unmarked would be sent again; one claimed (its commit under way as the
        # stop came) and left unsent would wait out its lease before the next start sent it
        sending = asyncio.ensure_future(self._claim_send_and_mark(mail, taken_over))
        self._sending.add(sending)
        sending.add_done_callback(self._sending.discard)
        return await asyncio.shield(sending)

    async def _claim_send_and_mark(self, mail, taken_over: bool = False) -> int:
        now, life = self._now(), self._life
        if not taken_over:  # (a mail taken over is claimed already)
            async with self.store.write() as tx:  # another process may be sending it
                if not await EmailTables(tx).claim_due_mail(mail.id, now, now + self.LEASE_SECONDS,
                                                            life):
                    return 0
        envelope = tokens.bounce_address(self.bot_address, self.secret, mail.id, mail.recipient)

        async def handing() -> None:  # committed before the text goes: see the docstring
            async with self.store.write() as tx:
                await EmailTables(tx).mail_handed(mail.id, self._now())
        try:
            await self.smtp.send(mail.message, envelope, mail.recipient, handing=handing)
        except HardBounce as e:
            async with self.store.write() as tx:
                await EmailTables(tx).mail_failed(mail.id, None, f"refused: {e.reason}")
            await self.bounced(mail.recipient, e.reason)
            return 0
        except TransientFailure as e:
            tries, now = mail.attempts + 1, self._now()
            give_up = now - mail.created_at >= self.give_up_seconds
            pause = min(self.retry_seconds * 2 ** min(tries - 1, 30), MAX_PAUSE)
            async with self.store.write() as tx:
                await EmailTables(tx).mail_failed(
                    mail.id, None if give_up else now + pause,
                    f"given up after {tries} tries in {(now - mail.created_at) // HOUR} h: {e}"
                    if give_up else None)
            if give_up:
                log.error("mail %d to %s given up after %d tries over %.1f days: %s", mail.id,
                          mail.recipient, tries, (now - mail.created_at) / DAY, e)
            else:
                log.warning("mail %d to %s not sent (try %d, again in %d s): %s", mail.id,
                            mail.recipient, tries, pause, e)
            return 0
        async with self.store.write() as tx:
            await EmailTables(tx).mail_sent(mail.id, self._now())
        return 1

    async def settle(self, timeout: float = 60) -> None:
        """Wait for the sends under way (a stop lets them finish and be marked)."""
        if self._sending:
            await asyncio.wait(set(self._sending), timeout=timeout)

    async def bounced(self, address: str, reason: str, mail_id: int | None = None) -> None:
        """A hard bounce of ``address`` (of the outbox's mail ``mail_id``: each mail's
        counts once): counted; the last one allowed stops mail to it."""
        now = self._now()
        async with self.store.write() as tx:
            if mail_id is not None and not await EmailTables(tx).mail_bounced(mail_id, now):
                log.info("%s: mail %d's bounce was counted already (%s)", address, mail_id, reason)
                return
            count, stopped = await EmailTables(tx).hard_bounce(address, STOP_AFTER_BOUNCES, now,
                                                               now - FORGET_AFTER)
        if stopped:
            log.warning("%s bounced %d times (%s): no more mail goes to it", address, count, reason)
            if self.on_stopped is not None:
                try:
                    await self.on_stopped(address)
                except Exception:  # noqa: BLE001 - the other route is a courtesy
                    log.exception("telling the player of %s that mail stopped failed", address)
        else:
            log.info("%s bounced (%s): %d of %d before mail to it stops", address, reason, count,
                     STOP_AFTER_BOUNCES)

    async def proven(self, address: str) -> None:
        """A signed reply came from ``address``: it receives the bot's mail; its bounces go."""
        async with self.store.write() as tx:
            t = EmailTables(tx)
            row = await t.email_address(address)
            if row is None or (not row.hard_bounces and row.stopped_at is None):
                return
            await t.bounces_forgotten(address)
        log.info("%s answered a signed mail: its %d bounces are forgotten", address, row.hard_bounces)

    async def prune(self, now: int | None = None) -> int:
        """Drop the bodies of the mails handled or sent more than ``retention_days`` ago
        (their headers kept); how many."""
        if not self.retention_days:
            return 0
        now = self._now() if now is None else now
        async with self.store.write() as tx:
            n = await EmailTables(tx).prune_mails(now - self.retention_days * DAY, headers_only)
        if n:
            log.info("pruned the bodies of %d mails older than %d days", n, self.retention_days)
        return n

    async def next_due(self) -> int | None:
        """When a mail is due next; while another process holds a claim, at most
        ``CHECK_CLAIMS_SECONDS`` from now (it may die: its mail is then sent at once)."""
        async with self.store.read() as tx:
            t = EmailTables(tx)
            due = await t.next_mail_at()
            if await t.claimed_mails(self._now(), self._life, limit=1):
                soon = self._now() + self.CHECK_CLAIMS_SECONDS
                due = soon if due is None else min(due, soon)
            return due

    async def run(self) -> None:
        """The background task: send what is due, then sleep until woken or the next retry;
        hourly, prune."""
        while True:
            self._wake.clear()
            try:
                await self.drain()
                if self._now() >= self._next_prune:
                    self._next_prune = self._now() + HOUR
                    await self.prune()
            except DatabaseUnavailable:  # the store logged it: tried again in a moment
                pass
            except Exception:  # noqa: BLE001 - the database or a bug: logged, tried again
                log.exception("sending mail failed")
            try:
                due = await self.next_due()
            except DatabaseUnavailable:
                due = self._now() + 1
            wait = 300.0 if due is None else max(1.0, due - self._now())
            woken = asyncio.ensure_future(self._wake.wait())
            try:  # asyncio.wait, not wait_for: a stop meanwhile must cancel this task at once
                await asyncio.wait({woken}, timeout=min(wait, 300.0))
            finally:
                woken.cancel()
