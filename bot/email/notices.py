"""The service's notices as mails (the adapter's ``Notifier`` part), and the mails that
answer a player's own mail. Every game mail shows the board (an inline PNG and the text
board) and carries a reply address signed for the ply it shows."""

from __future__ import annotations

import asyncio
import logging

from bot import events as ev
from bot.timetext import time_left

from .compose import board_text, game_name, result_line

log = logging.getLogger("bot.email")


class Notices:
    def __init__(self, adapter):
        self.a = adapter

    async def _png(self, view, pos, player_id: int) -> bytes | None:
        try:
            import render
            banner = render.result_text(pos.game, view.result, view.reason)
            return await asyncio.to_thread(render.board_png, pos, flip=view.side_of(player_id) == "b",
                                           show_last_move=True, result=banner)
        except Exception:  # noqa: BLE001 - the text board still says everything
            log.exception("drawing the board of game %d failed", view.id)
            return None

    def _link(self, game_id: int) -> str:
        settings = self.a.service.settings
        if not settings.web_url:
            return ""
        from bot.web.cli import game_link
        return game_link(settings, game_id)

    async def board_mail(self, game_id: int, player_id: int, *, key: str, note: str,
                         board: bool = True, first: bool = False, answering=None) -> None:
        """A mail about a game to one of its players: ``note``, then (``board``) the board."""
        a = self.a
        address = await a.accounts.address_of(player_id)
        if address is None:
            log.info("player %d has no mail address: no mail about game %d", player_id, game_id)
            return
        view = await a.service.game(game_id)
        png = None
        if board:
            pos = await a.service.position(game_id)
            text = board_text(view, pos, player_id, note, self._link(game_id))
            png = await self._png(view, pos, player_id)
        else:
            text = note.rstrip() + "\n"
            if view.status == "active":
                text += "\nReply to this mail with a move or a command (help for the list).\n"
        message = a.composer.game_mail(address, view, player_id, text, key=key, png=png,
                                       first=first, answering=answering)
        await a.mailer.queue(key, address, message)

    async def text_reply(self, mail, text: str) -> None:
        """An answer to a mail that is about no game."""
        a = self.a
        subject = "Re: " + (mail.subject or "fairypost")
        message = a.composer.mail(mail.sender, subject, text, key=f"reply:{mail.key}",
                                  in_reply_to=mail.message_id,
                                  references=tuple(mail.references) + ((mail.message_id,) if mail.message_id else ()))
        await a.mailer.queue(f"reply:{mail.key}", mail.sender, message)

    # --- the Notifier ---

    async def notify(self, event: ev.Event) -> None:
        if event.recipient is None:  # an open challenge: mail has no lobby
            return
        rid, key = event.recipient.id, f"event:{event.event_id}"
        if isinstance(event, ev.YourMove):
            note = (f"Your move: {event.opponent.name} played {event.last_move}." if event.last_move
                    else "Your move.")
            await self.board_mail(event.game_id, rid, key=key, note=note)
        elif isinstance(event, ev.GameStarted):
            opponent = event.black if event.white.id == rid else event.white
            clock = f"{event.days} days a move" if event.days else "no clock"
            await self.board_mail(event.game_id, rid, key=key, first=True,
                                  note=f"Your game of {game_name(event.game)} against "
                                       f"{opponent.name} has begun ({clock}).")
        elif isinstance(event, ev.GameOver):
            view = await self.a.service.game(event.game_id)
            await self.board_mail(event.game_id, rid, key=key,
                                  note=f"The game is over. {result_line(view)}")
        elif isinstance(event, ev.TimeWarning):
            await self.board_mail(event.game_id, rid, key=key, note=(
                f"Reminder: {time_left(event.seconds_left)} left for your move against "
                f"{event.opponent.name}."))
        elif isinstance(event, ev.DrawOffered):
            await self.board_mail(event.game_id, rid, key=key, board=False, note=(
                f"{event.by.name} offers a draw. Reply draw to accept, decline to decline "
                "(or just play your move: the offer stands until you answer)."))
        elif isinstance(event, ev.DrawDeclined):
            await self.board_mail(event.game_id, rid, key=key, board=False,
                                  note=f"{event.by.name} declined your draw offer.")
        elif isinstance(event, ev.TakebackAsked):
            await self.board_mail(event.game_id, rid, key=key, board=False, note=(
                f"{event.by.name} asks to take back {event.move}. Reply takeback to agree, "
                "decline to refuse."))
        elif isinstance(event, ev.TakebackAnswered):
            how = "agreed to take back" if event.accepted else "refused to take back"
            await self.board_mail(event.game_id, rid, key=key, board=event.accepted,
                                  note=f"{event.by.name} {how} the move.")
        elif isinstance(event, ev.ChallengeReceived):
            await self._challenge_mail(event, key)
        elif isinstance(event, ev.ChallengeClosed):
            await self._plain(rid, key, f"fairypost challenge {event.challenge_id}",
                              f"{event.by.name} {event.how} challenge {event.challenge_id}.")
        elif isinstance(event, ev.Digest):
            lines = [f"game {g.game_id}: {game_name(g.game)} against {g.opponent}, "
                     f"{time_left(g.seconds_left)} left" for g in event.games]
            await self._plain(rid, key, f"fairypost: your moves on {event.day}",
                              "It is your move in:\n" + "\n".join(lines))

    async def _plain(self, player_id: int, key: str, subject: str, text: str,
                     reply_to: str | None = None) -> None:
        a = self.a
        address = await a.accounts.address_of(player_id)
        if address is None:
            return
        await a.mailer.queue(key, address, a.composer.mail(address, subject, text + "\n", key=key,
                                                           reply_to=reply_to))

    async def _challenge_mail(self, e: ev.ChallengeReceived, key: str) -> None:
        clock = f"{e.days} days a move" if e.days else "no clock"
        colour = {"white": "they play first", "black": "you play first"}.get(e.colour, "sides drawn by lot")
        text = (f"{e.challenger.name} challenges you to a game of {game_name(e.game)} "
                f"({clock}, {colour}).\n\nReply accept or decline (on the first line).\n")
        await self._plain(e.recipient.id, key, f"fairypost challenge {e.challenge_id}: "
                          f"{game_name(e.game)} from {e.challenger.name}", text,
                          reply_to=self.a.composer.reply_to("c", e.challenge_id, e.recipient.id))
