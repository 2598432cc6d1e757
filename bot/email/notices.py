"""The service's notices as mails (the adapter's ``Notifier`` part), and the mails that
answer a player's own mail. Every game mail shows the board (an inline PNG and the text
board) and carries a reply address signed for the ply it shows."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime

from bot.delivery import events as ev
from bot.words import text as texts
from bot.words.text import Markup
from bot.words.tournament_text import tournament_text

from .accounts import PLATFORM
from .compose import board_text, game_name
from .sending import SIGNED_ANSWER, UNSIGNED_ANSWER
from .tables import EmailTables

log = logging.getLogger("bot.email")


class Notices:
    def __init__(self, adapter):
        self.a = adapter

    async def _png(self, view, pos, player_id: int, m: Markup = texts.PLAIN) -> bytes | None:
        """The board's picture, its result banner and words in the reader's language."""
        try:
            import render
            banner = render.result_text(pos.game, view.result, view.reason, lang=m.lang)
            return await asyncio.to_thread(render.board_png, pos, flip=view.side_of(player_id) == "b",
                                           show_last_move=True, result=banner, lang=m.lang)
        except Exception:  # noqa: BLE001 - the text board still says everything
            log.exception("drawing the board of game %d failed", view.id)
            return None

    def _link(self, game_id: int, side=None) -> str:
        """The game's page; a player's own link (to play there) when ``side`` is theirs."""
        settings = self.a.service.settings
        if not settings.web_url:
            return ""
        from bot.identity.links import game_link, player_link
        return player_link(settings, game_id, side) if side else game_link(settings, game_id)

    async def reader(self, player_id: int) -> Markup:
        """The plain markup in the language ``player_id`` reads (chosen, else the one their
        first mail said, else English)."""
        try:
            player = await self.a.service.get_player(player_id)
        except Exception:  # noqa: BLE001 - a player gone still gets their mail, in English
            return texts.PLAIN
        return texts.PLAIN.in_language(player.reads())

    async def board_mail(self, game_id: int, player_id: int, *, key: str, note: str,
                         board: bool = True, first: bool = False, answering=None,
                         read: str | None = None, m: Markup | None = None) -> None:
        """A mail about a game to one of its players: ``note``, then (``board``) the board;
        an answer to the player's mail (``read``: the line the bot read in it) says first
        what it read. In the player's language (``m``, else the one they read)."""
        a = self.a
        m = m or await self.reader(player_id)
        note = with_what_was_read(note, read, m)
        address = await a.accounts.address_of(player_id)
        if address is None:
            log.info("player %d has no mail address: no mail about game %d", player_id, game_id)
            return
        async with a.service.store.read() as tx:
            if await EmailTables(tx).mail_queued(key):
                # queued already (it answered the player's mail: ``as_the_answer``; a notice
                # delivered again after a stop): queueing it again would do nothing, so the
                # board is not drawn again for it
                return
        view = await a.service.game(game_id)
        png = None
        if board:
            pos = await a.service.position(game_id)
            text = board_text(view, pos, player_id, note, self._link(game_id, view.side_of(player_id)), m=m)
            png = await self._png(view, pos, player_id, m)
        else:
            text = note.rstrip() + "\n"
            if view.status == "active":
                text += "\n" + m.tr("Reply to this mail with a move or a command ({help} for the list).",
                                     help=m.code("help")) + "\n"
        message = a.composer.game_mail(address, view, player_id, text, key=key, png=png,
                                       first=first, answering=answering, m=m)
        await a.mailer.queue(key, address, message)

    async def text_reply(self, mail, text: str, *, reply_to: str | None = None,
                         signed: bool = False, read: str | None = None, m: Markup = texts.PLAIN) -> None:
        """An answer to a mail that is about no game (``reply_to``: a signed address, where
        a reply acts for the player; ``signed``: the mail was a signed reply from its
        player's own address, whose answers the loop breaker never counts), saying first
        the line it read (``read``, else the mail's ``read_line``); ``m``: the reader's
        markup (``text`` is in its language already)."""
        a = self.a
        text = with_what_was_read(text, mail.read_line if read is None else read, m)
        key = answer_key(mail, signed)
        # at the plain address the From may be forged: the subject is never the sender's
        # (a stranger would be mailed "Re: URGENT: log in at ..." in the bot's name)
        subject = "Re: " + (mail.subject or "fairypost") if signed else plain_answer_subject(m)
        message = a.composer.mail(mail.sender, subject, text, key=key, reply_to=reply_to, lang_code=m.lang.code,
                                  in_reply_to=mail.message_id,
                                  references=tuple(mail.references) + ((mail.message_id,) if mail.message_id else ()))
        await a.mailer.queue(key, mail.sender, message)

    async def mail_stopped(self, address: str) -> None:
        """Mail to ``address`` stopped after its bounces: its player is told by another
        route (a Discord player's notice) where there is one."""
        a = self.a
        player = await a.accounts.player_of(address)
        if player is None or player.platform == PLATFORM:
            log.info("mail to %s stopped; its player has no other route to be told by", address)
            return
        async with a.service.store.write() as tx:
            row = await EmailTables(tx).email_address(address)
            event = ev.MailStopped(address=address, bounces=row.hard_bounces if row else 0)
            await tx.insert_event(event.kind, player.id, None, None, ev.encode(event),
                                  int(a.clock.now().timestamp()))
        if a.service.outbox.running:
            a.service.outbox.poke()

    # --- the Notifier ---

    async def notify(self, event: ev.Event) -> None:
        """A notice in the shared words (bot/words/text.py), with the board where it shows one,
        and what to answer."""
        if event.recipient is None:  # an open challenge: mail has no lobby
            return
        rid, key = event.recipient.id, f"event:{event.event_id}"
        if event.recipient.platform != PLATFORM:
            try:
                if await self.a.accounts.wants_notices(rid):
                    await self._notify(event, rid, key)
            except Exception:  # noqa: BLE001 - raising would have Discord say it again
                log.exception("mailing notice %s to player %d failed", key, rid)
            return  # else a Discord player's notice, for Discord alone
        await self._notify(event, rid, key)

    async def as_the_answer(self, kind: type[ev.Event], player, caused_by: Callable[[ev.Event], bool], *,
                            read: str, answering) -> bool:
        """The notice a player's own mail caused (the game-over mail after their mate or
        resignation, the game's first mail after their accept), mailed to them now as the
        answer to that mail: under "I read: ..." and in reply to it, with the notice's own
        outbox key, so that the notice delivered after it is this same mail, queued once
        (one mail, not a notice and an answer). ``caused_by`` picks it among the player's
        undelivered notices of ``kind``. The caller holds the service's delivery back
        (``outbox.held()``) from its command until this returns; False if the notice was
        delivered all the same (another process's delivery took it first: it went out
        without the line read)."""
        async with self.a.service.store.read() as tx:
            rows = await tx.undelivered_events(kind.kind, player.id)
        for row in rows:
            event = ev.decode(row.kind, row.payload, recipient=ev.ref(player), event_id=row.id)
            if caused_by(event):
                await self._notify(event, player.id, f"event:{row.id}", read=read, answering=answering)
                return True
        log.info("the %s notice to player %d was delivered before it could answer their mail",
                 kind.kind, player.id)
        return False

    async def _notify(self, event: ev.Event, rid: int, key: str, *, read: str | None = None,
                      answering=None) -> None:
        """``read``, ``answering``: this notice is the answer to the player's mail
        (``as_the_answer``). In the recipient's language."""
        m = await self.reader(rid)
        note = texts.event_text(event, m)
        if note is None:
            return
        if isinstance(event, (ev.YourMove, ev.GameOver, ev.TimeWarning)):
            await self.board_mail(event.game_id, rid, m=m, key=key, note=note, read=read, answering=answering)
        elif isinstance(event, ev.GameStarted):
            await self.board_mail(event.game_id, rid, m=m, key=key, note=note, first=True, read=read,
                                  answering=answering)
        elif isinstance(event, ev.DrawOffered):
            await self.board_mail(event.game_id, rid, m=m, key=key, board=False,
                                  note=note + " " + m.tr("Reply {draw} to accept, {decline} to decline.",
                                                         draw=m.code("draw"), decline=m.code("decline")))
        elif isinstance(event, ev.TakebackAsked):
            await self.board_mail(event.game_id, rid, m=m, key=key, board=False,
                                  note=note + " " + m.tr("Reply {takeback} to agree, {decline} to refuse.",
                                                         takeback=m.code("takeback"), decline=m.code("decline")))
        elif isinstance(event, ev.TakebackAnswered):
            await self.board_mail(event.game_id, rid, m=m, key=key, board=event.accepted, note=note)
        elif isinstance(event, (ev.DrawDeclined, ev.ComputerStalled)):
            await self.board_mail(event.game_id, rid, m=m, key=key, board=False, note=note)
        elif isinstance(event, ev.ChallengeReceived):
            subject = "fairypost " + m.tr("challenge {id}: {game} from {name}", id=event.challenge_id,
                                          game=m.data(game_name(event.game)), name=event.challenger.name)
            await self._plain(rid, key, m, subject,
                              note + "\n\n" + m.tr("Reply {accept} or {decline} (on the first line).",
                                                   accept=m.code("accept"), decline=m.code("decline")),
                              reply_to=self.a.composer.reply_to("c", event.challenge_id, rid))
        elif isinstance(event, ev.ChallengeClosed):
            await self._plain(rid, key, m, "fairypost " + m.tr("challenge {id}", id=event.challenge_id), note)
        elif isinstance(event, ev.TournamentBye):
            subject = "fairypost " + m.tr("tournament {id}: round {round}", id=event.tournament_id,
                                          round=event.round)
            await self._plain(rid, key, m, subject, note,
                              reply_to=self.a.composer.reply_to("t", event.tournament_id, rid))
        elif isinstance(event, ev.TournamentOver):
            view = await self.a.service.tournament(event.tournament_id)
            subject = "fairypost " + m.tr("tournament {id}: {name} is over", id=event.tournament_id,
                                          name=event.name)
            await self._plain(rid, key, m, subject, note + "\n\n" + tournament_text(view, m),
                              reply_to=self.a.composer.reply_to("t", event.tournament_id, rid),
                              png=await self._crosstable_png(view, m),
                              picture=("crosstable.png", m.tr("the crosstable")))
        elif isinstance(event, ev.Digest):
            subject = "fairypost: " + m.tr("your moves on {day}", day=day_said(event.day, m))
            await self._plain(rid, key, m, subject, note)

    async def _plain(self, player_id: int, key: str, m: Markup, subject: str, text: str,
                     reply_to: str | None = None, png: bytes | None = None,
                     picture: tuple[str, str] | None = None) -> None:
        a = self.a
        address = await a.accounts.address_of(player_id)
        if address is None:
            return
        await a.mailer.queue(key, address, a.composer.mail(
            address, subject, text + "\n", key=key, reply_to=reply_to, png=png,
            picture=picture or ("board.png", m.tr("the board")), lang_code=m.lang.code))

    async def _crosstable_png(self, view, m: Markup = texts.PLAIN) -> bytes | None:
        try:
            from bot.tournaments.crosstable import crosstable_picture
            return await asyncio.to_thread(crosstable_picture, view, m.lang)
        except Exception:  # noqa: BLE001 - the standings in the text say everything
            log.exception("drawing the crosstable of tournament %d failed", view.id)
            return None


