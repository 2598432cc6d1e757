"""One game at one keyboard: each line acts for the side to move.

A line that is not a command word is a move, in any notation the engine reads
(``Nf3``, ``e2e4``, ``Ng1-f3``, and a game's own forms, such as the actions of a set-up phase); the
commands are the bot's: move, board, moves, undo, draw, resign, abort, record,
rules, piece, legend, help, hint, review, plus the terminal's own: flip, fen, games,
quit. Everything goes through the game service, so the rules, the refusals and the
stored game are the bot's own. Against the computer, the line acts for the human, and
the computer's reply (bot/computer.py, in its worker process) is awaited and shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import textwrap
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC

import rules

from .. import computer as comp
from ..errors import ServiceError
from ..service import GameService, GameView
from ..timetext import time_left
from .console import Console, quoting, shown
from .images import Images
from .textboard import legend_lines, side_names, text_board

WIDTH = 78


@dataclass(frozen=True)
class Command:
    names: tuple[str, ...]
    usage: str
    help: str
    run: Callable[[Session, str], Awaitable[bool]]  # False: leave the session


COMMANDS: list[Command] = []


def command(*names: str, usage: str = "", help: str = ""):
    def register(fn):
        COMMANDS.append(Command(names, usage or names[0], help, fn))
        return fn
    return register


def find_command(word: str) -> Command | None:
    w = word.lower()
    for c in COMMANDS:
        if w in c.names:
            return c
    return None


class Session:
    def __init__(self, service: GameService, game_id: int, console: Console, images: Images,
                 *, flip: bool = False, computer: comp.Computer | None = None):
        self.service = service
        self.computer = computer
        self.game_id = game_id
        self.console = console
        self.images = images
        self.flip = flip
        self.view: GameView | None = None
        self.pos = None  # the view's rules Position, its last move included
        self._told_images = False

    # --- the loop ---

    async def run(self) -> int:
        try:
            return await self._run()
        except KeyboardInterrupt:  # Ctrl-C at any question: leave; every move is saved
            self.say()
            self.leave()
            return 130

    async def _run(self) -> int:
        await self.refresh()
        w, b = side_names(self.pos)
        self.say(f"Game #{self.game_id}: {self.game_name()}, {self.who('w')} against "
                 f"{self.who('b')}. Upper case letters are {w}'s pieces, lower case {b}'s.")
        self.say("Type a move (like e4 or Nf3), or help for the commands.")
        if self.images.folder is not None:
            self.say(f"Board images are written to {self.images.folder}")
        self.show()
        if not await self.pending():
            return self.leave()
        await self.computer_turn()
        while True:
            line = self.console.ask(self.prompt())
            if line is None:
                return self.leave()
            line = line.strip()
            if not line:
                continue
            try:
                keep_going = await self.handle(line)
            except ServiceError as e:
                self.say(_sentence(quoting(str(e), line)))
                await self.after_refusal()
                keep_going = True
            if not keep_going:
                return self.leave()

    async def handle(self, line: str) -> bool:
        word, _, rest = line.partition(" ")
        cmd = find_command(word)
        if cmd is None:
            return await self.play(line)
        return await cmd.run(self, rest.strip())

    def leave(self) -> int:
        if self.view is not None and self.view.status == "active":
            self.say(f"Game #{self.game_id} is saved. Go on with: fairypost play --resume {self.game_id}")
        return 0

    async def pending(self) -> bool:
        """Finish what a session that stopped half-way left open: a draw offer waits
        for its answer, a takeback (an undo) is completed. False: the input ended."""
        v = self.view
        if v.status != "active":
            return True
        if v.takeback_by is not None:
            await self.service.accept_takeback(self.game_id, self.player(_other(v.takeback_by)).id,
                                               expected_ply=v.ply)
            await self.refresh()
            self.say("The move that was being taken back is taken back.")
            self.show()
        elif v.draw_offer is not None:
            return await self.answer_draw(v.draw_offer)
        return True

    # --- helpers ---

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def player(self, side: str):
        return self.view.white if side == "w" else self.view.black

    def computer_side(self) -> str | None:
        """The computer's side in a game against it, else None."""
        for side in "wb":
            if comp.is_computer(self.player(side)):
                return side
        return None

    async def computer_turn(self) -> None:
        """If it is the computer's move: wait for it (its worker thinks), then show it."""
        side = self.computer_side()
        if side is None or self.view.status != "active" or self.view.turn != side:
            return
        if not self.computer.thinking(self.game_id):
            await self.computer.resume(self.game_id)  # a resumed game: its notice was read before
        self.say(f"{self.player(side).name} is thinking…")
        await _with_progress(self.computer.idle(self.game_id), self.console)
        ply = self.view.ply
        await self.refresh()
        if self.view.ply > ply:
            self.say(f"{self.who(side)} played {self.view.moves[-1].san}.")
        self.show()

    def side_name(self, side: str) -> str:
        return side_names(self.pos)["wb".index(side)]

    def who(self, side: str) -> str:
        """The player's name, and their side if the name does not say it."""
        name, label = self.player(side).name, self.side_name(side)
        return name if name.lower() == label.lower() else f"{name} ({label})"

    def game_name(self) -> str:
        return rules.game(self.view.game).name

    def prompt(self) -> str:
        v = self.view
        if v.status != "active":
            return "> "
        if v.seconds_left is not None:
            return f"{self.who(v.turn)} ({time_left(v.seconds_left)} left)> "
        return f"{self.who(v.turn)}> "

    async def after_refusal(self) -> None:
        """After a refusal, read the game again: what was refused may be because it
        changed meanwhile (another session moved, the time ran out). If it did, show it."""
        seen = self._seen()
        await self.refresh()
        if self._seen() != seen:
            self.say("The game is no longer as shown; here it is now:")
            self.show()

    def _seen(self):
        v = self.view
        return v.fen, v.status, v.draw_offer, v.takeback_by

    async def refresh(self, view: GameView | None = None) -> GameView:
        """Take ``view`` (what an operation returned), or read the game, and its position."""
        self.view = view if view is not None else await self.service.game(self.game_id)
        self.pos = await self.service.position(self.game_id)
        return self.view

    def show(self) -> None:
        self.say()
        self.say(text_board(self.pos, flip=self.flip))
        self.say()
        self.say(self.status())
        path = self.images.board(self.game_id, self.pos, flip=self.flip,
                                 outcome=(self.view.result, self.view.reason))
        if path is not None:
            self.say(f"Image: {path}")
        elif self.images.problem and not self._told_images:
            self._told_images = True
            self.say(f"({self.images.problem})")

    def status(self) -> str:
        v = self.view
        if v.status == "aborted":
            return "The game was aborted."
        if v.status != "active":
            if v.result == "1/2-1/2":
                return f"Game over: a draw ({v.reason})."
            winner = "w" if v.result == "1-0" else "b"
            return f"Game over: {v.result}, {self.who(winner)} wins ({v.reason})."
        parts = []
        if v.moves:
            last = v.moves[-1]
            parts.append(f"Last move: {last.san} ({self.side_name(last.side)}).")
        if v.in_setup:
            parts.append(_sentence(f"Set-up: {self.who(v.turn)} to choose {_setup_hint(self.pos)}"))
        else:
            parts.append(f"{self.who(v.turn)} to move" + (", in check." if v.in_check else "."))
        if v.deadline is not None:
            parts.append(f"Time: {time_left(v.seconds_left)} left, until "
                         f"{v.deadline.astimezone(UTC):%a %d %b %Y %H:%M} UTC.")
        if v.draw_offer:
            parts.append(f"{self.side_name(v.draw_offer)} offers a draw.")
        return " ".join(parts)

    # --- moving ---

    async def play(self, text: str) -> bool:
        v = self.view
        if v.status != "active":
            self.say(f"{_sentence(self._over())} Type record for the game, quit to leave.")
            return True
        mover = v.turn
        if mover == self.computer_side():
            await self.computer_turn()
            return True
        ok = await conditional.confirmed(self, self.player(mover).id, text)
        if not ok:
            return ok is not None  # None: the input ended
        lines = await conditional.lines_waiting(self)
        try:
            r = await self.service.move(self.game_id, self.player(mover).id, text,
                                        expected_ply=v.ply)
        except ServiceError as e:
            msg = _sentence(quoting(str(e), text.strip()))
            if " " not in text.strip() and not any(ch.isdigit() for ch in text):
                msg += " (Type help for the commands.)"
            self.say(msg)
            await self.after_refusal()
            return True
        await self.refresh(r.game)
        self.say(f"{self.who(mover)} played {r.san}.")
        conditional.tell_after_move(self, r, lines)
        self.show()
        await self.computer_turn()
        return True

    def _over(self) -> str:
        v = self.view
        return "the game was aborted" if v.status == "aborted" else f"the game is over: {v.result} ({v.reason})"

    async def answer_draw(self, offered_by: str) -> bool:
        other = _other(offered_by)
        answer = self.console.yes(f"{self.who(other)}, {self.who(offered_by)} offers a draw. "
                                  f"Do you accept? [y/n] ")
        if answer is None:
            return False
        op = self.service.accept_draw if answer else self.service.decline_draw
        await self.refresh(await op(self.game_id, self.player(other).id, expected_ply=self.view.ply))
        if answer:
            self.say("Draw agreed.")
            self.say(self.status())
        else:
            self.say("Draw declined; play on.")
        return True


