"""Writes the piece cards of the rules pages: docs/rules/images/<game>-<code>.png.

    python docs/rules/make_cards.py

Each card is render's piece_card_png (so its words are the piece's description in the
game's data file), made half size with a small palette to keep the pages light on a phone.
A promoted piece's code "+X" is written "plus-X" in the file name.
"""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

import rules
from render.card import piece_card_png

GAMES = ("ganymede", "gigachess2", "grandducal", "superchess", "kingqueen")
OUT = Path(__file__).resolve().parent / "images"


def card_file(game_id: str, key: str) -> str:
    return f"{game_id}-{key.replace('+', 'plus-')}.png"


def write_card(game_id: str, key: str) -> Path:
    img = Image.open(io.BytesIO(piece_card_png(game_id, key)))
    small = img.resize((img.width // 2, img.height // 2), Image.LANCZOS).quantize(colors=48)
    path = OUT / card_file(game_id, key)
    small.save(path, optimize=True)
    return path


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game_id in GAMES:
        for key in rules.game(game_id).types:
            print(write_card(game_id, key))


if __name__ == "__main__":
    main()
