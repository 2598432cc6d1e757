"""Move text: SAN for people, and the one reader of every accepted form.

Reading indexes the pseudo-legal moves under every form that names them (LAN, SAN, long
forms with the piece letter, under-specified forms such as ``Nf3`` when two Knights can
go there) after a normalisation that drops what input may vary (separators, check
marks, ``0`` for ``O``), and reads a text by the rules of docs/rules/README.md
("Writing moves"): a capital piece letter is that piece, never a file; a small one that
is also a pawn's file is the pawn's first; a text two moves answer is refused naming
both; a kindred piece's move is played only when nothing else is named. No match: an
error that says why, worked out from the squares the text names.
"""
from __future__ import annotations

import re
from collections.abc import Collection

from language.text import T, Text, known

from .errors import (
    AmbiguousMoveError,
    GameOverError,
    InvalidMoveError,
    LeavesRoyalInCheckError,
    NoPieceError,
    NoSuchMoveError,
    NotYourPieceError,
    RulesError,
)
from .game import PositionView
from .pgn_forms import bracketed
from .pieces import CASTLE, DROP, NORMAL, SETUP, SHOT, SPAN, TURN, Board, Move, PieceKind
from .reasons import a_piece, drop_reason, joined, letter_note, pieces_reason, royal_name, side_of
from .spelling import several_moves, tidy

MAX_MOVE_TEXT = 64
_TRAILING = re.compile(r"(?:[+#!?]|ch|e\.?p\.?)+$", re.IGNORECASE)


def _suffix(move: Move) -> str:
    lan = move.lan
    for mark in ("=", "("):
        i = lan.find(mark)
        if i >= 0 and move.kind not in (TURN, SPAN, SETUP):
            return lan[i:]
    return ""


def _code(kind: PieceKind) -> str:
    return kind.key


def _on(board: Board, sq: int) -> PieceKind:
    """The piece on a square known to hold one (one of a side's squares, a royal's)."""
    k = board[sq]
    assert k is not None, f"square {sq} is empty"
    return k


def _origin(move: Move) -> int:
    """The square a move is made from: every move has one but a drop and a set-up action."""
    assert move.frm is not None, f"{move.lan} comes from no square"
    return move.frm


def san(pos: PositionView, move: Move, with_check: bool = True) -> str:
    text = _san_body(pos, move)
    if with_check and move.kind != SETUP:
        child = pos.apply(move)
        if child.in_check():
            text += "#" if not child.legal_moves() else "+"
    return text


def _san_body(pos: PositionView, move: Move) -> str:
    names = pos.game.geometry.names
    if move.kind == CASTLE:
        c = next(c for c in pos.game.castlings if c.king == move.frm and c.king_to == move.to)
        return "O-O" if c.short else "O-O-O"
    if move.kind in (DROP, SETUP):
        return move.lan
    if move.kind == SHOT:
        return f"{_code(move.piece)}{move.lan}"
    if move.kind == TURN:
        return f"{_code(move.piece)}{move.lan}"
    if move.kind == SPAN:  # a piece on several squares: its mover writes it
        assert move.piece.hook is not None, "a piece on several squares has a special mover"
        return move.piece.hook.san(pos, move)
    piece = move.piece
    origin = _origin(move)
    dest = names[move.to]
    cap = "x" if move.captures else ""
    suffix = _suffix(move)
    if piece.type.pawn and piece.key == "P":
        if move.captures:
            return f"{names[origin][0]}x{dest}{suffix}"
        return f"{dest}{suffix}"
    geo = pos.game.geometry
    rivals = {m.frm for m in pos.legal_moves()
              if m.to == move.to and m.frm != origin and m.kind == move.kind
              and m.piece.key == piece.key and m.frm is not None}
    dis = ""
    if rivals:
        f, r = geo.file_of(origin), geo.rank_of(origin)
        if all(geo.file_of(x) != f for x in rivals):
            dis = geo.files[f]
        elif all(geo.rank_of(x) != r for x in rivals):
            dis = str(r + 1)
        else:
            dis = names[origin]
    return f"{_code(piece)}{dis}{cap}{dest}{suffix}"


def normalise(text: str) -> str:
    """The comparison key of a move text: no separators, no marks, O for 0 in castling."""
    t = text.strip()
    t = _TRAILING.sub("", t)
    if re.fullmatch(r"[0Oo](-[0Oo]){1,2}", t):
        return t.upper().replace("0", "O")
    t = t.replace(" ", "")
    t = re.sub(r"(?<=[a-z0-9\)])[-x:](?=[A-Za-z(])", "", t)  # e2-e4, Ng1xf3, a2b2-c2d2
    t = re.sub(r"^([A-Z+]*[A-Z](?:[a-z]\d{1,2})?)[-x:]", r"\1", t)  # N-f3, Bxc4, S-g5
    return t