PLAIN_ANSWER_SUBJECT = "fairypost: the answer to your mail"


def day_said(day: str, m: Markup = texts.PLAIN) -> str:
    """A YYYY-MM-DD day as the reader's language writes a date ("Jan 6, 2025", "6 janv. 2025")."""
    try:
        return m.lang.day(datetime.fromisoformat(day))
    except ValueError:
        return day


def plain_answer_subject(m: Markup = texts.PLAIN) -> str:
    """The subject of every answer at the plain address (never the sender's own)."""
    return "fairypost: " + m.tr("the answer to your mail")
READ_SHOWN_CHARS = 60  # of the line read, quoted back in an answer; longer ones are cut


def i_read(line: str, m: Markup = texts.PLAIN) -> str:
    """"I read: `Nf3`": the line an answer answers, as the bot read it, so a player sees
    at once when their mail program changed it (an AutoCorrect dash, a signature taken for
    the move). Escaped: control and invisible characters (a direction override) written as
    their codes, a backtick as a look-alike (the quote stays one quote); cut at
    ``READ_SHOWN_CHARS``."""
    line = " ".join(line.split())
    cut = line if len(line) <= READ_SHOWN_CHARS else line[:READ_SHOWN_CHARS - 1] + "\u2026"
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in cut)
    return m.tr("I read: {line}", line="`" + shown.replace("`", "\u02cb") + "`")


