"""King and Queen (kingqueen): what its data cannot say.

Everything that moves is data (data/variants/kingqueen.toml): the cross of holes, the
castles, the confined royals, promotion by capture, drops and the facing rule are core
mechanisms. This extension only reads the inventor's letter for Blue's royal (``Q``, the
Queen), says why a drop is refused when the core's reason would not fit, and refuses
position strings with a royal outside its castle.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from language.text import T, Text, known

from ..errors import FenError, NoSuchMoveError, NotYourPieceError, RulesError
from ..game import GameExtension, PositionView, extension
from ..pieces import WHITE

# a royal's letter at the start of a move text: "Qe2", "Qxd2", "+Qe1f2", "qd1-d2"
_QUEEN = re.compile(r"^(\s*\+?)[Qq](?=[a-iA-I]\d|[-x:]|$)")
_DROP = re.compile(r"\s*(\+?)([A-Za-z])\s*@\s*([a-iA-I]\d)\s*[+#!?]*\s*")


@extension("kingqueen")
class KingQueen(GameExtension):

    def rewrite(self, pos: PositionView, text: str) -> Iterator[str]:
        """`Q` (or `+Q`) names Blue's royal, the Queen (K in the engine's codes)."""
        if pos.side == WHITE and _QUEEN.match(text):
            yield _QUEEN.sub(lambda m: m.group(1) + "K", text, count=1)

    def explain(self, pos: PositionView, text: str) -> RulesError | None:
        """Why a text that uses `Q`, or a drop, names no legal move; None to let the core say."""
        drop = _DROP.fullmatch(text)
        if drop:
            return self._drop_refusal(pos, *drop.groups())
        if not _QUEEN.match(text):
            return None
        if pos.side != WHITE:
            return NotYourPieceError(T("{move}: Q is Blue's royal, the Queen; Red's royal is the King, K",
                                       move=repr(text.strip())))
        from ..notation import explain, requoted
        as_k = _QUEEN.sub(lambda m: m.group(1) + "K", text, count=1)
        err = explain(pos, as_k)
        return type(err)(requoted(err.text, repr(as_k), repr(text)))  # quote what was typed

    def _drop_refusal(self, pos: PositionView, plus: str, letter: str, square: str) -> RulesError | None:
        game = self.game
        code = "K" if letter.upper() == "Q" else letter.upper()
        shown = f"{plus}{letter}@{square}"
        if code not in game.types:
            return None
        name = known(game.kind(code, pos.side).name)
        move = repr(shown)
        if code not in game.drop_order:
            return NoSuchMoveError(T("{move}: a {piece} is never held in hand, so never dropped", move=move,
                                     piece=name))
        if plus:
            return NoSuchMoveError(T("{move}: a piece is always dropped unpromoted; write {written}", move=move,
                                     written=code + "@" + square.lower()))
        hand = pos.hands[pos.side]
        if code in dict(hand):
            return None  # the core's reasons: dropped last turn, not the castle
        if not hand:  # said before "dropped last turn": with no such piece that is beside the point
            return NoSuchMoveError(T("{move}: you have no {piece} ({letter}) in hand; you have nothing in hand",
                                     move=move, piece=name, letter=code))
        held: Text | str = ""
        for i, (k, n) in enumerate(hand):
            one = T("{piece} ({letter})", piece=known(game.kind(k, pos.side).name), letter=k)
            if n > 1:
                one = T("{piece} x{n}", piece=one, n=n)
            held = one if i == 0 else T("{first}, {then}", first=held, then=one)
        return NoSuchMoveError(T("{move}: you hold no {piece} ({letter}); in hand: {held}", move=move, piece=name,
                                 letter=code, held=held))

    def validate(self, pos: PositionView) -> None:
        """A confined piece (the royal) must stand in its zone (its castle)."""
        game = self.game
        for sq, k in enumerate(pos.board):
            if k is not None and k.type.confined and sq not in game.zone(k.type.confined, k.color):
                raise FenError(f"{game.side_name(k.color)}'s {k.name} on {game.geometry.names[sq]} "
                               f"stands outside its castle")