def _as_if_to_move(pos, square: str, piece) -> str:
    """'e7 is Black's Pawn; if Black were to move, it could go to: e5 e6' (a piece of
    the side not to move: its moves in the same position with the turn passed)."""
    game = pos.game
    owner = game.side_name(piece.color)
    turned = rules.Position(game, pos.board, piece.color, pos.rights, None, pos.halfmove,
                            pos.fullmove, pos.hands, pos.dropped)
    # the side to move may be in check: taking its royal is no move in any of these games
    sans = sorted(turned.san(m) for m in turned.moves_from(square)
                  if not any(turned.board[c].royal for c in m.captures))
    could = f"it could go to: {' '.join(sans)}" if sans else "it could not move"
    return textwrap.fill(f"{square} is {owner}'s {piece.name}; if {owner} were to move, {could} "
                         f"(not now: it is {game.side_name(pos.side)}'s move).", WIDTH)


async def _with_progress(awaitable, console: Console) -> None:
    """Await, writing a dot a second at an interactive terminal (a transcript stays plain)."""
    task = asyncio.ensure_future(awaitable)
    while True:
        done, _ = await asyncio.wait({task}, timeout=1.0)
        if done:
            break
        if console.interactive:
            console.out.write(".")
            console.out.flush()
    if console.interactive:
        console.out.write("\n")
    task.result()


