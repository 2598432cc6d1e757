"""The ``fairypost`` command.

    fairypost play [GAME]         play in the terminal, two players at one keyboard
    fairypost play GAME --vs computer [--level N] [--colour white|black]   against the computer
    fairypost play --resume [ID]  go on with the newest unfinished game (or game ID)
    fairypost games               the games of ``fairypost play``, finished ones too
    fairypost ratings [GAME]      a game's leaderboard (or every game's), --player NAME's ratings
    fairypost run                 run every configured adapter: Discord (DISCORD_TOKEN), the pages
                                  (FAIRYPOST_WEB_PORT), email (FAIRYPOST_EMAIL_*)
    fairypost health              exit 0 if every game loads, the database opens and every running process
                                  reports its parts up (the container's health check: docs/health.md)
    fairypost think GAME          the computer's move in a position (ai/cli.py)
    fairypost replay ID FILE.gif  a stored game as an animated GIF (bot/operations/replays.py)
    fairypost record ID [FILE]    a stored game's record as PGN (bot/operations/record_command.py)
    fairypost web                 serve the game pages (bot/web/)
    fairypost link GAME_ID        print a game's signed page URL (--public / --private;
                                  --side white|black: that player's own link, to play)
    fairypost db copy FROM TO     copy a whole database (a file or a postgresql:// URL) into an empty one
    fairypost tournament new GAME --name NAME --format round-robin|swiss [--rounds N] [--days N] [--double] [--rated]
    fairypost tournament start|show|pause|resume ID    a tournament's life (bot/tournaments/cli.py)
    fairypost tournaments         list the tournaments

Settings come from ``--config FILE`` (or ``FAIRYPOST_CONFIG``) and the ``FAIRYPOST_*``
variables (see bot/config.py). Unless either names a database, it is
``fairypost.sqlite3`` in the user's data directory (``default_db_path``), the
same file for the bot and the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from .config import ConfigError, Settings, _read_file, data_dir

DB_NAME = "fairypost.sqlite3"


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    return data_dir(env) / DB_NAME


def load_settings(config: str | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Settings as bot/config.py reads them, except that a database named by neither
    the file nor ``FAIRYPOST_DB`` is the user's (its folder made if need be)."""
    env = os.environ if env is None else env
    settings = Settings.load(config, env)
    file = config if config is not None else env.get("FAIRYPOST_CONFIG")
    named = "FAIRYPOST_DB" in env or (file and "db_path" in _read_file(Path(file)))
    if not named:
        path = default_db_path(env)
        path.parent.mkdir(parents=True, exist_ok=True)
        settings = settings.with_(db_path=str(path))
    return settings


