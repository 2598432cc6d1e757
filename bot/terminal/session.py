"""One game at one keyboard: each line acts for the side to move.

A line that is not a command word is a move, in any notation the engine reads
(``Nf3``, ``e2e4``, ``Ng1-f3``, and a game's own forms, such as the actions of a set-up phase); the
commands are the bot's: move, board, moves, undo, draw, resign, abort, record,
rules, piece, legend, help, hint, review, plus the terminal's own: flip, fen, games,
quit. Everything goes through the game service, so the rules, the refusals and the
stored game are the bot's own. Against the computer, the line acts for the human, and
the computer's reply (bot/computer/player.py, in its worker process) is awaited and shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import os

import rules
from bot.words.textboard import CHOSEN_MARK, MOVE_MARK, TAKE_MARK, legend_lines, side_names, text_board
from language import from_environment

from ..commands import run as commands_text
from ..computer import player as comp
from ..domain.errors import ServiceError
from ..operations.service import GameService, GameView
from ..operations.square_moves import square_moves
from ..words import text
from ..words.game_texts import find_piece
from ..words.grammar import Command, GrammarError
from ..words.text import PLAIN, Markup, sentence
from ..words.timetext import time_left
from . import conditional
from .commands import HANDLERS, TERMINAL, handles
from .console import Console, quoting
from .games import games_text
from .images import Images


class Session:
    def __init__(self, service: GameService, game_id: int, console: Console, images: Images,
                 *, flip: bool = False, computer: comp.Computer | None = None,
                 here: str | None = None):
        self.service = service
        # the terminal's own language (LANG, LC_ALL...): a player who chose none reads it
        self.here = here if here is not None else from_environment(os.environ)
        self.computer = computer
        self.game_id = game_id
        self.console = console
        self.images = images
        self.flip = flip
        self.view: GameView | None = None
        self.pos = None  # the view's rules Position, its last move included
        self.readers: dict = {}  # player id -> Player (with settings), read with the view
        self._told_images = False
        self.confirm: dict[int, bool] = {}  # game id -> confirm on|off said for it here

    # --- the loop ---

    async def run(self) -> int:
        try:
            return await self._run()
        except KeyboardInterrupt:  # Ctrl-C at any question or wait: leave; every move is saved
            self.say()
            side = self.computer_side()
            if side is not None and self.view.status == "active" and self.view.turn == side:
                self.say(self.m.tr("{name} had not yet answered; it answers when you go on.",
                                   name=self.name_of(side)))
            self.leave()
            return 130

    async def _run(self) -> int:
        await self.refresh()
        if self.computer_side() == "w":  # you play Black against it: your side at the bottom
            self.flip = not self.flip
        m = self.m
        w, b = (m.data(name) for name in side_names(self.pos))
        self.say(self.opening() + " " + m.tr("Upper case letters are {white}'s pieces, lower case {black}'s.",
                                             white=w, black=b))
        self.say(m.tr("Type a move (like {e4} or {nf3}), or {help} for the commands.", e4="e4", nf3="Nf3",
                      help="help"))
        if self.images.folder is not None:
            self.say(m.tr("Board images are written to {folder}", folder=self.images.folder))
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
                self.say(sentence(quoting(self.m.say(e.text), line)))
                await self.after_refusal()
                keep_going = True
            if not keep_going:
                return self.leave()

    async def handle(self, line: str) -> bool:
        try:
            cmd = TERMINAL.parse(line)
        except GrammarError as e:
            m = self.m
            self.say(sentence(m.say(e.text)) + (" " + m.tr("Usage: {usage}", usage=e.usage) if e.usage else ""))
            return True
        return await HANDLERS[cmd.name](self, cmd)

    def leave(self) -> int:
        if self.view is not None and self.view.status == "active":
            command = "fairypost play --resume " + str(self.game_id)  # typed: as it is
            self.say(self.m.tr("Game #{id} is saved. Go on with: {command}", id=self.game_id, command=command))
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
            self.say(self.m.tr("The move that was being taken back is taken back."))
            self.show()
        elif v.draw_offer is not None:
            return await self.answer_draw(v.draw_offer)
        return True

    # --- helpers ---

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def reader(self):
        """Who reads the terminal now: the person at it against the computer, else the
        player to move (each side's texts in its own player's language)."""
        cpu = self.computer_side()
        return self.player(_other(cpu) if cpu is not None else self.view.turn)

    @property
    def m(self) -> Markup:
        """Plain text in the reader's language: their choice, else the terminal's."""
        if self.view is None:
            return PLAIN.in_language(self.here)
        reader = self.readers.get(self.reader().id)
        m = PLAIN.in_language(reader.reads(self.here) if reader is not None else self.here)
        self.console.m = m  # its own questions ([y/n]) in the same language
        return m

    def player(self, side: str):
        return self.view.white if side == "w" else self.view.black

    def name_of(self, side: str) -> str:
        """The player's name; a name that is its side's own ("White", as two players at one
        keyboard are named) is the side's name in the reader's language."""
        name = self.player(side).name
        english = rules.game(self.view.game).side_names["wb".index(side)]
        return self.m.data(english) if name.casefold() == english.casefold() else name

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
        self.say(self.m.tr("{name} is thinking…", name=self.name_of(side)))
        try:
            await _with_progress(self.computer.idle(self.game_id), self.console)
        except asyncio.CancelledError:
            # Ctrl-C while it thinks: asyncio.run cancels the session's task; it is a Ctrl-C
            # as at a prompt (run() leaves, saying how to go on), not the end of the program
            asyncio.current_task().uncancel()
            raise KeyboardInterrupt from None
        ply = self.view.ply
        await self.refresh()
        if self.view.ply > ply:
            self.say(self.m.tr("{who} played {move}.", who=self.who(side), move=self.view.moves[-1].san))
        self.show()

    def is_you(self, side: str) -> bool:
        """Whether ``side`` is the one person at the keyboard against the computer (then
        'you': 'You played e4.', not 'You (White) played e4.')."""
        cpu = self.computer_side()
        return cpu is not None and side != cpu

    def whose_move(self, move) -> str:
        """'Black's move Qxa8', 'Ann's move Qxa8'; against the computer 'your move Qxa8'."""
        if self.is_you(move.side):
            return self.m.tr("your move {move}", move=move.san)
        return self.m.tr("{name}'s move {move}", name=self.name_of(move.side), move=move.san)

    def side_name(self, side: str) -> str:
        return side_names(self.pos)["wb".index(side)]

    def who(self, side: str) -> str:
        """The player's name, and their side if the name does not say it."""
        return text.who(self.view, side, self.m, always_side=False)

    def rated_who(self, side: str) -> str:
        """The player, with their rating in this game beside the name ('Alice (White) 1500?')."""
        v = self.view
        rating = v.white_rating if side == "w" else v.black_rating
        return self.who(side) + (f" {rating}" if rating else "")

    def opening(self) -> str:
        """'Game #3: Chess, Ann 1500? against Bob 1500?, a casual game.'"""
        v, m = self.view, self.m
        said = dict(id=self.game_id, game=self.game_name(), white=self.rated_who("w"), black=self.rated_who("b"))
        if v.white_rating is None:  # against the computer: never rated
            return m.tr("Game #{id}: {game}, {white} against {black}.", **said)
        if v.rated:
            return m.tr("Game #{id}: {game}, {white} against {black}, a rated game.", **said)
        return m.tr("Game #{id}: {game}, {white} against {black}, a casual game.", **said)

    def game_name(self) -> str:
        return self.m.data(rules.game(self.view.game).name)

    def prompt(self) -> str:
        v = self.view
        if v.status != "active":
            return "> "
        if v.seconds_left is not None:
            return self.m.tr("{who} ({time} left)> ", who=self.who(v.turn), time=time_left(v.seconds_left, self.m.lang))
        return f"{self.who(v.turn)}> "

    async def after_refusal(self) -> None:
        """After a refusal, read the game again: what was refused may be because it
        changed meanwhile (another session moved, the time ran out). If it did, show it."""
        seen = self._seen()
        await self.refresh()
        if self._seen() != seen:
            self.say(self.m.tr("The game is no longer as shown; here it is now:"))
            self.show()

    def _seen(self):
        v = self.view
        return v.fen, v.status, v.draw_offer, v.takeback_by

    async def refresh(self, view: GameView | None = None) -> GameView:
        """Take ``view`` (what an operation returned), or read the game, and its position."""
        self.view = view if view is not None else await self.service.game(self.game_id)
        v = self.view
        if v.status == "active" and v.seconds_left is not None and v.seconds_left <= 0:
            # its time is up: no sweep runs behind a terminal session, so end it on time now
            await self.service.sweep()
            self.view = await self.service.game(self.game_id)
        self.pos = await self.service.position(self.game_id)
        # the players' settings (their languages), read again as each line may change them
        self.readers = {ref.id: await self.service.get_player(ref.id) for ref in (v.white, v.black)}
        return self.view

    def show(self) -> None:
        self.say()
        self.console.say(text_board(self.pos, flip=self.flip), wrap=False)
        self.say()
        self.say(self.status())
        path = self.images.board(self.game_id, self.pos, flip=self.flip,
                                 outcome=(self.view.result, self.view.reason), lang=self.m.lang)
        if path is not None:
            self.say(self.m.tr("Image: {path}", path=path))
        elif self.images.problem and not self._told_images:
            self._told_images = True
            self.say(f"({self.m.say(self.images.problem)})")

    def status(self) -> str:
        return text.status_text(self.view, self.m, setup=_setup_hint(self.pos, self.m))

    async def shared(self, cmd: Command, who=None) -> commands_text.Reply:
        """Run ``cmd`` as every adapter does (bot/commands/run.py), for ``who`` (a
        player of this game; default: the player to move)."""
        player = await self.service.get_player((who or self.player(self.view.turn)).id)
        ctx = commands_text.Context(self.service, player, PLAIN.in_language(player.reads(self.here)),
                                    self.game_id, expected_ply=self.view.ply, computer=self.computer,
                                    width=self.console.width - 1, here=self.here)
        return await commands_text.execute(cmd, ctx)

    # --- moving ---

    async def play(self, text: str) -> bool:
        v = self.view
        if v.status != "active":
            self.say(sentence(self._over()) + " " + self.m.tr("Type {record} for the game, {quit} to leave.",
                                                              record="record", quit="quit"))
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
            msg = sentence(quoting(self.m.say(e.text), text.strip()))
            if " " not in text.strip() and not any(ch.isdigit() for ch in text):
                msg += " " + self.m.tr("(Type {help} for the commands.)", help="help")
            self.say(msg)
            await self.after_refusal()
            return True
        await self.refresh(r.game)
        self.say(self.m.tr("You played {move}.", move=r.san) if self.is_you(mover)
                 else self.m.tr("{who} played {move}.", who=self.who(mover), move=r.san))
        conditional.tell_after_move(self, r, lines)
        self.show()
        await self.computer_turn()
        return True

    async def refresh_active(self) -> GameView | None:
        """The game read afresh; None, having said so, when it is over."""
        v = await self.refresh()
        if v.status != "active":
            self.say(sentence(self._over()))
            return None
        return v

    def _over(self) -> str:
        v = self.view
        if v.status == "aborted":
            return self.m.tr("the game was aborted")
        return self.m.tr("the game is over: {result} ({reason})", result=v.result,
                         reason=text.reason_name(v.reason, self.m))

    async def answer_draw(self, offered_by: str) -> bool:
        other = _other(offered_by)
        answer = self.console.yes(self.m.tr("{who}, {offerer} offers a draw. Do you accept? [y/n] ",
                                            who=self.who(other), offerer=self.who(offered_by)))
        if answer is None:
            return False
        op = self.service.accept_draw if answer else self.service.decline_draw
        await self.refresh(await op(self.game_id, self.player(other).id, expected_ply=self.view.ply))
        if answer:
            self.say(self.m.tr("Draw agreed."))
            self.show()  # the picture again, with the result on it
        else:
            self.say(self.m.tr("Draw declined; play on."))
        return True


