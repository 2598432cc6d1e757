"""King and Queen (kingqueen): what its data cannot say.

Everything that moves is data (data/variants/kingqueen.toml): the cross of holes, the
castles, the confined royals, promotion by capture, drops and the facing rule are core
mechanisms. This extension only reads the inventor's letter for Blue's royal (``Q``, the
Queen) and refuses position strings with a royal outside its castle.
"""
from __future__ import annotations

import re

from ..errors import FenError, NotYourPieceError
from ..pieces import WHITE
from . import extension

# a royal's letter at the start of a move text: "Qe2", "Qxd2", "+Qe1f2", "qd1-d2"
_QUEEN = re.compile(r"^(\s*\+?)[Qq](?=[a-iA-I]\d|[-x:]|$)")


@extension("kingqueen")
class KingQueen:
    def __init__(self, game):
        self.game = game

    def rewrite(self, pos, text: str):
        """`Q` (or `+Q`) names Blue's royal, the Queen (K in the engine's codes)."""
        if pos.side == WHITE and _QUEEN.match(text):
            yield _QUEEN.sub(lambda m: m.group(1) + "K", text, count=1)

    def explain(self, pos, text: str):
        """Why a text that uses `Q` names no legal move, or None to let the core say."""
        if not _QUEEN.match(text):
            return None
        if pos.side != WHITE:
            return NotYourPieceError(
                f"{text.strip()!r}: Q is Blue's royal, the Queen; Red's royal is the King, K")
        from ..notation import explain
        return explain(pos, _QUEEN.sub(lambda m: m.group(1) + "K", text, count=1))

    def validate(self, pos):
        """A confined piece (the royal) must stand in its zone (its castle)."""
        game = self.game
        for sq, k in enumerate(pos.board):
            if k is not None and k.type.confined and sq not in game.zone(k.type.confined, k.color):
                raise FenError(f"{game.side_name(k.color)}'s {k.name} on {game.geometry.names[sq]} "
                               f"stands outside its castle")