def _forms(pos: PositionView, move: Move) -> set[str]:
    """Every text that names this move exactly or under-specifies it."""
    names = pos.game.geometry.names
    forms = {move.lan, _san_body(pos, move)}
    if move.kind == CASTLE:
        forms.add(names[_origin(move)] + names[move.to])
        forms.add(_code(move.piece) + names[_origin(move)] + names[move.to])
        return forms
    if move.kind in (DROP, SHOT, TURN, SPAN, SETUP):
        if move.kind == SHOT:
            forms.add(f"{_code(move.piece)}^{names[move.to]}")
        return forms
    code = _code(move.piece)
    frm, to = names[_origin(move)], names[move.to]
    sfx = _suffix(move)
    suffixes = {sfx}
    if sfx.startswith("="):
        suffixes.add(sfx[1:])
    if sfx:
        suffixes.add("")  # under-specified: "e8" names every promotion, "Cd3" every facing
    for s in suffixes:
        forms.add(frm + to + s)
        forms.add(code + frm + to + s)
        if move.piece.key == "P":
            forms.add(to + s)
            forms.add(code + to + s)  # Pxe4: a pawn move written with its letter
            if move.captures or frm[0] != to[0]:  # the file named for a capture (exd5), not a push
                forms.add(frm[0] + to + s)
                forms.add(code + frm[0] + to + s)
        else:
            forms.add(code + to + s)
            forms.add(code + frm[0] + to + s)
            forms.add(code + frm[1:] + to + s)
    return forms


def _kindred_forms(pos: PositionView, move: Move) -> set[str]:
    """The texts that name this move as a kindred piece's (docs/rules/README.md, "Writing
    moves"): a pawn-like piece's push along its file or capture from a named file written
    as a Pawn's, without a letter (``e4`` for the Super Pawn's ``Se4``); a promoted piece's
    move with its unpromoted letter (``Bd3`` for ``+Bd3``)."""
    if move.kind != NORMAL:
        return set()
    piece = move.piece
    if piece.type.pawn and piece.key != "P":
        names = pos.game.geometry.names
        frm, to = names[_origin(move)], names[move.to]
        sfx = _suffix(move)
        suffixes = {sfx, sfx[1:] if sfx.startswith("=") else sfx}
        if move.captures:  # exd5: no letter, so any pawn-like piece; Pxd5 is a Pawn's
            return {frm[0] + to + s for s in suffixes} if frm[0] != to[0] else set()
        return {to + s for s in suffixes} if frm[0] == to[0] else set()
    if piece.key.startswith("+") and piece.key[1:] in pos.game.types:
        return {f[1:] for f in _forms(pos, move) if f.startswith(piece.key)}
    return set()


class MoveIndex:
    """The texts that name a position's moves, for reading: every form of every
    pseudo-legal move (so a reading that names only illegal moves is known as such),
    folded to lower case with the form it came from; and the short form (SAN) of each
    legal move, which always means that move."""

    __slots__ = ("legal", "moves", "folded", "kindred", "sans", "letters", "files")

    def __init__(self, pos: PositionView):
        game = pos.game
        self.legal = {m.lan: m for m in pos.legal_moves()}
        self.moves = dict(self.legal)
        if pos.setup is None:
            for m in pos.pseudo_moves():
                self.moves.setdefault(m.lan, m)
        self.folded: dict[str, list[tuple[str, str]]] = {}
        self.kindred: dict[str, list[tuple[str, str]]] = {}
        self.sans: dict[str, str | None] = {}
        for lan, m in self.moves.items():
            for f in _forms(pos, m):
                n = normalise(f)
                self.folded.setdefault(n.lower(), []).append((n, lan))
            for f in _kindred_forms(pos, m):
                n = normalise(f)
                self.kindred.setdefault(n.lower(), []).append((n, lan))
            if lan in self.legal:
                body = _san_body(pos, m)
                self.sans[body] = None if body in self.sans else lan  # None: two moves share it
        #: the letters of the game's pieces, and of its files
        self.letters = frozenset(k.lstrip("+") for k in game.types)
        self.files = frozenset(game.geometry.files)


def move_index(pos: PositionView) -> MoveIndex:
    return MoveIndex(pos)


# how a typed text fits a form that differs from it only in case
_NO_FIT, _AS_WRITTEN, _LOWERED = 0, 1, 2


def _lead(text: str) -> int:
    """Where the first letter of a move text stands: after a promoted piece's ``+``."""
    return 1 if text[:1] == "+" else 0


