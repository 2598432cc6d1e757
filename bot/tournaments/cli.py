"""The server owner's tournament commands (``fairypost tournament ...``, ``fairypost
tournaments``). They run as their own processes beside a running ``fairypost run`` on the
same database: they write, and leave every notice they make (the games' start notices, the
results) to the running bot to send."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from ..domain.errors import ServiceError


def add_parser(sub) -> None:
    t = sub.add_parser("tournament",
                       help="make, start and show tournaments: tournament new|start|show|pause|resume|remove",
                       description="The server owner's tournaments: round robins and Swiss events.")
    acts = t.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)
    new = acts.add_parser("new", help="make a tournament, open for players to join",
                          description="Make a tournament; players join it on Discord or by mail (tournament "
                                      "join ID) until it starts; its web page follows it.")
    new.add_argument("game", metavar="GAME", help="the game: its id or the start of its name")
    new.add_argument("--name", required=True, help="the tournament's name")
    new.add_argument("--format", required=True, choices=("round-robin", "swiss"),
                     help="round-robin (all play all) or swiss (--rounds N)")
    new.add_argument("--rounds", type=int, metavar="N", help="a Swiss's number of rounds")
    new.add_argument("--days", metavar="N", help="days per move (1, 2, 3, 5, 7, 10, 14; default the bot's)")
    new.add_argument("--double", action="store_true", help="a round robin played twice, colours swapped")
    new.add_argument("--rated", action="store_true", help="rated games (default casual)")
    new.add_argument("--start", metavar="WHEN", help="start by itself at this time (ISO 8601, UTC if "
                                                     "no zone: 2026-12-01T18:00)")
    new.add_argument("--max-players", type=int, metavar="N", help="at most N players")
    new.add_argument("--min-rating", type=float, metavar="R", help="only players rated R or more at the game")
    new.add_argument("--max-rating", type=float, metavar="R", help="only players rated R or less at the game")
    new.add_argument("--round-days", type=int, metavar="N",
                     help="a Swiss round's deadline, N days after it starts: its director is told of the "
                          "games still going (the next round waits until every game is over or decided)")
    new.add_argument("--adjudicate", action="store_true",
                     help="with --round-days: the games still going at a round's deadline are adjudicated "
                          "by the engine's evaluation")
    for name, helptext in (
            ("start", "start a tournament now, pairing its first round (or every round of a round robin)"),
            ("show", "show a tournament's standings, its games and their results"),
            ("pause", "pause a tournament: its games' clocks stop and no new round starts until it is resumed"),
            ("resume", "resume a paused tournament: its games' clocks run on with the time they had, "
                       "and its next round starts if due")):
        a = acts.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:] + ".")
        a.add_argument("id", type=int, metavar="ID", help="the tournament's number (fairypost tournaments)")
    rm = acts.add_parser("remove", help="take a player out (their games still going are lost by them)",
                         description="Take a player out of a tournament: their games still going are "
                                     "lost by them, and they are paired no more.")
    rm.add_argument("id", type=int, metavar="ID", help="the tournament's number")
    rm.add_argument("player", type=int, metavar="PLAYER_ID", help="the player's number (tournament show lists them)")
    sub.add_parser("tournaments", help="list the tournaments",
                   description="List every tournament: its game, format, players and state.")


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ServiceError(f"--start {text!r}: give a time as 2026-12-01T18:00 (UTC unless a zone is given)") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


async def run(args: argparse.Namespace, settings) -> int:
    from ..identity.links import tournament_link_line
    from ..operations.service import GameService
    from ..words.grammar import resolve_game
    from ..words.text import PLAIN
    from ..words.tournament_text import tournament_line, tournament_text

    prog = ("fairypost tournaments" if args.command == "tournaments"
            else f"fairypost tournament {args.tournament_command}")
    service = await GameService.open(settings)
    service.outbox.leave_to_others()  # the running bot sends what this writes
    try:
        if args.command == "tournaments":
            views = await service.list_tournaments()
            if not views:
                print("No tournaments yet: fairypost tournament new GAME --name NAME --format round-robin|swiss")
            for v in views:
                print(tournament_line(v, PLAIN))
            return 0
        act = args.tournament_command
        if act == "new":
            try:
                game = resolve_game(args.game)
            except ValueError as e:
                raise ServiceError(str(e)) from None
            view = await service.create_tournament(
                game, name=args.name, format=args.format, rounds=args.rounds, days=args.days,
                double=args.double, rated=args.rated, starts_at=_when(args.start),
                max_players=args.max_players, min_rating=args.min_rating, max_rating=args.max_rating,
                round_days=args.round_days, adjudicate=args.adjudicate)
            print(f"Made tournament #{view.id}: {tournament_line(view, PLAIN)}")
            return 0
        if act == "start":
            view = await service.start_tournament(args.id)
            games = sum(1 for p in view.pairings if p.game_id is not None)
            print(f"Started tournament #{view.id} {view.name}: {games} game{'' if games == 1 else 's'} "
                  "begun; the players are told by the running bot.")
            return 0
        if act == "pause":
            view = await service.pause_tournament(args.id)
        elif act == "resume":
            view = await service.resume_tournament(args.id)
        elif act == "remove":
            view = await service.remove_from_tournament(args.id, args.player)
        else:
            view = await service.tournament(args.id)
        print(tournament_text(view, PLAIN))
        page = tournament_link_line(settings, view.id)  # with FAIRYPOST_WEB_URL set
        if page:
            print(page)
        return 0
    except ServiceError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    finally:
        await service.close()
