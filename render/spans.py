"""Pieces that stand on several squares: where a piece's other squares are, as its
game's special mover says (``SpecialMover.partner_steps``); pictures draw such a piece
as one figure over its squares."""

from __future__ import annotations


def mover_of(game: str, code: str, promoted: bool = False):
    """The rules special mover of a piece, or None (no mover, or an unknown game)."""
    import rules
    try:
        g = rules.game(game)
    except rules.RulesError:
        return None
    key = "+" + code if promoted and "+" + code in g.types else code
    return g.movers.get(key)


def partner_steps(game: str, code: str, promoted: bool, state: str | None) -> tuple:
    """The (file, rank) steps from one square of the piece to its others (none for a
    piece on one square)."""
    mover = mover_of(game, code, promoted)
    if mover is None or mover.span < 2 or state is None:
        return ()
    return mover.partner_steps(state.upper())


def kind_partner_steps(kind) -> tuple:
    """The same for a rules PieceKind."""
    hook = kind.hook
    if hook is None or hook.span < 2 or kind.state is None:
        return ()
    return hook.partner_steps(kind.state)
