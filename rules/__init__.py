"""fairypost's rules engine: five large chess variants and orthodox chess.

    rules.variants()              -> game ids
    rules.start(game_id)          -> Position at the start
    rules.from_fen(game_id, vfen) -> Position
    rules.game(game_id)           -> Game (board, pieces, names)
    rules.add_variants_dir(path)  -> ids of a folder of own variant files (docs/variants.md)
    rules.add_good_variants(path) -> (ids, {path: error}): its good files, each bad one reported

See rules/README.md for the design and docs/rules/ for each game's rules.

May import: ``language.text`` (a sentence said later in its reader's language: pure Python,
importing nothing) and the standard library (it knows nothing of the bot, the pictures or the
computer player).
"""
from __future__ import annotations

from . import hooks  # noqa: F401 - registers the special movers and extensions (rules/hooks/)

# ``rules.game`` is this function (load_game), not the module rules.game (imported before it)
from .catalog import add_good_variants, add_variants_dir, remove_variants_dir
from .catalog import load_game as game
from .catalog import variant_ids as variants
from .errors import (
    AmbiguousMoveError,
    FenError,
    GameDefinitionError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    LeavesRoyalInCheckError,
    MoveError,
    NoPieceError,
    NoSuchMoveError,
    NotYourPieceError,
    RulesError,
    UnknownGameError,
    VariantError,
)
from .game import Game
from .pieces import Move, MoveKind
from .position import Position
from .vfen import read_fen


def from_fen(game_id: str, vfen: str) -> Position:
    return read_fen(game(game_id), vfen)


def start(game_id: str) -> Position:
    g = game(game_id)
    return from_fen(game_id, g.default_start_fen)


__all__ = [
    "variants", "start", "from_fen", "game", "Game", "Position", "Move", "MoveKind",
    "add_variants_dir", "add_good_variants", "remove_variants_dir",
    "RulesError", "UnknownGameError", "GameDefinitionError", "VariantError", "FenError", "MoveError",
    "InvalidMoveError", "IllegalMoveError", "NoPieceError", "NotYourPieceError", "NoSuchMoveError",
    "LeavesRoyalInCheckError", "GameOverError", "AmbiguousMoveError",
]
