"""A game's record as PGN-like text.

It names no game and reads no rules itself: whether a move was a set-up action is
the start position's to say (``Position.in_setup``, from the game's data and its
rules hook); the service hands it over."""

from __future__ import annotations

from .results import GameView, MoveRecord


def _tag(name: str, value: str) -> str:
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{value}"]'


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


def format_record(view: GameView, setup_moves: int = 0, width: int = 79) -> str:
    """PGN-like text: the seven-tag roster, the game and its start VFEN, then the
    moves in SAN (the first ``setup_moves``, a set-up phase's actions, in a leading
    comment)."""
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
        ("TimeControl", "none" if view.days is None
         else f"{view.days} day{'s' if view.days != 1 else ''} per move"),
        ("SetUp", "1"),
        ("FEN", view.start_vfen),
    ]
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
        tokens.append("{Set-up: " + " ".join(m.san for m in setup) + "}")
    need_number = True
    for m in moves:
        if m.side == "w":
            tokens.append(f"{number}. {m.san}")
        else:
            tokens.append(f"{number}... {m.san}" if need_number else m.san)
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
    return "\n".join(t for t in (_tag(k, v) for k, v in tags)) + "\n\n" + "\n".join(lines) + "\n"