def with_what_was_read(text: str, read: str | None, m: Markup = texts.PLAIN) -> str:
    """``text`` under "I read: ..." (``read`` None: not an answer; "": the mail had no text
    of the writer's own, which the answer itself says)."""
    return f"{i_read(read, m)}\n\n{text}" if read else text


def answer_a_challenge(m: Markup = texts.PLAIN) -> str:
    return m.tr("Nothing was done: reply {accept} or {decline} to the challenge, on the first line "
                "(a reply to this mail does).", accept=m.code("accept"), decline=m.code("decline"))


ANSWER_A_CHALLENGE = answer_a_challenge()


def no_text_of_your_own(what: str, m: Markup = texts.PLAIN) -> str:
    """The answer to a reply with nothing of the writer's own in it (only the quote, an
    attribution, an empty Outlook header block, a signature): what to write instead
    (``what``: in the reader's language already)."""
    return m.tr("Your mail has no text of your own, so nothing was done: write {what} as its first line.",
                what=what)


def answer_key(mail, signed: bool) -> str:
    """The outbox key of the answer to ``mail``: the loop breaker paces answers at the plain
    address (``reply:``), never those to a player's signed replies (``signed:``)."""
    return f"{SIGNED_ANSWER if signed else UNSIGNED_ANSWER}{mail.key}"
