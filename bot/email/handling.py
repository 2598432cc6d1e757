"""A mail read from the mailbox, acted on: the first line of a reply to a game's mail is a
move or a command; a mail to the bot's own address is help, a challenge, games; a reply to a
challenge is accept or decline. Bounces count against their address; auto-replies and
mails that fail the checks (a forged or unknown token, a sender who is not the player)
get no answer at all, only a line in the log."""

from __future__ import annotations

import logging
from dataclasses import dataclass
import re
import textwrap

import rules
from bot import text as texts
from bot.config import ConfigError, parse_days
from bot.errors import GameChanged, IllegalMove, NotFound, ServiceError
from bot.grammar import Command, GrammarError
from bot.service import format_record
from bot.timetext import time_left

from . import tokens
from .accounts import normal_address
from .compose import GRAMMAR, WIDTH, help_text
from .parse import Incoming, read_mail

log = logging.getLogger("bot.email")

_SQUARE = re.compile(r"[a-z]\d{1,2}")
# commands that only read (an answer to an old board may still ask them)
_READS = {"help", "board", "moves", "games", "record"}


@dataclass(frozen=True)
class Reply:
    text: str
    board: bool = True  # the board goes with the text


sentence = texts.sentence


class Handler:
    def __init__(self, adapter):
        self.a = adapter

    # --- entry ---

    async def handle(self, raw: bytes) -> None:
        mail = read_mail(raw)
        a = self.a
        if mail.bounce is not None:
            if mail.bounce.permanent:
                await a.mailer.bounced(mail.bounce.recipient, "a bounce mail came back")
            return
        if mail.automatic or not mail.sender or mail.sender == a.bot_address.lower():
            log.info("mail %s from %s is automatic: not answered", mail.key, mail.sender or "nobody")
            return
        tag = next((t for t in (tokens.parse_tag(r, a.bot_address) for r in mail.recipients) if t), None)
        line = mail.first_line or mail.subject
        if tag is None:
            await self.plain(mail, line)
        elif tag.kind == "g":
            await self.in_game(mail, tag, line)
        else:
            await self.in_challenge(mail, tag, line)

    async def _owner(self, mail: Incoming, tag: tokens.ReplyTag):
        """The tag's player if the sender is that player, else None (logged)."""
        player = await self.a.accounts.player_of(mail.sender)
        if player is None or player.id != tag.player_id:
            log.warning("mail %s from %s answers a mail to player %d: not theirs, ignored",
                        mail.key, mail.sender, tag.player_id)
            return None
        return player

    # --- a reply in a game ---

    async def in_game(self, mail: Incoming, tag: tokens.ReplyTag, line: str) -> None:
        a = self.a
        me = await self._owner(mail, tag)
        if me is None:
            return
        try:
            view = await a.service.game(tag.id)
        except NotFound:
            log.warning("mail %s from %s names game %d, which does not exist", mail.key, mail.sender, tag.id)
            return
        ply = tokens.signed_ply(a.secret, tag, view.ply)
        if ply is None or view.side_of(me.id) is None:
            log.warning("mail %s from %s has a forged token for game %d: ignored", mail.key,
                        mail.sender, tag.id)
            return
        answering = (mail.message_id, mail.references)
        try:
            cmd = GRAMMAR.parse(line, in_game=True)
        except GrammarError as e:
            await a.notices.board_mail(view.id, me.id, key=f"reply:{mail.key}", answering=answering,
                                       note=sentence(str(e)), board=False)
            return
        if ply != view.ply and cmd.name not in _READS:
            log.info("mail %s from %s answers game %d at ply %d, now %d: the board again",
                     mail.key, mail.sender, view.id, ply, view.ply)
            await a.notices.board_mail(view.id, me.id, key=f"stale:{mail.key}", answering=answering,
                                       note="The game changed since the mail you answered, so "
                                            "nothing was done. Here is the board now.")
            return
        try:
            reply = await self.game_command(view, me, cmd, ply)
        except GameChanged:
            reply = Reply("The game changed meanwhile, so nothing was done. Here is the board now.")
        except IllegalMove as e:
            reply = Reply(await self.refused_move(view.id, cmd["move"] or line, e), board=False)
        except ServiceError as e:
            reply = Reply(sentence(str(e)), board=False)
        if reply is not None:
            await a.notices.board_mail(view.id, me.id, key=f"reply:{mail.key}", answering=answering,
                                       note=reply.text, board=reply.board)

    async def game_command(self, view, me, cmd: Command, ply: int) -> Reply | None:
        s, gid, side = self.a.service, view.id, view.side_of(me.id)
        other = texts.other(side)
        name = cmd.name
        if name == "help":
            return Reply(help_text(cmd["command"]), board=False)
        if name == "board":
            if cmd["square"]:
                return Reply(await self.moves_text(gid, cmd["square"]), board=False)
            return Reply("The board:")
        if name == "moves":
            return Reply(await self.moves_text(gid, cmd["square"] or ""), board=False)
        if name == "games":
            return Reply(await self.games_text(me.id), board=False)
        if name == "record":
            return Reply(format_record(await s.game(gid)), board=False)
        if name == "resign":
            await s.resign(gid, me.id, expected_ply=ply)
            return None  # the game-over mail says it
        if name == "abort":
            await s.abort(gid, me.id, expected_ply=ply)
            return None
        answer = cmd["answer"]
        if name in ("accept", "decline") and cmd["id"] is None:
            # in a game, accept/decline answer the other player's offer or request
            name, answer = ("draw" if view.draw_offer == other else "takeback"), name
        if name == "draw":
            if view.draw_offer == other and answer != "decline":
                await s.accept_draw(gid, me.id, expected_ply=ply)
                return None
            if view.draw_offer == other:
                await s.decline_draw(gid, me.id, expected_ply=ply)
                return Reply("You declined the draw.")
            if answer is not None:
                return Reply("There is no draw offer to answer.", board=False)
            await s.offer_draw(gid, me.id, expected_ply=ply)
            return Reply("You offered a draw; your opponent is told.")
        if name == "takeback":
            if view.takeback_by == other and answer != "decline":
                await s.accept_takeback(gid, me.id, expected_ply=ply)
                return Reply("You agreed: the last move is taken back.")
            if view.takeback_by == other:
                await s.decline_takeback(gid, me.id, expected_ply=ply)
                return Reply("You refused the takeback.")
            if answer is not None:
                return Reply("There is no takeback request to answer.", board=False)
            await s.ask_takeback(gid, me.id, expected_ply=ply)
            return Reply("You asked to take back your last move; your opponent is told.")
        if name == "vacation":
            return Reply(await self.vacation(me.id, cmd["days"]), board=False)
        if name != "move":
            return Reply(f"{name} cannot be done by mail. Reply help for the commands.", board=False)
        r = await s.move(gid, me.id, cmd["move"], expected_ply=ply)
        if r.outcome is not None:
            return None  # the game-over mail shows it
        return Reply(f"You played {r.san}.")

    async def refused_move(self, game_id: int, text: str, error: Exception) -> str:
        """The engine's reason, and the legal moves of the piece the move named."""
        msg = sentence(str(error)) + " Nothing was played."
        pos = await self.a.service.position(game_id)
        hint = piece_moves(pos, text)
        if hint:
            msg += "\n" + hint
        return msg

    async def moves_text(self, game_id: int, arg: str) -> str:
        pos = await self.a.service.position(game_id)
        if arg:
            square = arg.split()[0].lower()
            try:
                moves = pos.moves_from(square)
            except rules.RulesError as e:
                return sentence(str(e))
            sans = sorted(pos.san(m) for m in moves)
            if not sans:
                return f"{square}: no legal move from there."
            return f"Moves from {square}:\n" + textwrap.fill(" ".join(sans), WIDTH)
        sans = sorted(pos.san(m) for m in pos.legal_moves())
        return f"{len(sans)} legal moves:\n" + textwrap.fill(" ".join(sans), WIDTH)

    async def games_text(self, player_id: int) -> str:
        s = self.a.service
        return texts.games_text(await s.list_games(player_id), await s.list_challenges(player_id),
                                player_id, texts.PLAIN)

    async def vacation(self, player_id: int, days) -> str:
        s = self.a.service
        if days == "end":
            await s.end_vacation(player_id)
            return "Vacation ended: your clocks run again."
        if days is None:
            v = await s.vacation(player_id)
            state = "You are on vacation." if v.on_vacation else "You are not on vacation."
            return f"{state} {time_left(v.left_seconds)} of vacation left this year."
        v = await s.start_vacation(player_id, days)
        return f"Vacation started: your clocks are paused until {v.until:%Y-%m-%d %H:%M} UTC."

    # --- a reply to a challenge ---

    async def in_challenge(self, mail: Incoming, tag: tokens.ReplyTag, line: str) -> None:
        a = self.a
        me = await self._owner(mail, tag)
        if me is None:
            return
        if tokens.signed_ply(a.secret, tag, 0) is None:
            log.warning("mail %s from %s has a forged token for challenge %d: ignored",
                        mail.key, mail.sender, tag.id)
            return
        try:
            word = GRAMMAR.parse(line, in_game=False).name
        except GrammarError:
            word = ""
        try:
            if word == "accept":
                await a.service.accept_challenge(tag.id, me.id)
                return  # the game's first mail follows
            if word == "decline":
                await a.service.decline_challenge(tag.id, me.id)
                text = "You declined the challenge."
            else:
                text = "Reply accept or decline to the challenge."
        except ServiceError as e:
            text = sentence(str(e))
        await a.notices.text_reply(mail, text)

    # --- a mail to the bot's own address ---

    async def plain(self, mail: Incoming, line: str) -> None:
        a = self.a
        try:
            cmd = GRAMMAR.parse(line or "help", in_game=False)
            if cmd.name == "help":
                text = help_text(cmd["command"])
            elif cmd.name == "challenge":
                text = await self.challenge(mail, cmd)
            elif cmd.name == "games":
                me = await a.accounts.player_for(mail.sender)
                text = await self.games_text(me.id)
            elif cmd.name == "vacation":
                me = await a.accounts.player_for(mail.sender)
                text = await self.vacation(me.id, cmd["days"])
            elif cmd.name in ("accept", "decline"):
                text = "Reply accept or decline to the challenge's own mail."
            else:
                text = (f"{cmd.name} is done in a reply to the game's mail (its first line). "
                        "Mail help for the commands.")
        except GrammarError as e:
            text = sentence(str(e)) + " Mail help for the commands."
        except (ServiceError, ValueError) as e:
            text = sentence(str(e))
        await a.notices.text_reply(mail, text)

    async def challenge(self, mail: Incoming, cmd: Command) -> str:
        a = self.a
        game = cmd["game"]
        address = normal_address(cmd["opponent"])
        days = a.service.settings.default_days
        if cmd["days"] is not None:
            try:
                days = parse_days(cmd["days"])
            except ConfigError as e:
                return sentence(str(e))
        if address == mail.sender:
            return "You cannot challenge yourself."
        me = await a.accounts.player_for(mail.sender)
        them = await a.accounts.player_for(address)
        c = await a.service.challenge(me.id, game, opponent_id=them.id, days=days)
        return (f"Challenge {c.id} sent to {address}: {rules.game(game).name}, "
                f"{texts.days_text(days)}. You will get a mail when it is answered.")


def piece_moves(pos, text: str) -> str:
    """The legal moves of the piece a refused move named: from its first square when it
    names two, else those of the same piece letter (or file, for a pawn)."""
    try:
        legal = pos.legal_moves()
    except Exception:  # noqa: BLE001 - a hint only
        return ""
    squares = _SQUARE.findall(text.strip().lower())
    if len(squares) >= 2:
        try:
            moves = pos.moves_from(squares[0])
        except rules.RulesError:
            return ""
        what = f"the piece on {squares[0]}"
    else:
        first = text.strip()[:1]
        if not first.isalpha():
            return ""
        moves = [m for m in legal if pos.san(m)[:1] == first]
        what = f"{first} pieces" if first.isupper() else f"pawns on the {first} file"
    sans = sorted(pos.san(m) for m in moves)
    if not sans:
        return f"{what.capitalize()}: no legal move."
    return f"Legal moves of {what}: " + " ".join(sans)
