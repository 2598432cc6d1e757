"""Zobrist hashing: a random 64-bit key per (piece kind, square), XORed over the board,
with one key per distinct rest of the state (side, castling rights, en passant square,
hands, the dropped flags, the set-up step), drawn the first time that state is seen.

A move changes the hash by the keys of its board changes and of the two states, so the
searcher keeps it incrementally (see search.Searcher.make).
"""
from __future__ import annotations

import random

_rng = random.Random(0x5EED_CAFE)
_square_keys: dict = {}   # kind -> per-square keys
_state_keys: dict = {}    # state tuple -> key


def kind_keys(kind) -> list[int]:
    """The kind's key on every square."""
    keys = _square_keys.get(kind)
    if keys is None:
        keys = _square_keys[kind] = [_rng.getrandbits(64) for _ in range(kind.game.geometry.size)]
    return keys


def square_key(kind, sq: int) -> int:
    return kind_keys(kind)[sq]


def state_key(state: tuple) -> int:
    key = _state_keys.get(state)
    if key is None:
        key = _state_keys[state] = _rng.getrandbits(64)
    return key


def board_hash(board) -> int:
    h = 0
    for sq, k in enumerate(board):
        if k is not None:
            h ^= square_key(k, sq)
    return h


def state_of(pos) -> tuple:
    """What besides the board the hash covers."""
    return (pos.side, pos.rights, pos.ep, pos.hands, pos.dropped, pos.setup)


def position_hash(pos) -> int:
    return board_hash(pos.board) ^ state_key(state_of(pos))


def key_hash(game, key: tuple) -> int:
    """The hash of a position from its repetition key (Position.key())."""
    board, side, rights, ep, hands, dropped, setup = key
    return board_hash(board) ^ state_key((side, rights, ep, hands, dropped, setup))
