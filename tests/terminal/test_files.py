"""The files the terminal touches: its pictures written safely in a shared folder
(issue 17, item 8), a --images that names a file, a database file that is not one
(issue 15, item 4)."""

from __future__ import annotations

import os
import stat
import sys

import pytest

import rules
from bot.terminal.images import Images

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_a_link_under_the_old_temporary_name_is_not_followed(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    # another user's traps: the name the temporary file used to have, and the final name
    (folder / "game-1.png.part").symlink_to(victim)
    (folder / "game-1-legend.png").symlink_to(victim)
    images = Images(folder)
    pos = rules.start("chess")
    board = images.board(1, pos)
    legend = images.legend(1, pos)
    assert images.problem is None
    assert victim.read_text() == "precious"  # neither link was written through
    assert os.readlink(folder / "game-1.png.part") == str(victim)  # nor touched
    for path in (board, legend):
        assert not path.is_symlink() and path.read_bytes()[:8] == PNG
        assert stat.S_IMODE(path.stat().st_mode) == 0o644  # a viewer may read it
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["game-1-legend.png", "game-1.png", "game-1.png.part"]  # no temporary left


def test_images_naming_a_file_is_refused(fairypost, tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("mine")
    r = fairypost.play("chess", "--images", str(file), images=True, lines=["e4"])
    assert r.code == 2
    assert f"--images {file}: that is a file; name a folder" in r.err
    assert "Traceback" not in r.err and file.read_text() == "mine"
    assert not fairypost.db.exists()  # refused before anything was made


@pytest.mark.parametrize("command", [("play", "chess", "--no-images"), ("games",)])
def test_a_database_file_that_is_not_sqlite(fairypost, command):
    fairypost.db.parent.mkdir()
    fairypost.db.write_text("my shopping list\n" * 20)
    r = fairypost(*command, input="e4\n")
    assert r.code == 2
    assert r.err.strip().startswith(f"fairypost: {fairypost.db} is not a fairypost database "
                                    f"(not an SQLite file")
    assert "Traceback" not in r.err
    assert fairypost.db.read_text() == "my shopping list\n" * 20  # left as it was
