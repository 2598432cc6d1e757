"""All of the core's SQL, and only here: the schema (``MIGRATIONS``), the rows, and the
statements (``Tx``), each written once for both databases (see bot/store/__init__.py). An
adapter's own tables, their migrations and their queries are the adapter's (its
``schema.py`` and ``tables.py``), run through ``Tx``'s public statement API.

Every value goes in through a parameter; the only names ever put into SQL text come from
fixed sets in this module. ``MIGRATIONS`` is one ordered list both back ends run: an entry is
SQL both take (PostgreSQL's copy has its types widened: ``base.postgres_ddl``) or a
``Dialects`` pair where they differ. A statement the database refuses raises
``bot.domain.errors.DatabaseError`` (a constraint: ``IntegrityError``), whatever the driver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from .base import Dialects

# --- schema -----------------------------------------------------------------------


# The challenges table; PostgreSQL refuses a reference to a table not made yet, so its
# reference to games comes after games exist
_CHALLENGES = """CREATE TABLE challenges (
        id             INTEGER PRIMARY KEY,
        challenger_id  INTEGER NOT NULL REFERENCES players(id),
        opponent_id    INTEGER REFERENCES players(id),
        game           TEXT NOT NULL,
        days           INTEGER CHECK (days IS NULL OR days > 0),
        colour         TEXT NOT NULL CHECK (colour IN ('white', 'black', 'random')),
        setup          TEXT NOT NULL DEFAULT 'default' CHECK (setup IN ('default', 'players')),
        status         TEXT NOT NULL DEFAULT 'open'
                       CHECK (status IN ('open', 'accepted', 'declined', 'cancelled')),
        created_at     INTEGER NOT NULL,
        answered_at    INTEGER,
        answered_by    INTEGER REFERENCES players(id),
        game_id        INTEGER{games_ref},
        CHECK (opponent_id IS NULL OR opponent_id <> challenger_id)
    )"""

_V1 = (
    """CREATE TABLE players (
        id              INTEGER PRIMARY KEY,
        platform        TEXT NOT NULL,
        user_id         TEXT NOT NULL,
        name            TEXT NOT NULL,
        settings        TEXT NOT NULL DEFAULT '{}',
        vacation_start  INTEGER,
        vacation_until  INTEGER,
        created_at      INTEGER NOT NULL,
        UNIQUE (platform, user_id),
        CHECK ((vacation_start IS NULL) = (vacation_until IS NULL))
    )""",
    """CREATE TABLE vacations (
        id          INTEGER PRIMARY KEY,
        player_id   INTEGER NOT NULL REFERENCES players(id),
        started_at  INTEGER NOT NULL,
        limit_at    INTEGER NOT NULL,
        ended_at    INTEGER,
        CHECK (limit_at >= started_at)
    )""",
    "CREATE INDEX vacations_by_player ON vacations (player_id, started_at)",
    # PostgreSQL refuses a reference to a table not made yet: the one to games comes after it
    Dialects(sqlite=_CHALLENGES.format(games_ref=" REFERENCES games(id)"),
             postgres=_CHALLENGES.format(games_ref="")),
    "CREATE INDEX challenges_by_status ON challenges (status, opponent_id)",
    """CREATE TABLE games (
        id               INTEGER PRIMARY KEY,
        game             TEXT NOT NULL,
        challenge_id     INTEGER REFERENCES challenges(id),
        white_id         INTEGER NOT NULL REFERENCES players(id),
        black_id         INTEGER NOT NULL REFERENCES players(id),
        start_vfen       TEXT NOT NULL,
        current_vfen     TEXT NOT NULL,
        ply              INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
        version          INTEGER NOT NULL DEFAULT 0,
        turn_no          INTEGER NOT NULL DEFAULT 0,
        status           TEXT NOT NULL DEFAULT 'active'
                         CHECK (status IN ('active', 'finished', 'aborted')),
        result           TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),
        reason           TEXT,
        days             INTEGER CHECK (days IS NULL OR days > 0),
        to_move          TEXT CHECK (to_move IN ('w', 'b')),
        to_move_id       INTEGER REFERENCES players(id),
        turn_started_at  INTEGER NOT NULL,
        deadline         INTEGER,
        draw_offer       TEXT CHECK (draw_offer IN ('w', 'b')),
        takeback_by      TEXT CHECK (takeback_by IN ('w', 'b')),
        created_at       INTEGER NOT NULL,
        ended_at         INTEGER,
        CHECK (white_id <> black_id),
        CHECK ((status = 'active') = (result IS NULL))
    )""",
    Dialects(postgres="ALTER TABLE challenges ADD FOREIGN KEY (game_id) REFERENCES games(id)"),
    "CREATE INDEX games_by_white ON games (white_id, status)",
    "CREATE INDEX games_by_black ON games (black_id, status)",
    "CREATE INDEX games_by_deadline ON games (status, deadline)",
    "CREATE INDEX games_by_to_move ON games (to_move_id, status)",
    """CREATE TABLE moves (
        game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply        INTEGER NOT NULL CHECK (ply >= 1),
        lan        TEXT NOT NULL,
        san        TEXT NOT NULL,
        player_id  INTEGER NOT NULL REFERENCES players(id),
        side       TEXT NOT NULL CHECK (side IN ('w', 'b')),
        played_at  INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    )""",
    """CREATE TABLE events (
        id           INTEGER PRIMARY KEY,
        kind         TEXT NOT NULL,
        player_id    INTEGER REFERENCES players(id),
        game_id      INTEGER REFERENCES games(id),
        turn_no      INTEGER,
        payload      TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        status       TEXT NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'claimed', 'sent', 'failed', 'obsolete')),
        attempts     INTEGER NOT NULL DEFAULT 0,
        next_try_at  INTEGER NOT NULL,
        claimed_at   INTEGER,
        sent_at      INTEGER,
        last_error   TEXT
    )""",
    "CREATE INDEX events_by_status ON events (status, next_try_at)",
    """CREATE TABLE reminders (
        id               INTEGER PRIMARY KEY,
        game_id          INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        turn_no          INTEGER NOT NULL,
        player_id        INTEGER NOT NULL REFERENCES players(id),
        kind             TEXT NOT NULL CHECK (kind IN ('your_move', '50%', '80%', '24h', '1h')),
        before_deadline  INTEGER,
        status           TEXT NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'sent', 'superseded', 'cancelled')),
        done_at          INTEGER,
        event_id         INTEGER REFERENCES events(id),
        UNIQUE (game_id, turn_no, kind)
    )""",
    "CREATE INDEX reminders_by_status ON reminders (status, game_id)",
    """CREATE TABLE digests (
        player_id  INTEGER NOT NULL REFERENCES players(id),
        day        TEXT NOT NULL,
        status     TEXT NOT NULL CHECK (status IN ('sent', 'empty')),
        event_id   INTEGER REFERENCES events(id),
        done_at    INTEGER NOT NULL,
        PRIMARY KEY (player_id, day)
    )""",
)

# Version 2 made the Discord adapter's tables, which are now the adapter's own migrations
# (bot/discord_bot/schema.py): kept, empty, so that the versions keep their meaning.
_V2 = ()

# Each pending reminder's nominal due time (the stored deadline less its lead, or the turn's
# start), indexed, so that a sweep reads only what may be due instead of every game's
# reminders. A vacation or quiet hours only ever delay a reminder, so the nominal time is
# a lower bound of the true one, which the sweep still works out exactly.
_V3 = (
    "ALTER TABLE reminders ADD COLUMN due_at INTEGER",
    """UPDATE reminders SET due_at = (
        SELECT CASE WHEN reminders.before_deadline IS NULL THEN g.turn_started_at
                    ELSE g.deadline - reminders.before_deadline END
        FROM games g WHERE g.id = reminders.game_id)""",
    "CREATE INDEX reminders_by_due ON reminders (status, due_at)",
)

# Pruning (``Tx.prune``) deletes old events; with foreign keys on, SQLite then looks for
# rows that still refer to each one: without these indexes, a scan of every reminder and
# digest per event deleted.
_V4_PRUNE = (
    "CREATE INDEX reminders_by_event ON reminders (event_id)",
    "CREATE INDEX digests_by_event ON digests (event_id)",
)

# The scope a challenge was made in, and so its game's: a platform-neutral place name
# ("discord:guild:<id>"; NULL for a DM or the terminal). Outside its scope only a game's
# players see it.
_V5_SCOPE = (
    "ALTER TABLE challenges ADD COLUMN scope TEXT",
    "ALTER TABLE games ADD COLUMN scope TEXT",
    # (the existing rows' server is filled in by the Discord adapter's migration, whose tables say it)
)

# Who holds a claimed event, and until when: a process delivering the outbox claims an event
# under its process life's id (``Store.life``, ``bot.store.lives``) for a lease; another process (an
# overlapping deploy) takes the event back only once the lease has run out or its holder is
# known dead, never while a live process may be sending it.
#
# And each move's resulting position (VFEN): a game's position is loaded from its last
# checkpoint and the few before it that the repetition rule needs, not replayed from
# move 1. Only those are kept: an irreversible move drops the ones before the move it
# follows (NULL, as for moves stored before checkpoints: such a position is replayed).
_V6_LEASES_CHECKPOINTS = (
    "ALTER TABLE events ADD COLUMN claimed_by TEXT",
    "ALTER TABLE events ADD COLUMN lease_until INTEGER",
    "ALTER TABLE moves ADD COLUMN vfen TEXT",
)

# Games whose page anyone may follow by its plain link (the players chose so).
_V7_PUBLIC_GAMES = (
    "CREATE TABLE public_games (game_id INTEGER PRIMARY KEY REFERENCES games(id))",
)

# A player's conditional moves in a game (bot/operations/premoves.py): a tree of "if they play X, I
# answer Y" as JSON, rooted at the opponent's move after ``ply``.
_V8_PREMOVES = (
    """CREATE TABLE premoves (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        ply         INTEGER NOT NULL,
        tree        TEXT NOT NULL,
        updated_at  INTEGER NOT NULL,
        PRIMARY KEY (game_id, player_id)
    )""",
)

# Ratings and challenges with a life (bot/operations/ratings.py, bot/operations/challenges.py):
# rated or casual challenges and games; Glicko-2 ratings per (player, game); a challenge's
# expiry time, indexed so that the sweep reads only what is due (open ones made before
# this expire a week after they were made), and the status 'expired'; the players each
# player has blocked. SQLite
# cannot alter a CHECK: its text is widened in place, as SQLite's documentation allows
# for loosening a constraint (the schema is reloaded, and the ALTERs here move the schema
# cookie on for other connections).
_V9_RATINGS_CHALLENGES = (
    "ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE challenges ADD COLUMN expires_at INTEGER",
    "UPDATE challenges SET expires_at = created_at + 7 * 86400 WHERE status = 'open'",
    Dialects(sqlite="PRAGMA writable_schema = ON"),
    Dialects(sqlite="UPDATE sqlite_schema SET sql = replace(sql, '''declined'', ''cancelled'')', "
                    "'''declined'', ''cancelled'', ''expired'')') WHERE type = 'table' AND name = 'challenges'"),
    Dialects(sqlite="PRAGMA writable_schema = RESET"),
    # PostgreSQL alters a CHECK as it is: the column's constraint, by its default name
    Dialects(postgres="ALTER TABLE challenges DROP CONSTRAINT challenges_status_check, "
                      "ADD CONSTRAINT challenges_status_check CHECK (status IN "
                      "('open', 'accepted', 'declined', 'cancelled', 'expired'))"),
    "CREATE INDEX challenges_by_expiry ON challenges (status, expires_at)",
    "CREATE INDEX challenges_by_challenger ON challenges (challenger_id, status)",
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
    """CREATE TABLE ratings (
        player_id   INTEGER NOT NULL REFERENCES players(id),
        game        TEXT NOT NULL,
        rating      REAL NOT NULL,
        deviation   REAL NOT NULL,
        volatility  REAL NOT NULL,
        games       INTEGER NOT NULL DEFAULT 0,
        rated_at    INTEGER NOT NULL,
        PRIMARY KEY (player_id, game)
    )""",
    "CREATE INDEX ratings_by_game ON ratings (game, rating)",
    """CREATE TABLE blocks (
        player_id   INTEGER NOT NULL REFERENCES players(id),
        blocked_id  INTEGER NOT NULL REFERENCES players(id),
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (player_id, blocked_id),
        CHECK (player_id <> blocked_id)
    )""",
    # (a table of the Discord adapter's, made here once, is in its own migrations now)
)

# Version 10 made the email adapter's tables, which are now its own migrations
# (bot/email/schema.py): kept, empty, so that the versions keep their meaning.
_V10_EMAIL = ()

# Each player's next digest time, indexed, so that the digest check reads only the players
# whose digest may be due instead of every player with a digest time. A lower bound: NULL
# for no digest; a change of settings sets it to 0 ("work it out at the next sweep"), which
# existing players with settings start with.
_V11_NEXT_DIGEST = (
    "ALTER TABLE players ADD COLUMN next_digest_at INTEGER",
    "UPDATE players SET next_digest_at = 0 WHERE settings <> '{}'",
    "CREATE INDEX players_by_next_digest ON players (next_digest_at)",
)

# Each player's command bucket (bot/delivery/limits.py SharedCommandLimiter), for a database that
# several processes share: the tokens left at ``at`` (seconds, as the service's clock), and
# whether the last take was refused. No reference to players: a bucket is taken before the
# command looks the player up (a refusal must cost nothing), and there is one row a player.
_V12_COMMAND_BUCKETS = (
    """CREATE TABLE command_buckets (
        player_id  INTEGER PRIMARY KEY,
        tokens     REAL NOT NULL,
        at         REAL NOT NULL,
        refused    INTEGER NOT NULL DEFAULT 0
    )""",
)

# A player has several budgets (commands, reads, lookups: bot/delivery/limits.py), each its bucket.
# The buckets' contents are fleeting (seconds of refill): the old table is dropped, not copied.
_V13_BUDGETS = (
    "DROP TABLE command_buckets",
    """CREATE TABLE command_buckets (
        player_id  INTEGER NOT NULL,
        budget     TEXT NOT NULL,
        tokens     REAL NOT NULL,
        at         REAL NOT NULL,
        refused    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (player_id, budget)
    )""",
)

# Tournaments (bot/tournaments/): the event, its entrants, and its pairings round by round
# (a pairing's game once made; a bye has no black and no game). The unique pairs are the
# backstop of "a round is paired once": two processes that both tried would collide here.
_V14_TOURNAMENTS = (
    """CREATE TABLE tournaments (
        id             INTEGER PRIMARY KEY,
        name           TEXT NOT NULL,
        game           TEXT NOT NULL,
        format         TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss')),
        rounds         INTEGER NOT NULL CHECK (rounds > 0),
        days           INTEGER CHECK (days IS NULL OR days > 0),
        cycles         INTEGER NOT NULL DEFAULT 1 CHECK (cycles IN (1, 2)),
        rated          INTEGER NOT NULL DEFAULT 0,
        starts_at      INTEGER,
        max_players    INTEGER CHECK (max_players IS NULL OR max_players >= 2),
        min_rating     REAL,
        max_rating     REAL,
        round_days     INTEGER CHECK (round_days IS NULL OR round_days > 0),
        creator_id     INTEGER REFERENCES players(id),
        scope          TEXT,
        status         TEXT NOT NULL DEFAULT 'open'
                       CHECK (status IN ('open', 'running', 'paused', 'finished')),
        round          INTEGER NOT NULL DEFAULT 0,
        round_deadline INTEGER,
        created_at     INTEGER NOT NULL,
        started_at     INTEGER,
        ended_at       INTEGER
    )""",
    "CREATE INDEX tournaments_by_status ON tournaments (status, round_deadline)",
    """CREATE TABLE tournament_entrants (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
        player_id      INTEGER NOT NULL REFERENCES players(id),
        seed           INTEGER,
        joined_at      INTEGER NOT NULL,
        withdrawn_at   INTEGER,
        PRIMARY KEY (tournament_id, player_id)
    )""",
    """CREATE TABLE tournament_pairings (
        id             INTEGER PRIMARY KEY,
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
        round          INTEGER NOT NULL CHECK (round > 0),
        board          INTEGER NOT NULL,
        white_id       INTEGER NOT NULL REFERENCES players(id),
        black_id       INTEGER REFERENCES players(id),
        game_id        INTEGER UNIQUE REFERENCES games(id),
        bye_points     REAL,
        UNIQUE (tournament_id, round, board),
        UNIQUE (tournament_id, round, white_id)
    )""",
    "CREATE INDEX tournament_pairings_by_game ON tournament_pairings (game_id)",
)

# A paused tournament stops its games' clocks: the time the player to move had left when it
# stopped, given back (a new deadline) when the event resumes. NULL: the clock runs.
_V15_TOURNAMENT_CLOCKS = (
    "ALTER TABLE tournament_pairings ADD COLUMN time_left INTEGER",
)

#: Ordered migrations: applying entry i takes the schema from version i to i + 1.
#: Append new entries; never change one that has shipped.
MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4_PRUNE, _V5_SCOPE,
                                                _V6_LEASES_CHECKPOINTS, _V7_PUBLIC_GAMES,
                                                _V8_PREMOVES, _V9_RATINGS_CHALLENGES,
                                                _V10_EMAIL, _V11_NEXT_DIGEST,
                                                _V12_COMMAND_BUCKETS, _V13_BUDGETS,
                                                _V14_TOURNAMENTS, _V15_TOURNAMENT_CLOCKS)


# --- rows ---------------------------------------------------------------------------

def _row(cls, row):
    if row is None:
        return None
    names = {f.name for f in fields(cls)}
    return cls(**{k: row[k] for k in row.keys() if k in names})  # noqa: SIM118 (sqlite3.Row)


@dataclass(frozen=True)
class PlayerRow:
    id: int
    platform: str
    user_id: str
    name: str
    settings: str
    vacation_start: int | None
    vacation_until: int | None
    created_at: int
    next_digest_at: int | None = None  # schema 8


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    challenger_id: int
    opponent_id: int | None
    game: str
    days: int | None
    colour: str
    setup: str
    status: str
    created_at: int
    answered_at: int | None
    answered_by: int | None
    game_id: int | None
    scope: str | None = None
    rated: int = 0  # schema 8
    expires_at: int | None = None


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    challenge_id: int | None
    white_id: int
    black_id: int
    start_vfen: str
    current_vfen: str
    ply: int
    version: int
    turn_no: int
    status: str
    result: str | None
    reason: str | None
    days: int | None
    to_move: str | None
    to_move_id: int | None
    turn_started_at: int
    deadline: int | None
    draw_offer: str | None
    takeback_by: str | None
    created_at: int
    ended_at: int | None
    scope: str | None = None
    rated: int = 0  # schema 8


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    ply: int
    lan: str
    san: str
    player_id: int
    side: str
    played_at: int
    vfen: str | None = None  # the position after it (schema 6)


@dataclass(frozen=True)
class PremoveRow:
    game_id: int
    player_id: int
    ply: int  # the game's ply when set: the tree's root is the opponent's move after it
    tree: str  # JSON (bot/operations/premoves.py)
    updated_at: int


@dataclass(frozen=True)
class DueGameRow:
    """An active game with a clock, and the vacation of the player to move."""

    id: int
    version: int
    to_move_id: int
    turn_started_at: int
    deadline: int
    vacation_start: int | None
    vacation_until: int | None


@dataclass(frozen=True)
class PendingReminderRow:
    """A pending reminder of a game's current turn, with what deciding on it needs."""

    id: int
    game_id: int
    turn_no: int
    player_id: int
    kind: str
    before_deadline: int | None
    turn_started_at: int
    deadline: int | None
    settings: str
    vacation_start: int | None
    vacation_until: int | None