async def _with_progress(awaitable, console: Console) -> None:
    """Await, writing a dot a second at an interactive terminal (a transcript stays plain);
    the dots' line is ended however the wait ends (a Ctrl-C too)."""
    task = asyncio.ensure_future(awaitable)
    dots = False
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=1.0)
            if done:
                break
            if console.interactive:
                console.out.write(".")
                console.out.flush()
                dots = True
    finally:
        if dots:
            console.out.write("\n")
            console.out.flush()
        if not task.done():
            task.cancel()
    task.result()


_other = text.other


def _setup_hint(pos, m: Markup = PLAIN) -> str:
    """What the set-up action now to be made is, in the game's own words."""
    hint = pos.game.extension.setup_hint_text(pos)
    return m.say(hint) if hint else m.tr("a set-up action (type moves to see them)")


# --- the commands ----------------------------------------------------------------------
# Commands that read the same at one keyboard run as every adapter runs them
# (bot/commands/run.py, through Session.shared). The rest are the terminal's own because
# it truly differs: both players sit here (draw, takeback and resign are answered or asked
# at once; premove, next and confirm act for the right one of the two; ratings and games
# show both), the computer's reply is awaited (move), and the board is drawn as text with
# an image written beside it (board, moves, piece's card, legend, flip, fen).

