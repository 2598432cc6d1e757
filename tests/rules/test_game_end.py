"""Game end: checkmate, stalemate, threefold repetition, the 100-ply rule."""
import rules


def test_checkmate():
    pos = rules.start("chess")
    for mv in ["f3", "e5", "g4", "Qh4"]:
        pos = pos.play(mv)
    assert pos.in_check() and pos.legal_moves() == []
    assert pos.outcome() == ("0-1", "checkmate")


def test_stalemate_is_a_draw():
    pos = rules.from_fen("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert not pos.in_check() and pos.legal_moves() == []
    assert pos.outcome() == ("1/2-1/2", "stalemate")


def test_threefold_repetition_at_once():
    pos = rules.start("chess")
    seen = []
    for mv in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
        seen.append(pos.outcome())
        pos = pos.play(mv)
    assert all(o is None for o in seen)
    assert pos.repetitions() == 3
    assert pos.outcome() == ("1/2-1/2", "threefold repetition")


def test_repetition_needs_same_rights():
    # the King's walk loses castling rights, so the first position is not the same position
    pos = rules.from_fen("chess", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1")
    for mv in ["Ke2", "Kd8", "Ke1", "Ke8", "Ke2", "Kd8", "Ke1", "Ke8"]:
        pos = pos.play(mv)
    assert pos.repetitions() == 2 and pos.outcome() is None


def test_hundred_ply_rule():
    pos = rules.from_fen("chess", "k7/8/8/8/8/8/8/K6R w - - 99 80")
    assert pos.outcome() is None
    after = pos.play("Rh2")
    assert after.halfmove == 100 and after.outcome() == ("1/2-1/2", "100-ply rule")
    reset = pos.play("Rh8")   # a check, not a capture or pawn move: still counts
    assert reset.halfmove == 100


def test_mate_on_hundredth_ply_wins():
    pos = rules.from_fen("chess", "k7/8/1K6/8/8/8/8/7R w - - 99 80")
    after = pos.play("Rh8")
    assert after.halfmove == 100 and after.outcome() == ("1-0", "checkmate")


def test_capture_and_pawn_move_reset_the_count():
    pos = rules.from_fen("chess", "k7/8/8/8/8/8/P6r/K6R w - - 57 80")
    assert pos.play("Rxh2").halfmove == 0
    assert pos.play("a3").halfmove == 0
    assert pos.play("Rg1").halfmove == 58


def test_move_generation_ignores_draw_rules():
    pos = rules.from_fen("chess", "k7/8/8/8/8/8/8/K6R w - - 150 80")
    assert pos.outcome() == ("1/2-1/2", "100-ply rule")
    assert len(pos.legal_moves()) > 0 and pos.perft(1) == len(pos.legal_moves())


def test_history_keeps_the_line_not_the_positions():
    pos = rules.start("chess")
    for mv in ["e4", "e5", "Nf3"]:
        pos = pos.play(mv)
    assert pos.line() == ["e2e4", "e7e5", "g1f3"]
    assert not hasattr(pos, "parent")   # a long game must not keep every earlier position alive