@dataclass(frozen=True)
class EventRow:
    id: int
    kind: str
    player_id: int | None
    game_id: int | None
    turn_no: int | None
    payload: str
    created_at: int
    status: str
    attempts: int
    next_try_at: int
    claimed_at: int | None
    sent_at: int | None
    last_error: str | None
    claimed_by: str | None = None  # schema 6
    lease_until: int | None = None


@dataclass(frozen=True)
class ReminderRow:
    id: int
    game_id: int
    turn_no: int
    player_id: int
    kind: str
    before_deadline: int | None
    status: str
    done_at: int | None
    event_id: int | None
    due_at: int | None = None  # nominal due time (schema 3)


@dataclass(frozen=True)
class RatingRow:
    """A player's Glicko-2 rating in one game, as of ``rated_at`` (their last rated game)."""

    player_id: int
    game: str
    rating: float
    deviation: float
    volatility: float
    games: int
    rated_at: int


#: What pruning deletes, table by table, older than a cutoff: spent reminders (sent,
#: superseded, cancelled), digest days, and finished events (sent, obsolete, failed) that
#: nothing kept still refers to, but the newest (ids are never reused: adapters drop repeats
#: by id). Pending and claimed events, games, moves and players are never touched. In this
#: order: an event goes once the rows referring to it have gone.
_PRUNE = {
    "reminders": "DELETE FROM reminders WHERE id IN (SELECT id FROM reminders WHERE status IN "
                 "('sent', 'superseded', 'cancelled') AND done_at < ? LIMIT ?)",
    "digests": "DELETE FROM digests WHERE (player_id, day) IN (SELECT player_id, day FROM digests "
               "WHERE done_at < ? LIMIT ?)",
    "events": "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE status IN "
              "('sent', 'obsolete', 'failed') AND created_at < ? "
              "AND id < (SELECT MAX(id) FROM events) "
              "AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.event_id = events.id) "
              "AND NOT EXISTS (SELECT 1 FROM digests d WHERE d.event_id = events.id) LIMIT ?)",
}

