"""Reading the rules pages (docs/rules/*.md), the README and docs/engine.md: their checked move blocks,
their inline code, and the texts they must share with the game data.

A checked block is a fenced block whose info string is ``moves GAME``:

    ```moves superchess
    vfen: <VFEN>                      the position for the lines below (default: the start)
    1. Cd1d3(NE) k8 2. Cd3e4(N)       moves played one after another; move numbers are skipped
    Ag1f3 Af3d4 k8 Ad4e6 => 1-0 checkmate
    Nf3 => refused                    the last move must be refused, the others legal
    e4 e5 => <VFEN>                   the position the moves reach
    ```

Each line starts again from the block's position.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "docs" / "rules"
README = ROOT / "README.md"
ENGINE_DOC = ROOT / "docs" / "engine.md"  # the rules engine's command line (moved from the README)

BLOCK = re.compile(r"^```moves[ \t]+(\w+)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
# a code span with no space that names a square, or castles: a move example
SQUARE = re.compile(r"[a-n](1[0-4]|[1-9])(?![0-9])")
CASTLING = re.compile(r"^[O0]-[O0](-[O0])?[+#]?$")
MOVE_CHARS = re.compile(r"[a-nxA-Z0-9+\-@^(),=#!?|\\]+")

# the facing words players may write for a Cyclops: a code span with them is a move example too
FACING_WORDS = {"forward": "N", "back": "S", "left": "W", "right": "E", "forward-left": "NW",
                "forward-right": "NE", "back-left": "SW", "back-right": "SE"}
WORD_FACING = re.compile(r"\((" + "|".join(sorted(FACING_WORDS, key=len, reverse=True)) + r")\)")


@dataclass(frozen=True)
class Example:
    page: str
    game: str
    vfen: str | None
    moves: tuple[str, ...]
    expect: str | None          # None, "refused", a VFEN, or "RESULT REASON"
    line: int

    def __str__(self):
        return f"{self.page}:{self.line}: {' '.join(self.moves)}" + (f" => {self.expect}" if self.expect else "")


def pages() -> list[Path]:
    return sorted(RULES_DIR.glob("*.md"))


def examples(path: Path) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    out = []
    for m in BLOCK.finditer(text):
        game, body = m.group(1), m.group(2)
        first = text.count("\n", 0, m.start(2)) + 1
        vfen = None
        for i, raw in enumerate(body.splitlines()):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("vfen:"):
                vfen = line[len("vfen:"):].strip()
                continue
            moves, _, expect = line.partition("=>")
            tokens = tuple(t for t in moves.split() if not MOVE_NUMBER.match(t))
            out.append(Example(path.name, game, vfen, tokens, expect.strip() or None, first + i))
    return out


def block_tokens(path: Path) -> set[str]:
    return {t for e in examples(path) for t in e.moves}


def inline_moves(path: Path) -> list[str]:
    """The code spans outside fenced blocks that are move examples."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    found = []
    for span in CODE_SPAN.findall(text):
        letters = as_letters(span)
        if CASTLING.match(letters) or (SQUARE.search(letters) and MOVE_CHARS.fullmatch(letters)):
            found.append(span)
    return found


def as_letters(example: str) -> str:
    """A word-facing example (`Cd1d3(forward-right)`) written with the letters (`Cd1d3(NE)`):
    how a span with facing words is recognised as a move."""
    return WORD_FACING.sub(lambda m: f"({FACING_WORDS[m.group(1)]})", example)


def play_commands(path: Path) -> list[tuple[str, list[str]]]:
    """`python -m rules play GAME MOVE...` lines with real moves (not the usage line)."""
    out = []
    for m in re.finditer(r"python -m rules play (\w+) ([^#\n`]*)", path.read_text(encoding="utf-8")):
        game, args = m.group(1), m.group(2).split()
        if game.isupper() or any(a.startswith(("MOVE", "[")) for a in args):
            continue
        out.append((game, args))
    return out


def flat(text: str) -> str:
    """Text with no whitespace and no Markdown emphasis, to compare texts wrapped differently."""
    return "".join(text.replace("**", "").split())
