"""Move text: SAN for people, and the reading of every accepted form.

Reading works by indexing the legal moves under every form that names them
(LAN, SAN, long forms with the piece letter, under-specified forms such as
``Nf3`` when two Knights can go there) after a normalisation that drops what
input may vary (separators, check marks, ``0`` for ``O``). A text that matches
one move is that move; several, an ambiguity listing them; none, an error that
says why, worked out from the squares the text names.
"""
from __future__ import annotations

import re

from .errors import (AmbiguousMoveError, GameOverError, InvalidMoveError, LeavesRoyalInCheckError,
                     NoPieceError, NoSuchMoveError, NotYourPieceError, RulesError)
from .move import CASTLE, DROP, SETUP, SHOT, SPAN, TURN, Move

MAX_MOVE_TEXT = 64
_TRAILING = re.compile(r"(?:[+#!?]|ch|e\.?p\.?)+$", re.IGNORECASE)


def _suffix(move: Move) -> str:
    lan = move.lan
    for mark in ("=", "("):
        i = lan.find(mark)
        if i >= 0 and move.kind not in (TURN, SPAN, SETUP):
            return lan[i:]
    return ""


def _code(kind) -> str:
    return kind.key


def san(pos, move: Move, with_check: bool = True) -> str:
    text = _san_body(pos, move)
    if with_check and move.kind != SETUP:
        child = pos.apply(move)
        if child.in_check():
            text += "#" if not child.legal_moves() else "+"
    return text


def _san_body(pos, move: Move) -> str:
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
        return move.piece.hook.san(pos, move)
    piece = move.piece
    dest = names[move.to]
    cap = "x" if move.captures else ""
    suffix = _suffix(move)
    if piece.type.pawn and piece.key == "P":
        if move.captures:
            return f"{names[move.frm][0]}x{dest}{suffix}"
        return f"{dest}{suffix}"
    geo = pos.game.geometry
    rivals = {m.frm for m in pos.legal_moves()
              if m.to == move.to and m.frm != move.frm and m.kind == move.kind
              and m.piece.key == piece.key and m.frm is not None}
    dis = ""
    if rivals:
        f, r = geo.file_of(move.frm), geo.rank_of(move.frm)
        if all(geo.file_of(x) != f for x in rivals):
            dis = geo.files[f]
        elif all(geo.rank_of(x) != r for x in rivals):
            dis = str(r + 1)
        else:
            dis = names[move.frm]
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


def _forms(pos, move: Move) -> set[str]:
    """Every text that names this move exactly or under-specifies it."""
    names = pos.game.geometry.names
    forms = {move.lan, _san_body(pos, move)}
    if move.kind == CASTLE:
        forms.add(names[move.frm] + names[move.to])
        forms.add(_code(move.piece) + names[move.frm] + names[move.to])
        return forms
    if move.kind in (DROP, SHOT, TURN, SPAN, SETUP):
        if move.kind == SHOT:
            forms.add(f"{_code(move.piece)}^{names[move.to]}")
        return forms
    code = _code(move.piece)
    frm, to = names[move.frm], names[move.to]
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
            forms.add(frm[0] + to + s)
            forms.add(code + to + s)  # Pxe4: a pawn move written with its letter
            forms.add(code + frm[0] + to + s)
        else:
            forms.add(code + to + s)
            forms.add(code + frm[0] + to + s)
            forms.add(code + frm[1:] + to + s)
    return forms


def move_index(pos):
    """normalised form -> set of LANs; and the same with case folded."""
    exact, folded = {}, {}
    for m in pos.legal_moves():
        for f in _forms(pos, m):
            n = normalise(f)
            exact.setdefault(n, set()).add(m.lan)
            folded.setdefault(n.lower(), set()).add(m.lan)
    return exact, folded


def parse_move(pos, text) -> Move:
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise InvalidMoveError("empty move: type a move such as Nf3 or e2e4")
    if len(raw) > MAX_MOVE_TEXT:
        raise InvalidMoveError(f"that is too long to be a move ({len(raw)} characters)")
    legal = {m.lan: m for m in pos.legal_moves()}
    if not legal and pos.outcome() is not None:
        raise GameOverError(f"the game is over ({pos.outcome()[1]})")
    exact_lan = legal.get(raw)
    if exact_lan is not None:
        return exact_lan  # the canonical form: no index needed (replaying a stored game)
    candidates = [raw]
    ext = pos.game.extension
    candidates += list(ext.rewrite(pos, raw))
    exact, folded = move_index(pos)
    for cand in candidates:
        n = normalise(cand)
        hits = exact.get(n) or folded.get(n.lower())
        if hits:
            if len(hits) == 1:
                return legal[next(iter(hits))]
            shown = sorted(hits)
            sans = [san(pos, legal[h]) for h in shown]
            hint = ext.ambiguity_hint(pos, [legal[h] for h in shown])  # the game's own advice
            raise AmbiguousMoveError(
                f"{raw!r} is ambiguous: it could be {', '.join(sans[:-1])} or {sans[-1]}"
                + (hint or ""), sans)
    err = ext.explain(pos, raw)  # the game's own notations explained
    if err is not None:
        raise err
    raise explain(pos, raw)


_SQ = r"[a-zA-Z]\d{1,2}"