def _other(side: str) -> str:
    return "b" if side == "w" else "w"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _setup_hint(pos) -> str:
    """What the set-up action now to be made is, in the game's own words."""
    return pos.game.extension.setup_hint(pos) or "a set-up action (type moves to see them)"


# --- the commands ----------------------------------------------------------------------

@command("move", "m", "play", usage="move MOVE",
         help="play a move (the word is optional: a line that is just a move plays it)")
async def _move(s: Session, arg: str) -> bool:
    if not arg:
        s.say("Which move? For example: move Nf3")
        return True
    return await s.play(arg)


@command("board", "show", usage="board [SQUARE]",
         help="show the board again and write its image (with a square: that piece's moves)")
async def _board(s: Session, arg: str) -> bool:
    await s.refresh()
    if arg:
        return await _moves(s, arg)
    s.show()
    return True


@command("moves", usage="moves [SQUARE]",
         help="the legal moves of the piece on a square, or all legal moves")
async def _moves(s: Session, arg: str) -> bool:
    await s.refresh()
    v = s.view
    if v.status != "active":
        s.say(_sentence(s._over()))
        return True
    pos = s.pos
    if arg:
        word = arg.split()[0]
        try:
            moves = pos.moves_from(word)
        except rules.RulesError as e:
            s.say(_sentence(quoting(str(e), word)))
            return True
        square = word.lower()
        piece = pos.piece_at(word)
        if not moves and piece is not None and piece.color != pos.side and not v.in_setup:
            s.say(_as_if_to_move(pos, square, piece))
            return True
        if not moves:
            what = "no piece there" if piece is None else f"the {piece.name} there has no legal move"
            s.say(f"{square}: {what}.")
            return True
        sans = sorted(pos.san(m) for m in moves)
        s.say(f"{len(sans)} move{'s' if len(sans) != 1 else ''} from {square}:")
        s.say(textwrap.fill(" ".join(sans), WIDTH))
        path = s.images.board(s.game_id, pos, flip=s.flip, highlight=square)
        if path is not None:
            s.say(f"Image (the moves marked): {path}")
        return True
    else:
        sans = sorted(pos.san(m) for m in pos.legal_moves())
        s.say(f"{len(sans)} legal move{'s' if len(sans) != 1 else ''}:")
    s.say(textwrap.fill(" ".join(sans), WIDTH))
    return True


