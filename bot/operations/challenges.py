"""Challenges: made, accepted (a game begins), declined, withdrawn, listed; their life
(limits, expiry, blocks); and the tidying of settled offers.

- A challenge expires ``challenge_days`` after it is made (setting, default 7) if no one
  has answered it; the sweep closes it (``expired``) and tells the challenger. Due ones
  are read through an index on the expiry time, a batch at a time: the cost grows with
  what is due, never with what is open.
- A player has at most ``max_open_challenges`` open challenges (default 10).
- Each pair has a budget over time: at most ``max_challenges_per_opponent`` (default 3)
  challenges from one player to another count at once, and a challenge counts while it
  is open, for ``challenge_withdrawn_hours`` (default 24) after it is withdrawn and for
  ``challenge_declined_days`` (default 7) after it is declined; an accepted one stops
  counting (playing on, rematches, are never held up), and so does an expired one (it
  took its slot for ``challenge_days`` already). So whatever the challenger withdraws,
  the opponent receives at most 3 challenges in any 24 hours, and after declining 3,
  none for a week: the one who sent 600 challenges to one victim in 20 minutes, or
  withdrew the oldest and challenged again every 2 seconds for a day, got 3 through. The
  refusal says what counts and when the next challenge is allowed (:func:`budget_refusal`).
- A withdrawn challenge whose notice the opponent never saw (the outbox still holds it,
  or gave up on it: :func:`drop_unseen_notice`) is withdrawn in silence: the notice is
  dropped and no "withdrawn" notice follows. It counts against the budget all the same,
  so racing the delivery gains nothing. A notice being delivered at that moment, or
  delivered, was seen: its withdrawal is told.
- A player may block another. The blocked player's challenges to them are refused with
  what most sites say, "you cannot challenge this player" (no more is revealed, and no
  notice is sent), their open challenges are not listed to the blocker (``list_challenges``),
  and neither may accept the other's open challenges; on blocking, the
  direct challenges open between them are closed without a word. Games already under
  way go on as before, their notices (moves, draw offers, takebacks) included: a game
  must be able to end, and the blocker can resign or abort it.
- When a challenge, a draw offer or a takeback request is settled (accepted, declined,
  withdrawn, expired, or made moot by a move or the game's end), the player whose notice
  carried its buttons gets an :class:`~bot.delivery.events.OfferSettled`: an adapter's cue to
  disable those buttons.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import rules
from language.text import T, Text

from ..config import ALLOWED_DAYS, ConfigError, parse_days
from ..delivery import events as ev
from ..delivery.events import ref
from ..domain.errors import ChallengeError, NotFound, SettingsError
from ..domain.kinds import ChallengeStatus
from ..store import ChallengeRow, GameRow, PlayerRow, Tx
from ..timekeeping.clock import DAY, HOUR, from_ts
from . import durations
from .command import UNSET
from .offers import OFFERS
from .ratings import can_be_rated
from .results import Challenge, GameView

EXPIRE_BATCH = 200  # challenges one write transaction expires: others get the database in between
COLOURS = ("white", "black", "random")  # the challenger's
SETUPS = ("default", "players")


async def _tell(tx: Tx, event: ev.Event, recipient_id: int | None, now: int,
                game_id: int | None = None) -> None:
    await tx.insert_event(event.kind, recipient_id, game_id, None, ev.encode(event), now)


def decide_rated(rated: bool | None, challenger: PlayerRow, opponent: PlayerRow | None) -> bool:
    """Whether a new challenge is rated: as asked, by default rated between two people;
    against the computer never (asking for it is refused)."""
    if rated is not None and not isinstance(rated, bool):
        raise ChallengeError(T("rated is yes or no (true or false), not {value}", value=repr(rated)))
    if opponent is not None and not can_be_rated(challenger, opponent):
        if rated:
            raise ChallengeError(T("games against the computer are never rated: leave rated out, "
                                   "or make it casual"))
        return False
    return True if rated is None else rated


async def check_new_challenge(tx: Tx, settings, challenger: PlayerRow, opponent: PlayerRow | None,
                              now: int) -> int:
    """Refuse a challenge the rules of challenges do not allow; else its expiry time."""
    if opponent is not None:
        if await tx.blocks(opponent.id, challenger.id):
            raise ChallengeError(T("you cannot challenge this player"))
        if await tx.blocks(challenger.id, opponent.id):
            raise ChallengeError(T("you have blocked {name}: unblock them first to challenge them",
                                   name=opponent.name))
        counting = await tx.challenges_counting(
            challenger.id, opponent.id, now,
            withdrawn_since=now - settings.challenge_withdrawn_hours * HOUR,
            declined_since=now - settings.challenge_declined_days * DAY)
        if len(counting) >= settings.max_challenges_per_opponent:
            raise ChallengeError(budget_refusal(settings, opponent.name, counting, now))
    most = settings.max_open_challenges
    if await tx.count_open_challenges(challenger.id, now) >= most:
        raise ChallengeError(T("you have {most} open challenges, the most allowed: withdraw one or "
                               "wait (an unanswered challenge expires after {days})",
                               most=most, days=durations.days(settings.challenge_days)))
    return now + settings.challenge_days * DAY


def counts_until(settings, c: ChallengeRow) -> int | None:
    """When challenge ``c`` stops counting against its pair's budget, if nothing else
    happens (an open one: its expiry; it may be answered sooner)."""
    if c.status == "cancelled":
        return c.answered_at + settings.challenge_withdrawn_hours * HOUR
    if c.status == "declined":
        return c.answered_at + settings.challenge_declined_days * DAY
    return c.expires_at


def budget_refusal(settings, opponent_name: str, counting: list[ChallengeRow], now: int) -> Text:
    """Why a challenge to ``opponent_name`` is refused, and when the next one is allowed."""
    most = settings.max_challenges_per_opponent
    counted = {status: n for status in ("open", "cancelled", "declined")
               if (n := sum(c.status == status for c in counting))}
    parts = [T("{n} open", n=counted["open"]) if status == "open" else
             T("{n} withdrawn", n=counted["cancelled"]) if status == "cancelled" else
             T("{n} declined", n=counted["declined"]) for status in counted]
    listed = parts[0]
    for part in parts[1:]:  # "2 open, 1 declined": a list, said in the reader's language
        listed = T("{list}, {item}", list=listed, item=part)
    free_at = min((t for c in counting if (t := counts_until(settings, c)) is not None), default=None)
    when = (T("when they answer") if free_at is None else
            T("in {duration} (at {moment} UTC)", duration=durations.duration(free_at - now),
              moment=from_ts(free_at).strftime("%Y-%m-%d %H:%M")))
    if all(c.status == "open" for c in counting):
        head = T("you already have {most} open challenges to {name}, the most allowed: "
                 "wait for an answer", most=most, name=opponent_name)
    else:
        head = T("you have challenged {name} {times} lately ({counts}), the most allowed",
                 name=opponent_name, times=durations.times(len(counting)), counts=listed)
    values = dict(head=head, withdrawn=durations.hours(settings.challenge_withdrawn_hours),
                  declined=durations.days(settings.challenge_declined_days), name=opponent_name, when=when)
    if free_at is not None and any(c.status == "open" for c in counting):
        return T("{head}. A withdrawn challenge still counts for {withdrawn}, a declined one for "
                 "{declined}. You can challenge {name} again {when}, or sooner if they accept one",
                 **values)
    return T("{head}. A withdrawn challenge still counts for {withdrawn}, a declined one for "
             "{declined}. You can challenge {name} again {when}", **values)


def closed_refusal(status: str) -> Text:
    """Why a challenge no longer open cannot be answered: a whole sentence per way it closed."""
    if status == ChallengeStatus.ACCEPTED:
        return T("that challenge is no longer open (it was accepted)")
    if status == ChallengeStatus.DECLINED:
        return T("that challenge is no longer open (it was declined)")
    if status == ChallengeStatus.CANCELLED:
        return T("that challenge is no longer open (it was cancelled)")
    if status == ChallengeStatus.EXPIRED:
        return T("that challenge is no longer open (it was expired)")
    return T("that challenge is no longer open")


async def drop_unseen_notice(tx: Tx, c: ChallengeRow) -> bool:
    """Whether the challenged player never saw challenge ``c``: its notice is still in the
    outbox (then it is dropped, never to be sent) or delivery gave up on it. A notice
    being delivered now, or delivered, counts as seen; so does one pruned long since."""
    for row in await tx.undelivered_events(ev.ChallengeReceived.kind, c.opponent_id):
        if json.loads(row.payload).get("challenge_id") == c.id:
            return row.status == "failed" or await tx.drop_event(row.id)
    return False


async def check_accept(tx: Tx, c: ChallengeRow, player_id: int, now: int) -> None:
    """Refuse accepting a challenge that has expired, or between players one of whom
    blocked the other."""
    if c.expires_at is not None and c.expires_at <= now:
        raise ChallengeError(T("that challenge has expired"))
    if await tx.blocks(player_id, c.challenger_id) or await tx.blocks(c.challenger_id, player_id):
        raise ChallengeError(T("you cannot accept this challenge"))


async def challenge_settled(tx: Tx, c: ChallengeRow, now: int, *, seen: bool = True) -> None:
    """The challenged player's notice, and the challenge's own message where it was made,
    carried buttons: they are to be disabled. Told to the challenged player (unless they
    never saw the challenge: ``seen`` False); to the challenger too where their adapter is
    another (it posted the challenge), or no one was challenged."""
    recipients = [c.opponent_id] if c.opponent_id is not None and seen else []
    if c.opponent_id is None or ((await tx.player(c.challenger_id)).platform
                                 != (await tx.player(c.opponent_id)).platform):
        recipients.append(c.challenger_id)
    for player_id in recipients:
        await _tell(tx, ev.OfferSettled(what="challenge", ref_id=c.id), player_id, now)


async def offers_settled(tx: Tx, g: GameRow, now: int, settled: Mapping[str, str | None]) -> None:
    """The draw offer and/or takeback request of game ``g`` that the change being written
    settles, as bot/operations/offers.py's ``standing_offers`` gives them (games column: the side
    whose offer it is, or None): the notice of each, to the other side, carried buttons
    to disable."""
    names = {offer.column: offer.name for offer in OFFERS}
    for column, side in settled.items():
        if side is not None:
            answerer = g.black_id if side == "w" else g.white_id
            await _tell(tx, ev.OfferSettled(what=names[column], ref_id=g.id), answerer, now, game_id=g.id)


def earliest(*times: int | None) -> int | None:
    known = [t for t in times if t is not None]
    return min(known) if known else None


class ChallengeOps:
    """The service's challenges: made, answered, listed, expired; and blocks (mixed into
    ``GameService``)."""

    async def _challenge_view(self, tx: Tx, c: ChallengeRow) -> Challenge:
        challenger = ref(await tx.player(c.challenger_id))
        opponent = ref(await tx.player(c.opponent_id)) if c.opponent_id is not None else None
        return Challenge(c.id, challenger, opponent, c.game, c.days, c.colour, c.setup,
                         ChallengeStatus(c.status),
                         from_ts(c.created_at), c.game_id, c.scope, bool(c.rated), from_ts(c.expires_at))

    async def challenge(self, challenger_id: int, game: str, *, opponent_id: int | None = None,
                        days=UNSET, colour: str = "random", setup: str = "default",
                        scope: str | None = None, rated: bool | None = None) -> Challenge:
        """Challenge a player (or, with no opponent, anyone) to a game.

        days: days per move (1, 2, 3, 5, 7, 10, 14) or None for no clock;
        colour: the challenger's, 'white', 'black' or 'random';
        setup: 'default', or 'players' (a game with a set-up phase: the players make it);
        scope: where it is made (the adapter's name for it), passed on to its game;
        rated: rated or casual (default: rated between people; against the computer never).
        Limits, expiry and blocks: this module's docstring.
        """
        async with self._command(challenger_id) as cmd:
            now = cmd.now
            if game not in rules.variants():
                raise ChallengeError(T("there is no game {game}; the games are: {games}",
                                        game=repr(game), games=", ".join(rules.variants())))
            try:
                days = self.settings.default_days if days is UNSET else parse_days(days)
            except ConfigError:
                raise ChallengeError(T("days per move must be one of {choices}, not {value}",
                                       choices=", ".join("none" if d is None else str(d) for d in ALLOWED_DAYS),
                                       value=repr(days))) from None
            if colour not in COLOURS:
                raise ChallengeError(T("the colour must be one of {colours}, not {colour}",
                                        colours=", ".join(COLOURS), colour=repr(colour)))
            if setup not in SETUPS:
                raise ChallengeError(T("the set-up must be {default} or {players}, not {setup}",
                                        default="'default'", players="'players'", setup=repr(setup)))
            if setup == "players" and rules.game(game).setup_start_fen is None:
                raise ChallengeError(T("{game} has no set-up for the players to make", game=game))
            if opponent_id == challenger_id:
                raise ChallengeError(T("you cannot challenge yourself"))
            async with self.store.write() as tx:
                challenger = await tx.player(challenger_id)
                if challenger is None:
                    raise NotFound(T("there is no player #{id}", id=challenger_id))
                opponent = await tx.player(opponent_id) if opponent_id is not None else None
                if opponent_id is not None and opponent is None:
                    raise NotFound(T("there is no player #{id}", id=opponent_id))
                rated = decide_rated(rated, challenger, opponent)
                expires_at = await check_new_challenge(tx, self.settings, challenger, opponent, now)
                cid = await tx.insert_challenge(challenger_id, opponent_id, game, days, colour, setup, now,
                                                scope, rated=rated, expires_at=expires_at)
                event = ev.ChallengeReceived(challenge_id=cid, challenger=ref(challenger), game=game,
                                             days=days, colour=colour, setup=setup,
                                             open=opponent_id is None, rated=rated)
                await self._emit(tx, event, opponent_id, now)
                view = await self._challenge_view(tx, await tx.challenge(cid))
        return view

    async def _open_challenge(self, tx: Tx, challenge_id: int) -> ChallengeRow:
        c = await tx.challenge(challenge_id)
        if c is None:
            raise NotFound(T("there is no challenge #{id}", id=challenge_id))
        if c.status != ChallengeStatus.OPEN:
            raise ChallengeError(closed_refusal(c.status))
        return c

    async def accept_challenge(self, challenge_id: int, player_id: int) -> GameView:
        async with self._command(player_id) as cmd:
            now = cmd.now
            async with self.store.read() as tx:
                c = await self._open_challenge(tx, challenge_id)
                if await tx.player(player_id) is None:
                    raise NotFound(T("there is no player #{id}", id=player_id))
                await check_accept(tx, c, player_id, now)
            if c.challenger_id == player_id:
                raise ChallengeError(T("you cannot accept your own challenge"))
            if c.opponent_id is not None and c.opponent_id != player_id:
                raise ChallengeError(T("that challenge is for someone else"))
            colour = c.colour if c.colour != "random" else self.rng.choice(("white", "black"))
            white_id, black_id = ((c.challenger_id, player_id) if colour == "white"
                                  else (player_id, c.challenger_id))
            async with self.store.write() as tx:
                if not await tx.close_challenge(c.id, "accepted", player_id, now):
                    raise ChallengeError(T("that challenge is no longer open"))
                await challenge_settled(tx, c, now)
                gid = await self._create_game(tx, c.game, white_id, black_id, c.days, now, scope=c.scope,
                                              rated=bool(c.rated), challenge_id=c.id, setup=c.setup)
                await tx.set_challenge_game(c.id, gid)
                written = await self._game_rows(tx, gid)  # before another process's first move
            cmd.new_turn_in = gid
        return self._view(await self._snap(written), self._now())

    async def decline_challenge(self, challenge_id: int, player_id: int) -> Challenge:
        return await self._close_challenge(challenge_id, player_id, "declined")

    async def cancel_challenge(self, challenge_id: int, player_id: int) -> Challenge:
        return await self._close_challenge(challenge_id, player_id, "cancelled")

    async def _close_challenge(self, challenge_id: int, player_id: int, how: str) -> Challenge:
        async with self._command(player_id) as cmd:
            now = cmd.now
            async with self.store.write() as tx:
                c = await self._open_challenge(tx, challenge_id)
                if how == "declined":
                    if c.opponent_id is None:
                        raise ChallengeError(T("an open challenge cannot be declined: just leave it"))
                    if c.opponent_id != player_id:
                        raise ChallengeError(T("only the challenged player can decline a challenge"))
                    tell = c.challenger_id
                else:
                    if c.challenger_id != player_id:
                        raise ChallengeError(T("only the challenger can cancel a challenge"))
                    tell = c.opponent_id
                if not await tx.close_challenge(c.id, how, player_id, now):
                    raise ChallengeError(T("that challenge is no longer open"))
                # withdrawn before its notice reached the opponent: both notices dropped
                seen = not (how == "cancelled" and tell is not None and await drop_unseen_notice(tx, c))
                await challenge_settled(tx, c, now, seen=seen)
                if tell is not None and seen:
                    event = ev.ChallengeClosed(challenge_id=c.id, how=how, by=ref(await tx.player(player_id)))
                    await self._emit(tx, event, tell, now)
                view = await self._challenge_view(tx, await tx.challenge(c.id))
        return view

    async def list_challenges(self, player_id: int | None = None) -> list[Challenge]:
        """Open challenges made by or to the player, and those open to anyone."""
        async with self.store.read() as tx:
            return [await self._challenge_view(tx, c) for c in await tx.open_challenges(player_id)]

    async def lobby_challenges(self, player_id: int, limit: int) -> tuple[list[Challenge], int]:
        """list_challenges a bounded page at a time (a lobby): the player's own open
        challenges and the oldest ``limit`` others they see; and how many more there are."""
        async with self.store.read() as tx:
            rows, more = await tx.open_challenges_page(player_id, limit)
            return [await self._challenge_view(tx, c) for c in rows], more

    async def get_challenge(self, challenge_id: int) -> Challenge:
        async with self.store.read() as tx:
            c = await tx.challenge(challenge_id)
            if c is None:
                raise NotFound(T("there is no challenge #{id}", id=challenge_id))
            return await self._challenge_view(tx, c)

    async def _expire_due_challenges(self, now: int) -> int:
        """Close the challenges whose time has run out; the challengers are told. (Read
        first: a sweep with nothing due takes no write lock.)"""
        n = 0
        while True:
            async with self.store.read() as tx:
                due = await tx.challenges_due(now, EXPIRE_BATCH)
            if not due:
                break
            async with self.store.write() as tx:
                for c in due:
                    if not await tx.close_challenge(c.id, "expired", None, now):
                        continue  # answered meanwhile
                    challenger = await tx.player(c.challenger_id)
                    event = ev.ChallengeClosed(challenge_id=c.id, how="expired", by=ref(challenger))
                    await _tell(tx, event, c.challenger_id, now)
                    await challenge_settled(tx, c, now)
                    n += 1
            if len(due) < EXPIRE_BATCH:
                break
        if n:
            await self._deliver(now)
        return n

    async def _next_challenge_expiry(self) -> int | None:
        async with self.store.read() as tx:
            return await tx.next_challenge_expiry()

    async def block(self, player_id: int, other_id: int) -> list[ev.PlayerRef]:
        """Block ``other_id``: their challenges no longer reach the player. Open direct
        challenges between the two are closed, with no notice. Returns the blocked list."""
        await self._throttle(player_id)
        if player_id == other_id:
            raise SettingsError(T("you cannot block yourself"))
        now = self._now()
        async with self.store.write() as tx:
            await self._two_players(tx, player_id, other_id)
            await tx.block(player_id, other_id, now)
            for frm, to, how in ((other_id, player_id, "declined"), (player_id, other_id, "cancelled")):
                for c in await tx.open_challenges_from(frm, to):
                    await tx.close_challenge(c.id, how, player_id, now)
                    await challenge_settled(tx, c, now)
            blocked = [ref(p) for p in await tx.blocked_players(player_id)]
        await self._after_commit()
        return blocked

    async def unblock(self, player_id: int, other_id: int) -> list[ev.PlayerRef]:
        await self._throttle(player_id)
        async with self.store.write() as tx:
            _, other = await self._two_players(tx, player_id, other_id)
            if not await tx.unblock(player_id, other_id):
                raise SettingsError(T("you have not blocked {name}", name=other.name))
            return [ref(p) for p in await tx.blocked_players(player_id)]

    async def blocked_players(self, player_id: int) -> list[ev.PlayerRef]:
        """The players ``player_id`` has blocked, by name."""
        async with self.store.read() as tx:
            return [ref(p) for p in await tx.blocked_players(player_id)]

    @staticmethod
    async def _two_players(tx: Tx, player_id: int, other_id: int) -> tuple[PlayerRow, PlayerRow]:
        rows = await tx.player(player_id), await tx.player(other_id)
        for pid, row in zip((player_id, other_id), rows, strict=True):
            if row is None:
                raise NotFound(T("there is no player #{id}", id=pid))
        return rows