@handles("move")
async def _move(s: Session, cmd: Command) -> bool:
    return await s.play(cmd["move"])


@handles("board")
async def _board(s: Session, cmd: Command) -> bool:
    await s.refresh()
    if cmd["square"]:
        return await _moves(s, cmd, marked=True)
    s.show()
    return True


@handles("moves")
async def _moves(s: Session, cmd: Command, marked: bool = False) -> bool:
    """``moves SQUARE`` lists that piece's moves; ``board SQUARE`` (``marked``) draws the
    board with them marked first."""
    if await s.refresh_active() is None:
        return True
    pos = s.pos
    if cmd["square"]:
        word = cmd["square"]
        try:
            found = square_moves(pos, word)
        except ServiceError as e:
            s.say(sentence(quoting(s.m.say(e.text), word)))
            return True
        if marked and found.reach:
            s.say()
            s.console.say(text_board(pos, flip=s.flip, marks=(found.squares, found.reach)),
                          wrap=False)
            s.say()
            s.say(s.m.tr("{chosen} before the piece, {move} where it can go, {take} before a piece it can take.",
                         chosen=CHOSEN_MARK, move=MOVE_MARK, take=TAKE_MARK))
        for paragraph in text.square_moves_text(found, s.m, list_break="\n").split("\n"):
            s.say(paragraph)
        if found.sans and not found.as_if:
            path = s.images.board(s.game_id, pos, flip=s.flip, highlight=found.square, lang=s.m.lang)
            if path is not None:
                s.say(s.m.tr("Image (the moves marked): {path}", path=path))
        return True
    sans = sorted(pos.san(m) for m in pos.legal_moves())
    s.say(s.m.trn("{n} legal move:", "{n} legal moves:", len(sans)))
    s.say(" ".join(sans))
    return True


