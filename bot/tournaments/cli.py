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
                       help="make, start and show tournaments, and direct them: tournament "
                            "new|start|show|pause|resume|remove|result|replace|extend|close|director",
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
                     help="a Swiss round's deadline, N days after it starts: its directors are told of the "
                          "games still going (the next round waits until every game is over or decided)")
    new.add_argument("--adjudicate", action="store_true",
                     help="with --round-days: the games still going at a round's deadline are adjudicated "
                          "by the engine's evaluation")
    new.add_argument("--withdrawals", choices=("iccf", "keep", "cancel"), default="iccf",
                     help="a player who leaves a round robin: iccf (default: under half their games "
                          "finished cancels all their results, else the unplayed are lost), keep (the "
                          "played results always stand), cancel (always cancelled)")
    new.add_argument("--timeouts", type=int, default=3, metavar="N",
                     help="games lost on time that withdraw a player (default 3; 0: never)")
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
    res = acts.add_parser("result", help="decide a game's result: an adjudication or a forfeit",
                          description="Decide a game's result for the event (shown with your reason); a "
                                      "game still going ends with it.")
    res.add_argument("id", type=int, metavar="ID", help="the tournament's number")
    res.add_argument("game", type=int, metavar="GAME", help="the game's number (tournament show lists them)")
    # one argument for both: "-/+" looks like an option to argparse, except in a remainder
    res.add_argument("decision", nargs=argparse.REMAINDER, metavar="RESULT REASON",
                     help="1-0, 0-1, 1/2-1/2, or a forfeit: +/- (White wins) or -/+ (Black wins); then why "
                          "(shown with the result)")
    rep = acts.add_parser("replace", help="put a player in another's place before their first move",
                          description="Put NEW in OLD's place (their games and pairings) while OLD has "
                                      "made no move in the event.")
    rep.add_argument("id", type=int, metavar="ID", help="the tournament's number")
    rep.add_argument("old", type=int, metavar="OLD_ID", help="the player to replace (their number)")
    rep.add_argument("new", type=int, metavar="NEW_ID", help="who takes their place (their number)")
    ext = acts.add_parser("extend", help="give a game's player to move more days",
                          description="Give a game's player to move more days.")
    ext.add_argument("id", type=int, metavar="ID", help="the tournament's number")
    ext.add_argument("game", type=int, metavar="GAME", help="the game's number")
    ext.add_argument("days", type=int, metavar="DAYS", help="how many more days (1 to 60)")
    close = acts.add_parser("close", help="end a tournament now (called off if it has not begun)",
                            description="End a tournament now: one not begun is called off; one under "
                                        "way ends with its final standings once every game is over or decided.")
    close.add_argument("id", type=int, metavar="ID", help="the tournament's number")
    dire = acts.add_parser("director", help="name or remove a director of a tournament",
                           description="Name a player a director of the event (they may start, pause, "
                                       "resume, remove, decide results, replace, extend, close), or remove one.")
    dire.add_argument("id", type=int, metavar="ID", help="the tournament's number")
    dire.add_argument("change", choices=("add", "remove"), help="add or remove")
    dire.add_argument("player", type=int, metavar="PLAYER_ID", help="the player's number")
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
                round_days=args.round_days, withdrawal=args.withdrawals, timeouts=args.timeouts,
                adjudicate=args.adjudicate)
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
        elif act == "result":
            if len(args.decision) < 2:
                raise ServiceError("give the result and the reason: tournament result ID GAME "
                                   "1-0|0-1|1/2-1/2|+/-|-/+ REASON")
            view = await service.set_tournament_result(args.id, args.game, args.decision[0],
                                                       " ".join(args.decision[1:]))
        elif act == "replace":
            view = await service.replace_in_tournament(args.id, args.old, args.new)
        elif act == "extend":
            view = await service.extend_tournament_game(args.id, args.game, args.days)
        elif act == "close":
            view = await service.close_tournament(args.id)
        elif act == "director":
            change = (service.add_tournament_director if args.change == "add"
                      else service.remove_tournament_director)
            view = await change(args.id, args.player)
            names = ", ".join(f"{d.name} (#{d.id})" for d in view.directors) or "none (only you)"
            print(f"The directors of tournament #{view.id} {view.name}: {names}")
            return 0
        else:
            view = await service.tournament(args.id)
        print(tournament_text(view, PLAIN))
        # the players' and directors' numbers, which the owner's commands take
        print("Players: " + (", ".join(f"{p.name} (#{p.id})" for p in view.entrants) or "none"))
        print("Directors: " + (", ".join(f"{p.name} (#{p.id})" for p in view.directors) or "none (only you)"))
        page = tournament_link_line(settings, view.id)  # with FAIRYPOST_WEB_URL set
        if page:
            print(page)
        return 0
    except ServiceError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    finally:
        await service.close()
