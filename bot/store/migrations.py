"""The core's schema: its tables as ordered migrations (``MIGRATIONS``), one list both back
ends run (see bot/store/__init__.py). An entry is SQL both take (PostgreSQL's copy has its
types widened: ``base.postgres_ddl``) or a ``Dialects`` pair where they differ. An adapter's
own tables are its own migrations (its ``schema.py``), never here.
"""

from __future__ import annotations

from .base import Dialects

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

# Tournaments run by directors (bot/tournaments/directors.py, withdrawals.py, results.py):
# who directs each event (its maker at first; the owner names others), each event's rules
# for a player who leaves and for timeouts, the results a director (or a rule) decided, and
# each withdrawal (whether it cancelled the player's results). Kept in tables of their own.
_V16_TOURNAMENT_DIRECTORS = (
    """CREATE TABLE tournament_directors (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
        player_id      INTEGER NOT NULL REFERENCES players(id),
        named_at       INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, player_id)
    )""",
    "INSERT INTO tournament_directors (tournament_id, player_id, named_at) "
    "SELECT id, creator_id, created_at FROM tournaments WHERE creator_id IS NOT NULL",
    """CREATE TABLE tournament_policies (
        tournament_id  INTEGER PRIMARY KEY REFERENCES tournaments(id),
        withdrawal     TEXT NOT NULL DEFAULT 'iccf' CHECK (withdrawal IN ('iccf', 'keep', 'cancel')),
        timeouts       INTEGER NOT NULL DEFAULT 3 CHECK (timeouts >= 0)
    )""",
    """CREATE TABLE tournament_decisions (
        game_id        INTEGER PRIMARY KEY REFERENCES games(id),
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
        result         TEXT NOT NULL
                       CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+/-', '-/+', 'cancelled')),
        reason         TEXT NOT NULL,
        director_id    INTEGER REFERENCES players(id),
        decided_by     TEXT NOT NULL,
        decided_at     INTEGER NOT NULL
    )""",
    "CREATE INDEX tournament_decisions_by_event ON tournament_decisions (tournament_id)",
    """CREATE TABLE tournament_withdrawals (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
        player_id      INTEGER NOT NULL REFERENCES players(id),
        cancelled      INTEGER NOT NULL DEFAULT 0,
        reason         TEXT NOT NULL,
        at             INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, player_id)
    )""",
    "CREATE INDEX tournaments_by_creator ON tournaments (creator_id, created_at)",
    "CREATE INDEX tournaments_by_created ON tournaments (created_at)",
)

# A tournament's version, bumped by every change of what its page shows (a join, a round, a
# game's end): the page is cached by it. ``adjudicate``: whether the games still going at a
# Swiss round's deadline are decided by the engine's evaluation (1) or left to the director.
_V17_TOURNAMENT_VERSIONS = (
    "ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tournaments ADD COLUMN adjudicate INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tournaments ADD COLUMN deadline_round INTEGER",  # the round whose deadline was acted on
)

#: Ordered migrations: applying entry i takes the schema from version i to i + 1.
#: Append new entries; never change one that has shipped.
MIGRATIONS: tuple[tuple[str | Dialects, ...], ...] = (_V1, _V2, _V3, _V4_PRUNE, _V5_SCOPE,
                                                _V6_LEASES_CHECKPOINTS, _V7_PUBLIC_GAMES,
                                                _V8_PREMOVES, _V9_RATINGS_CHALLENGES,
                                                _V10_EMAIL, _V11_NEXT_DIGEST,
                                                _V12_COMMAND_BUCKETS, _V13_BUDGETS,
                                                _V14_TOURNAMENTS, _V15_TOURNAMENT_CLOCKS,
                                                _V16_TOURNAMENT_DIRECTORS, _V17_TOURNAMENT_VERSIONS)
