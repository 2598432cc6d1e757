"""Offers one player makes and the other answers: draw offers and takeback requests.

Each kind is one :class:`Offer`: the games column that holds the side whose offer stands,
the refusals, the notices, what accepting does, and which moves make it lapse. The
service makes, answers and lapses them all the same way (``make_offer``,
``answer_offer``, ``lapsed``); a third kind is one more ``Offer`` (and its column).
:class:`OfferOps` are the service's operations on them (``offer_draw``, ``ask_takeback``, ...).

What an offer needs of the command under way is :class:`OfferCommand` (the service's
``GameCommand`` is one), so this module imports nothing of the service's machinery."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from language.text import T, Text

from ..delivery import events as ev
from ..delivery.events import ref
from ..domain.errors import DrawError, ServiceError, TakebackError
from ..domain.kinds import Outcome, Side
from .results import GameView


class OfferCommand(Protocol):
    """The game command an offer is made or answered in."""

    side: Side  # the side giving the command

    @property
    def game(self) -> Any: ...  # the store's GameRow

    @property
    def moves(self) -> Sequence[Any]: ...  # the store's MoveRows

    def player(self, side: Side) -> Any: ...  # that side's PlayerRow

    def write(self) -> AbstractAsyncContextManager: ...  # the command's write transaction

    async def tell(self, tx, side: Side, event: ev.Event) -> None: ...

    async def finish(self, tx, outcome: Outcome) -> None: ...

    async def position_before_last(self) -> Any: ...

    async def take_back(self, tx, before) -> None: ...


@dataclass(frozen=True)
class Offer:
    column: str  # the games column naming the side whose offer stands (None: none does)
    error: type[ServiceError]
    already_made: Text | str  # the refusal when one's own offer stands
    # the refusal with no offer to accept (called with True) or decline (False); or a str
    # naming the answer as {verb} (accept, decline)
    nothing_to_answer: Callable[[bool], Text] | str
    offered: Callable[[OfferCommand], ev.Event]  # the notice to the opponent
    declined: Callable[[OfferCommand], ev.Event]  # to the offerer
    # what accepting does, inside the write (``prepared``: what ``prepare`` found before it)
    accept: Callable[[OfferCommand, Any, Any], Awaitable[None]]
    accepted: Callable[[OfferCommand], ev.Event] | None = None  # to the offerer, if anything
    prepare: Callable[[OfferCommand], Awaitable[Any]] | None = None  # slow work, before the write
    # whether the offer can be made (stands) for ``side`` now; the refusal when not
    applies: Callable[[Sequence[Any], Side], bool] = lambda moves, side: True
    cannot_make: Text | str = ""
    crossing_accepts: bool = False  # offering while the opponent's offer stands accepts it
    lapses: Callable[[Side, Side], bool] = lambda offerer, mover: True  # when ``mover`` moves
    name: str = ""  # as events name it (OfferSettled.what)

    def standing(self, game) -> Side | None:
        side = getattr(game, self.column)
        return None if side is None else Side(side)


def _by(cmd: OfferCommand):
    return ref(cmd.player(cmd.side))


async def _agree_draw(cmd: OfferCommand, tx, _prepared) -> None:
    await cmd.finish(tx, Outcome.draw("agreement"))


async def _take_back(cmd: OfferCommand, tx, before) -> None:
    await cmd.take_back(tx, before)


DRAW = Offer(
    column="draw_offer",
    error=DrawError,
    already_made=T("you have already offered a draw"),
    nothing_to_answer=lambda accept: (T("there is no draw offer from your opponent to accept") if accept
                                      else T("there is no draw offer from your opponent to decline")),
    offered=lambda cmd: ev.DrawOffered(game_id=cmd.game.id, game=cmd.game.game, by=_by(cmd)),
    declined=lambda cmd: ev.DrawDeclined(game_id=cmd.game.id, game=cmd.game.game, by=_by(cmd)),
    accept=_agree_draw,
    crossing_accepts=True,
    lapses=lambda offerer, mover: offerer == mover,  # it stands until its maker moves
    name="draw",
)

TAKEBACK = Offer(
    column="takeback_by",
    error=TakebackError,
    already_made=T("you have already asked to take that move back"),
    nothing_to_answer=lambda accept: T("there is no takeback request from your opponent to answer"),
    offered=lambda cmd: ev.TakebackAsked(game_id=cmd.game.id, game=cmd.game.game, by=_by(cmd),
                                         move=cmd.moves[-1].san),
    declined=lambda cmd: ev.TakebackAnswered(game_id=cmd.game.id, game=cmd.game.game, by=_by(cmd),
                                             accepted=False),
    accepted=lambda cmd: ev.TakebackAnswered(game_id=cmd.game.id, game=cmd.game.game, by=_by(cmd),
                                             accepted=True),
    accept=_take_back,
    prepare=lambda cmd: cmd.position_before_last(),
    applies=lambda moves, side: bool(moves) and moves[-1].side == side,  # one's own last move
    cannot_make=T("you can only take back your own last move, before your opponent replies"),
    name="takeback",
)

OFFERS = (DRAW, TAKEBACK)


def cleared() -> dict[str, None]:
    """The games columns that say no offer stands: a finished game's, a taken-back move's."""
    return {offer.column: None for offer in OFFERS}


def standing_offers(game) -> dict[str, str | None]:
    """Each offer's column and the side whose offer stands in ``game`` (None: none)."""
    return {offer.column: getattr(game, offer.column) for offer in OFFERS}


