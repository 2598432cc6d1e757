"""The service's events as Discord messages: a DM, or a mention in a channel, as each
player's ``/settings`` say.

``channel``: a game's notices go to its thread (else to the player's chosen channel), the
others to the chosen channel. ``dm`` (the default): a direct message with a link to the
game's thread. If DMs are closed, the game's thread is used instead. A tournament's
news go to its own thread (tournament_news.py). A challenge, a draw offer and a takeback
request come with their Accept / Decline buttons, and the messages that carry them are
remembered: once the offer is settled elsewhere (``OfferSettled``), or a challenge expires,
their buttons are disabled. Raising means "not delivered, try later" (the outbox retries);
a refusal that waiting will not cure (DMs closed and nowhere else to go) is logged and
dropped.
"""

from __future__ import annotations

import logging

import discord

from bot.delivery import events as ev
from bot.words.text import DISCORD, Markup

from . import PLATFORM, format
from .replies import NO_PINGS, pings
from .tournament_news import post_news

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
        if isinstance(event, ev.TournamentNews):  # for the event's thread, not its maker
            return await post_news(self._ready(), event)
        if r is None or r.platform != PLATFORM or not r.user_id.isdigit():
            return  # a lobby notice (the challenge message is one), or another platform's player
        fairy = self._ready()
        if isinstance(event, ev.OfferSettled):
            return await self._disable(event.what, event.ref_id)
        if isinstance(event, ev.ChallengeClosed) and event.how == "expired":
            await self._expired(event.challenge_id)
        game_id = getattr(event, "game_id", None)
        if isinstance(event, ev.GameOver) and event.reason == "time" and (
                r.id == event.white.id or event.white.platform != PLATFORM):  # White: the computer
            await fairy.post_board(await fairy.service.game(event.game_id))  # once, not per player
        thread = await fairy.links.thread_of(game_id) if game_id is not None else None
        pref = await fairy.links.notify_pref(r.id)
        m = await self._reader(r.id)  # each recipient in their own language, in a thread too
        if pref.notify == "channel":
            text = format.event_text(event, m=m)
            if text is None:
                return
            if thread:
                return await self._to_thread(int(thread.thread_id), f"<@{r.user_id}> {text}", event, m)
            if pref.channel_id and await self._post(pref.channel_id, f"<@{r.user_id}> {text}", event, m):
                return
        link = format.link(thread.guild_id, thread.thread_id) if thread else None
        text = format.event_text(event, f"→ {link}" if link else None, m=m)
        if text is None:
            return
        try:
            user = await fairy.user(int(r.user_id))
            sent = await user.send(allowed_mentions=NO_PINGS, **self._message(text, event, m))
            await self._remember(event, f"@{r.user_id}", sent)
        except discord.Forbidden:
            if thread:
                return await self._to_thread(int(thread.thread_id),
                                             f"<@{r.user_id}> {format.event_text(event, m=m)}", event, m)
            log.warning("cannot tell player #%d (%s): their DMs are closed", r.id, event.kind)

    async def _reader(self, player_id: int) -> Markup:
        """The recipient's markup in the language they read (chosen, else last seen)."""
        return DISCORD.in_language((await self.fairy.service.get_player(player_id)).reads())

    def _ready(self):
        if self.fairy is None:
            raise RuntimeError("the Discord client is not ready")
        return self.fairy

    async def _to_thread(self, thread_id: int, text: str, event: ev.Event, m: Markup = DISCORD) -> None:
        """A mention in the game's thread: after the board, if a board is on its way."""
        async def send():
            if not await self._post(thread_id, text, event, m):
                log.warning("a %s notice for game #%s was lost", event.kind, getattr(event, "game_id", "?"))
        if not self.fairy.hold(getattr(event, "game_id", None), send):
            await send()

    async def _post(self, channel_id: int, text: str, event: ev.Event, m: Markup = DISCORD) -> bool:
        try:
            channel = await self.fairy.channel(channel_id)
            # the recipient is pinged; no one a name in the text mentions is
            sent = await channel.send(allowed_mentions=pings(event.recipient.user_id),
                                      **self._message(text, event, m))
        except (discord.Forbidden, discord.NotFound):
            log.warning("cannot post %s in channel %s", event.kind, channel_id)
            return False
        await self._remember(event, str(channel_id), sent)
        return True

    @staticmethod
    def _offer(event: ev.Event) -> tuple[str, int] | None:
        """What an event's buttons answer: ('challenge', its id), or ('draw' / 'takeback',
        the game's id); None: it has none."""
        if isinstance(event, ev.ChallengeReceived):
            return "challenge", event.challenge_id
        if isinstance(event, (ev.DrawOffered, ev.TakebackAsked)):
            return ("draw" if isinstance(event, ev.DrawOffered) else "takeback"), event.game_id
        return None

    def _message(self, text: str, event: ev.Event, m: Markup = DISCORD) -> dict:
        from .views import offer_view
        out = {"content": text[:2000]}
        offer = self._offer(event)
        if offer is not None:
            out["view"] = offer_view(*offer, m=m)
        return out

    async def _remember(self, event: ev.Event, channel: str, message) -> None:
        offer = self._offer(event)
        if offer is not None and message is not None:
            await self.fairy.links.remember_offer_message(*offer, channel, message.id)

    async def _disable(self, what: str, ref_id: int) -> None:
        """Disable the buttons of a settled offer wherever its notices carry them (a
        message deleted or out of reach meanwhile: nothing to do)."""
        from .views import offer_view
        for channel, message_id in await self.fairy.links.take_offer_messages(what, ref_id):
            try:
                if channel.startswith("@"):  # a direct message: its reader's language
                    where = await (await self.fairy.user(int(channel[1:]))).create_dm()
                    m = await self._reader((await self.fairy.service.player(PLATFORM, channel[1:])).id)
                else:
                    where = await self.fairy.channel(int(channel))
                    m = await self._channel_reader(what, ref_id)
                await where.get_partial_message(message_id).edit(view=offer_view(what, ref_id, settled=True, m=m))
            except discord.HTTPException as e:
                log.info("could not disable the buttons of %s #%d (message %d): %s", what, ref_id,
                         message_id, e)

    async def _channel_reader(self, what: str, ref_id: int) -> Markup:
        """The language of an offer's message in a channel: a challenge's is its challenger's,
        a game's offer is read in its thread's (first) language."""
        if what == "challenge":
            return await self._reader((await self.fairy.service.get_challenge(ref_id)).challenger.id)
        return (await self.fairy.thread_readers(await self.fairy.service.game(ref_id)))[0]

    async def _expired(self, challenge_id: int) -> None:
        """An expired challenge's message in its channel says so, its buttons disabled."""
        from .views import offer_view
        row = await self.fairy.links.challenge_message(challenge_id)
        if row is None or not row.message_id:
            return  # (it says more than the buttons: those of OfferSettled are enough)
        c = await self.fairy.service.get_challenge(challenge_id)
        m = await self._reader(c.challenger.id)  # the message is the challenger's, in their language
        text = format.challenge_text(c, m=m) + "\n⌛ " + m.tr("Expired: no one answered it in time.")
        await self.fairy.links.take_offer_messages("challenge", challenge_id, [int(row.message_id)])
        try:
            channel = await self.fairy.channel(int(row.channel_id))
            await channel.get_partial_message(int(row.message_id)).edit(
                content=text, view=offer_view("challenge", challenge_id, settled=True, m=m),
                allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.info("could not mark challenge #%d's message expired: %s", challenge_id, e)
