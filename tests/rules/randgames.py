"""Seeded random games, for tests that check something at every ply."""
import random

import rules


def random_game(game_id: str, seed: int, max_plies: int = 200, start=None):
    """Yield (position, move) along a seeded random game, then the final position with None."""
    rng = random.Random(seed)
    pos = start if start is not None else rules.start(game_id)
    for _ in range(max_plies):
        if pos.outcome() is not None:
            break
        moves = sorted(pos.legal_moves(), key=lambda m: m.lan)
        mv = rng.choice(moves)
        yield pos, mv
        pos = pos.play(mv)
    yield pos, None
