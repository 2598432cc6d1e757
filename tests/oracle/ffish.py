"""Fairy-Stockfish (pyffish) oracle for cross-checking the rules engine.

Games (our ids; nothing else is ever passed to pyffish):

``grandducal``  Grand Ducal Chess, 12x8, exactly as docs/rules/grandducal.md
                (legal moves, perft, position after moves) - see "Grand Duke" below.
``gigatest``    a 12x10 test board with the Gigachess II pieces that Fairy-Stockfish
                can express; NOT a real game (Gigachess II itself is 14x14, which
                Fairy-Stockfish cannot hold). See "gigatest" below for what differs.

API (positions in our VFEN, moves in our LAN: ``e2e4``, ``e7e8=M``, ``l9l10``)::

    legal_lans(game_id, vfen) -> set[str]
    perft(game_id, vfen, depth) -> int
    fen_after(game_id, vfen, lans) -> str        (raises ValueError on an illegal move)
    to_fsf_fen(game_id, vfen) / from_fsf_fen(game_id, fsf_fen)
    lan_from_uci(game_id, vfen, uci) / uci_from_lan(game_id, vfen, lan)

Grand Duke.  Fairy-Stockfish 0.0.90 (engine 230826 LB) cannot express "Bishop + an even
number of squares orthogonally without jumping".  Tried with blockers on odd and even
squares: ``DD``, ``nDD``, ``BmDD``, ``D2``, ``DD2``, ``nDD3`` give NO orthogonal move at
all (the Dabbaba rider is silently dropped); ``nD`` (lame Dabbaba) is exact for the
2-square move only, the 4, 6, 8, 10-square moves have no form.  So the oracle registers
two FSF variants and makes the result exact in a few lines of Python:

* ``grandducal`` (royal King) and ``grandducal_pseudo`` (the King is a non-royal
  ``commoner`` - FSF then lists pseudo-legal moves).  In both the Grand Duke is ``BR``
  (a Queen), a SUPERSET of the real piece: its orthogonal moves keep the Rook's
  "every square on the way empty" condition, and Python drops the odd-distance ones.
* Legal moves = FSF-royal moves (filtered)  U  {filtered pseudo-legal move m such that
  no filtered pseudo-legal reply captures a royal}.  The royal set is a subset of the
  truth (its checks see the superset Grand Duke); the pseudo set is a superset, and the
  moves in between are decided by README "Legality 2" directly.  When the opponent has
  no Grand Duke and each side has one King, FSF's own answer is already exact.
  Kingless diagrams work too (README Legality 5: no royal, every pseudo-legal move).

So grandducal legal moves, perft and ``fen_after`` are exact for every legal position;
nothing needs excluding.  Not covered: game end (stalemate / threefold / 100-ply are
in the INI as in chess, but this module exposes no outcome), and the oracle does not
reject illegal positions beyond "the side to move can capture a royal".

gigatest.  Every piece below is exact in FSF (checked square by square from e5).
Differences from gigachess2.md, to exclude or patch in tests:

* No King jump (King = plain K, no castling): VFEN rights must be ``-``.
* No Rhinoceros (U, WyafsW) and no Eagle (G, FyafsF): bent riders have no FSF form.
* En passant after a PRINCE double step: FSF never sets the ep square itself; this
  module patches the ep field in ``fen_after``/``perft`` (set when an enemy Pawn attacks
  the passed square) and FSF then performs the capture correctly (removes the Prince).
  With the raw FSF move generator (not this module) it would be missing.
* Piece promotion (N M Z -> Buffalo, E W J -> Lion, I -> Amazon) is FSF shogi-style:
  a move that STARTS on the last rank also promotes.  Unpromoted promotable pieces
  standing on their last rank (only in hand-made diagrams) must be excluded.
* The Pawn double step from any square and its ep are exact (doubleStepRegion = all).

Letters: identical in both directions in both games (our code == FSF letter, lower
case black; grandducal K Q R B N P G S I M, gigatest see GIGATEST_LETTERS);
FSF writes a piece-promoted piece as ``+N`` (promoted Knight), which ``from_fsf_fen``
turns into our ``F``.  FSF UCI suffixes: pawn promotion ``e7e8m`` -> ``e7e8=M``, piece
promotion ``d9c10+`` -> ``d9c10=F``.

Hazards guarded here: pyffish kills the interpreter (no exception) on a variant name it
did not register, and silently refuses boards over 12 files x 10 ranks - so only the
ids above reach it, their registration is verified after loading, and every FEN's size
and letters are checked first.  Each pyffish call costs ~4-5 ms (it re-initialises the
variant every call): perft(grandducal start, 3) takes 20-40 s.  Not thread-safe.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

import pyffish

GRANDDUCAL_INI = """
[grandducal:chess]
maxFile = l
maxRank = 8
startFen = rginbqkbnsgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGINBQKBNSGR w - - 0 1
castling = false
customPiece1 = g:BR
customPiece2 = s:KN
customPiece3 = i:ADN
customPiece4 = m:K
promotionPieceTypes = m