def lapsed(standing: dict[str, str | None], mover: Side) -> dict[str, None]:
    """The offers (``standing_offers()``) that ``mover``'s move makes lapse, as games column
    updates."""
    return {offer.column: None for offer in OFFERS
            if (offerer := standing.get(offer.column)) is not None
            and offer.lapses(Side(offerer), mover)}


async def make_offer(offer: Offer, cmd: OfferCommand) -> None:
    """The player makes the offer (or, where crossing offers agree, accepts the
    opponent's); the opponent is told."""
    standing = offer.standing(cmd.game)
    if standing == cmd.side:
        raise offer.error(offer.already_made)
    if standing is not None and offer.crossing_accepts:
        await _accept(offer, cmd)
        return
    if not offer.applies(cmd.moves, cmd.side):
        raise offer.error(offer.cannot_make)
    async with cmd.write() as tx:
        await tx.update_game(cmd.game.id, **{offer.column: cmd.side})
        await cmd.tell(tx, cmd.side.other, offer.offered(cmd))


async def answer_offer(offer: Offer, cmd: OfferCommand, accept: bool) -> None:
    """The player accepts or declines the opponent's offer."""
    offerer = cmd.side.other
    if offer.standing(cmd.game) != offerer or not offer.applies(cmd.moves, offerer):
        refusal = offer.nothing_to_answer
        raise offer.error(refusal.format(verb="accept" if accept else "decline") if isinstance(refusal, str)
                          else refusal(accept))
    if accept:
        await _accept(offer, cmd)
        return
    async with cmd.write() as tx:
        await tx.update_game(cmd.game.id, **{offer.column: None})
        await cmd.tell(tx, offerer, offer.declined(cmd))
        # the buttons of the notice this answers are moot (accepting: the game's end or the
        # takeback says so)
        await cmd.tell(tx, cmd.side, ev.OfferSettled(what=offer.name, ref_id=cmd.game.id))


async def _accept(offer: Offer, cmd: OfferCommand) -> None:
    prepared = await offer.prepare(cmd) if offer.prepare else None
    async with cmd.write() as tx:
        await offer.accept(cmd, tx, prepared)
        if offer.accepted is not None:
            await cmd.tell(tx, cmd.side.other, offer.accepted(cmd))


class OfferOps:
    """The service's draw offers and takeback requests (mixed into ``GameService``, which
    provides ``_game_command``)."""

    async def offer_draw(self, game_id: int, player_id: int, *,
                         expected_ply: int | None = None) -> GameView:
        """Offer a draw; if the opponent's offer stands, this accepts it. The offer
        stands until answered or until its maker moves."""
        return await self._make_offer(DRAW, game_id, player_id, expected_ply)

    async def accept_draw(self, game_id: int, player_id: int, *,
                          expected_ply: int | None = None) -> GameView:
        return await self._answer_offer(DRAW, game_id, player_id, True, expected_ply)

    async def decline_draw(self, game_id: int, player_id: int, *,
                           expected_ply: int | None = None) -> GameView:
        return await self._answer_offer(DRAW, game_id, player_id, False, expected_ply)

    async def ask_takeback(self, game_id: int, player_id: int, *,
                           expected_ply: int | None = None) -> GameView:
        """Ask to take back one's own last move, before the opponent has replied."""
        return await self._make_offer(TAKEBACK, game_id, player_id, expected_ply)

    async def accept_takeback(self, game_id: int, player_id: int, *,
                              expected_ply: int | None = None) -> GameView:
        """Take the asker's last move back; the asker is to move again, with full time."""
        return await self._answer_offer(TAKEBACK, game_id, player_id, True, expected_ply)

    async def decline_takeback(self, game_id: int, player_id: int, *,
                               expected_ply: int | None = None) -> GameView:
        return await self._answer_offer(TAKEBACK, game_id, player_id, False, expected_ply)

    async def _make_offer(self, offer: Offer, game_id: int, player_id: int,
                          expected_ply: int | None) -> GameView:
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            await make_offer(offer, cmd)
        return await cmd.view()

    async def _answer_offer(self, offer: Offer, game_id: int, player_id: int, accept: bool,
                            expected_ply: int | None) -> GameView:
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            await answer_offer(offer, cmd, accept)
        return await cmd.view()