def _case_fit(typed: str, form: str, letters: Collection[str]) -> int:
    """Squares may be typed in either case, and so may everything after the first
    letter; the first letter decides what the text is. An upper-case letter of one of
    the game's pieces means that piece, never a file (``Bb4`` is no Pawn's move); a
    lower-case piece letter is that piece read ``_LOWERED``, which counts only where the
    text cannot also be read as written (``nf3``; ``bc4`` is the b-pawn's too)."""
    if typed == form:
        return _AS_WRITTEN
    i = _lead(form)
    if i >= len(typed):
        return _AS_WRITTEN
    a, b = typed[i], form[i]
    if a == b:
        return _AS_WRITTEN
    if b.isupper():
        return _LOWERED
    if b.islower() and a in letters:
        return _NO_FIT
    return _AS_WRITTEN


_CAPTURE_MARK = re.compile(r"[x:]")
_ENDS_IN_SQUARE = re.compile(r"[a-zA-Z]\d{1,2}\)?$")


def _says_capture(text: str) -> bool:
    """A short form with ``x`` (``Bxb3``, ``bxc4``) says the move takes something; between
    two squares (``Ng1xf3``, ``e2xe4``) the x may stand as a hyphen does."""
    t = _TRAILING.sub("", text.strip()).replace(" ", "")
    for m in _CAPTURE_MARK.finditer(t, 1):
        after = t[m.end():m.end() + 1]
        if after and (after.isalpha() or after == "(") and not _ENDS_IN_SQUARE.search(t[:m.start()]):
            return True
    return False


def _readings(idx: MoveIndex, n: str,
              table: dict[str, list[tuple[str, str]]] | None = None) -> tuple[set[str], set[str]]:
    """The LANs of the (pseudo-legal) moves a normalised text names as written, and
    those it names with a lower-case first letter read as a piece's."""
    as_written, lowered = set(), set()
    for form, lan in (idx.folded if table is None else table).get(n.lower(), ()):
        fit = _case_fit(n, form, idx.letters)
        if fit == _AS_WRITTEN:
            as_written.add(lan)
        elif fit == _LOWERED:
            lowered.add(lan)
    return as_written, lowered


def parse_move(pos: PositionView, text: object) -> Move:
    """The one legal move a text names, or a RulesError saying why there is none.

    The rules (docs/rules/README.md, "Writing moves"): a legal move's own short form or
    LAN is that move; an upper-case piece letter means that piece; a lower-case one
    counts where the text cannot be read as written too; a text that names two moves is
    refused with both; a kindred piece's move (``e4`` for the Super Pawn's ``Se4``) is
    played only when nothing else, legal or not, is named."""
    if not isinstance(text, str):
        raise InvalidMoveError(T("a move must be text, not {kind}", kind=type(text).__name__))
    raw = text.strip()
    if not raw:
        raise InvalidMoveError(T("empty move: type a move such as Nf3 or e2e4"))
    if len(raw) > MAX_MOVE_TEXT:
        raise InvalidMoveError(T("that is too long to be a move ({n} characters)", n=len(raw)))
    legal = {m.lan: m for m in pos.legal_moves()}
    over = pos.outcome() if not legal else None
    if over is not None:
        raise GameOverError(T("the game is over ({why})", why=outcome_text(over[1])))
    exact_lan = legal.get(raw)
    if exact_lan is not None:
        return exact_lan  # the canonical form: no index needed (replaying a stored game)
    raw = tidy(raw)  # people's spellings: 1. e4, *e5*, b5., e2–e4, B×c6 (rules.spelling)
    words = several_moves(raw)
    if words:
        return _one_of_several(pos, raw, words)
    return _read(pos, raw, legal)


def _one_of_several(pos: PositionView, raw: str, words: list[str]) -> Move:
    """A line of words each shaped like a move: one move written with a space (``e2 e4``,
    ``Ng1 f3``) when that reads as a legal move and its first word alone does not; else
    refused as several moves, never joined into one (``e4 e5``)."""
    try:
        parse_move(pos, words[0])
    except RulesError:
        try:
            return _read(pos, raw, {m.lan: m for m in pos.legal_moves()})
        except RulesError:
            pass
    raise InvalidMoveError(T("one move at a time: I read {moves} and {last}", moves=", ".join(words[:-1]),
                              last=words[-1]))


