"""Seeded random playouts of every game, checked at every ply (issue #12, part 1).

Each game (``rules.variants()``, so a game added later is covered; Super Chess also from
its set-up start) is played at random to its end or to 300 plies. At every ply:

* VFEN round trip: the position read back from its VFEN writes the same VFEN and has
  the same legal moves and the same check;
* the outcome agrees with the legal moves and the check test (no moves: mate if in
  check, else stalemate as the game scores it; moves left: only repetition or the
  100-ply rule end it, and only when they hold), and the legal moves are distinct;
* no exception.

Every ``FULL_CHECK_EVERY``-th ply (12 by default, every ply with ``FAIRYPOST_LONG=1``;
perft(2) on a Gigachess II position costs ~2,800 nodes) and at the last position:

* every legal move's LAN and SAN read back (``Position.parse``) as that same move, and
  neither is longer than the engine's 64-character cap;
* the legal moves equal a brute-force list: every pseudo-legal move applied, kept if
  the mover's royal is then not attacked (and, with the facing rule, not facing the
  other royal) -- a check of the engine's "only look at the moves that change a
  sensitive square" shortcut;
* perft(2) equals the sum over the legal moves of perft(1) after each (played by
  ``Position.play``).

Seeds: 1 per game by default, 6 with the flag (``FAIRYPOST_PLAYOUT_SEEDS`` overrides).
Reading back builds each position's notation index once (``common.memo_move_index``);
the rest of ``parse`` runs as it is.
"""
from __future__ import annotations

import pytest

import rules
from rules.notation import MAX_MOVE_TEXT
from rules.pieces import WHITE

from .common import FULL_CHECK_EVERY, PLAYOUT_PLIES, PLAYOUT_SEEDS, games, memo_move_index


def _cases():
    out = []
    for g in games():
        starts = ["start"] + (["setup"] if rules.game(g).setup_start_fen else [])
        for start in starts:
            for seed in range(1, PLAYOUT_SEEDS + 1):
                out.append(pytest.param(g, start, seed, id=f"{g}-{start}-seed{seed}"))
    return out


def check_outcome(pos, lans: list[str]) -> None:
    outcome = pos.outcome()
    if pos.setup is not None:
        assert outcome is None and lans, "a set-up step always has actions and never ends the game"
        return
    loss = "0-1" if pos.side == WHITE else "1-0"
    if not lans:
        if pos.in_check():
            assert outcome == (loss, "checkmate")
        else:
            expected = loss if pos.game.stalemate == "loss" else "1/2-1/2"
            assert outcome == (expected, "stalemate")
        return
    reps, half = pos.repetitions(), pos.halfmove
    if outcome is None:
        assert reps < 3 and half < 100, (reps, half)
    elif outcome == ("1/2-1/2", "threefold repetition"):
        assert reps >= 3
    elif outcome == ("1/2-1/2", "100-ply rule"):
        assert half >= 100 and reps < 3
    else:
        pytest.fail(f"outcome {outcome} with {len(lans)} legal moves")


def brute_force_legal(pos) -> set[str]:
    """The legal moves by the contract's definition, the slow way."""
    pseudo = list(pos.pseudo_moves())
    if pos.setup is not None:
        return {m.lan for m in pseudo}
    us, them = pos.side, 1 - pos.side
    geo = pos.game.geometry
    out = set()
    for m in pseudo:
        child = pos.apply(m)
        if pos.royal[us] is not None:
            r = child.royal[us]
            if r is None or child.board[r] is None or child.board[r].color != us:
                continue
            if child.is_attacked(r, them):
                continue
            o = child.royal[them]
            if (pos.game.facing_royals and o is not None and geo.file_of(o) == geo.file_of(r)
                    and all(child.board[s] is None
                            for s in range(min(r, o) + geo.width, max(r, o), geo.width))):
                continue
        out.add(m.lan)
    return out


def check_position(pos, full: bool) -> None:
    gid = pos.game.id
    moves = pos.legal_moves()
    lans = [m.lan for m in moves]
    assert len(set(lans)) == len(lans), "a legal move is listed twice"

    fen = pos.fen()
    again = rules.from_fen(gid, fen)
    assert again.fen() == fen, "VFEN round trip"
    assert sorted(m.lan for m in again.legal_moves()) == sorted(lans), "legal moves after VFEN round trip"
    assert again.in_check() == pos.in_check()

    check_outcome(pos, lans)
    if not full:
        return

    assert set(lans) == brute_force_legal(pos), f"legal moves differ from brute force at {fen}"
    for m in moves:
        assert len(m.lan) <= MAX_MOVE_TEXT
        assert pos.parse(m.lan).lan == m.lan, f"LAN {m.lan} at {fen}"
        san = pos.san(m)
        assert len(san) <= MAX_MOVE_TEXT
        assert pos.parse(san).lan == m.lan, f"SAN {san} ({m.lan}) at {fen}"
    assert pos.perft(2) == sum(pos.play(m).perft(1) for m in moves), f"perft(2) at {fen}"


def playout(game_id: str, start: str, seed: int, plies: int = PLAYOUT_PLIES,
            every: int = FULL_CHECK_EVERY) -> tuple[int, object]:
    """Play and check; returns (plies played, outcome)."""
    import random

    rng = random.Random(f"{game_id}/{start}/{seed}")  # str seeds do not depend on PYTHONHASHSEED
    pos = (rules.start(game_id) if start == "start"
           else rules.from_fen(game_id, rules.game(game_id).setup_start_fen))
    ply = 0
    with memo_move_index():
        while True:
            done = ply >= plies or pos.outcome() is not None
            try:
                check_position(pos, full=done or ply % every == 0)
            except AssertionError as e:
                raise AssertionError(f"{game_id} seed {seed} ply {ply} ({pos.fen()}): {e}") from e
            if done:
                return ply, pos.outcome()
            mv = rng.choice(sorted(pos.legal_moves(), key=lambda m: m.lan))
            pos = pos.play(mv)
            ply += 1


@pytest.mark.parametrize("game_id,start,seed", _cases())
def test_random_playout(game_id, start, seed):
    played, outcome = playout(game_id, start, seed)
    print(f"playout {game_id} {start} seed {seed}: {played} plies, {outcome or 'unfinished'}")
    assert played > 0
    assert played == PLAYOUT_PLIES or outcome is not None


def test_brute_force_oracle_catches_an_illegal_move():
    """The oracle is not vacuous: a pinned piece's moves are pseudo-legal, not legal."""
    pos = rules.from_fen("chess", "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1")
    brute = brute_force_legal(pos)
    assert "e2d3" not in brute and "e1d1" in brute
    assert any(m.lan == "e2d3" for m in pos.pseudo_moves())
    assert {m.lan for m in pos.legal_moves()} == brute