@command("undo", "takeback", help="take back the last move (both players agree: one keyboard)")
async def _undo(s: Session, arg: str) -> bool:
    v = await s.refresh()
    if v.status != "active":
        s.say(_sentence(s._over()))
        return True
    if not v.moves:
        s.say("There is no move to take back.")
        return True
    last = v.moves[-1]
    asker, other = s.player(last.side), s.player(_other(last.side))
    cpu = s.computer_side()
    async with s.computer.held(s.game_id) if cpu is not None else contextlib.nullcontext():
        await s.service.ask_takeback(s.game_id, asker.id, expected_ply=v.ply)
        await s.refresh(await s.service.accept_takeback(s.game_id, other.id, expected_ply=v.ply))
        s.say(f"Took back {last.san}.")
        if cpu is not None and last.side == cpu and s.view.moves:
            # and the player's own move before it (the computer agrees to takebacks)
            mine = s.view.moves[-1]
            await s.service.ask_takeback(s.game_id, s.player(mine.side).id, expected_ply=s.view.ply)
            await s.refresh()
            if s.view.ply < v.ply - 1:
                s.say(f"Took back {mine.san}.")
    s.show()
    await s.computer_turn()
    return True


@command("draw", help="offer a draw; the other player answers at once")
async def _draw(s: Session, arg: str) -> bool:
    v = await s.refresh()
    side = v.turn
    await s.refresh(await s.service.offer_draw(s.game_id, s.player(side).id, expected_ply=v.ply))
    if s.computer_side() is not None and s.view.status == "active":
        await s.refresh()  # it has answered: the computer plays on
        s.say(f"{s.player(_other(side)).name} declines the draw; play on.")
        return True
    if s.view.status != "active":  # the other side's offer stood: this accepted it
        s.say("Draw agreed.")
        s.say(s.status())
        return True
    return await s.answer_draw(side)


@command("resign", help="resign the game for the side to move (asks first)")
async def _resign(s: Session, arg: str) -> bool:
    v = await s.refresh()
    if v.status != "active":
        s.say(_sentence(s._over()))
        return True
    answer = s.console.yes(f"{s.who(v.turn)}, resign game #{s.game_id}? [y/n] ")
    if answer is None:
        return False
    if not answer:
        s.say("Not resigned; play on.")
        return True
    await s.refresh(await s.service.resign(s.game_id, s.player(v.turn).id, expected_ply=v.ply))
    s.say(f"{s.who(v.turn)} resigns.")
    s.say(s.status())
    return True


@command("abort", help="call the game off (only before both sides have moved)")
async def _abort(s: Session, arg: str) -> bool:
    v = await s.refresh()
    await s.refresh(await s.service.abort(s.game_id, s.player(v.turn).id, expected_ply=v.ply))
    s.say(s.status())
    return True


@command("record", "pgn", help="the game record (PGN-like, moves in SAN)")
async def _record(s: Session, arg: str) -> bool:
    s.say((await s.service.record(s.game_id)).rstrip())
    return True


@command("rules", usage="rules [GAME]", help="what the game is and its pieces")
async def _rules(s: Session, arg: str) -> bool:
    game_id = s.view.game
    if arg:
        try:
            game_id = resolve_game(arg)
        except ValueError as e:
            s.say(_sentence(str(e)))
            return True
    s.say(rules_text(game_id))
    return True


@command("piece", usage="piece CODE|NAME", help="what a piece does (and its card image)")
async def _piece(s: Session, arg: str) -> bool:
    if not arg:
        s.say("Which piece? For example: piece N, or piece knight. Type legend for the pieces.")
        return True
    game = rules.game(s.view.game)
    found = find_piece(game, arg)
    if isinstance(found, str):
        s.say(found)
        return True
    s.say(piece_text(game, found))
    path = s.images.piece(game.id, found.key)
    if path is not None:
        s.say(f"Card: {path}")
    return True


@command("legend", "key", help="the letters on the board and the pieces they stand for")
async def _legend(s: Session, arg: str) -> bool:
    pos = s.pos
    w, b = side_names(pos)
    s.say(f"Upper case is {w}, lower case {b}; '+' marks a promoted piece; a state stands in "
          f"brackets.")
    for line in legend_lines(pos):
        s.say("  " + line)
    path = s.images.legend(s.game_id, pos)
    if path is not None:
        s.say(f"Image: {path}")
    return True


@command("flip", help="turn the board round (and again)")
async def _flip(s: Session, arg: str) -> bool:
    s.flip = not s.flip
    s.show()
    return True


@command("fen", "vfen", help="the position as a VFEN string")
async def _fen(s: Session, arg: str) -> bool:
    s.say((await s.refresh()).fen)
    return True


@command("hint", help="the move the computer would play (only in games against the computer)")
async def _hint(s: Session, arg: str) -> bool:
    v = await s.refresh()
    cpu = s.computer_side()
    me = s.player(v.turn if cpu is None else _other(cpu))
    comp.check_hint(v, me.id)  # only against the computer: a refusal says why
    s.say("Thinking…")
    hint = await s.computer.hint(v, me.id)
    s.say(hint.text() + ".")
    return True


