"""`python -m render gallery DIR`: what it lists, and what it writes."""

import io
import os

from PIL import Image

import rules
from render.__main__ import items, main


def test_the_gallery_lists_every_start_state_and_card():
    games = rules.variants()
    paths = {it.path for it in items(games)}
    for g in games:
        game = rules.game(g)
        assert f"{g}/start.png" in paths and f"{g}/start-legend.png" in paths
        for key in game.types:
            name = key.replace("+", "promoted-")
            assert (f"{g}/cards/{name}.png" in paths or f"{g}/cards/{name}-w.png" in paths), key
        assert any(p.startswith(f"{g}/") and "/cards/" not in p and "start" not in p
                   for p in paths), g       # at least one position with its special states
    for special in ("ganymede/wall-capture.png", "ganymede/states.png",
                    "superchess/cyclops-run.png", "superchess/archer-shot.png",
                    "kingqueen/drop-check.png", "chess/mate.png"):
        assert special in paths


def test_the_gallery_writes_pictures_and_an_index(tmp_path, capsys):
    assert main(["gallery", str(tmp_path), "--games", "chess"]) == 0
    out = capsys.readouterr().out.splitlines()
    written = [line for line in out if line.startswith("[")]
    assert len(written) == len(items(["chess"])) and not any("FAILED" in w for w in written)
    assert written[0].startswith(f"[ 1/{len(written)}] {tmp_path}/chess/start.png")
    for it in items(["chess"]):
        data = (tmp_path / it.path).read_bytes()
        assert len(data) < 1_000_000
        Image.open(io.BytesIO(data)).verify()
    index = (tmp_path / "index.html").read_text()
    assert "chess/cards/N.png" in index and "chess/mate.png" in index
    assert os.path.exists(tmp_path / "chess" / "highlight-b5.png")
