"""Which games are public (their plain URL ``/g/<id>`` works): a small table the web
adapter owns in the game database, ``web_public_games``, made on first use.

Kept apart from the store's migrated schema: it is the web pages' own setting, nothing
else reads it, and a database without it simply has no public games. Queries are tiny
and local, so they run in place (sqlite3, a short busy timeout)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

TABLE = "web_public_games"


class PublicGames:
    def __init__(self, db_path: str):
        self.path = str(Path(db_path).expanduser())

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=5)
        conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id INTEGER PRIMARY KEY)")
        return conn

    def is_public(self, game_id: int) -> bool:
        conn = self._connect()
        try:
            return conn.execute(f"SELECT 1 FROM {TABLE} WHERE game_id = ?", (game_id,)).fetchone() is not None
        finally:
            conn.close()

    def set_public(self, game_id: int, public: bool) -> None:
        conn = self._connect()
        try:
            with conn:
                if public:
                    conn.execute(f"INSERT OR IGNORE INTO {TABLE} (game_id) VALUES (?)", (game_id,))
                else:
                    conn.execute(f"DELETE FROM {TABLE} WHERE game_id = ?", (game_id,))
        finally:
            conn.close()