@command("review", help="after the game: each move's score swing, blunders (??), mistakes (?)")
async def _review(s: Session, arg: str) -> bool:
    v = await s.refresh()
    comp.check_review(v)
    if s.computer is None:
        s.say("The computer is not here to review the game.")
        return True
    n = len(v.moves)
    s.say(f"Reviewing {n} move{'s' if n != 1 else ''}…")
    s.say(comp.review_text(v, await s.computer.review(v)))
    return True


@command("games", help="the games played in this terminal, and how to resume them")
async def _games(s: Session, arg: str) -> bool:
    from .play import games_text
    s.say(await games_text(s.service))
    return True


@command("help", "?", usage="help", help="this list")
async def _help(s: Session, arg: str) -> bool:
    s.say(help_text())
    return True


@command("quit", "exit", "q", help="leave (the game is saved; fairypost play --resume goes on)")
async def _quit(s: Session, arg: str) -> bool:
    return False


def help_text() -> str:
    lines = ["Type a move (Nf3, e2e4, Ng1-f3, O-O, exd5, e7e8=Q ...) or a command:"]
    for c in COMMANDS:
        alias = ", ".join(c.names[1:])
        lines.append(f"  {c.usage:<16} {c.help}" + (f" (also: {alias})" if alias else ""))
    return "\n".join(lines)


# --- games and pieces as text (the rules and piece commands) ---------------------------

def resolve_game(text: str) -> str:
    """A game id from its id, its name or the start of either (a word or two of it)."""
    t = text.strip().lower().replace(" ", "")
    ids = rules.variants()
    if t in ids:
        return t
    names = {g: rules.game(g).name.lower().replace(" ", "") for g in ids}
    hits = [g for g in ids if g.startswith(t) or names[g].startswith(t)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise ValueError(f"there is no game {shown(text.strip())}; the games are: {', '.join(ids)}")
    raise ValueError(f"{shown(text.strip())} could be {', '.join(hits)}: which one?")


def rules_text(game_id: str) -> str:
    g = rules.game(game_id)
    geo = g.geometry
    head = (f"{g.name} ({g.id}): {geo.width} x {geo.height} board, files "
            f"{' '.join(geo.files)}, ranks 1-{geo.height}.")
    out = [head, ""]
    out += textwrap.wrap(g.summary, WIDTH)
    if g.special_rules:
        out += ["", "Special rules:"]
        for rule in g.special_rules:
            out += textwrap.wrap(rule, WIDTH, initial_indent="- ", subsequent_indent="  ")
    if g.game_end:
        out += ["", "How the game ends:"] + textwrap.wrap(g.game_end, WIDTH)
    out += ["", "Pieces (type piece CODE for one of them):"]
    for key, t in g.types.items():
        desc = t.description or ""
        out += textwrap.wrap(f"{key:<3}{_piece_name(t)}" + (f": {desc}" if desc else ""), WIDTH,
                             subsequent_indent="     ")
    return "\n".join(out)


def _piece_name(t) -> str:
    names = getattr(t, "side_names", None)
    return " / ".join(names) if names else t.name


def find_piece(game, text: str):
    """The piece type a text names (its code, + code, or name, any case), or a message."""
    t = text.strip()
    if t in game.types:
        return game.types[t]
    up = t.upper()
    if up in game.types:
        return game.types[up]
    low = t.lower()
    for ptype in game.types.values():
        names = [ptype.name] + list(getattr(ptype, "side_names", None) or ())
        if low in (n.lower() for n in names):
            return ptype
    starts = [p for p in game.types.values()
              if any(n.lower().startswith(low) for n in [p.name] + list(p.side_names or ()))]
    if len(starts) == 1:
        return starts[0]
    codes = ", ".join(f"{k} {_piece_name(p)}" for k, p in game.types.items())
    return f"{game.name} has no piece {shown(t)}. Its pieces: {codes}."


def piece_text(game, ptype) -> str:
    lines = [f"{ptype.key} {_piece_name(ptype)} ({game.name})"]
    if ptype.description:
        lines += textwrap.wrap(ptype.description, WIDTH)
    if ptype.betza:
        lines.append(f"Betza: {ptype.betza}")
    if ptype.states:
        lines.append(f"Its state, in brackets after its letter: {', '.join(ptype.states)}.")
    if ptype.promotion and ptype.promotion.to:
        lines.append("Promotes to: " + ", ".join(
            f"{k} {_piece_name(game.types[k])}" for k in ptype.promotion.to))
    return "\n".join(lines)


from . import conditional  # noqa: E402 - its commands (premove, next, confirm) register here
