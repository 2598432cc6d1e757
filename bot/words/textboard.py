"""A position as plain text, for the terminal and for mail (bot/email/).

Uses only what a rules ``Position`` shows: the board (a list of piece kinds, None for
an empty square), the geometry (file letters, ranks, holes), each kind's ``symbol``
(its code, upper case for White and lower case for Black, ``+`` before a promoted
piece, its state in brackets: a facing ``C(NE)``, a setting ``S(V)``, each half
of a two-square piece ``W(E)`` naming the side its other half is on) and the hands.
Every square gets the same width, so the board stays a grid whatever stands on it; an
empty square is ``.``, a hole (a square that is not part of the board) is blank.

    text_board(pos)               the board with coordinates, then hands if the game has them
    text_board(pos, flip=True)    seen from Black's side
    text_board(pos, marks=(chosen, reach))   one piece and where it can go marked
"""

from __future__ import annotations

from language import ENGLISH, Language

EMPTY = "."
HOLE = " "


def cell_width(pos) -> int:
    """The widest symbol any piece of this game can have (so the grid does not
    change width during a game), at least that of every piece now on the board."""
    width = 1
    for t in getattr(pos.game, "types", {}).values():
        states = tuple(t.states) + tuple(getattr(t, "extra_states", ()))
        width = max(width, len(t.key) + (2 + max(map(len, states)) if states else 0))
    for kind in pos.board:
        if kind is not None:
            width = max(width, len(kind.symbol))
    return width


MOVE_MARK = "*"     # an empty square the chosen piece can move to
TAKE_MARK = "x"     # before a piece it can take (in the gap left of its square)
CHOSEN_MARK = ">"   # before the chosen piece itself


def text_board(pos, *, flip: bool = False, hands: bool | None = None,
               marks: tuple[frozenset[int], frozenset[int]] | None = None, lang: Language = ENGLISH) -> str:
    """The board as lines of text: rank numbers on both sides, file letters above and
    below; then, for a game with drops (or any position with pieces in hand), each
    side's hand. ``marks``: (the chosen piece's squares, the squares it can reach), shown
    as ``>N`` for the piece, ``*`` on an empty square it can go to, ``xp`` before a piece
    it can take (the gap left of a square carries the mark, so the grid keeps its width).
    ``lang``: the reader's language, for the hands' words."""
    chosen, reach = marks or (frozenset(), frozenset())
    geo = pos.game.geometry
    w = cell_width(pos)
    files = list(range(geo.width))
    ranks = list(range(geo.height))
    if flip:
        files.reverse()
    else:
        ranks.reverse()
    label = len(str(geo.height))
    letters = " " * (label + 2) + " ".join(geo.files[f].ljust(w) for f in files).rstrip()
    lines = [letters]
    for r in ranks:
        row = ""
        for i, f in enumerate(files):
            sq = r * geo.width + f
            kind = pos.board[sq]
            gap = " " if i else "  "
            if sq in geo.holes:
                text = HOLE
            elif kind is None:
                text = MOVE_MARK if sq in reach else EMPTY
            else:
                text = kind.symbol
                mark = CHOSEN_MARK if sq in chosen else TAKE_MARK if sq in reach else None
                if mark:
                    gap = gap[:-1] + mark
            row += gap + text.ljust(w)
        lines.append(f"{r + 1:>{label}}" + row + f"  {r + 1}")
    lines.append(letters)
    show_hands = hands if hands is not None else (
        bool(getattr(pos.game, "drop_zone", None)) or any(pos.hands))
    if show_hands:
        lines.append("")
        lines.extend(hand_lines(pos, lang))
    return "\n".join(lines)


def hand_lines(pos, lang: Language = ENGLISH) -> list[str]:
    """'White in hand: P, N x2' for each side ('-' when empty)."""
    out = []
    for colour, name in enumerate(side_names(pos, lang)):
        # in each side's case, like its pieces on the board
        items = [(key if colour == 0 else key.lower()) + (f" x{n}" if n > 1 else "")
                 for key, n in pos.hands[colour]]
        out.append(lang.tr("{side} in hand: {pieces}", side=name, pieces=", ".join(items) if items else "-"))
    return out


def side_names(pos, lang: Language = ENGLISH) -> tuple[str, str]:
    """The game's names of the two sides (White and Black, or the game's own), in ``lang``."""
    names = getattr(pos.game, "side_names", None)
    if names is None:
        return (lang.tr("White"), lang.tr("Black"))
    white, black = names
    return (lang.data(white), lang.data(black))


def legend_lines(pos, lang: Language = ENGLISH) -> list[str]:
    """Each kind of piece now on the board (or in hand) with its name: 'N  Knight'
    (a piece with a state once, with the states its brackets can show)."""
    seen: dict[str, object] = {}
    for kind in pos.board:
        if kind is not None:
            seen.setdefault(kind.key, kind)
    for colour in (0, 1):
        for key, _ in pos.hands[colour]:
            seen.setdefault(key, None)
    types = getattr(pos.game, "types", {})
    out = []
    for key in sorted(seen, key=lambda k: (k.startswith("+"), k.lstrip("+"))):
        t = types.get(key)
        if t is None:
            continue
        names = getattr(t, "side_names", None)
        name = " / ".join(map(lang.data, names)) if names else lang.data(t.name)
        if t.states:
            name = lang.tr("{piece}, in brackets one of {states}", piece=name, states=" ".join(t.states))
        out.append(f"{key:<3}{name}")
    return out