def explain(pos, raw: str) -> RulesError:
    """Why a text names no legal move."""
    game = pos.game
    geo = game.geometry
    t = normalise(raw)
    m = re.fullmatch(rf"(?P<code>\+?[A-Z])?(?:(?P<from>{_SQ})|(?P<dfile>[a-z])|(?P<drank>\d{{1,2}}))?"
                     rf"(?P<to>{_SQ})(?P<rest>.*)", t)
    drop = re.fullmatch(rf"(?P<code>\+?[A-Za-z])@(?P<to>{_SQ})", t)
    if drop:
        try:
            geo.parse_square(drop["to"])
        except RulesError as e:
            return InvalidMoveError(str(e))
        return NoSuchMoveError(f"{raw!r} is not a legal drop here" + _drop_hint(pos))
    if t.upper() in ("O-O", "O-O-O"):
        if not game.castlings:
            return NoSuchMoveError(f"{raw!r}: there is no castling in {game.name}")
        return NoSuchMoveError(f"{raw!r}: castling that way is not possible now")
    if not m:
        return InvalidMoveError(
            f"{raw!r} is not a move I can read; write it like Nf3, exd5, e2e4 or Ng1-f3")
    try:
        to = geo.parse_square(m["to"])
        frm = geo.parse_square(m["from"]) if m["from"] else None
    except RulesError as e:
        return InvalidMoveError(str(e))
    side = pos.turn
    pseudo = list(pos.pseudo_moves())
    dest = geo.names[to]
    if frm is not None:
        piece = pos.board[frm]
        fname = geo.names[frm]
        if piece is None:
            return NoPieceError(f"there is no piece on {fname}")
        if piece.color != pos.side:
            return NotYourPieceError(
                f"the {piece.name} on {fname} is {game.side_name(piece.color)}'s; "
                f"it is {game.side_name(pos.side)}'s move")
        tries = [mv for mv in pseudo if mv.frm == frm and mv.to == to]
        legal = [mv for mv in tries if pos.is_legal(mv)]
        if legal:
            return _near(pos, raw, m["rest"], legal)
        if tries:
            return LeavesRoyalInCheckError(
                f"{raw!r} is illegal: {why_illegal(pos)}")
        if piece.royal and game.jump is not None:
            err = game.jump.refusal(pos, frm, to)
            if err is not None:
                return err
        return NoSuchMoveError(f"the {piece.name} on {fname} cannot move to {dest}")
    code = (m["code"] or "P")
    mine = [sq for sq in pos.occ[pos.side] if pos.board[sq].key == code]
    if not mine:
        theirs = [sq for sq in pos.occ[1 - pos.side] if pos.board[sq].key == code]
        label = game.types[code].name if code in game.types else code
        if code not in game.types:
            return InvalidMoveError(f"{raw!r}: this game has no piece with the letter {code}")
        if theirs:
            return NotYourPieceError(f"you ({game.side_name(pos.side)}) have no {label}")
        return NoPieceError(f"you have no {label} on the board")
    name = pos.board[mine[0]].name
    if m["dfile"] or m["drank"]:
        where = (f"on the {m['dfile']} file" if m["dfile"] else f"on rank {m['drank']}")
        mine = [sq for sq in mine if (geo.files[geo.file_of(sq)] == m["dfile"] if m["dfile"]
                                      else str(geo.rank_of(sq) + 1) == m["drank"])]
        if not mine:
            return NoPieceError(f"you have no {name} {where}")
    tries = [mv for mv in pseudo if mv.frm in mine and mv.to == to]
    legal = [mv for mv in tries if pos.is_legal(mv)]
    if legal:
        return _near(pos, raw, m["rest"], legal)
    if tries:
        return LeavesRoyalInCheckError(f"{raw!r} is illegal: {why_illegal(pos)}")
    if game.jump is not None and len(mine) == 1 and pos.board[mine[0]].royal:
        err = game.jump.refusal(pos, mine[0], to)
        if err is not None:
            return err
    return NoSuchMoveError(f"no {name} of yours can move to {dest}")


def _near(pos, raw, rest, legal) -> RulesError:
    """The squares name legal moves but the rest of the text (promotion, state) fits none."""
    options = " or ".join(san(pos, mv) for mv in legal)
    if rest:
        return NoSuchMoveError(f"{raw!r} is not possible; the legal moves there are {options}")
    return InvalidMoveError(f"{raw!r} is not written right; did you mean {options}?")


def why_illegal(pos) -> str:
    royal = pos.royal[pos.side]
    name = pos.board[royal].name if royal is not None else "royal piece"
    if pos.in_check():
        return f"your {name} is in check and this does not get it out"
    if pos.game.facing_royals:
        return f"it would leave your {name} in check or facing the other royal"
    return f"it would leave your {name} in check"


def _drop_hint(pos) -> str:
    if pos.game.drop_zone is None:
        return " (this game has no drops)"
    if pos.dropped[pos.side]:
        return " (you dropped last turn; you cannot drop twice running)"
    if not pos.hands[pos.side]:
        return " (you have nothing in hand)"
    return " (drop only onto an empty square of your own castle)"


def explain_illegal(pos, move: Move) -> RulesError:
    try:
        return explain(pos, move.lan)
    except Exception:  # pragma: no cover - explanation must never hide the error
        return NoSuchMoveError(f"{move.lan} is not a legal move here")
