"""Board geometry: square names, indices, holes, and stepping by offsets.

A square is an int index ``rank * width + file`` (both 0-based, rank 0 is the
first player's back rank). Holes are squares that are not on the board: no
table ever contains them, so move generation never needs to test for them.
"""
from __future__ import annotations

import re

from language.text import T

from .errors import GameDefinitionError, RulesError

_SQUARE_RE = re.compile(r"([a-z])(\d{1,2})$")


class Geometry:
    def __init__(self, files: str, ranks: int, holes: frozenset[str] = frozenset()):
        if not files or ranks < 1:
            raise GameDefinitionError("a board needs at least one file and one rank")
        self.files = files
        self.width = len(files)
        self.height = ranks
        self.size = self.width * ranks
        self._file_index = {f: i for i, f in enumerate(files)}
        self.names = [f"{files[i % self.width]}{i // self.width + 1}" for i in range(self.size)]
        self._by_name = {n: i for i, n in enumerate(self.names)}
        hole_idx = set()
        for h in holes:
            if h not in self._by_name:
                raise GameDefinitionError(f"hole {h!r} is not a square of this board")
            hole_idx.add(self._by_name[h])
        self.holes = frozenset(hole_idx)
        self.squares = tuple(i for i in range(self.size) if i not in self.holes)

    def file_of(self, sq: int) -> int:
        return sq % self.width

    def rank_of(self, sq: int) -> int:
        return sq // self.width

    def name(self, sq: int) -> str:
        return self.names[sq]

    def on_board(self, f: int, r: int) -> bool:
        return 0 <= f < self.width and 0 <= r < self.height and (r * self.width + f) not in self.holes

    def index(self, f: int, r: int) -> int | None:
        """The square at file f, rank r (0-based), or None off the board or on a hole."""
        if 0 <= f < self.width and 0 <= r < self.height:
            sq = r * self.width + f
            if sq not in self.holes:
                return sq
        return None

    def step(self, sq: int, dx: int, dy: int) -> int | None:
        return self.index(sq % self.width + dx, sq // self.width + dy)

    def parse_square(self, text: str) -> int:
        """A square from its name, any case; a clear error for anything else."""
        t = text.strip().lower()
        m = _SQUARE_RE.match(t)
        if not m:
            raise RulesError(T("{square} is not a square name", square=repr(text)))
        letter, digits = m.groups()
        if letter not in self._file_index:
            raise RulesError(T("{square}: this board has no file {file} (files are {files})", square=repr(text),
                               file=repr(letter), files=" ".join(self.files)))
        rank = int(digits)
        if not 1 <= rank <= self.height:
            raise RulesError(T("{square}: this board has ranks 1 to {n}", square=repr(text), n=self.height))
        sq = (rank - 1) * self.width + self._file_index[letter]
        if sq in self.holes:
            raise RulesError(T("{square} is not a square of this board (a hole)", square=repr(text)))
        return sq

    def square_or_none(self, text: str) -> int | None:
        try:
            return self.parse_square(text)
        except RulesError:
            return None

    def mirror_rank(self, sq: int) -> int:
        """The square with the same file on the rank as far from Black as sq is from White."""
        return (self.height - 1 - sq // self.width) * self.width + sq % self.width

    def square_pattern(self) -> str:
        """A regex fragment matching one square name of this board (lower-case)."""
        return f"[{self.files}](?:{'|'.join(str(r) for r in range(self.height, 0, -1))})"
