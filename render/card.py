"""Piece cards for the help command: one piece alone on an empty board of its game,
with every square it can reach marked, as the rules engine computes it.

    piece_card(game_id, key, color="w", state=None) -> PieceCard   (position, marks, texts)
    piece_card_image(...) -> RGB image;  piece_card_png(...) -> PNG bytes

The piece stands on a sensible square: the middle of the board; a confined piece
(royals kept in a castle) in its zone, as near the middle as it can; a piece with an
initial move (a Pawn's double step) on its start square nearest the middle; a
royal with a one-time jump on its jump square with its jump right. A piece on two
squares covers both (its special mover says where the other is).
Its side has no royal, so by the rules contract it may make every pseudo-legal move:
the marks are exactly `moves_from` of that position. A dot marks a square it can move
to; a cross a square it could only capture on (found by putting one enemy piece on
each other square in turn: a Pawn's diagonals, a shooter's targets).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from language import ENGLISH, Language, T, language

from . import palette
from .board import (
    Layout,
    _cross_mark,
    _dest_marks,
    _ring_mark,
    draw_board,
    make_layout,
    to_png,
)
from .diagram import diagram_fen
from .pen import load_font
from .position import move_destinations, piece_of, piece_squares, zones_of

FONT = "NotoSans-Light.ttf"
_COLOURS = "wb"

# For pieces whose data file has no description (the orthodox ones), by Betza.
_FALLBACK = {
    "K": T("One square in any direction."),
    "Q": T("Any number of squares along a rank, file or diagonal."),
    "R": T("Any number of squares along a rank or file."),
    "B": T("Any number of squares diagonally."),
    "N": T("The (2,1) leap, over anything in between."),
    "fmWfceFifmnD": T("One square straight forward, two from its start square if both are empty; captures one "
                      "square diagonally forward, also en passant."),
}


@dataclass(frozen=True)
class PieceCard:
    game_id: str
    key: str
    colour: str                # "w" or "b"
    state: str | None
    position: object           # the rules Position the card shows
    squares: tuple[str, ...]   # the piece's square(s) (several for a piece on several)
    moves: frozenset[str]      # squares it can move to on the empty board (dots or rings)
    quiet: frozenset[str]      # of those, where it could never capture (rings)
    captures: frozenset[str]   # squares it could only capture on (crosses)
    title: str
    subtitle: str
    text: str

    @property
    def square(self) -> str:
        return self.squares[0]

    @property
    def flip(self) -> bool:
        """A Black piece is shown from Black's side, moving up the picture."""
        return self.colour == "b"


# -- building the position ---------------------------------------------------------------

def vfen(game, pieces: dict[int, object], side: int, rights: str = "-") -> str:
    """A VFEN string with these kinds on these squares (and nothing else)."""
    names = game.geometry.names
    return diagram_fen(game, {names[sq]: k.symbol for sq, k in pieces.items()},
                       _COLOURS[side], rights)


def _distance(geo, sq: int, target: tuple[float, float]) -> tuple:
    f, r = geo.file_of(sq), geo.rank_of(sq)
    return ((f - target[0]) ** 2 + (r - target[1]) ** 2, abs(f - target[0]), f, r)


def _centre(geo, colour: int) -> tuple[float, float]:
    """The middle square's coordinates; Black's is White's turned half a circle, so
    that both cards look alike (a Black card is shown flipped)."""
    f, r = (geo.width - 1) // 2, (geo.height - 1) // 2
    return (geo.width - 1 - f, geo.height - 1 - r) if colour else (f, r)


def card_square(game, key: str, colour: int) -> tuple[int, str]:
    """(square, castling/jump rights) where a card puts this piece."""
    geo = game.geometry
    t = game.types[key]
    centre = _centre(geo, colour)
    if t.royal and game.king_jump_square(colour) is not None:
        sq = game.king_jump_square(colour)
        letter = geo.files[geo.file_of(sq)]
        return sq, letter.upper() if colour == 0 else letter
    if t.confined:
        pool = game.zone(t.confined, colour)
    elif t.initial:
        pool = game.initial_squares(t, colour)
    else:
        pool = geo.squares
    return min(pool, key=lambda s: _distance(geo, s, centre)), "-"


def _probe_type(game) -> str:
    """An enemy piece for probing captures: plain, never promoting, never confined."""
    for key, t in game.types.items():
        if not (t.royal or t.pawn or t.promotion or t.states or t.hook or t.confined
                or t.paths or t.initial):
            return key
    return next(k for k, t in game.types.items() if not t.royal)


def _state_for(t, state: str | None) -> str | None:
    if state is not None:
        if state not in t.states and state not in t.extra_states:
            raise ValueError(f"{t.name} has no state {state!r} (states: {', '.join(t.states)})")
        return state
    if t.states:
        return t.states[0]
    return None


def _state_towards(mover, t, step) -> str:
    """The state of a piece on two squares whose other half is one step away."""
    return next(s for s in t.states if mover.partner_steps(s) == (step,))