def images_folder(settings: Settings) -> Path:
    """Where ``fairypost play`` writes its pictures: ``images/`` beside the database (in the
    user's data folder when the database is on a server)."""
    from .store import database_file
    file = database_file(settings.db_path)
    return (file.resolve().parent if file else data_dir()) / "images"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fairypost",
        description="Correspondence play of five chess variants: in the terminal (two players "
                    "at one keyboard, or against the computer), or run for others as a Discord "
                    "bot, by email and on web pages (fairypost run).",
        epilog="Settings: --config FILE or FAIRYPOST_CONFIG, and FAIRYPOST_* variables "
               "(FAIRYPOST_DB: the database file). See README.md, and docs/ for the details.")
    p.add_argument("--config", metavar="FILE", help="a TOML settings file (default: $FAIRYPOST_CONFIG)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    pl = sub.add_parser("play", help="play in the terminal: two players at one keyboard, or "
                                     "against the computer (--vs computer)",
                        description="Play a game in the terminal. Each line acts for the side "
                                    "to move: a move (Nf3, e2e4), or a command (type help).")
    pl.add_argument("game", nargs="?", help="the game: its id or the start of its name; "
                                            "omitted: choose from a list")
    pl.add_argument("--resume", nargs="?", const=True, type=int, metavar="ID",
                    help="go on with an unfinished game: the newest, or game ID")
    pl.add_argument("--white", metavar="NAME", help="the first player's name (default: the side's)")
    pl.add_argument("--black", metavar="NAME", help="the second player's name")
    pl.add_argument("--setup", choices=("default", "players"),
                    help="a game with a set-up phase: the default set-up or the players' own "
                         "(default: ask)")
    pl.add_argument("--days", metavar="N",
                    help="days per move (1, 2, 3, 5, 7, 10, 14) or none (the default here)")
    pl.add_argument("--images", metavar="DIR",
                    help="where to write the board pictures (default: images/ beside the database)")
    pl.add_argument("--no-images", action="store_true", help="write no pictures")
    pl.add_argument("--flip", action="store_true",
                    help="turn the board round (by default White is at the bottom, and your own "
                         "side when you play Black against the computer)")
    pl.add_argument("--vs", choices=("computer",),
                    help="play against the computer (you alone at the keyboard)")
    pl.add_argument("--level", type=int, choices=range(1, 6), metavar="N",
                    help="with --vs computer: its level, 1 (beginner) to 5 (strongest) (default 3)")
    pl.add_argument("--colour", "--color", choices=("white", "black"),
                    help="with --vs computer: your side (default white: you move first)")
    pl.add_argument("--rated", action="store_true",
                    help="a rated game between the two players (default: casual here)")
    sub.add_parser("games", help="list the games of fairypost play (two players at one keyboard, "
                                 "or against the computer), finished ones too, with their numbers")
    ra = sub.add_parser("ratings", help="a game's leaderboard (without GAME: every game's)")
    ra.add_argument("game", nargs="?", metavar="GAME", help="the game: its id or the start of its name")
    ra.add_argument("--player", metavar="NAME", action="append", default=[],
                    help="also this player's own ratings (a name as the games show it; repeatable)")
    ru = sub.add_parser("run", help="run it for others: the Discord bot, play by email and the game "
                                    "pages, each when configured",
                        description="Run every configured adapter in one process: the Discord bot "
                                    "(DISCORD_TOKEN), the game pages (FAIRYPOST_WEB_PORT), play by "
                                    "email (FAIRYPOST_EMAIL_ADDRESS, FAIRYPOST_IMAP_URL, "
                                    "FAIRYPOST_SMTP_URL). With none configured it says what to set.")
    ru.add_argument("--shards", metavar="A-B", help="run these of the Discord bot's shards in this "
                                                    "process (with --shard-count; several processes "
                                                    "share one PostgreSQL database)")
    ru.add_argument("--shard-count", type=int, metavar="N", help="how many shards the bot has in all")
    he = sub.add_parser("health", help="exit 0 if every game loads, the database opens, and every running "
                                       "fairypost run process reports its listener, life lock and adapters "
                                       "up (for health checks: docs/health.md)")
    he.add_argument("--here", action="store_true",
                    help="only the processes of this host (a container's own): unhealthy if none reports")
    from ai.cli import add_parser as add_think
    add_think(sub)
    from .operations.replays import add_parser as add_replay
    add_replay(sub)
    from .operations.record_command import add_parser as add_record
    add_record(sub)
    sub.add_parser("web", help="serve the game pages (FAIRYPOST_WEB_HOST, FAIRYPOST_WEB_PORT; "
                               "default 127.0.0.1:8080)")
    li = sub.add_parser("link", help="print a game's page URL (signed; FAIRYPOST_WEB_URL is "
                                     "its base)")
    li.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number")
    vis = li.add_mutually_exclusive_group()
    vis.add_argument("--public", action="store_true", default=None,
                     help="make the game public: its plain URL /g/GAME_ID works for anyone")
    vis.add_argument("--private", dest="public", action="store_false", default=None,
                     help="make it private again: only the signed link works")
    li.add_argument("--side", choices=("white", "black"),
                    help="print that player's own link instead: it lets its holder play that side "
                         "(give it to that player only)")
    from .tournaments.cli import add_parser as add_tournament
    add_tournament(sub)
    db = sub.add_parser("db", help="the game database: db copy FROM TO").add_subparsers(
        dest="db_command", metavar="ACTION", required=True)
    cp = db.add_parser("copy", help="copy a whole database into an empty one (SQLite file or "
                                    "postgresql://user:password@host:port/dbname), with the "
                                    "secrets kept beside it that sign its links and replies")
    cp.add_argument("source", metavar="FROM", help="the database to copy: a file or a URL")
    cp.add_argument("target", metavar="TO", help="where to: an empty (or new) file, or a URL")
    _describe(sub)
    return p


def _describe(sub) -> None:
    """Each subcommand's ``--help`` says what it does: its line in the list of commands,
    where it has no description of its own (and so on into ``db``'s actions)."""
    for action in sub._choices_actions:  # argparse keeps each command's help line here
        parser = sub.choices[action.dest]
        if not parser.description and action.help:
            parser.description = action.help[0].upper() + action.help[1:] + "."
        for inner in parser._subparsers._group_actions if parser._subparsers else ():
            if isinstance(inner, argparse._SubParsersAction):
                _describe(inner)