@handles("takeback")
async def _undo(s: Session, cmd: Command) -> bool:
    v = await s.refresh_active()
    if v is None:
        return True
    if not v.moves:
        s.say(s.m.tr("There is no move to take back."))
        return True
    last = v.moves[-1]
    asker, other = s.player(last.side), s.player(_other(last.side))
    cpu = s.computer_side()
    async with s.computer.held(s.game_id) if cpu is not None else contextlib.nullcontext():
        await s.service.ask_takeback(s.game_id, asker.id, expected_ply=v.ply)
        await s.refresh(await s.service.accept_takeback(s.game_id, other.id, expected_ply=v.ply))
        taken, before = s.whose_move(last), None
        if cpu is not None and last.side == cpu and s.view.moves:
            # and the player's own move before it (the computer agrees to takebacks)
            mine = s.view.moves[-1]
            await s.service.ask_takeback(s.game_id, s.player(mine.side).id, expected_ply=s.view.ply)
            await s.refresh()
            if s.view.ply < v.ply - 1:
                before = s.whose_move(mine)
    s.say(s.m.tr("Took back {move}.", move=taken) if before is None
          else s.m.tr("Took back {move} and {before} before it.", move=taken, before=before))
    s.show()
    await s.computer_turn()
    return True


@handles("draw")
async def _draw(s: Session, cmd: Command) -> bool:
    v = await s.refresh()
    side = v.turn
    await s.refresh(await s.service.offer_draw(s.game_id, s.player(side).id, expected_ply=v.ply))
    if s.computer_side() is not None and s.view.status == "active":
        await s.refresh()  # it has answered: the computer plays on
        s.say(s.m.tr("{name} declines the draw; play on.", name=s.name_of(_other(side))))
        return True
    if s.view.status != "active":  # the other side's offer stood: this accepted it
        s.say(s.m.tr("Draw agreed."))
        s.show()
        return True
    return await s.answer_draw(side)


@handles("resign")
async def _resign(s: Session, cmd: Command) -> bool:
    v = await s.refresh_active()
    if v is None:
        return True
    asked = (s.m.tr("Resign game #{id}? [y/n] ", id=s.game_id) if s.is_you(v.turn)
             else s.m.tr("{who}, resign game #{id}? [y/n] ", who=s.who(v.turn), id=s.game_id))
    answer = s.console.yes(asked)
    if answer is None:
        return False
    if not answer:
        s.say(s.m.tr("Not resigned; play on."))
        return True
    await s.refresh(await s.service.resign(s.game_id, s.player(v.turn).id, expected_ply=v.ply))
    s.say(s.m.tr("You resign.") if s.is_you(v.turn) else s.m.tr("{who} resigns.", who=s.who(v.turn)))
    s.show()  # the picture again, with the result on it
    return True