# columns that update_game may set (names never come from outside this set)
_GAME_COLUMNS = frozenset(
    {"current_vfen", "ply", "turn_no", "status", "result", "reason", "to_move", "to_move_id",
     "turn_started_at", "deadline", "draw_offer", "takeback_by", "ended_at"})


#: players' advisory lock keys (``Tx.lock_players``): far above the write lock's (a small
#: number), and below 2**63 for any id the store accepts short of 2**62
PLAYER_LOCKS = 1 << 62


def _platform_filter(platforms) -> tuple[str, list]:
    """SQL (and its parameters) keeping events addressed to players on these platforms."""
    if platforms is None:
        return "", []
    names = sorted(platforms)
    marks = ", ".join("?" for _ in names)
    return (f"AND (player_id IS NULL OR player_id IN "
            f"(SELECT id FROM players WHERE platform IN ({marks})))", names)


class Tx:
    """The statements, run inside a transaction of a :class:`Store`. A back end's subclass
    runs them (``_exec`` and the rest), each SQL text written once for both."""

    dialect = ""  # "sqlite" or "postgres"

    # plumbing: the back end's
    async def _exec(self, sql: str, params: Sequence = ()) -> None:
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence = ()):
        """The first row (by name or position), or None."""
        raise NotImplementedError

    async def _all(self, sql: str, params: Sequence = ()) -> list:
        raise NotImplementedError

    async def _insert(self, sql: str, params: Sequence) -> int:
        """Run an INSERT into a table with an ``id`` column; the new row's id."""
        return (await self._one(sql + " RETURNING id", params))[0]

    async def _change(self, sql: str, params: Sequence) -> int:
        """Run an UPDATE or DELETE; how many rows it changed."""
        raise NotImplementedError

    # The public statement API, for an owner of tables other than the core's (an adapter's:
    # bot/discord_bot/tables.py, bot/email/tables.py), so that their queries live with their
    # migrations and the core knows no adapter. SQL is written once, with ``?`` placeholders
    # (the PostgreSQL back end numbers them); a refused statement raises
    # ``bot.domain.errors.DatabaseError`` (``IntegrityError`` for a constraint), whatever the driver.
    # ``dialect`` ("sqlite" or "postgres") says which database runs it, for the rare SQL that
    # must differ (``FOR UPDATE SKIP LOCKED`` only on PostgreSQL).

    async def execute(self, sql: str, params: Sequence = ()) -> None:
        """Run a statement (nothing read back)."""
        await self._exec(sql, params)

    async def fetch_one(self, sql: str, params: Sequence = (), into: type | None = None):
        """The first row, or None. A row reads by column name or position (``row["id"]``,
        ``row[0]``); with ``into`` (a dataclass) it comes as one, from the columns it names."""
        row = await self._one(sql, params)
        return row if into is None else _row(into, row)

    async def fetch_all(self, sql: str, params: Sequence = (), into: type | None = None) -> list:
        """Every row (as ``fetch_one``'s)."""
        rows = await self._all(sql, params)
        return list(rows) if into is None else [_row(into, r) for r in rows]

    async def insert(self, sql: str, params: Sequence = ()) -> int:
        """Run an INSERT into a table with an ``id`` column; the new row's id."""
        return await self._insert(sql, params)

    async def change(self, sql: str, params: Sequence = ()) -> int:
        """Run an UPDATE, a DELETE or an INSERT ... ON CONFLICT; how many rows it changed."""
        return await self._change(sql, params)

    async def life_ended(self, life: str) -> bool:
        """Whether the process life ``life`` (``bot.store.lives``) is surely over: no process holds
        its lock on this database. False where the back end cannot tell (then a claim's lease
        decides)."""
        return False

    async def schema_version(self) -> int:
        row = await self._one("SELECT version FROM schema_version WHERE id = 1")
        return row["version"]

    # players
    async def player(self, player_id: int) -> PlayerRow | None:
        return _row(PlayerRow, await self._one("SELECT * FROM players WHERE id = ?", (player_id,)))

    async def players_by_id(self, player_ids) -> dict[int, PlayerRow]:
        """Many players at once: id -> row (ids that name no player are left out)."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT * FROM players WHERE id IN ({marks})", ids)
        return {r["id"]: _row(PlayerRow, r) for r in rows}

    async def find_player(self, platform: str, user_id: str) -> PlayerRow | None:
        return _row(PlayerRow, await self._one(
            "SELECT * FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)))

    async def insert_player(self, platform: str, user_id: str, name: str, settings: str,
                            now: int) -> int:
        player_id = await self._insert(
            "INSERT INTO players (platform, user_id, name, settings, created_at) "
            "VALUES (?, ?, ?, ?, ?)", (platform, user_id, name, settings, now))
        if settings != "{}":  # their digest time is worked out at the next sweep
            await self.set_next_digest(player_id, 0)
        return player_id

    async def rename_player(self, player_id: int, name: str) -> None:
        await self._exec("UPDATE players SET name = ? WHERE id = ?", (name, player_id))

    async def set_player_settings(self, player_id: int, settings: str) -> None:
        """New settings; the next digest time is worked out again at the next sweep."""
        await self._exec("UPDATE players SET settings = ?, next_digest_at = 0 WHERE id = ?",
                         (settings, player_id))

    async def players_digest_due(self, now: int) -> list[PlayerRow]:
        """Players whose next digest time has come (indexed: not every player's settings)."""
        rows = await self._all("SELECT * FROM players WHERE next_digest_at <= ? ORDER BY id", (now,))
        return [_row(PlayerRow, r) for r in rows]

    async def set_next_digest(self, player_id: int, at: int | None) -> None:
        await self._exec("UPDATE players SET next_digest_at = ? WHERE id = ?", (at, player_id))

    async def next_digest(self, after: int) -> int | None:
        """The earliest next digest time of any player later than ``after`` (indexed)."""
        return (await self._one("SELECT MIN(next_digest_at) FROM players WHERE next_digest_at > ?",
                                (after,)))[0]

    async def players_with_settings(self) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE settings <> '{}' ORDER BY id")
        return [_row(PlayerRow, r) for r in rows]

    async def players_on(self, platform: str) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE platform = ? ORDER BY id", (platform,))
        return [_row(PlayerRow, r) for r in rows]

    # vacations
    async def start_vacation(self, player_id: int, start: int, until: int) -> None:
        await self._exec("UPDATE players SET vacation_start = ?, vacation_until = ? WHERE id = ?",
                         (start, until, player_id))
        await self._insert("INSERT INTO vacations (player_id, started_at, limit_at) VALUES (?, ?, ?)",
                           (player_id, start, until))

    async def end_vacation(self, player_id: int, end: int) -> None:
        await self._exec("UPDATE players SET vacation_start = NULL, vacation_until = NULL "
                         "WHERE id = ?", (player_id,))
        await self._exec("UPDATE vacations SET ended_at = ? WHERE player_id = ? AND ended_at IS NULL",
                         (end, player_id))

    async def vacation_used(self, player_id: int, year_start: int, year_end: int, now: int) -> int:
        """Seconds of vacation taken in vacations begun in [year_start, year_end)."""
        row = await self._one(
            "SELECT CAST(COALESCE(SUM(CASE WHEN COALESCE(ended_at, ?) < limit_at "
            "THEN COALESCE(ended_at, ?) ELSE limit_at END - started_at), 0) AS BIGINT) AS used "
            "FROM vacations WHERE player_id = ? AND started_at >= ? AND started_at < ?",
            (now, now, player_id, year_start, year_end))
        return max(0, row["used"])

    async def vacations_due(self, now: int) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE vacation_until <= ? ORDER BY id", (now,))
        return [_row(PlayerRow, r) for r in rows]

    async def vacation_limits(self) -> list[int]:
        rows = await self._all("SELECT vacation_until FROM players WHERE vacation_until IS NOT NULL")
        return [r[0] for r in rows]

    # challenges
    async def insert_challenge(self, challenger_id: int, opponent_id: int | None, game: str,
                               days: int | None, colour: str, setup: str, now: int,
                               scope: str | None = None, rated: bool = False,
                               expires_at: int | None = None) -> int:
        return await self._insert(
            "INSERT INTO challenges (challenger_id, opponent_id, game, days, colour, setup, created_at, "
            "scope, rated, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (challenger_id, opponent_id, game, days, colour, setup, now, scope, int(rated), expires_at))

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        return _row(ChallengeRow, await self._one("SELECT * FROM challenges WHERE id = ?",
                                                  (challenge_id,)))

    async def close_challenge(self, challenge_id: int, status: str, by: int, now: int) -> bool:
        """open -> status; False if it was no longer open."""
        n = await self._change(
            "UPDATE challenges SET status = ?, answered_by = ?, answered_at = ? "
            "WHERE id = ? AND status = 'open'", (status, by, now, challenge_id))
        return n == 1

    async def set_challenge_game(self, challenge_id: int, game_id: int) -> None:
        await self._exec("UPDATE challenges SET game_id = ? WHERE id = ?", (game_id, challenge_id))

    async def open_challenges(self, player_id: int | None) -> list[ChallengeRow]:
        """Open challenges by or to player_id, and all open-to-anyone ones (but those of
        players whom player_id has blocked)."""
        if player_id is None:
            rows = await self._all("SELECT * FROM challenges WHERE status = 'open' ORDER BY id")
        else:
            rows = await self._all(
                "SELECT * FROM challenges WHERE status = 'open' AND "
                "(challenger_id = ? OR opponent_id = ? OR opponent_id IS NULL) AND NOT EXISTS "
                "(SELECT 1 FROM blocks b WHERE b.player_id = ? AND b.blocked_id = challenges.challenger_id) "
                "ORDER BY id", (player_id, player_id, player_id))
        return [_row(ChallengeRow, r) for r in rows]

    # games
    async def insert_game(self, *, game: str, challenge_id: int | None, white_id: int, black_id: int,
                          start_vfen: str, to_move: str, to_move_id: int, days: int | None,
                          now: int, deadline: int | None, scope: str | None = None,
                          rated: bool = False) -> int:
        return await self._insert(
            "INSERT INTO games (game, challenge_id, white_id, black_id, start_vfen, current_vfen, "
            "days, to_move, to_move_id, turn_started_at, deadline, created_at, scope, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game, challenge_id, white_id, black_id, start_vfen, start_vfen, days, to_move,
             to_move_id, now, deadline, now, scope, int(rated)))

    async def game(self, game_id: int) -> GameRow | None:
        return _row(GameRow, await self._one("SELECT * FROM games WHERE id = ?", (game_id,)))

    def _skip_locked(self) -> str:
        """A claim's lock: on PostgreSQL the rows are locked as they are read, and those
        another transaction holds are passed over, never waited for; SQLite has one writer."""
        return " FOR UPDATE SKIP LOCKED" if self.dialect == "postgres" else ""

    async def claim_game(self, game_id: int) -> GameRow | None:
        """The game, locked for this transaction; None if there is none, or if another
        transaction holds it (a move under way, another process's sweep: theirs to do)."""
        return _row(GameRow, await self._one(f"SELECT * FROM games WHERE id = ?{self._skip_locked()}",
                                             (game_id,)))

    async def claim_reminders(self, game_id: int, turn_no: int) -> set[int]:
        """The ids of the turn's pending reminders, locked for this transaction (those
        another holds are left out)."""
        rows = await self._all("SELECT id FROM reminders WHERE game_id = ? AND turn_no = ? "
                               f"AND status = 'pending'{self._skip_locked()}", (game_id, turn_no))
        return {r[0] for r in rows}

    async def claim_games(self, game_ids) -> dict[int, GameRow]:
        """``claim_game`` of many games in one statement: id -> row of those locked for this
        transaction (those another holds, or that do not exist, are left out)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT * FROM games WHERE id IN ({marks}) ORDER BY id"
                               f"{self._skip_locked()}", ids)
        return {r["id"]: _row(GameRow, r) for r in rows}

    async def claim_turn_reminders(self, game_ids) -> set[int]:
        """``claim_reminders`` of many games' pending reminders in one statement (the caller
        keeps those of the turn it means)."""
        ids = sorted(set(game_ids))
        if not ids:
            return set()
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT id FROM reminders WHERE game_id IN ({marks}) "
                               f"AND status = 'pending' ORDER BY id{self._skip_locked()}", ids)
        return {r[0] for r in rows}

    async def claim_player(self, player_id: int) -> PlayerRow | None:
        """The player, locked for this transaction (their digest, say); None if there is
        none or another transaction holds them."""
        return _row(PlayerRow, await self._one(f"SELECT * FROM players WHERE id = ?{self._skip_locked()}",
                                               (player_id,)))

    async def lock_players(self, player_ids) -> None:
        """Hold these players until the transaction ends (their ratings are read and then
        written): advisory locks taken in id order, so two transactions never wait for each
        other in a circle. SQLite's one writer needs none."""
        if self.dialect != "postgres":
            return
        for pid in sorted(set(player_ids)):
            await self._exec("SELECT pg_advisory_xact_lock(?)", (PLAYER_LOCKS + pid,))

    async def bump_version(self, game_id: int, expected: int) -> bool:
        """The optimistic check: True, and the version moved on, only if unchanged."""
        n = await self._change("UPDATE games SET version = version + 1 WHERE id = ? AND version = ?",
                               (game_id, expected))
        return n == 1

    async def update_game(self, game_id: int, **columns) -> None:
        bad = set(columns) - _GAME_COLUMNS
        if bad:
            raise ValueError(f"not an updatable game column: {sorted(bad)}")
        names = sorted(columns)
        assignments = ", ".join(f"{name} = ?" for name in names)
        await self._exec(f"UPDATE games SET {assignments} WHERE id = ?",
                         [columns[n] for n in names] + [game_id])

    async def games_of(self, player_id: int, include_finished: bool) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE (white_id = ? OR black_id = ?)"
        if not include_finished:
            sql += " AND status = 'active'"
        rows = await self._all(sql + " ORDER BY id", (player_id, player_id))
        return [_row(GameRow, r) for r in rows]

    async def games_to_move(self, player_id: int) -> list[GameRow]:
        rows = await self._all("SELECT * FROM games WHERE status = 'active' AND to_move_id = ? "
                               "ORDER BY id", (player_id,))
        return [_row(GameRow, r) for r in rows]

    async def clocked_games(self, due_by: int | None = None) -> list[DueGameRow]:
        """Active games with a deadline (at or before due_by, if given), with the
        vacation of the player to move (their effective deadline can only be later)."""
        sql = ("SELECT g.id, g.version, g.to_move_id, g.turn_started_at, g.deadline, "
               "p.vacation_start, p.vacation_until FROM games g JOIN players p ON p.id = g.to_move_id "
               "WHERE g.status = 'active' AND g.deadline IS NOT NULL")
        params: tuple = ()
        if due_by is not None:
            sql += " AND g.deadline <= ?"
            params = (due_by,)
        rows = await self._all(sql + " ORDER BY g.deadline, g.id", params)
        return [_row(DueGameRow, r) for r in rows]

    async def set_deadline(self, game_id: int, deadline: int | None) -> None:
        await self._exec("UPDATE games SET deadline = ? WHERE id = ?", (deadline, game_id))
        await self._exec("UPDATE reminders SET due_at = ? - before_deadline WHERE game_id = ? "
                         "AND status = 'pending' AND before_deadline IS NOT NULL", (deadline, game_id))

    async def next_deadline(self, after: int) -> int | None:
        """The earliest deadline of an active game later than ``after`` (indexed)."""
        row = await self._one("SELECT MIN(deadline) FROM games WHERE status = 'active' "
                              "AND deadline > ?", (after,))
        return row[0]

    # moves
    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [_row(MoveRow, r) for r in rows]

    async def last_move(self, game_id: int) -> MoveRow | None:
        return _row(MoveRow, await self._one(
            "SELECT * FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)))

    async def insert_move(self, game_id: int, ply: int, lan: str, san: str, player_id: int,
                          side: str, now: int, vfen: str | None = None) -> None:
        await self._exec("INSERT INTO moves (game_id, ply, lan, san, player_id, side, played_at, vfen) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (game_id, ply, lan, san, player_id, side, now, vfen))

    async def drop_checkpoints(self, game_id: int, before_ply: int) -> None:
        """Forget the positions of moves before ``before_ply`` (after an irreversible move
        no earlier position can repeat; a game without them is replayed if need be)."""
        await self._exec("UPDATE moves SET vfen = NULL WHERE game_id = ? AND ply < ? AND vfen IS NOT NULL",
                         (game_id, before_ply))

    async def delete_move(self, game_id: int, ply: int) -> None:
        await self._exec("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply))

    # reminders
    async def insert_reminder(self, game_id: int, turn_no: int, player_id: int, kind: str,
                              before_deadline: int | None, due_at: int | None) -> None:
        await self._exec("INSERT INTO reminders (game_id, turn_no, player_id, kind, before_deadline, "
                         "due_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (game_id, turn_no, player_id, kind, before_deadline, due_at))

    async def next_reminder_due(self, after: int) -> int | None:
        """The earliest nominal due time of a pending reminder later than ``after`` (indexed)."""
        row = await self._one("SELECT MIN(due_at) FROM reminders WHERE status = 'pending' "
                              "AND due_at > ?", (after,))
        return row[0]

    async def cancel_reminders(self, game_id: int, now: int) -> None:
        await self._exec("UPDATE reminders SET status = 'cancelled', done_at = ? "
                         "WHERE game_id = ? AND status = 'pending'", (now, game_id))

    async def last_moves(self, game_ids) -> dict[int, MoveRow]:
        """``last_move`` of many games in one statement: id -> its last move (games with
        none are left out)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            f"SELECT m.* FROM moves m JOIN (SELECT game_id, MAX(ply) AS ply FROM moves "
            f"WHERE game_id IN ({marks}) GROUP BY game_id) last "
            "ON last.game_id = m.game_id AND last.ply = m.ply", ids)
        return {r["game_id"]: _row(MoveRow, r) for r in rows}

    async def pending_reminders(self, game_id: int | None = None,
                                due_by: int | None = None) -> list[PendingReminderRow]:
        """Pending reminders of the current turn of active games (of one game, if given;
        only those nominally due by ``due_by``, if given)."""
        sql = ("SELECT r.id, r.game_id, r.turn_no, r.player_id, r.kind, r.before_deadline, "
               "g.turn_started_at, g.deadline, p.settings, p.vacation_start, p.vacation_until "
               "FROM reminders r JOIN games g ON g.id = r.game_id JOIN players p ON p.id = r.player_id "
               "WHERE r.status = 'pending' AND g.status = 'active' AND g.turn_no = r.turn_no")
        params: tuple = ()
        if game_id is not None:
            sql += " AND r.game_id = ?"
            params = (game_id,)
        if due_by is not None:
            sql += " AND r.due_at <= ?"
            params += (due_by,)
        rows = await self._all(sql + " ORDER BY r.game_id, r.id", params)
        return [_row(PendingReminderRow, r) for r in rows]

    async def close_reminders(self, closes: Sequence[tuple[int, str, int | None]], now: int) -> None:
        """Many reminders the caller has claimed, pending -> status, in one statement:
        ``(reminder id, status, the event written for it or None)``."""
        await self._exec_many("UPDATE reminders SET status = ?, done_at = ?, event_id = ? "
                              "WHERE id = ? AND status = 'pending'",
                              [(status, now, event_id, rid) for rid, status, event_id in closes])

    async def reminders(self, game_id: int) -> list[ReminderRow]:
        rows = await self._all("SELECT * FROM reminders WHERE game_id = ? ORDER BY id", (game_id,))
        return [_row(ReminderRow, r) for r in rows]

    # events (the outbox)
    async def insert_event(self, kind: str, player_id: int | None, game_id: int | None,
                           turn_no: int | None, payload: str, now: int) -> int:
        return await self._insert(
            "INSERT INTO events (kind, player_id, game_id, turn_no, payload, created_at, next_try_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (kind, player_id, game_id, turn_no, payload, now, now))

    async def insert_events(self, rows: Sequence[tuple[str, int | None, int | None, int | None, str]],
                            now: int) -> list[int]:
        """Many events in one statement, ``(kind, player_id, game_id, turn_no, payload)``
        each: their ids, in the order given (a multi-row insert numbers its rows in order)."""
        if not rows:
            return []
        values = ", ".join("(?, ?, ?, ?, ?, ?, ?)" for _ in rows)
        params = [x for kind, player, game, turn, payload in rows
                  for x in (kind, player, game, turn, payload, now, now)]
        ids = await self._all("INSERT INTO events (kind, player_id, game_id, turn_no, payload, created_at, "
                              f"next_try_at) VALUES {values} RETURNING id", params)
        return sorted(r[0] for r in ids)

    async def claim_event(self, now: int, platforms=None, owner: str | None = None,
                          lease_until: int | None = None) -> EventRow | None:
        """Take the oldest deliverable pending event (``claim_events`` of one)."""
        rows = await self.claim_events(now, platforms, owner, lease_until, 1)
        return rows[0] if rows else None

    async def claim_events(self, now: int, platforms=None, owner: str | None = None,
                           lease_until: int | None = None, limit: int = 1) -> list[EventRow]:
        """Take up to ``limit`` of the oldest deliverable pending events, oldest first:
        pending -> claimed (by ``owner``, until ``lease_until``), in one statement.

        platforms: only events for players on these platforms (and lobby events with no
        player), so that a terminal and the bot sharing one database never take each
        other's notices; None takes every event."""
        where, args = _platform_filter(platforms)
        # the rows are claimed as they are picked (never waited for nor taken twice: on
        # PostgreSQL another process's claims are passed over, SQLite has one writer)
        skip = self._skip_locked()
        rows = await self._all(
            "UPDATE events SET status = 'claimed', claimed_at = ?, claimed_by = ?, lease_until = ?, "
            "attempts = attempts + 1 WHERE status = 'pending' AND id IN (SELECT id FROM events "
            f"WHERE status = 'pending' AND next_try_at <= ? {where} ORDER BY id LIMIT ?{skip}) "
            "RETURNING *", (now, owner, lease_until, now, *args, limit))
        return sorted((_row(EventRow, r) for r in rows), key=lambda r: r.id)

    async def finish_event(self, event_id: int, status: str, now: int,
                           error: str | None = None, owner: str | None = None) -> bool:
        """claimed (by ``owner``) -> sent / failed / obsolete; False if the claim was lost."""
        return await self._change(
            "UPDATE events SET status = ?, sent_at = ?, last_error = ?, lease_until = NULL "
            "WHERE id = ? AND status = 'claimed' AND claimed_by IS NOT DISTINCT FROM ?",
            (status, now if status == "sent" else None, error, event_id, owner)) == 1

    async def finish_events(self, event_ids: Sequence[int], status: str, now: int,
                            owner: str | None = None) -> int:
        """``finish_event`` for many at once (a delivery round's marks, one statement): how
        many were still claimed by ``owner``."""
        if not event_ids:
            return 0
        marks = ", ".join("?" for _ in event_ids)
        return await self._change(
            "UPDATE events SET status = ?, sent_at = ?, last_error = NULL, lease_until = NULL "
            f"WHERE id IN ({marks}) AND status = 'claimed' AND claimed_by IS NOT DISTINCT FROM ?",
            (status, now if status == "sent" else None, *event_ids, owner))

    async def retry_event(self, event_id: int, next_try_at: int, error: str,
                          owner: str | None = None) -> None:
        await self._exec("UPDATE events SET status = 'pending', next_try_at = ?, last_error = ?, "
                         "claimed_by = NULL, lease_until = NULL "
                         "WHERE id = ? AND status = 'claimed' AND claimed_by IS NOT DISTINCT FROM ?",
                         (next_try_at, error, event_id, owner))

    async def claim_holders(self, platforms=None) -> list[str | None]:
        """Who holds the claimed events (of these platforms' players)."""
        where, args = _platform_filter(platforms)
        rows = await self._all(f"SELECT DISTINCT claimed_by FROM events WHERE status = 'claimed' {where}",
                               tuple(args))
        return [r[0] for r in rows]

    async def release_claimed_events(self, platforms=None, now: int | None = None,
                                     dead: Sequence[str | None] = ()) -> int:
        """Claimed events whose holder stopped before marking them -> pending: those whose
        lease ran out by ``now`` (or that have none), and those of the ``dead`` holders
        (None: a claim with no holder's name, made before schema 6). ``now`` None: every
        claim. Only this run's platforms: another process may be delivering the others."""
        where, args = _platform_filter(platforms)
        if now is None:
            which, which_args = "", []
        else:
            named = [d for d in dead if d is not None]
            marks = ", ".join("?" for _ in named) or "NULL"
            which = (f"AND (claimed_by IS NULL OR lease_until IS NULL OR lease_until <= ? "
                     f"OR claimed_by IN ({marks}))")
            which_args = [now, *named]
        return await self._change(
            "UPDATE events SET status = 'pending', claimed_by = NULL, lease_until = NULL "
            f"WHERE status = 'claimed' {which} {where}", (*which_args, *args))

    async def next_event_try(self) -> int | None:
        row = await self._one("SELECT MIN(next_try_at) FROM events WHERE status = 'pending'")
        return row[0]

    async def events(self, player_id: int | None = None) -> list[EventRow]:
        if player_id is None:
            rows = await self._all("SELECT * FROM events ORDER BY id")
        else:
            rows = await self._all("SELECT * FROM events WHERE player_id = ? ORDER BY id", (player_id,))
        return [_row(EventRow, r) for r in rows]

    async def undelivered_events(self, kind: str, player_id: int) -> list[EventRow]:
        """The player's events of ``kind`` never delivered: pending, or failed (given up);
        few, read through the status index."""
        rows = await self._all("SELECT * FROM events WHERE status IN ('pending', 'failed') "
                               "AND kind = ? AND player_id = ? ORDER BY id", (kind, player_id))
        return [_row(EventRow, r) for r in rows]

    async def drop_event(self, event_id: int) -> bool:
        """pending -> obsolete: never to be delivered. False if delivery took it meanwhile."""
        return await self._change("UPDATE events SET status = 'obsolete' "
                                  "WHERE id = ? AND status = 'pending'", (event_id,)) == 1

    async def game_turn(self, game_id: int) -> tuple[str, int] | None:
        row = await self._one("SELECT status, turn_no FROM games WHERE id = ?", (game_id,))
        return None if row is None else (row["status"], row["turn_no"])

    async def game_turns(self, game_ids) -> dict[int, tuple[str, int]]:
        """``game_turn`` of many games at once: id -> (status, turn_no)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT id, status, turn_no FROM games WHERE id IN ({marks})", ids)
        return {r["id"]: (r["status"], r["turn_no"]) for r in rows}

    # public games (their page open to anyone)
    async def is_public(self, game_id: int) -> bool:
        return await self._one("SELECT 1 FROM public_games WHERE game_id = ?", (game_id,)) is not None

    async def set_public(self, game_id: int, public: bool) -> None:
        if public:
            await self._exec("INSERT INTO public_games (game_id) VALUES (?) ON CONFLICT DO NOTHING",
                             (game_id,))
        else:
            await self._exec("DELETE FROM public_games WHERE game_id = ?", (game_id,))

    # pruning: what no game's record needs, once it is old
    async def prune(self, table: str, before: int, limit: int) -> int:
        """Delete up to ``limit`` old rows of ``table`` (see ``_PRUNE``); how many went."""
        return await self._change(_PRUNE[table], (before, limit))

    # digests
    async def digest_done(self, player_id: int, day: str) -> bool:
        row = await self._one("SELECT 1 FROM digests WHERE player_id = ? AND day = ?", (player_id, day))
        return row is not None

    async def record_digest(self, player_id: int, day: str, status: str, event_id: int | None,
                            now: int) -> bool:
        n = await self._change("INSERT INTO digests (player_id, day, status, event_id, done_at) "
                               "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", (player_id, day, status, event_id, now))
        return n == 1

    # conditional moves (bot/operations/premoves.py)
    async def premoves(self, game_id: int, player_id: int | None = None) -> list[PremoveRow]:
        """The game's conditional move trees (only the player's, if named)."""
        sql, params = "SELECT * FROM premoves WHERE game_id = ?", [game_id]
        if player_id is not None:
            sql, params = sql + " AND player_id = ?", params + [player_id]
        return [_row(PremoveRow, r) for r in await self._all(sql + " ORDER BY player_id", params)]

    async def set_premoves(self, game_id: int, player_id: int, ply: int, tree: str, now: int) -> None:
        await self._exec("INSERT INTO premoves (game_id, player_id, ply, tree, updated_at) "
                         "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player_id) DO UPDATE SET "
                         "ply = excluded.ply, tree = excluded.tree, updated_at = excluded.updated_at",
                         (game_id, player_id, ply, tree, now))

    async def delete_premoves(self, game_id: int, player_id: int) -> bool:
        return await self._change("DELETE FROM premoves WHERE game_id = ? AND player_id = ?",
                                  (game_id, player_id)) > 0

    async def players_named(self, name: str) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE lower(name) = lower(?) ORDER BY id", (name,))
        return [_row(PlayerRow, r) for r in rows]

    # ratings (bot/operations/ratings.py): one row per player and game they have played rated
    async def rating(self, player_id: int, game: str) -> RatingRow | None:
        return _row(RatingRow, await self._one(
            "SELECT * FROM ratings WHERE player_id = ? AND game = ?", (player_id, game)))

    async def ratings_of(self, player_id: int) -> list[RatingRow]:
        rows = await self._all("SELECT * FROM ratings WHERE player_id = ? ORDER BY game", (player_id,))
        return [_row(RatingRow, r) for r in rows]

    async def put_rating(self, r: RatingRow) -> None:
        await self._exec("INSERT INTO ratings (player_id, game, rating, deviation, volatility, games, "
                         "rated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, game) DO UPDATE "
                         "SET rating = excluded.rating, deviation = excluded.deviation, "
                         "volatility = excluded.volatility, games = excluded.games, "
                         "rated_at = excluded.rated_at",
                         (r.player_id, r.game, r.rating, r.deviation, r.volatility, r.games, r.rated_at))

    async def leaderboard(self, game: str, limit: int) -> list[tuple[RatingRow, PlayerRow]]:
        """The game's ratings, highest first (indexed), with their players."""
        rows = await self._all("SELECT r.*, p.* FROM ratings r JOIN players p ON p.id = r.player_id "
                               "WHERE r.game = ? ORDER BY r.rating DESC, r.player_id LIMIT ?",
                               (game, limit))
        return [(_row(RatingRow, r), _row(PlayerRow, r)) for r in rows]

    # challenges' life (bot/operations/challenges.py)
    async def count_open_challenges(self, challenger_id: int, now: int,
                                    opponent_id: int | None = None) -> int:
        """Open, unexpired challenges the player made (to ``opponent_id``, if given)."""
        sql = ("SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = 'open' "
               "AND (expires_at IS NULL OR expires_at > ?)")
        params: tuple = (challenger_id, now)
        if opponent_id is not None:
            sql += " AND opponent_id = ?"
            params += (opponent_id,)
        return (await self._one(sql, params))[0]

    async def challenges_counting(self, challenger_id: int, opponent_id: int, now: int,
                                  withdrawn_since: int, declined_since: int) -> list[ChallengeRow]:
        """The challenges from one player to another that still count against the pair's
        budget at ``now``: open and unexpired, withdrawn (cancelled) after
        ``withdrawn_since``, declined after ``declined_since`` (indexed by challenger)."""
        rows = await self._all(
            "SELECT * FROM challenges WHERE challenger_id = ? AND opponent_id = ? AND ("
            "(status = 'open' AND (expires_at IS NULL OR expires_at > ?)) "
            "OR (status = 'cancelled' AND answered_at > ?) "
            "OR (status = 'declined' AND answered_at > ?)) ORDER BY id",
            (challenger_id, opponent_id, now, withdrawn_since, declined_since))
        return [_row(ChallengeRow, r) for r in rows]

    async def challenges_due(self, due_by: int, limit: int) -> list[ChallengeRow]:
        """Open challenges whose time ran out by ``due_by``, oldest first (indexed)."""
        rows = await self._all("SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ? "
                               "ORDER BY expires_at, id LIMIT ?", (due_by, limit))
        return [_row(ChallengeRow, r) for r in rows]

    async def next_challenge_expiry(self) -> int | None:
        row = await self._one("SELECT MIN(expires_at) FROM challenges WHERE status = 'open'")
        return row[0]

    async def open_challenges_from(self, challenger_id: int, opponent_id: int) -> list[ChallengeRow]:
        rows = await self._all("SELECT * FROM challenges WHERE challenger_id = ? AND opponent_id = ? "
                               "AND status = 'open' ORDER BY id", (challenger_id, opponent_id))
        return [_row(ChallengeRow, r) for r in rows]

    # blocks: the players each player will not hear from
    async def block(self, player_id: int, blocked_id: int, now: int) -> bool:
        return await self._change("INSERT INTO blocks (player_id, blocked_id, created_at) "
                                  "VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (player_id, blocked_id, now)) == 1

    async def unblock(self, player_id: int, blocked_id: int) -> bool:
        return await self._change("DELETE FROM blocks WHERE player_id = ? AND blocked_id = ?",
                                  (player_id, blocked_id)) == 1

    async def blocks(self, player_id: int, blocked_id: int) -> bool:
        return await self._one("SELECT 1 FROM blocks WHERE player_id = ? AND blocked_id = ?",
                               (player_id, blocked_id)) is not None

    async def blocked_players(self, player_id: int) -> list[PlayerRow]:
        rows = await self._all("SELECT p.* FROM blocks b JOIN players p ON p.id = b.blocked_id "
                               "WHERE b.player_id = ? ORDER BY p.name, p.id", (player_id,))
        return [_row(PlayerRow, r) for r in rows]

    # flood control shared between processes (bot/delivery/limits.py SharedCommandLimiter)
    async def take_token(self, player_id: int, budget: str, now: float, rate: float,
                         burst: float) -> tuple[float, bool]:
        """Take one token of the player's ``budget`` ("commands", "reads"...: a bucket of
        ``burst``, refilled at ``rate`` a second) in one statement: (tokens left, False), or (tokens there, True) if fewer
        than one was there. The row is locked for the statement, so of two takes at once
        the second sees the first's result: two never both take the last token."""
        lo, hi = ("least", "greatest") if self.dialect == "postgres" else ("min", "max")
        num = "CAST(? AS DOUBLE PRECISION)"  # PostgreSQL infers no type from a bare parameter here
        refilled = f"{lo}({num}, b.tokens + {hi}(0, {num} - b.at) * {num})"
        enough = f"{refilled} >= 1 - 1e-9"
        one = (burst, now, rate)
        row = await self._one(
            f"INSERT INTO command_buckets AS b (player_id, budget, tokens, at, refused) "
            f"VALUES (?, ?, {num} - 1, {num}, 0) ON CONFLICT (player_id, budget) DO UPDATE SET "
            f"tokens = CASE WHEN {enough} THEN {refilled} - 1 ELSE {refilled} END, "
            f"refused = CASE WHEN {enough} THEN 0 ELSE 1 END, at = {hi}(b.at, {num}) "
            f"RETURNING tokens, refused",
            (player_id, budget, burst, now, *one, *one, *one, *one, now))
        return float(row[0]), bool(row[1])
