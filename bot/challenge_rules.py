"""Challenges with a life: limits, expiry, blocks, and the tidying of settled offers.

- A challenge expires ``challenge_days`` after it is made (setting, default 7) if no one
  has answered it; the sweep closes it (``expired``) and tells the challenger. Due ones
  are read through an index on the expiry time, a batch at a time: the cost grows with
  what is due, never with what is open.
- A player has at most ``max_open_challenges`` open challenges (default 10), at most
  ``max_challenges_per_opponent`` of them to one opponent (default 3): the one who sent
  600 challenges to one victim gets 3 through, and the victim 3 notices.
- A player may block another. The blocked player's challenges to them are refused with
  what most sites say, "you cannot challenge this player" (no more is revealed, and no
  notice is sent), their open challenges are not listed to the blocker (``list_challenges``),
  and neither may accept the other's open challenges; on blocking, the
  direct challenges open between them are closed without a word. Games already under
  way go on as before, their notices (moves, draw offers, takebacks) included: a game
  must be able to end, and the blocker can resign or abort it.
- When a challenge, a draw offer or a takeback request is settled (accepted, declined,
  withdrawn, expired, or made moot by a move or the game's end), the player whose notice
  carried its buttons gets an :class:`~bot.events.OfferSettled`: an adapter's cue to
  disable those buttons.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import events as ev
from .timekeeping.clock import DAY
from .errors import ChallengeError, NotFound, SettingsError
from .offers import OFFERS
from .players import ref
from .rating_service import can_be_rated
from .store import ChallengeRow, GameRow, PlayerRow, Tx

EXPIRE_BATCH = 200  # challenges one write transaction expires: others get the database in between


async def _tell(tx: Tx, event: ev.Event, recipient_id: int | None, now: int,
                game_id: int | None = None) -> None:
    await tx.insert_event(event.kind, recipient_id, game_id, None, ev.encode(event), now)


def decide_rated(rated: bool | None, challenger: PlayerRow, opponent: PlayerRow | None) -> bool:
    """Whether a new challenge is rated: as asked, by default rated between two people;
    against the computer never (asking for it is refused)."""
    if rated is not None and not isinstance(rated, bool):
        raise ChallengeError(f"rated is yes or no (true or false), not {rated!r}")
    if opponent is not None and not can_be_rated(challenger, opponent):
        if rated:
            raise ChallengeError("games against the computer are never rated: leave rated out, "
                                 "or make it casual")
        return False
    return True if rated is None else rated


async def check_new_challenge(tx: Tx, settings, challenger: PlayerRow, opponent: PlayerRow | None,
                              now: int) -> int:
    """Refuse a challenge the rules of challenges do not allow; else its expiry time."""
    if opponent is not None:
        if await tx.blocks(opponent.id, challenger.id):
            raise ChallengeError("you cannot challenge this player")
        if await tx.blocks(challenger.id, opponent.id):
            raise ChallengeError(f"you have blocked {opponent.name}: unblock them first to "
                                 "challenge them")
        most = settings.max_challenges_per_opponent
        if await tx.count_open_challenges(challenger.id, now, opponent.id) >= most:
            raise ChallengeError(f"you already have {most} open challenges to "
                                 f"{opponent.name}, the most allowed: wait for an answer, or "
                                 "withdraw one")
    most = settings.max_open_challenges
    if await tx.count_open_challenges(challenger.id, now) >= most:
        raise ChallengeError(f"you have {most} open challenges, the most allowed: withdraw one or "
                             f"wait (an unanswered challenge expires after "
                             f"{settings.challenge_days} days)")
    return now + settings.challenge_days * DAY


async def check_accept(tx: Tx, c: ChallengeRow, player_id: int, now: int) -> None:
    """Refuse accepting a challenge that has expired, or between players one of whom
    blocked the other."""
    if c.expires_at is not None and c.expires_at <= now:
        raise ChallengeError("that challenge has expired")
    if await tx.blocks(player_id, c.challenger_id) or await tx.blocks(c.challenger_id, player_id):
        raise ChallengeError("you cannot accept this challenge")


async def challenge_settled(tx: Tx, c: ChallengeRow, now: int) -> None:
    """The challenged player's notice, and the challenge's own message where it was made,
    carried buttons: they are to be disabled. Told to the challenged player; to the
    challenger too where their adapter is another (it posted the challenge), or no one
    was challenged."""
    recipients = [c.opponent_id] if c.opponent_id is not None else []
    if c.opponent_id is None or ((await tx.player(c.challenger_id)).platform
                                 != (await tx.player(c.opponent_id)).platform):
        recipients.append(c.challenger_id)
    for player_id in recipients:
        await _tell(tx, ev.OfferSettled(what="challenge", ref_id=c.id), player_id, now)


async def offers_settled(tx: Tx, g: GameRow, now: int, settled: Mapping[str, str | None]) -> None:
    """The draw offer and/or takeback request of game ``g`` that the change being written
    settles, as bot/offers.py's ``standing_offers`` gives them (games column: the side
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


class ChallengeLife:
    """The service's expiry and blocking operations (mixed into ``GameService``)."""

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
            raise SettingsError("you cannot block yourself")
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
                raise SettingsError(f"you have not blocked {other.name}")
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
                raise NotFound(f"there is no player #{pid}")
        return rows
