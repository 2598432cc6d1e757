"""`python -m render gallery` draws the server owner's own variants (FAIRYPOST_VARIANTS_DIR)
as it draws the built-in games (issue 29, item 7): a bad variant file is named with what is
wrong, and the others are still drawn. Run as an owner runs it: a process of its own, the
folder given by the environment."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

from tests.bot.test_own_variant import WAZIRKNIGHT

ROOT = Path(__file__).resolve().parents[2]

# the worked example of docs/variants.md, its Fox given a figure of the program's
GOOD = WAZIRKNIGHT.replace('betza = "WN"\n', 'betza = "WN"\nglyph = "griffon"\n')


def run_gallery(out: Path, folder: Path, *args: str):
    env = {**os.environ, "FAIRYPOST_VARIANTS_DIR": str(folder), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "render", "gallery", str(out), *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def test_own_variants_are_drawn_and_a_bad_file_is_named_with_what_is_wrong(tmp_path):
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "wazirknight.toml").write_text(GOOD)
    (folder / "typo.toml").write_text(GOOD.replace("royal = true", "royl = true"))
    (folder / "unclosed.toml").write_text(GOOD.replace('name = "Rook"', 'name = "Rook'))
    (folder / "chess.toml").write_text(GOOD)
    out = tmp_path / "gallery"
    done = run_gallery(out, folder, "--games", "wazirknight")
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr      # drawn, but the owner is told something is wrong
    assert lines[0] == f"own variants in {folder}: wazirknight"
    bad = {line for line in lines if line.startswith("BAD VARIANT FILE ")}
    assert any(f"{folder / 'typo.toml'}: [pieces.K] unknown key 'royl' (did you mean 'royal'?)" in b
               for b in bad), bad
    assert any(str(folder / "unclosed.toml") in b and "line" in b for b in bad), bad
    assert any(f"{folder / 'chess.toml'}: 'chess' is the id of a built-in game; rename the file" in b
               for b in bad), bad
    assert len(bad) == 3
    # the good one is drawn like a built-in game: start, legend, check, a card per piece
    assert not any("FAILED" in line for line in lines), lines
    for name in ("start.png", "start-legend.png", "check.png",
                 *(f"cards/{k}.png" for k in "KFRNP")):
        data = (out / "wazirknight" / name).read_bytes()
        Image.open(io.BytesIO(data)).verify()
    index = (out / "index.html").read_text()
    assert "wazirknight/cards/F.png" in index and "typo.toml" in index
    assert not (out / "typo").exists() and not (out / "unclosed").exists()


def test_a_missing_variants_folder_is_an_error(tmp_path):
    done = run_gallery(tmp_path / "gallery", tmp_path / "nowhere", "--games", "chess")
    assert done.returncode == 2
    assert f"the variants folder {tmp_path / 'nowhere'} does not exist" in done.stderr
    assert not (tmp_path / "gallery").exists()