def _read(pos: PositionView, raw: str, legal: dict[str, Move]) -> Move:
    """parse_move's reading of a tidied text."""
    exact_lan = legal.get(raw)
    if exact_lan is not None:
        return exact_lan
    candidates = [bracketed(pos, raw)]  # a PGN record's Cd3=NE is Cd3(NE) (rules.pgn_forms)
    ext = pos.game.extension
    candidates += list(ext.rewrite(pos, candidates[0]))
    idx = move_index(pos)
    named = False  # whether any candidate names a move, legal or not
    for cand in candidates:
        san_lan = idx.sans.get(_TRAILING.sub("", cand.strip()).replace(" ", ""))
        if san_lan is not None:
            return idx.legal[san_lan]
        n = normalise(cand)
        as_written, lowered = _readings(idx, n)
        if _says_capture(cand):
            as_written = {h for h in as_written if idx.moves[h].captures}
            lowered = {h for h in lowered if idx.moves[h].captures}
        i = _lead(n)
        if _CAPITAL_SQUARES.match(n, i) and n[i] in idx.letters and n[i].lower() in idx.files:
            as_written = _capital_squares(pos, idx, raw, cand, n, i, as_written)
        if lowered and not (_PAWN_SHAPED.match(n, i) and _file_pawns(pos, n[i:i + 1])):
            as_written, lowered = as_written | lowered, set()  # nf3, or no pawn on the b file
        named = named or bool(as_written or lowered)
        move = _one_reading(pos, idx, raw, cand, as_written, lowered)
        if move is not None:
            return move
    if not named:
        move = _kindred(pos, idx, raw, candidates)
        if move is not None:
            return move
    err = ext.explain(pos, raw)  # the game's own notations explained
    if err is None:
        err = explain(pos, raw)
    hint = _capital_hint(pos, idx, raw)
    if hint:
        raise type(err)(T("{reason} {hint}", reason=_reason(err, ""), hint=hint))
    raise err


def _pick(pos: PositionView, idx: MoveIndex, raw: str, hits: Collection[str]) -> Move:
    """The move of a reading: one, or an ambiguity listing them."""
    if len(hits) == 1:
        return idx.legal[next(iter(hits))]
    moves = [idx.legal[h] for h in sorted(hits)]
    sans = [san(pos, m) for m in moves]
    hint = pos.game.extension.ambiguity_hint(pos, moves)  # the game's own advice
    said = T("{move} is ambiguous: it could be {moves} or {last}", move=repr(raw), moves=", ".join(sans[:-1]),
             last=sans[-1])
    raise AmbiguousMoveError(T("{sentence}{hint}", sentence=said, hint=hint) if hint else said, sans)


def _one_reading(pos: PositionView, idx: MoveIndex, raw: str, cand: str, as_written: set[str],
                 lowered: set[str]) -> Move | None:
    """The move a text names, read as written and with its lower-case letter as a piece's."""
    legal_written = {h for h in as_written if h in idx.legal}
    legal_lowered = {h for h in lowered if h in idx.legal}
    if legal_written and legal_lowered:
        raise _two_readings(pos, idx, raw, legal_written, legal_lowered)
    if legal_written:
        return _pick(pos, idx, raw, legal_written)
    if legal_lowered:  # a small letter that is also the file of a pawn of the mover's
        t = normalise(cand)
        i = _lead(t)
        others = " or ".join(san(pos, idx.legal[h]) for h in sorted(legal_lowered))
        err = _explain_squares(pos, raw, t)
        raise type(err)(T("{move}: a small {letter} is the {letter}-pawn's file, and {reason} For the {piece} "
                          "write {moves}.", move=repr(raw), letter=t[i], reason=_reason(err, raw),
                          piece=known(idx.legal[min(legal_lowered)].piece.name), moves=others))
    return None


def _two_readings(pos: PositionView, idx: MoveIndex, raw: str, one: set[str], other: set[str]) -> AmbiguousMoveError:
    """A text two moves could answer: both said, and how to write each."""
    moves = [idx.legal[h] for h in sorted(one)] + [idx.legal[h] for h in sorted(other)]
    sans = [san(pos, m) for m in moves]
    said = _or_list([describe_text(pos, m) for m in moves])
    return AmbiguousMoveError(T("{move}: {moves}? Write {written}", move=repr(raw), moves=said,
                                written=" or ".join(sans)), sans)


def _or_list(parts: list[Text | str]) -> Text | str:
    """"this, or that": moves in words, one after the other."""
    out = parts[0]
    for part in parts[1:]:
        out = T("{first}, or {then}", first=out, then=part)
    return out


# a capital piece letter that may also be a square's file: E2E4, E2-E4 (Gigachess II's Elephant)
_CAPITAL_SQUARES = re.compile(r"[A-Z]\d{1,2}[a-zA-Z]\d{1,2}(?!\d)")


def _capital_squares(pos: PositionView, idx: MoveIndex, raw: str, cand: str, n: str, i: int,
                     as_piece: set[str]) -> set[str]:
    """``E2E4`` where E is a piece's letter: the piece on rank 2 going to e4, or the move
    from e2 to e4 with its squares in capitals. Refused when both are legal moves; the
    squares' reading counts only when the piece's names no move at all."""
    squares, _ = _readings(idx, n[:i] + n[i].lower() + n[i + 1:])
    if _says_capture(cand):
        squares = {h for h in squares if idx.moves[h].captures}
    if not as_piece:
        return squares
    legal_piece = {h for h in as_piece if h in idx.legal}
    legal_squares = {h for h in squares if h in idx.legal} - legal_piece
    if legal_piece and legal_squares:
        raise _two_readings(pos, idx, raw, legal_piece, legal_squares)
    return as_piece


