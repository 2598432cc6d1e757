"""A game's record as PGN: ``game_pgn(view)`` is the one builder every front end calls
(the terminal's and Discord's ``record``, mail, ``fairypost record`` in
``record_command``, the game page's download).

It names no variant and reads no rules of its own: whether a move was a set-up action is
the start position's to say (``Position.in_setup``, from the game's data and its rules
hook). The one position it knows is PGN's own default, orthodox chess's start, which a
record leaves out (no ``SetUp``/``FEN``) as PGN says; every other start is written in
``FEN``, so that a reader never has to know a variant's start."""

from __future__ import annotations

import rules
from rules.pgn_forms import pgn_form

from .results import GameView, MoveRecord

#: the start PGN assumes when a record has no FEN tag (orthodox chess's)
PGN_DEFAULT_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

#: movetext lines at most this long (PGN's export format: under 80 columns)
MOVETEXT_WIDTH = 79

SECONDS_A_DAY = 86_400


def _tag(name: str, value: str) -> str:
    """One tag pair on one line: a line break or other control character in a name
    (a mail's display name) becomes a space, quotes and backslashes are escaped."""
    value = "".join(ch if ch.isprintable() else " " for ch in value)
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{value}"]'


def time_control(days: int | None) -> str:
    """PGN's TimeControl: ``-`` for none; N days a move is one move per N days in
    seconds (``1/259200``), the period repeating after every move."""
    return "-" if days is None else f"1/{days * SECONDS_A_DAY}"


def setup_actions(start, moves: tuple[MoveRecord, ...]) -> int:
    """How many of ``moves``, played from the rules position ``start``, were set-up
    actions (the position says)."""
    pos, n = start, 0
    for m in moves:
        if not pos.in_setup:
            break
        pos = pos.play(m.lan)
        n += 1
    return n


def game_pgn(view: GameView, start=None) -> str:
    """The game as a PGN record: the seven-tag roster, then ``GameId``, ``Variant``,
    ``TimeControl``, ``SetUp "1"`` and ``FEN`` (where the start is not PGN's default),
    ``EndDate`` and ``Termination`` once it ended; then the moves in SAN, wrapped under
    80 columns, each in its bracket-free record form (``Cd3=NE``, ``Wa2b2-b2c2``:
    rules.pgn_forms; the engine reads it back), a set-up phase's actions in a leading comment. ``start``: the rules
    position of ``view.start_vfen`` when the caller has it (default: read here)."""
    if start is None:
        start = rules.from_fen(view.game, view.start_vfen)
    return format_record(view, setup_actions(start, view.moves))


def format_record(view: GameView, setup_moves: int = 0, width: int = MOVETEXT_WIDTH) -> str:
    """The PGN text of ``view`` whose first ``setup_moves`` were set-up actions."""
    result = view.result or "*"
    tags = [
        ("Event", "fairypost correspondence game"),
        ("Site", "fairypost"),
        ("Date", view.created_at.strftime("%Y.%m.%d")),
        ("Round", "-"),
        ("White", view.white.name),
        ("Black", view.black.name),
        ("Result", result),
        ("GameId", str(view.id)),
        ("Variant", view.game),
        ("TimeControl", time_control(view.days)),
    ]
    if view.start_vfen != PGN_DEFAULT_START:
        tags += [("SetUp", "1"), ("FEN", view.start_vfen)]
    if view.ended_at is not None:
        tags.append(("EndDate", view.ended_at.strftime("%Y.%m.%d")))
    if view.reason:
        tags.append(("Termination", view.reason))
    fields = view.start_vfen.split(" ")
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
    tokens: list[str] = []
    moves = list(view.moves)
    setup, moves = moves[:setup_moves], moves[setup_moves:]
    if setup:
        tokens.append("{Set-up: " + " ".join(pgn_form(m.san) for m in setup) + "}")
    need_number = True
    for m in moves:
        san = pgn_form(m.san)
        if m.side == "w":
            tokens.append(f"{number}. {san}")
        else:
            tokens.append(f"{number}... {san}" if need_number else san)
            number += 1
        need_number = m.side == "b"
    tokens.append(result)
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(_tag(k, v) for k, v in tags) + "\n\n" + "\n".join(lines) + "\n"