@handles("abort")
async def _abort(s: Session, cmd: Command) -> bool:
    await s.refresh()
    await s.refresh((await s.shared(cmd)).game)  # as anywhere, for the player to move
    s.show()
    return True


async def _as_everywhere(s: Session, cmd: Command) -> bool:
    """A command that reads the same at one keyboard as anywhere: every adapter's
    (bot/commands/run.py), for the player to move."""
    reply = await s.shared(cmd)
    s.say(reply.text)
    return True


handles("rules")(_as_everywhere)
handles("tournaments")(_as_everywhere)


@handles("record")
async def _record(s: Session, cmd: Command) -> bool:
    # as everywhere, but never wrapped at the terminal's width: a PGN tag broken over two
    # lines is no longer PGN (the movetext is already wrapped under 80 columns)
    s.console.say((await s.shared(cmd)).text, wrap=False)
    return True


@handles("piece")
async def _piece(s: Session, cmd: Command) -> bool:
    s.say((await s.shared(cmd)).text)
    # and, the terminal's own, the card's image
    game = rules.game(s.view.game)
    path = s.images.piece(game.id, find_piece(game, cmd["piece"]).key, lang=s.m.lang)
    if path is not None:
        s.say(s.m.tr("Card: {path}", path=path))
    return True


@handles("legend")
async def _legend(s: Session, cmd: Command) -> bool:
    pos = s.pos
    w, b = (s.m.data(name) for name in side_names(pos))
    s.say(s.m.tr("Upper case is {white}, lower case {black}; {plus} marks a promoted piece; a state stands "
                 "in brackets.", white=w, black=b, plus="'+'"))
    for line in legend_lines(pos, s.m.lang):
        s.say("  " + line)
    path = s.images.legend(s.game_id, pos, lang=s.m.lang)
    if path is not None:
        s.say(s.m.tr("Image: {path}", path=path))
    return True


@handles("flip")
async def _flip(s: Session, cmd: Command) -> bool:
    s.flip = not s.flip
    s.show()
    return True


@handles("fen")
async def _fen(s: Session, cmd: Command) -> bool:
    # one line whatever the terminal's width, to be copied whole
    s.console.say((await s.refresh()).fen, wrap=False)
    return True


@handles("hint")
async def _hint(s: Session, cmd: Command) -> bool:
    # the terminal's own part: the hint is the human's (the one keyboard may hold the
    # side not to move against the computer), and it says it is thinking meanwhile
    v = await s.refresh()
    cpu = s.computer_side()
    me = s.player(v.turn if cpu is None else _other(cpu))
    comp.check_hint(v, me.id)  # refused before the progress line
    s.say(s.m.tr("Thinking…"))
    s.say((await s.shared(cmd, me)).text)
    return True


@handles("review")
async def _review(s: Session, cmd: Command) -> bool:
    v = await s.refresh()
    comp.check_review(v)  # refused before the progress line
    if s.computer is not None:
        s.say(s.m.trn("Reviewing {n} move…", "Reviewing {n} moves…", len(v.moves)))
    reply = await s.shared(cmd)
    s.say(reply.attachment[1])  # a terminal shows the whole review
    return True


@handles("ratings")
async def _ratings(s: Session, cmd: Command) -> bool:
    # the terminal's own: both players sit here, so both players' ratings
    from ..words.rating_text import ratings_text
    s.say(await ratings_text(s.service, cmd["game"] or s.view.game, [s.player("w"), s.player("b")], s.m))
    return True


@handles("games")
async def _games(s: Session, cmd: Command) -> bool:
    # the terminal's own: every game played in this terminal, both sides (bot/terminal/games.py)
    s.say(await games_text(s.service, m=s.m))
    return True


@handles("help")
async def _help(s: Session, cmd: Command) -> bool:
    s.say(help_text(cmd["command"], s.m))
    return True


@handles("language")
async def _language(s: Session, cmd: Command) -> bool:
    # as everywhere, for the one who reads the terminal now; then read again who chose what
    s.say((await s.shared(cmd, s.reader())).text)
    await s.refresh()
    return True


@handles("quit")
async def _quit(s: Session, cmd: Command) -> bool:
    return False


def help_text(command: str | None = None, m: Markup = PLAIN) -> str:
    """The terminal's commands (or one of them), from its grammar, for the reader of ``m``."""
    try:
        return text.help_text(TERMINAL, m, command)
    except GrammarError as e:
        return sentence(m.say(e.text))