def _reason(err: RulesError, raw: str) -> Text | str:
    """An error's message to go on a sentence about the same text: its quote left out,
    ending with a full stop."""
    said = err.text
    if not isinstance(said, Text):
        return _reason_str(str(said), raw)
    if said.params.get("move") == repr(raw):
        if said.msgid == "{move}: {reason}":
            said = said.params["reason"]
        elif said.msgid == "{move} is illegal: {reason}":
            said = T("it is illegal: {reason}", reason=said.params["reason"])
    return said if said.english()[-1:] in ".?!" else T("{sentence}.", sentence=said)


def _reason_str(text: str, raw: str) -> str:
    quoted = repr(raw)
    if text.startswith(quoted + ": "):
        text = text[len(quoted) + 2:]
    elif text.startswith(quoted + " "):
        text = "it " + text[len(quoted) + 1:]
    return text if text[-1:] in ".?!" else text + "."


def _about(raw: str, reason: Text | str) -> Text:
    """A refusal of a text: "'Nf3': " and why."""
    return T("{move}: {reason}", move=repr(raw), reason=reason)


def _illegal(raw: str, reason: Text) -> Text:
    return T("{move} is illegal: {reason}", move=repr(raw), reason=reason)


def outcome_text(reason: str) -> Text | str:
    """The words of the way a game ended, as rules.position's outcome names it."""
    return {"checkmate": T("checkmate"), "stalemate": T("stalemate"),
            "threefold repetition": T("threefold repetition"), "100-ply rule": T("100-ply rule")}.get(reason, reason)


# a file and a square, and no second square: the shape of a pawn's capture (bc4, bxc4=Q)
_PAWN_SHAPED = re.compile(r"[a-z][a-zA-Z]\d{1,2}(?![0-9]|[a-zA-Z]\d)")


def _file_pawns(pos: PositionView, letter: str) -> list[int]:
    """The squares of the mover's pawn-like pieces on the file of that letter (none when
    it names no file): a small letter that is also a piece's names those pawns first."""
    geo = pos.game.geometry
    f = geo.files.find(letter) if len(letter) == 1 else -1
    if f < 0:
        return []
    board = pos.board
    return [sq for sq in pos.occ[pos.side] if geo.file_of(sq) == f and _on(board, sq).type.pawn]


def _kindred(pos: PositionView, idx: MoveIndex, raw: str, candidates: list[str]) -> Move | None:
    """A text that names no move at all, read as naming a kindred piece: played when it
    names exactly one move; refused, saying how it is written, when that move is illegal."""
    hits = set()
    for cand in candidates:
        got, _ = _readings(idx, normalise(cand), idx.kindred)
        if _says_capture(cand):
            got = {h for h in got if idx.moves[h].captures}
        hits |= got
    if not hits:
        return None
    legal_hits = {h for h in hits if h in idx.legal}
    if legal_hits and legal_hits == hits:
        return _pick(pos, idx, raw, legal_hits)
    moves = [idx.moves[h] for h in sorted(hits)]
    forms: list[Text | str] = [_san_body(pos, m) if m.lan in idx.legal or len(moves) == 1
                               else T("{move} (not legal now)", move=_san_body(pos, m)) for m in moves]
    written: Text | str = forms[0]
    for form in forms[1:]:
        written = T("{first} or {then}", first=written, then=form)
    if legal_hits:  # another piece could be meant, if only by an illegal move: refused
        raise AmbiguousMoveError(T("{move} could be {written}; write the one you mean in full", move=repr(raw),
                                   written=written), [san(pos, idx.legal[h]) for h in sorted(legal_hits)])
    m = moves[0]
    err = explain(pos, m.lan)
    kin = T("the {piece} on {square} (written {written}) cannot make that move: {reason}",
            piece=known(m.piece.name), square=pos.game.geometry.names[_origin(m)], written=written, reason=err.text)
    own = explain(pos, raw)  # the letter's own pieces first, when the mover has them (#41)
    if isinstance(own, (NoPieceError, NotYourPieceError, InvalidMoveError)):
        raise type(err)(_about(raw, kin))
    raise type(err)(T("{reason} {then}", reason=_reason(own, raw), then=_sentence(kin)))


def describe(pos: PositionView, move: Move) -> str:
    """A move in words: "the b-pawn takes on c4", "the Bishop on f1 goes to c4"."""
    return str(describe_text(pos, move))


def describe_text(pos: PositionView, move: Move) -> Text | str:
    """``describe`` as a Text, said in its reader's language."""
    names = pos.game.geometry.names
    if move.frm is None or move.kind in (SETUP, DROP, CASTLE, SPAN, TURN, SHOT):
        return san(pos, move, with_check=False)
    dest = names[move.to]
    if move.piece.key == "P":
        if move.captures:
            return T("the {file}-pawn takes on {dest}", file=names[move.frm][0], dest=dest)
        return T("the {file}-pawn goes to {dest}", file=names[move.frm][0], dest=dest)
    piece, frm = known(move.piece.name), names[move.frm]
    if move.captures:
        return T("the {piece} on {square} takes on {dest}", piece=piece, square=frm, dest=dest)
    return T("the {piece} on {square} goes to {dest}", piece=piece, square=frm, dest=dest)


