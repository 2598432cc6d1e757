"""Perft cases kept as data (tests/rules/perft/<game>.perft), as python-chess keeps its own.

Format: blocks of `id NAME`, `fen VFEN`, then `perft DEPTH COUNT` lines; `#` starts a comment.
Cases above NODE_BUDGET nodes are measured figures (run them with FAIRYPOST_FULL_PERFT=1 or
`python -m rules perft GAME DEPTH --fen ...`); the suite runs the rest.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PERFT_DIR = Path(__file__).parent / "perft"
NODE_BUDGET = int(os.environ.get("FAIRYPOST_PERFT_BUDGET", "250000"))
FULL = os.environ.get("FAIRYPOST_FULL_PERFT") == "1"


@dataclass(frozen=True)
class PerftCase:
    game: str
    id: str
    fen: str
    depth: int
    count: int

    def __str__(self):
        return f"{self.game}:{self.id}:d{self.depth}"


def load_cases(game: str | None = None) -> list[PerftCase]:
    cases = []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        if game and path.stem != game:
            continue
        case_id = fen = None
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            if word == "id":
                case_id, fen = rest.strip(), None
            elif word == "fen":
                fen = rest.strip()
            elif word == "perft":
                depth, count = rest.split()
                cases.append(PerftCase(path.stem, case_id, fen, int(depth), int(count)))
            else:
                raise ValueError(f"{path.name}: unknown line {line!r}")
    return cases


def in_budget(case: PerftCase) -> bool:
    return FULL or case.count <= NODE_BUDGET
