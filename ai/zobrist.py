"""Zobrist hashing: a random 64-bit key per (piece kind, square), XORed over the board,
with one key per distinct rest of the state (side, castling rights, en passant square,
hands, the dropped flags, the set-up step), drawn the first time that state is seen.

A move changes the hash by the keys of its board changes and of the two states, so the
searcher keeps it incrementally (see search.Searcher.make).
"""
from __future__ import annotations

import random
from typing import TypeAlias

from rules.game import Game, Hands
from rules.pieces import Board, PieceKind
from rules.position import Key, Position

#: what besides the board the hash covers: side, rights, en passant square, hands, the
#: dropped flags, the set-up step
State: TypeAlias = tuple[int, frozenset[int], int | None, Hands, tuple[bool, bool], str | None]

_rng = random.Random(0x5EED_CAFE)
_square_keys: dict[PieceKind, list[int]] = {}   # kind -> per-square keys
_state_keys: dict[State, int] = {}    # state tuple -> key


def kind_keys(kind: PieceKind) -> list[int]:
    """The kind's key on every square."""
    keys = _square_keys.get(kind)
    if keys is None:
        keys = _square_keys[kind] = [_rng.getrandbits(64) for _ in range(kind.game.geometry.size)]
    return keys


def square_key(kind: PieceKind, sq: int) -> int:
    return kind_keys(kind)[sq]


def state_key(state: State) -> int:
    key = _state_keys.get(state)
    if key is None:
        key = _state_keys[state] = _rng.getrandbits(64)
    return key


def board_hash(board: Board) -> int:
    h = 0
    for sq, k in enumerate(board):
        if k is not None:
            h ^= square_key(k, sq)
    return h


def state_of(pos: Position) -> State:
    """What besides the board the hash covers."""
    return (pos.side, pos.rights, pos.ep, pos.hands, pos.dropped, pos.setup)


def position_hash(pos: Position) -> int:
    return board_hash(pos.board) ^ state_key(state_of(pos))


def key_hash(game: Game, key: Key) -> int:
    """The hash of a position from its repetition key (Position.key())."""
    board, side, rights, ep, hands, dropped, setup = key
    return board_hash(list(board)) ^ state_key((side, rights, ep, hands, dropped, setup))