[grandducal_pseudo:grandducal]
king = -
commoner = k
"""

GIGATEST_INI = """
[gigatest:chess]
maxFile = l
maxRank = 10
startFen = cmzvokahxfdl/ierbnwjqysie/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/IERBNWJQYSIE/CMZVOKAHXFDL w - - 0 1
castling = false
fersAlfil = e
centaur = j
cannon = c
dragonHorse = y
bers = s
chancellor = h
archbishop = x
amazon = a
customPiece1 = i:KfmnD
customPiece2 = w:WD
customPiece3 = m:C
customPiece4 = z:Z
customPiece5 = v:mBcpB
customPiece6 = o:mQcpQ
customPiece7 = l:KNAD
customPiece8 = d:KADGH
customPiece9 = f:NCZ
promotionRegionWhite = *10
promotionRegionBlack = *1
promotionPieceTypes = q
promotedPieceType = n:f m:f z:f e:l w:l j:l i:a
mandatoryPiecePromotion = true
doubleStepRegionWhite = *1 *2 *3 *4 *5 *6 *7 *8 *9 *10
doubleStepRegionBlack = *1 *2 *3 *4 *5 *6 *7 *8 *9 *10

[gigatest_pseudo:gigatest]
king = -
commoner = k
"""

INI = GRANDDUCAL_INI + GIGATEST_INI

# gigatest letters: ours -> FSF (identity) and back; FSF form in the comment.
GIGATEST_LETTERS = {
    "K": "K",  # king (K), no jump
    "Q": "Q", "R": "R", "B": "B", "N": "N",  # built-in
    "P": "P",  # pawn, doubleStepRegion = every rank
    "I": "I",  # KfmnD
    "E": "E",  # fersAlfil FA
    "W": "W",  # WD
    "J": "J",  # centaur KN
    "M": "M",  # C
    "Z": "Z",  # Z
    "C": "C",  # cannon mRcpR
    "V": "V",  # mBcpB
    "O": "O",  # mQcpQ
    "L": "L",  # KNAD
    "Y": "Y",  # dragonHorse BW
    "S": "S",  # bers RF
    "D": "D",  # KADGH
    "H": "H",  # chancellor RN
    "X": "X",  # archbishop BN
    "A": "A",  # amazon QN
    "F": "F",  # NCZ
}
GIGATEST_FROM_FSF = {v: k for k, v in GIGATEST_LETTERS.items()}


@dataclass(frozen=True)
class _Game:
    royal: str                     # FSF variant, royal King
    pseudo: str                    # FSF variant, King = commoner (pseudo-legal moves)
    files: int
    ranks: int
    letters: str                   # upper-case piece letters allowed in a FEN
    piece_promotion: dict = field(default_factory=dict)  # FSF '+' suffix: piece -> new piece
    superset_gd: bool = False      # FSF Grand Duke 'G' is BR: drop odd orthogonal moves
    prince_ep: bool = False        # patch ep after a Prince double step


_GAMES = {
    "grandducal": _Game("grandducal", "grandducal_pseudo", 12, 8, "KQRBNPGSIM",
                        superset_gd=True),
    "gigatest": _Game("gigatest", "gigatest_pseudo", 12, 10, "".join(GIGATEST_LETTERS),
                      piece_promotion={"N": "F", "M": "F", "Z": "F", "E": "L", "W": "L",
                                       "J": "L", "I": "A"},
                      prince_ep=True),
}

_lock = threading.Lock()
_loaded = False


def ensure_loaded() -> None:
    """Register the variants once per process and check that FSF really has them."""
    global _loaded
    with _lock:
        if _loaded:
            return
        wanted = {n for g in _GAMES.values() for n in (g.royal, g.pseudo)}
        if not wanted <= set(pyffish.variants()):
            pyffish.load_variant_config(INI)
        missing = wanted - set(pyffish.variants())
        if missing:  # a bad INI line makes FSF skip a variant silently
            raise RuntimeError(f"Fairy-Stockfish did not register {sorted(missing)}")
        _loaded = True


def _game(game_id: str) -> _Game:
    if game_id not in _GAMES:  # never let an unknown name reach pyffish (it aborts)
        raise ValueError(f"no Fairy-Stockfish oracle for game {game_id!r}")
    ensure_loaded()
    return _GAMES[game_id]


# ---------------------------------------------------------------- squares and boards

_SQ = re.compile(r"([a-z])(\d+)")
_UCI = re.compile(r"^([a-l])(\d+)([a-l])(\d+)(.?)$")
_LAN = re.compile(r"^([a-l])(\d+)([a-l])(\d+)(?:=([A-Z]))?$")


def _xy(sq: str) -> tuple[int, int]:
    m = _SQ.fullmatch(sq)
    return ord(m[1]) - 97, int(m[2]) - 1


def _sq(x: int, y: int) -> str:
    return f"{chr(97 + x)}{y + 1}"


def _board(g: _Game, fen: str) -> tuple[dict[str, str], str]:
    """Parse (and size-check) a FEN board: {square: letter} and the side to move.
    A FSF-promoted piece '+N' is read as the piece it became."""
    fields = fen.split()
    if len(fields) != 6:
        raise ValueError(f"expected 6 FEN fields, got {fen!r}")
    rows = fields[0].split("/")
    if len(rows) != g.ranks:
        raise ValueError(f"expected {g.ranks} ranks: {fen!r}")
    board = {}
    for i, row in enumerate(rows):
        y, x = g.ranks - 1 - i, 0
        for tok in re.findall(r"\d+|\+?[A-Za-z]|.", row):
            if tok.isdigit():
                x += int(tok)
                continue
            if tok[0] == "+":
                new = g.piece_promotion.get(tok[1].upper())
                if new is None:
                    raise ValueError(f"bad promoted piece {tok!r} in {fen!r}")
                tok = new if tok[1].isupper() else new.lower()
            if tok.upper() not in g.letters or x >= g.files:
                raise ValueError(f"bad piece {tok!r} or rank too long in {fen!r}")
            board[_sq(x, y)] = tok
            x += 1
        if x != g.files:
            raise ValueError(f"rank {y + 1} is not {g.files} squares wide: {fen!r}")
    if fields[1] not in ("w", "b"):
        raise ValueError(f"bad side to move in {fen!r}")
    return board, fields[1]


def to_fsf_fen(game_id: str, vfen: str) -> str:
    """Our VFEN -> the FEN Fairy-Stockfish reads.  For these games the six fields are
    the same (castling '-' always, ep square as in FEN); this checks and passes it on."""
    g = _game(game_id)
    _board(g, vfen)
    fields = vfen.split()
    if fields[2] != "-":
        raise ValueError(f"{game_id}: rights must be '-' (no castling, no King jump)")
    if pyffish.validate_fen(vfen, g.pseudo) != pyffish.FEN_OK:
        raise ValueError(f"Fairy-Stockfish rejects {vfen!r}")
    return vfen


def from_fsf_fen(game_id: str, fsf_fen: str) -> str:
    """Fairy-Stockfish FEN -> our VFEN (only '+N'-style promoted pieces change)."""
    g = _game(game_id)
    board, _ = _board(g, fsf_fen)
    rows = []
    for y in range(g.ranks - 1, -1, -1):
        row, empty = "", 0
        for x in range(g.files):
            p = board.get(_sq(x, y))
            if p is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return " ".join(["/".join(rows)] + fsf_fen.split()[1:])


# ---------------------------------------------------------------- move conversion

def _lan(g: _Game, board: dict, uci: str) -> str:
    m = _UCI.match(uci)
    if not m:
        raise ValueError(f"unexpected Fairy-Stockfish move {uci!r}")
    base, suffix = m[1] + m[2] + m[3] + m[4], m[5]
    if suffix == "":
        return base
    if suffix == "+":
        return f"{base}={g.piece_promotion[board[m[1] + m[2]].upper()]}"
    if suffix.isalpha():
        return f"{base}={suffix.upper()}"
    raise ValueError(f"unexpected Fairy-Stockfish move {uci!r}")


def lan_from_uci(game_id: str, vfen: str, uci: str) -> str:
    g = _game(game_id)
    return _lan(g, _board(g, vfen)[0], uci)


def uci_from_lan(game_id: str, vfen: str, lan: str) -> str:
    g = _game(game_id)
    m = _LAN.match(lan)
    if not m:
        raise ValueError(f"not a LAN move for {game_id}: {lan!r}")
    base = lan.split("=")[0]
    if not m[5]:
        return base
    piece = _board(g, vfen)[0].get(m[1] + m[2], "?").upper()
    if piece == "P":
        return base + m[5].lower()
    if g.piece_promotion.get(piece) == m[5]:
        return base + "+"
    raise ValueError(f"no such promotion: {lan!r}")


# ---------------------------------------------------------------- legal moves

def _keep(g: _Game, board: dict, uci: str) -> bool:
    """False for a superset-Grand-Duke move the real piece cannot make (odd orthogonal)."""
    if not g.superset_gd:
        return True
    m = _UCI.match(uci)
    if board.get(m[1] + m[2], "").upper() != "G":
        return True
    dx, dy = abs(ord(m[3]) - ord(m[1])), abs(int(m[4]) - int(m[2]))
    return not ((dx == 0 or dy == 0) and (dx + dy) % 2 == 1)


def _legal_uci(g: _Game, fen: str, board: dict, side: str) -> list[str]:
    mine, theirs = ("K", "k") if side == "w" else ("k", "K")
    kings = {s for s, p in board.items() if p == mine}
    n_theirs = sum(p == theirs for p in board.values())
    gd_theirs = g.superset_gd and any(p == ("g" if side == "w" else "G")
                                      for p in board.values())
    fast: list[str] = []
    if len(kings) == 1 and n_theirs == 1:
        fast = [m for m in pyffish.legal_moves(g.royal, fen, []) if _keep(g, board, m)]
        if not gd_theirs:
            return fast
    pseudo = [m for m in pyffish.legal_moves(g.pseudo, fen, []) if _keep(g, board, m)]
    if not kings:
        return pseudo
    fast_set = set(fast)
    out = list(fast)
    for m in pseudo:
        if m in fast_set:
            continue
        mm = _UCI.match(m)
        frm, to = mm[1] + mm[2], mm[3] + mm[4]
        royals = {to if s == frm else s for s in kings}
        after = dict(board)
        after.pop(frm)
        after[to] = board[frm]  # enough for _keep: only the opponent's pieces matter
        if not any(_UCI.match(r)[3] + _UCI.match(r)[4] in royals and _keep(g, after, r)
                   for r in pyffish.legal_moves(g.pseudo, fen, [m])):
            out.append(m)
    return out


def _check_no_royal_capture(board: dict, side: str, lans) -> None:
    enemy_king = "k" if side == "w" else "K"
    for lan in lans:
        if board.get(_LAN.match(lan)[3] + _LAN.match(lan)[4]) == enemy_king:
            raise ValueError("illegal position: the side to move can capture a royal")


def legal_lans(game_id: str, vfen: str) -> set[str]:
    """The legal moves in our LAN (README: Legality 1-5; repetition and 100-ply ignored)."""
    g = _game(game_id)
    fen = to_fsf_fen(game_id, vfen)
    board, side = _board(g, fen)
    lans = {_lan(g, board, m) for m in _legal_uci(g, fen, board, side)}
    _check_no_royal_capture(board, side, lans)
    return lans


# ---------------------------------------------------------------- playing moves

def _play(g: _Game, game_id: str, fen: str, board: dict, lan: str) -> str:
    uci = uci_from_lan(game_id, fen, lan)
    out = from_fsf_fen(game_id, pyffish.get_fen(g.pseudo, fen, [uci]))
    if g.prince_ep:
        out = _prince_ep(g, board, uci, out)
    return out


def _prince_ep(g: _Game, board: dict, uci: str, fen_after_move: str) -> str:
    """FSF sets no ep square after a Prince's double step; set it as a Pawn's would be."""
    m = _UCI.match(uci)
    frm, to = m[1] + m[2], m[3] + m[4]
    piece = board.get(frm, "")
    step = 1 if piece == "I" else -1 if piece == "i" else 0
    fx, fy = _xy(frm)
    tx, ty = _xy(to)
    if not step or fx != tx or ty - fy != 2 * step or to in board:
        return fen_after_move
    passed = (fx, fy + step)
    enemy_pawn = "p" if step == 1 else "P"
    # an enemy Pawn attacks `passed` from one rank further on (its capture goes back)
    attackers = [_sq(passed[0] + dx, passed[1] + step) for dx in (-1, 1)
                 if 0 <= passed[0] + dx < g.files and 0 <= passed[1] + step < g.ranks]
    if not any(board.get(s) == enemy_pawn for s in attackers):
        return fen_after_move
    fields = fen_after_move.split()
    fields[3] = _sq(*passed)
    return " ".join(fields)


def fen_after(game_id: str, vfen: str, lans) -> str:
    """VFEN after playing `lans` (our LAN) from `vfen`; ValueError on an illegal move."""
    g = _game(game_id)
    fen = to_fsf_fen(game_id, vfen)
    for lan in lans:
        if lan not in legal_lans(game_id, fen):
            raise ValueError(f"illegal move {lan!r} in {fen!r}")
        fen = _play(g, game_id, fen, _board(g, fen)[0], lan)
    return fen


def perft(game_id: str, vfen: str, depth: int) -> int:
    """Leaf count of the legal-move tree (README rule 6: no repetition / 100-ply)."""
    g = _game(game_id)
    fen = to_fsf_fen(game_id, vfen)

    def rec(fen: str, depth: int) -> int:
        if depth == 0:
            return 1
        board, side = _board(g, fen)
        moves = {_lan(g, board, m) for m in _legal_uci(g, fen, board, side)}
        _check_no_royal_capture(board, side, moves)
        if depth == 1:
            return len(moves)
        return sum(rec(_play(g, game_id, fen, board, m), depth - 1) for m in moves)

    return rec(fen, depth)