def _capital_hint(pos: PositionView, idx: MoveIndex, raw: str) -> Text | None:
    """For a refused text whose capital first letter is both a piece's and a file's
    (``Bb4``, ``B4``): what the same text with a small letter would play."""
    t = normalise(raw)
    i = _lead(t)
    lead = t[i:i + 1]
    if not (lead.isupper() and lead in idx.letters and lead.lower() in idx.files):
        return None
    small = t[:i] + lead.lower() + t[i + 1:]
    as_written, _ = _readings(idx, small)
    if _says_capture(raw):
        as_written = {h for h in as_written if idx.moves[h].captures}
    hits = sorted(h for h in as_written if h in idx.legal)
    if not hits:
        return None
    name = known(pos.game.types[lead].name)
    moves = " or ".join(san(pos, idx.legal[h]) for h in hits)
    first = idx.legal[hits[0]]
    names = pos.game.geometry.names
    if first.frm is None or first.kind in (SETUP, DROP, CASTLE, SPAN, TURN, SHOT):
        whose: Text | str = san(pos, first, with_check=False)
    elif first.piece.key == "P":
        whose = T("the {file}-pawn", file=names[first.frm][0])
    else:
        whose = T("the {piece} on {square}", piece=known(first.piece.name), square=names[first.frm])
    return T("For {whose}'s move write {moves} (with a small {small}; {letter} is the {piece}).", whose=whose,
             moves=moves, small=lead.lower(), letter=lead, piece=name)


_SQ = r"[a-zA-Z]\d{1,2}"


def explain(pos: PositionView, raw: str) -> RulesError:
    """Why a text names no legal move."""
    game = pos.game
    geo = game.geometry
    t = normalise(raw)
    i = _lead(t)
    lead = t[i:i + 1]
    letters = {k.lstrip("+") for k in game.types}
    if lead.islower() and lead.upper() in letters and re.match(r"[a-z][^0-9]", t[i:]):
        return _explain_small_letter(pos, raw, t, i)
    if (lead.isupper() and lead in letters and lead.lower() in geo.files
            and re.fullmatch(r"\d{1,2}", t[i + 1:])):
        code = t[:i + 1]
        name = game.types[code].name if code in game.types else game.types[lead].name
        like = [san(pos, m) for m in pos.legal_moves() if m.piece.key == code and m.kind == NORMAL]
        if like:
            return InvalidMoveError(_about(raw, T("{letter} is the {piece}'s letter, and no square follows it "
                                                  "({a_piece}'s move names the square it goes to, like {example})",
                                                  letter=lead, piece=known(name), a_piece=a_piece(name),
                                                  example=like[0])))
        return InvalidMoveError(_about(raw, T("{letter} is the {piece}'s letter, and no square follows it "
                                              "({a_piece}'s move names the square it goes to)",
                                              letter=lead, piece=known(name), a_piece=a_piece(name))))
    return _explain_squares(pos, raw, t)