def _db_copy(settings, source: str, target: str) -> int:
    """``db copy``: the rows, and the secrets kept beside the source that signed its links
    and reply addresses (checked before, written after a copy that succeeded)."""
    from .identity.signing import KEPT_SECRETS, SecretsDiffer, plan_secret_copy, write_secret_copy
    from .schemas import ADAPTER_SCHEMAS
    from .store.copy import run as copy
    configured = {"web_secret": settings.web_secret, "email_secret": settings.email_secret}
    try:
        plan = plan_secret_copy(configured, source, target)
    except SecretsDiffer as e:
        print(f"fairypost db copy: {e}", file=sys.stderr)
        return 1
    status = asyncio.run(copy(source, target, ADAPTER_SCHEMAS))
    if status != 0:
        return status
    try:
        for line in write_secret_copy(plan):
            print(line)
    except (SecretsDiffer, OSError) as e:
        print(f"fairypost db copy: the rows are copied, but not a secret: {e}", file=sys.stderr)
        return 1
    for _kind, key, variable in KEPT_SECRETS:
        if configured[key]:
            print(f"{variable} is set: links and replies stay valid where it is set alike")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        print("\nTo play now: fairypost play")
        return 0
    try:
        settings = load_settings(args.config)
    except (ConfigError, OSError) as e:
        print(f"fairypost: {e}", file=sys.stderr)
        return 2
    if settings.variants_dir:  # the server owner's own games, before anything lists the games
        import rules
        try:
            rules.add_variants_dir(settings.variants_dir)
        except rules.RulesError as e:
            print(f"{'unhealthy' if args.command == 'health' else 'fairypost'}: {e}", file=sys.stderr)
            return 1 if args.command == "health" else 2
    if args.command == "db":  # names its own databases
        return _db_copy(settings, args.source, args.target)
    if args.command == "think":  # needs no database
        from ai.cli import run as think
        return think(args)
    from .store import database_file
    file = database_file(settings.db_path)
    if args.command in ("play", "games") and file is not None:
        try:  # a database named in a folder not yet made: make it
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"fairypost: cannot make the folder of the database {settings.db_path}: "
                  f"{e.strerror or e}", file=sys.stderr)
            return 2
    if args.command == "play":
        from language import from_environment, language

        from .terminal.play import play
        lang = language(from_environment(os.environ))  # a player reads these: the terminal's language
        if args.resume is not None and args.game:
            parser.error(lang.tr("give a game to start or --resume, not both"))
        play_parser = parser._subparsers._group_actions[0].choices["play"]  # its own usage
        if args.vs is None and (args.level is not None or args.colour is not None):
            example = f"fairypost play {args.game or 'GAME'} --vs computer --level {args.level or 'N'}"
            play_parser.error(lang.tr("--level and --colour go with --vs computer, as in: {example}",
                                      example=example))
        if args.vs is not None and args.rated:
            play_parser.error(lang.tr("games against the computer are never rated: leave out --rated"))
        images = None if args.no_images else (args.images or images_folder(settings))
        if images is not None and Path(images).exists() and not Path(images).is_dir():
            print("fairypost play: " + lang.tr("--images {folder}: that is a file; name a folder for the "
                                               "pictures (it is made if need be)", folder=images), file=sys.stderr)
            return 2
        return _terminal(play(settings, game=args.game, resume=args.resume, white=args.white,
                              black=args.black, setup=args.setup, days=args.days,
                              images=images, flip=args.flip, vs=args.vs, level=args.level,
                              colour=args.colour, rated=args.rated))
    if args.command == "replay":
        from .operations.replays import run as replay
        return asyncio.run(replay(args, settings))
    if args.command == "record":
        from .operations.record_command import run as record
        return asyncio.run(record(args, settings))
    if args.command in ("tournament", "tournaments"):
        from .tournaments.cli import run as tournament
        return asyncio.run(tournament(args, settings))
    if args.command == "games":
        from .terminal.play import list_games
        return _terminal(list_games(settings))
    if args.command == "ratings":
        from .terminal.ratings import show_ratings
        return _terminal(show_ratings(settings, args.game, args.player))
    if args.command == "health":
        return asyncio.run(health(settings, here=args.here))
    if args.command in ("web", "link"):
        from .web import cli as web_cli
        return asyncio.run(web_cli.serve(settings) if args.command == "web"
                           else web_cli.link(settings, args.game_id, args.public, args.side))
    if args.command == "run":
        # imported here: play and health need no discord.py
        from . import adapters
        from .discord_bot.shards import ShardError, parse_shards
        try:
            kinds = _sharded(settings, parse_shards(args.shards, args.shard_count))
        except ShardError as e:
            parser.error(str(e))
        return adapters.main(settings, kinds)
    parser.error(f"unknown command {args.command!r}")
    return 2


