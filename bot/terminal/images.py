"""The PNG pictures a terminal session writes: the board after each move, the
legend, piece cards. The same pictures the bot posts (``render``), written to a
folder the session names, one file per game (rewritten as the game goes on)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from language import ENGLISH, Language, T, Text


class Images:
    """Writes pictures into ``folder``; ``folder=None`` writes none. If the picture
    code cannot be loaded, says so once (``problem``) and writes nothing more."""

    def __init__(self, folder: str | Path | None):
        self.folder = Path(folder) if folder is not None else None
        self.problem: Text | None = None  # said in the reader's language (str(): English)

    @property
    def enabled(self) -> bool:
        return self.folder is not None and self.problem is None

    def _write(self, name: str, make) -> Path | None:
        if not self.enabled:
            return None
        try:
            data = make()
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / name
            write_replacing(path, data)
            return path
        except (ImportError, AttributeError) as e:
            self.problem = T("board images are not available: {why}", why=str(e))
        except OSError as e:
            self.problem = T("cannot write images to {folder}: {why}", folder=str(self.folder),
                             why=str(e.strerror or e))
        return None

    def board(self, game_id: int, pos, *, flip: bool = False, highlight=None,
              outcome: tuple[str | None, str | None] = (None, None),
              lang: Language = ENGLISH) -> Path | None:
        """The board; ``outcome``: a finished game's stored (result, reason), shown
        as a banner ("White resigned — Black wins") in the reader's language ``lang``."""
        def make():
            import render
            return render.board_png(pos, flip=flip, highlight=highlight, lang=lang,
                                    result=render.result_text(pos.game, *outcome, lang=lang))
        return self._write(f"game-{game_id}.png", make)

    def legend(self, game_id: int, pos, lang: Language = ENGLISH) -> Path | None:
        def make():
            import render
            return render.legend_png(pos, lang=lang)
        return self._write(f"game-{game_id}-legend.png", make)

    def piece(self, game: str, key: str, colour: str = "w", state: str | None = None,
              lang: Language = ENGLISH) -> Path | None:
        def make():
            import render
            return render.piece_card_png(game, key, colour, state, lang=lang)
        safe = key.replace("+", "promoted-")
        return self._write(f"piece-{game}-{safe}-{colour}.png", make)


def write_replacing(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a new temporary file beside it, then a rename.
    ``mkstemp`` makes a file of its own (O_EXCL, a random name), so in a shared folder a
    link someone left under a guessable name is never followed and overwritten; and a
    viewer never sees half a picture."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):  # mkstemp's 0600 would hide the picture from a viewer
                os.fchmod(f.fileno(), 0o644)
            f.write(data)
        os.replace(tmp, path)  # replaces a link at path itself, never what it points to
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