def piece_card(game_id: str, key: str, color: str = "w", state: str | None = None,
               lang: Language = ENGLISH) -> PieceCard:
    """The card of one piece: its position and marks (see the module's doc), its words in
    the reader's language."""
    return _piece_card(game_id, key, color, state, lang.code)


@lru_cache(maxsize=512)
def _piece_card(game_id: str, key: str, color: str, state: str | None, lang_code: str) -> PieceCard:
    import rules

    game = rules.game(game_id)
    if key not in game.types:
        raise ValueError(f"{game.name} has no piece {key!r} (pieces: {', '.join(game.types)})")
    colour = _COLOURS.index(color)
    t = game.types[key]
    state = _state_for(t, state)
    geo = game.geometry
    sq, rights = card_square(game, key, colour)
    pieces = {sq: game.kind(key, colour, state)}
    mover = game.movers.get(key)
    steps = mover.partner_steps(state) if mover is not None and mover.span > 1 else ()
    if steps:   # a piece on two squares: its other half, whose state points back
        (dx, dy), = steps
        other = geo.step(sq, dx, dy)
        if other is None:  # at an edge: lie the other way
            other = geo.step(sq, -dx, -dy)
            pieces[sq] = game.kind(key, colour, _state_towards(mover, t, (-dx, -dy)))
            state_other = state
        else:
            state_other = _state_towards(mover, t, (-dx, -dy))
        pieces[other] = game.kind(key, colour, state_other)
    pos = rules.from_fen(game_id, vfen(game, pieces, colour, rights))
    own = piece_squares(pos, sq)
    moves = move_destinations(pos.moves_from(sq), own)
    capturing = _capturing(game_id, game, pieces, colour, rights, sq, set(own))
    captures, quiet = capturing - moves, moves - capturing
    names = geo.names
    title, subtitle, text = _texts(game, t, colour, state, language(lang_code))
    return PieceCard(game_id, key, color, state, pos, tuple(names[s] for s in own),
                     frozenset(names[s] for s in moves), frozenset(names[s] for s in quiet),
                     frozenset(names[s] for s in captures),
                     title, subtitle, text)


def _capturing(game_id, game, pieces, colour, rights, sq, skip) -> set[int]:
    """Squares where the piece could capture an enemy standing there alone."""
    import rules

    enemy = game.kind(_probe_type(game), 1 - colour)
    found = set()
    for target in game.geometry.squares:
        if target in skip:
            continue
        try:
            pos = rules.from_fen(game_id, vfen(game, {**pieces, target: enemy}, colour, rights))
        except rules.RulesError:
            continue   # a diagram the game refuses (never for the probes we use)
        if any(target in m.captures for m in pos.moves_from(sq)):
            found.add(target)
    return found


# -- texts -------------------------------------------------------------------------------

def description(game, t, lang: Language = ENGLISH) -> str:
    """The piece's description from its game's data file, or for an orthodox piece
    without one, the usual words (and its promotion)."""
    if t.description:
        return " ".join(lang.data(t.description).split())
    fallback = _FALLBACK.get(t.betza)
    sentences = [lang.say(fallback)] if fallback is not None else []
    if t.royal:
        sentences.insert(0, lang.tr("Royal."))
        if game.castlings:
            sentences.append(lang.tr("Castles."))
    if t.promotion and t.promotion.to and not t.promotion.on_capture:
        sentences.append(_promotes(game, t.promotion.to, lang))
    return " ".join(sentences) or lang.tr("Moves as the Betza notation {betza} says.", betza=repr(t.betza))


def _promotes(game, keys, lang: Language) -> str:
    """"Promotes on the last rank to a Queen, Rook, Bishop or Knight."""
    names = [game.types[k].name for k in keys]
    first = lang.data(names[0])
    if len(names) == 1:
        if names[0][:1] in "AEIOU":
            return lang.tr("Promotes on the last rank to an {piece}.", piece=first)
        return lang.tr("Promotes on the last rank to a {piece}.", piece=first)
    pieces = ", ".join(lang.data(n) for n in names[:-1])
    if names[0][:1] in "AEIOU":
        return lang.tr("Promotes on the last rank to an {pieces} or {last}.", pieces=pieces,
                       last=lang.data(names[-1]))
    return lang.tr("Promotes on the last rank to a {pieces} or {last}.", pieces=pieces, last=lang.data(names[-1]))


def _texts(game, t, colour: int, state: str | None, lang: Language = ENGLISH) -> tuple[str, str, str]:
    name = lang.data(t.side_names[colour] if t.side_names else t.name)
    title = f"{name}  {t.key}"
    side = lang.data(game.side_names[colour])
    bits = [lang.data(game.name), side]
    if t.side_names and t.side_names[0] != t.side_names[1]:
        bits.append(lang.tr("{side}'s is the {piece}", side=lang.data(game.side_names[1 - colour]),
                            piece=lang.data(t.side_names[1 - colour])))
    if state is not None:
        mover = game.movers.get(t.key)
        bits.append(lang.say(mover.state_text(state)) if mover is not None
                    else lang.tr("set to {state}", state=state))
    return title, " \u00b7 ".join(bits), description(game, t, lang)