def _sharded(settings: Settings, shards) -> list | None:
    """The adapters ``fairypost run`` starts, the Discord bot running ``shards`` (None: as
    configured)."""
    if shards is None:
        return None
    from dataclasses import replace

    from . import adapters
    from .discord_bot.shards import ShardError
    kinds = adapters.configured(settings)
    if adapters.DISCORD not in kinds:
        raise ShardError("--shards is for the Discord bot, and it is not configured (DISCORD_TOKEN)")

    def make(s):
        from .discord_bot.runner import DiscordAdapter
        return DiscordAdapter(s, shards=shards)
    return [replace(k, make=make) if k is adapters.DISCORD else k for k in kinds]


def _terminal(session) -> int:
    """Run a terminal command: a database file that is not one is said plainly."""
    from .terminal.play import DatabaseFileError
    try:
        return asyncio.run(session)
    except DatabaseFileError as e:
        print(f"fairypost: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the session saves as it goes: nothing is lost
        print()
        return 130


def games_health() -> tuple[list[str], list[str]]:
    """(the games that load and set up their start, one line per game that does not)."""
    import rules
    try:
        ids = rules.variants()
    except rules.RulesError as e:
        return [], [str(e)]
    loaded, broken = [], []
    for game_id in ids:
        try:
            rules.start(game_id)
        except Exception as e:  # noqa: BLE001 - any failure makes that game unplayable
            broken.append(f"game {game_id}: {e}")
        else:
            loaded.append(game_id)
    return loaded, broken


async def health(settings: Settings, here: bool = False) -> int:
    """Load every game, open the database (making or upgrading it if need be), read its
    schema version and every running process's report (bot/store/reports.py): unhealthy if
    a game or the database cannot be had, or a process has a part down or a stale report.
    ``here``: only the processes of this host, one of which must report (a container's health
    check: its own process, not the others on the database)."""
    from .schemas import open_store
    from .store import printable
    loaded, broken = games_health()
    for line in broken:
        print(f"unhealthy: {line}", file=sys.stderr)
    if broken or not loaded:
        return 1
    from .store import database_file
    file = database_file(settings.db_path)
    folder = file.parent if file else None
    if folder is not None and not folder.is_dir():  # checked first: aiosqlite reports a failed open untidily
        print(f"unhealthy: database {settings.db_path}: the folder {folder} does not exist",
              file=sys.stderr)
        return 1
    shown = printable(settings.db_path)
    from .store.reports import reports
    try:
        store = await open_store(settings.db_path)
        try:
            async with store.read() as tx:
                version = await tx.schema_version()
            running = await reports(store)
        finally:
            await store.close()
    except Exception as e:  # noqa: BLE001 - any failure is "unhealthy", with its reason
        print(f"unhealthy: database {shown}: {e}", file=sys.stderr)
        return 1
    import socket
    import time
    now = time.time()
    if here:
        running = [r for r in running if r.host == socket.gethostname()]
        if not running:
            print(f"unhealthy: no fairypost run process on this host ({socket.gethostname()}) reports "
                  f"to the database {shown}", file=sys.stderr)
            return 1
    unwell = [r for r in running if r.down() or r.stale(now)]
    print(f"ok: database {shown} (schema {version}); games: {', '.join(loaded)}; "
          f"{len(running) or 'no'} running process{'es' if len(running) != 1 else ''} reporting")
    for report in running:
        if report in unwell:
            why = [f"{', '.join(report.down())} down"] if report.down() else []
            why += ["its report is stale (the process hangs, died, or cannot reach the database)"] \
                if report.stale(now) else []
            print(f"unhealthy: {report.describe(now)}: {'; '.join(why)}", file=sys.stderr)
        else:
            print(f"ok: {report.describe(now)}")
    return 1 if unwell else 0


if __name__ == "__main__":
    sys.exit(main())