def _explain_squares(pos: PositionView, raw: str, t: str) -> RulesError:
    """Why a text read by its letter and squares names no legal move."""
    game = pos.game
    geo = game.geometry
    m = re.fullmatch(rf"(?P<code>\+?[A-Z])?(?:(?P<from>{_SQ})|(?P<dfile>[a-z])|(?P<drank>\d{{1,2}}))?"
                     rf"(?P<to>{_SQ})(?P<rest>.*)", t)
    drop = re.fullmatch(rf"(?P<code>\+?[A-Za-z])@(?P<to>{_SQ})", t)
    if drop:
        try:
            geo.parse_square(drop["to"])
        except RulesError as e:
            return InvalidMoveError(e.text)
        code = drop["code"].upper()
        if code.lstrip("+") not in {k.lstrip("+") for k in game.types}:
            note = letter_note(pos, code, geo.names[geo.parse_square(drop["to"])], drop=True)
            return InvalidMoveError(_about(raw, _no_letter(code, note)))
        held = drop_reason(pos, code, geo.parse_square(drop["to"]))
        if held is not None:
            return NoSuchMoveError(_about(raw, held))
        return NoSuchMoveError(T("{move} is not a legal drop here{hint}", move=repr(raw), hint=_drop_hint(pos)))
    if t.upper() in ("O-O", "O-O-O"):
        if not game.castlings:
            return NoSuchMoveError(_about(raw, T("there is no castling in {game}", game=known(game.name))))
        return NoSuchMoveError(_about(raw, T("castling that way is not possible now")))
    if not m:
        return InvalidMoveError(
            T("{move} is not a move I can read; write it like Nf3, exd5, e2e4 or Ng1-f3", move=repr(raw)))
    try:
        to = geo.parse_square(m["to"])
        frm = geo.parse_square(m["from"]) if m["from"] else None
    except RulesError as e:
        return InvalidMoveError(e.text)
    pseudo = list(pos.pseudo_moves())
    dest = geo.names[to]
    if frm is not None:
        piece = pos.board[frm]
        fname = geo.names[frm]
        if piece is None:
            return NoPieceError(T("there is no piece on {square}", square=fname))
        if piece.color != pos.side:
            return NotYourPieceError(T("the {piece} on {square} is {side}'s; it is {mover}'s move",
                                       piece=known(piece.name), square=fname, side=side_of(pos, piece.color),
                                       mover=side_of(pos, pos.side)))
        tries = [mv for mv in pseudo if mv.frm == frm and mv.to == to]
        legal = [mv for mv in tries if pos.is_legal(mv)]
        if legal:
            return _near(pos, raw, m["rest"], legal)
        if tries:
            return LeavesRoyalInCheckError(_illegal(raw, pieces_reason(pos, [frm], to)))
        if piece.royal and game.jump is not None:
            err = game.jump.refusal(pos, frm, to)
            if err is not None:
                return err
        why = pieces_reason(pos, [frm], to, it=frm)
        return NoSuchMoveError(T("the {piece} on {square} cannot move to {dest}. {reason}", piece=known(piece.name),
                                 square=fname, dest=dest, reason=_sentence(why)))
    code = (m["code"] or "P")
    mine = [sq for sq in pos.occ[pos.side] if _on(pos.board, sq).key == code]
    if not mine:
        theirs = [sq for sq in pos.occ[1 - pos.side] if _on(pos.board, sq).key == code]
        if code not in game.types:
            return InvalidMoveError(_about(raw, _no_letter(code, letter_note(pos, code, dest))))
        label = known(game.types[code].name)
        if theirs:
            return NotYourPieceError(joined([T("you ({side}) have no {piece}", side=side_of(pos, pos.side),
                                                 piece=label), *_kin_note(pos, code, to)]))
        return NoPieceError(joined([T("you have no {piece} on the board", piece=label), *_kin_note(pos, code, to)]))
    name = _on(pos.board, mine[0]).name
    if m["dfile"] or m["drank"]:
        mine = [sq for sq in mine if (geo.files[geo.file_of(sq)] == m["dfile"] if m["dfile"]
                                      else str(geo.rank_of(sq) + 1) == m["drank"])]
        if not mine and m["dfile"]:
            return NoPieceError(T("you have no {piece} on the {file} file", piece=known(name), file=m["dfile"]))
        if not mine:
            return NoPieceError(T("you have no {piece} on rank {rank}", piece=known(name), rank=m["drank"]))
    tries = [mv for mv in pseudo if mv.frm in mine and mv.to == to]
    legal = [mv for mv in tries if pos.is_legal(mv)]
    if legal:
        return _near(pos, raw, m["rest"], legal)
    if tries:
        tried = sorted({mv.frm for mv in tries if mv.frm is not None})
        return LeavesRoyalInCheckError(_illegal(raw, pieces_reason(pos, tried, to)))
    if game.jump is not None and len(mine) == 1 and _on(pos.board, mine[0]).royal:
        err = game.jump.refusal(pos, mine[0], to)
        if err is not None:
            return err
    why = joined([pieces_reason(pos, mine, to), *_kin_note(pos, code, to)])
    return NoSuchMoveError(T("no {piece} of yours can move to {dest}. {reason}", piece=known(name), dest=dest,
                             reason=_sentence(why)))


class _Sentence(Text):
    """A reason begun with a capital, as a sentence of its own after the one that names the
    piece (the front ends end a refusal with its full stop), in every language
    (``Language.say`` calls ``finish``)."""

    __slots__ = ()

    def english(self) -> str:
        return self.finish(super().english(), "en")

    @staticmethod
    def finish(said: str, code: str) -> str:
        """What ``Language.say`` said of it, begun with a capital."""
        return said[:1].upper() + said[1:]


def _sentence(text: Text | str) -> Text:
    return _Sentence("{sentence}", None, None, sentence=text)


def _no_letter(code: str, note: list[Text]) -> Text:
    return joined([T("this game has no piece with the letter {letter}", letter=code), *note])


def _kin_note(pos: PositionView, code: str, to: int) -> list[Text]:
    """For a Pawn's move refused: the other pawn-like pieces of that file, by their letter
    (Super Chess's Super Pawn is written ``S``)."""
    if code != "P":
        return []
    geo = pos.game.geometry
    kin = [sq for sq in sorted(pos.occ[pos.side]) if geo.file_of(sq) == geo.file_of(to)
           and _on(pos.board, sq).type.pawn and _on(pos.board, sq).key != "P"]
    return [T("the {piece} on {square} is written with its letter {letter}", piece=known(_on(pos.board, sq).name),
              square=geo.names[sq], letter=_on(pos.board, sq).key) for sq in kin]