def wrap(text: str, font, width: float) -> list[str]:
    """Lines of text no wider than width pixels (words are never split)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            cand = f"{line} {word}" if line else word
            if line and font.getlength(cand) > width:
                lines.append(line)
                line = word
            else:
                line = cand
        lines.append(line)
    return lines


# -- the picture ---------------------------------------------------------------------------

def card_layout(card: PieceCard, square: int | None = None) -> Layout:
    """Where the board's squares are in the card's picture (the board is at the top)."""
    geo = card.position.game.geometry
    return make_layout(geo.files, geo.height, square=square, flip=card.flip,
                       holes=[geo.names[h] for h in geo.holes])


def draw_card(card: PieceCard, square: int | None = None, lang: Language = ENGLISH) -> Image.Image:
    pos = card.position
    game = pos.game
    geo = game.geometry
    names = geo.names
    pieces = {names[s]: piece_of(game.id, k) for s, k in enumerate(pos.board) if k is not None}
    board = draw_board(geo.files, geo.height, pieces, holes=[names[h] for h in geo.holes],
                       zones=zones_of(game), flip=card.flip, square=square, game=game.id,
                       selected=card.squares, destinations=sorted(card.moves - card.quiet),
                       capture_only=sorted(card.captures), move_only=sorted(card.quiet))
    lay = card_layout(card, square)
    s = lay.square
    pad = lay.left
    title_font = load_font(FONT, max(20, round(s * 0.36)))
    sub_font = load_font(FONT, max(14, round(s * 0.22)))
    text_font = load_font(FONT, max(15, round(s * 0.25)))
    width = board.size[0]
    text_w = width - 2 * pad
    lines = wrap(card.text, text_font, text_w)
    line_h = round(text_font.size * 1.35)
    key_h = round(s * 0.5)
    caption_h = (round(title_font.size * 1.5) + round(sub_font.size * 1.6)
                 + len(lines) * line_h + key_h + pad)
    img = Image.new("RGB", (width, board.size[1] + caption_h), palette.BACKGROUND)
    img.paste(board, (0, 0))
    d = ImageDraw.Draw(img)
    y = board.size[1] + round(s * 0.12)
    d.text((pad, y), card.title, font=title_font, fill=palette.PANEL_TITLE, anchor="lt")
    y += round(title_font.size * 1.5)
    d.text((pad, y), card.subtitle, font=sub_font, fill=palette.PANEL_MUTED, anchor="lt")
    y += round(sub_font.size * 1.6)
    for line in lines:
        d.text((pad, y), line, font=text_font, fill=palette.PANEL_TEXT, anchor="lt")
        y += line_h
    _draw_key(img, d, pad, y + round(s * 0.08), s, sub_font, card, lang)
    return img


def key_labels(card: PieceCard, lang: Language = ENGLISH) -> tuple[str, str, str]:
    """The words of the marks' key: dot, ring, cross."""
    dot = (lang.tr("moves or captures") if card.captures or card.quiet
           else lang.tr("moves or captures there"))
    return dot, lang.tr("moves, never captures"), lang.tr("captures only")


def _draw_key(img, d, x, y, s, font, card: PieceCard, lang: Language = ENGLISH) -> None:
    """A line explaining the marks present: dot = moves or captures there, ring =
    moves there but never captures, cross = captures there only."""
    k = round(s * 0.5)
    both = card.moves - card.quiet
    dot, ring, cross = key_labels(card, lang)
    for mark, label, show in (
            (_dest_marks(k)[0], dot, bool(both) or not card.moves),
            (_ring_mark(k), ring, bool(card.quiet)),
            (_cross_mark(k), cross, bool(card.captures))):
        if not show:
            continue
        tile = Image.new("RGBA", (k, k), palette.LIGHT_SQUARE + (255,))
        tile.alpha_composite(mark)
        img.paste(tile.convert("RGB"), (x, y))
        d.text((x + k + round(s * 0.1), y + k / 2), label, font=font, fill=palette.PANEL_TEXT,
               anchor="lm")
        x += k + round(s * 0.2) + round(font.getlength(label)) + round(s * 0.4)


def piece_card_image(game_id: str, key: str, color: str = "w", state: str | None = None,
                     square: int | None = None, lang: Language = ENGLISH) -> Image.Image:
    """The card as an RGB picture: the board on top, name and description below, in the
    reader's language."""
    return draw_card(piece_card(game_id, key, color, state, lang), square, lang)


def piece_card_png(game_id: str, key: str, color: str = "w", state: str | None = None,
                   square: int | None = None, lang: Language = ENGLISH) -> bytes:
    return to_png(piece_card_image(game_id, key, color, state, square, lang))
