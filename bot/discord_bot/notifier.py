"""The service's events as Discord messages: a DM, or a mention in a channel, as each
player's ``/settings`` say.

``channel``: a game's notices go to its thread (else to the player's chosen channel), the
others to the chosen channel. ``dm`` (the default): a direct message with a link to the
game's thread. If DMs are closed, the game's thread is used instead. A challenge, a draw
offer and a takeback request come with their Accept / Decline buttons. Raising means
"not delivered, try later" (the outbox retries); a refusal that waiting will not cure
(DMs closed and nowhere else to go) is logged and dropped.
"""

from __future__ import annotations

import logging

import discord

from bot import events as ev

from . import PLATFORM, format
from .replies import NO_PINGS, pings

log = logging.getLogger("bot.discord_bot")


class DiscordNotifier:
    platforms = frozenset({PLATFORM})

    def __init__(self, client: discord.Client):
        self.client = client

    @property
    def fairy(self):
        return self.client.fairy  # type: ignore[attr-defined]

    async def notify(self, event: ev.Event) -> None:
        r = event.recipient
        if r is None or r.platform != PLATFORM or not r.user_id.isdigit():
            return  # a lobby notice (the challenge message is one), or another platform's player
        fairy = self.fairy
        if fairy is None:
            raise RuntimeError("the Discord client is not ready")
        game_id = getattr(event, "game_id", None)
        if isinstance(event, ev.GameOver) and event.reason == "time" and (
                r.id == event.white.id or event.white.platform != PLATFORM):  # White: the computer
            await fairy.post_board(await fairy.service.game(event.game_id))  # once, not per player
        thread = await fairy.links.thread_of(game_id) if game_id is not None else None
        pref = await fairy.links.notify_pref(r.id)
        if pref.notify == "channel":
            text = format.event_text(event)
            if text is None:
                return
            if thread:
                return await self._to_thread(int(thread.thread_id), f"<@{r.user_id}> {text}", event)
            if pref.channel_id and await self._post(pref.channel_id, f"<@{r.user_id}> {text}", event):
                return
        link = format.link(thread.guild_id, thread.thread_id) if thread else None
        text = format.event_text(event, f"→ {link}" if link else None)
        if text is None:
            return
        try:
            user = await fairy.user(int(r.user_id))
            await user.send(allowed_mentions=NO_PINGS, **self._message(text, event))
        except discord.Forbidden:
            if thread:
                return await self._to_thread(int(thread.thread_id),
                                             f"<@{r.user_id}> {format.event_text(event)}", event)
            log.warning("cannot tell player #%d (%s): their DMs are closed", r.id, event.kind)

    async def _to_thread(self, thread_id: int, text: str, event: ev.Event) -> None:
        """A mention in the game's thread: after the board, if a board is on its way."""
        async def send():
            if not await self._post(thread_id, text, event):
                log.warning("a %s notice for game #%s was lost", event.kind, getattr(event, "game_id", "?"))
        if not self.fairy.hold(getattr(event, "game_id", None), send):
            await send()

    async def _post(self, channel_id: int, text: str, event: ev.Event) -> bool:
        try:
            channel = await self.fairy.channel(channel_id)
            # the recipient is pinged; no one a name in the text mentions is
            await channel.send(allowed_mentions=pings(event.recipient.user_id), **self._message(text, event))
            return True
        except (discord.Forbidden, discord.NotFound):
            log.warning("cannot post %s in channel %s", event.kind, channel_id)
            return False

    @staticmethod
    def _message(text: str, event: ev.Event) -> dict:
        from .views import answer_view, challenge_view
        out = {"content": text[:2000]}
        if isinstance(event, ev.ChallengeReceived):
            out["view"] = challenge_view(event.challenge_id)
        elif isinstance(event, ev.DrawOffered):
            out["view"] = answer_view("draw", event.game_id)
        elif isinstance(event, ev.TakebackAsked):
            out["view"] = answer_view("takeback", event.game_id)
        return out