def _explain_small_letter(pos: PositionView, raw: str, t: str, i: int) -> RulesError:
    """Why ``nf5``, ``bb3`` name no move: a small piece letter is the piece's, unless it is
    also the file of a pawn of the mover's; then both readings are said."""
    typed = raw.strip()
    j = typed.find(t[i])  # the same letter in the text as typed (with its x, if any)
    big = typed[:j] + typed[j].upper() + typed[j + 1:] if j >= 0 else t[:i] + t[i].upper() + t[i + 1:]
    as_piece = explain(pos, big)
    as_piece = type(as_piece)(requoted(as_piece.text, repr(big), repr(raw)))
    if not _file_pawns(pos, t[i]):
        return as_piece
    if not _PAWN_SHAPED.match(t, i):  # not shaped like a pawn's capture: one reading
        return as_piece
    as_pawn = _explain_squares(pos, raw, t)
    if _pawn_meant(pos, t, i):
        return as_pawn
    name = known(pos.game.types[t[i].upper()].name)
    return type(as_pawn)(T("{move}: a small {letter} is the {letter}-pawn's file, and {reason} A capital {capital} "
                           "is the {piece}, and {other}", move=repr(raw), letter=t[i], reason=_reason(as_pawn, raw),
                           capital=t[i].upper(), piece=name, other=_reason(as_piece, raw)))


def requoted(said: Text | str, big: str, raw: str) -> Text | str:
    """A refusal of ``Nf5`` made the refusal of ``nf5``, the text as it was typed."""
    if not isinstance(said, Text):
        return said.replace(big, raw)
    params = {k: (requoted(v, big, raw) if isinstance(v, Text) else raw if v == big
                  else v.replace(big, raw) if isinstance(v, str) else v) for k, v in said.params.items()}
    out = type(said)(said.msgid, said.plural, said.n)
    out.params = params
    return out


def _pawn_meant(pos: PositionView, t: str, i: int) -> bool:
    """Whether a pawn-shaped text with a small letter that is also a piece's (``bxa8=K``)
    can only mean the pawn: a promotion is written, or the mover has no piece of that
    letter, or a pawn of that file can go to the square only by promoting (``bxa8``: the
    promotion left out is the fault)."""
    if "=" in t[i:] or not any(_on(pos.board, sq).key == t[i].upper() for sq in pos.occ[pos.side]):
        return True
    square = re.match(_SQ, t[i + 1:])
    try:
        to = pos.game.geometry.parse_square(square.group()) if square else None
    except RulesError:
        return False
    pawns = _file_pawns(pos, t[i])
    return any(m.frm in pawns and m.to == to and m.new is not m.piece for m in pos.legal_moves())


def _near(pos: PositionView, raw: str, rest: str, legal: list[Move]) -> RulesError:
    """The squares name legal moves but the rest of the text (promotion, state) fits none."""
    options = " or ".join(san(pos, mv) for mv in legal)
    if _says_capture(raw) and not any(mv.captures for mv in legal):
        dest = pos.game.geometry.names[legal[0].to]
        return NoSuchMoveError(_about(raw, T("there is nothing to take on {dest}; write {moves}", dest=dest,
                                             moves=options)))
    if rest:
        return NoSuchMoveError(T("{move} is not possible; the legal moves there are {moves}", move=repr(raw),
                                 moves=options))
    return InvalidMoveError(T("{move} is not written right; did you mean {moves}?", move=repr(raw), moves=options))


def why_illegal(pos: PositionView) -> str:
    """Why a move the mover's royal's safety forbids is illegal, in English."""
    return str(why_illegal_text(pos))


def why_illegal_text(pos: PositionView) -> Text:
    """``why_illegal`` said in its reader's language."""
    name = royal_name(pos)
    if pos.in_check():
        return T("your {royal} is in check and this does not get it out", royal=name)
    if pos.game.facing_royals:
        return T("it would leave your {royal} in check or facing the other royal", royal=name)
    return T("it would leave your {royal} in check", royal=name)


def _drop_hint(pos: PositionView) -> Text:
    if pos.game.drop_zone is None:
        return T(" (this game has no drops)")
    if pos.dropped[pos.side]:
        return T(" (you dropped last turn; you cannot drop twice running)")
    if not pos.hands[pos.side]:
        return T(" (you have nothing in hand)")
    return T(" (drop only onto an empty square of your own castle)")


def explain_illegal(pos: PositionView, move: Move) -> RulesError:
    try:
        return explain(pos, move.lan)
    except Exception:  # pragma: no cover - explanation must never hide the error
        return NoSuchMoveError(T("{move} is not a legal move here", move=move.lan))
