"""A mail read from the mailbox, acted on: the first line of a reply to a game's mail is a
move or a command; a mail to the bot's own address is help, a challenge, games, the
tournaments; a reply to a challenge is accept or decline; a reply to a tournament's mail
joins or leaves it (the plain address answers ``tournament join ID`` with such a mail). The
commands are the shared grammar's (bot/words/grammar.py), run by bot/commands/run.py as for
every adapter that reads typed text. Bounces count against their address; auto-replies and
mails that fail the checks (a forged or unknown token, a sender who is not the player) get no
answer at all, only a line in the log."""

from __future__ import annotations

import asyncio
import logging
import re

import rules
from bot.commands import run as commands_text
from bot.delivery import events as ev
from bot.domain.errors import GameChanged, IllegalMove, NotFound, ServiceError
from bot.domain.kinds import ChallengeStatus
from bot.operations.square_moves import square_moves
from bot.words import text as texts
from bot.words.game_texts import find_piece, piece_text
from bot.words.grammar import GRAMMAR, TOURNAMENT_ACTS, Command, GrammarError, resolve_game
from bot.words.text import Markup
from bot.words.tournament_text import tournament_line
from language import T
from rules.spelling import several_moves, tidy

from . import tokens
from .accounts import PLATFORM, normal_address
from .compose import WIDTH, help_text
from .notices import answer_a_challenge, answer_key, no_text_of_your_own
from .parse import Incoming, read_mail
from .tables import EmailTables

log = logging.getLogger("bot.email")

_SQUARE = re.compile(r"[a-z]\d{1,2}")
# commands that only read (an answer to an old board may still ask them)
_READS = {"help", "board", "moves", "games", "record", "ratings", "rules", "piece"}
# what a mail to the bot's own address may do: anyone can write any From, so nothing that
# acts for a player in a game, on a challenge or on their clocks; the answer goes to the
# From address, so reading their own games list shows nothing to anyone else
_UNSIGNED = {"help", "games", "challenge", "rules", "piece", "ratings", "tournaments"}
# commands in a game's reply that are not about its board: acted on whatever ply it answers
_NOT_THE_BOARD = {"tournament", "tournaments"}
# a tournament's reply may start with the act alone (its event implied)
_TOURNAMENT_ACTS = set(TOURNAMENT_ACTS)

sentence = texts.sentence


def nothing_to_read(m: Markup = texts.PLAIN) -> str:
    return no_text_of_your_own(m.tr("a move or a command ({help} lists them)", help=m.code("help")), m)


NOTHING_TO_READ = nothing_to_read()


def refusal(e: Exception, m: Markup) -> str:
    """A refusal (the service's, the grammar's: with the command's usage) in the reader's
    language, as a sentence."""
    if isinstance(e, GrammarError):
        return sentence(e.said(m))
    text = getattr(e, "text", None)
    return sentence(m.say(text) if text is not None else str(e))


def mail_help_hint(m: Markup) -> str:
    return m.tr("Mail {help} for the commands.", help=m.code("help"))


class Handler:
    def __init__(self, adapter):
        self.a = adapter

    # --- entry ---

    async def handle(self, raw: bytes) -> None:
        # off the event loop: a long or hostile mail costs this task, not every other one
        mail = await asyncio.to_thread(read_mail, raw)
        a = self.a
        verp = next((t for t in (tokens.parse_bounce_tag(r, a.bot_address) for r in mail.recipients)
                     if t), None)
        if verp is not None:  # to a bounce address: a report, an auto-reply; never answered
            await self.to_bounce_address(mail, verp)
            return
        if mail.bounce is not None:
            log.warning("mail %s from %s is a bounce report not sent to a bounce address of the "
                        "bot's (unsigned or forged): it counts for nothing", mail.key,
                        mail.sender or "nobody")
            return
        if mail.automatic or not mail.sender:
            log.info("mail %s from %s is automatic (%s): not answered", mail.key,
                     mail.sender or "nobody", mail.automatic or "no sender")
            return
        if mail.sender.split("@")[-1] == a.bot_address.split("@")[1].lower() and \
                mail.sender.split("@")[0].split("+")[0] == a.bot_address.split("@")[0].lower():
            log.info("mail %s is the bot's own (%s): not answered", mail.key, mail.sender)
            return
        tag = next((t for t in (tokens.parse_tag(r, a.bot_address) for r in mail.recipients) if t), None)
        # the body first; the subject only when the body says nothing, and only the writer's
        # own (an empty reply's subject is the bot's, "Re: fairypost game 1: ...")
        line = mail.read_line
        if tag is None:
            await self.plain(mail, line)
        elif tag.kind == "g":
            await self.in_game(mail, tag, line)
        elif tag.kind == "t":
            await self.in_tournament(mail, tag, line)
        else:
            await self.in_challenge(mail, tag, line)

    async def to_bounce_address(self, mail: Incoming, verp: tokens.BounceTag) -> None:
        """A mail to one of the bot's bounce addresses: a failure report counts against the
        address the bot sent that mail to, if the address is signed for it; anything else
        (an auto-reply, a delay report, a forged address) counts for nothing."""
        a = self.a
        async with a.service.store.read() as tx:
            recipient = await EmailTables(tx).sent_mail_recipient(verp.mail_id)
        if recipient is None or not tokens.bounce_verifies(a.secret, verp, recipient):
            log.warning("mail %s from %s to a forged bounce address (mail %d): it counts for "
                        "nothing", mail.key, mail.sender or "nobody", verp.mail_id)
            return
        if mail.bounce is None or not mail.bounce.permanent:
            log.info("mail %s to the bounce address of mail %d to %s is no failure report (%s): "
                     "not counted", mail.key, verp.mail_id, recipient,
                     "a delay" if mail.bounce else mail.automatic or "no report")
            return
        named = {mail.bounce.recipient, mail.bounce.original} - {""}
        if named and recipient not in named:
            log.warning("mail %s reports %s failed, but mail %d went to %s: it counts for "
                        "nothing", mail.key, ", ".join(sorted(named)), verp.mail_id, recipient)
            return
        await a.mailer.bounced(recipient, f"mail {verp.mail_id} bounced"
                               + (f" ({mail.bounce.recipient})" if mail.bounce.recipient else ""),
                               verp.mail_id)

    async def reader(self, mail: Incoming, player) -> Markup:
        """The markup of the language the answer to ``mail`` is in: the player's (chosen,
        else seen); a player's first mail that says its language (Content-Language) makes
        that the one seen, later mails' headers change nothing; a stranger (no player) is
        answered in the language their mail says."""
        if player is None:
            return texts.PLAIN.in_language(mail.content_language)
        if mail.content_language and player.settings.seen_language is None:
            await self.a.service.saw_language(player.id, mail.content_language)
            player = await self.a.service.get_player(player.id)
        return texts.PLAIN.in_language(player.reads())

    async def _owner(self, mail: Incoming, tag: tokens.ReplyTag):
        """The tag's player if the sender is that player, else None (logged)."""
        player = await self.a.accounts.player_of(mail.sender)
        if player is not None and player.id == tag.player_id:
            return player
        try:  # a mail player's own address stays theirs in their games, even once linked
            player = await self.a.service.get_player(tag.player_id)
        except NotFound:
            player = None
        if player is None or player.platform != PLATFORM or player.user_id != mail.sender:
            log.warning("mail %s from %s answers a mail to player %d: not theirs, ignored",
                        mail.key, mail.sender, tag.player_id)
            return None
        return player

    def context(self, player, game_id: int | None = None, ply: int | None = None,
                tournament_id: int | None = None, m: Markup = texts.PLAIN):
        async def find_player(who: str):  # an OPPONENT by mail is an address: its player
            return await self.a.accounts.player_for(normal_address(who))
        # mail's own language for a player is the one their first mail said (``language
        # default`` goes back to it)
        here = player.settings.seen_language if player is not None else None
        return commands_text.Context(self.a.service, player, m, game_id=game_id,
                                     find_player=find_player, expected_ply=ply,
                                     computer=self.a.computer, tournament_id=tournament_id, here=here)

    async def reread(self, cmd: Command, mail: Incoming, player, m: Markup) -> Markup:
        """The reader's markup after ``cmd``: a ``language`` command changed it (its answer,
        subject and board included, is in the new language already)."""
        if cmd.name != "language":
            return m
        return await self.reader(mail, await self.a.service.get_player(player.id))

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
        await a.mailer.proven(mail.sender)  # a signed mail reached them, and they answered
        await a.accounts.proven(mail.sender)
        answering = (mail.message_id, mail.references)
        m = await self.reader(mail, me)

        async def answer(note: str, board: bool) -> None:
            await a.notices.board_mail(view.id, me.id, key=answer_key(mail, signed=True), answering=answering,
                                       note=note, board=board, read=line, m=m)
        if not line.strip():  # a reply with only the quote, a signature, the bot's subject
            await answer(nothing_to_read(m), board=False)
            return
        try:
            cmd = self.in_game_meaning(GRAMMAR.parse(line, in_game=True), view, me.id)
        except GrammarError as e:
            await answer(refusal(e, m), board=False)
            return
        if ply != view.ply and cmd.name == "move" and already_played(view, ply, me.id, cmd["move"]):
            # the mail was acted on, and a stop came before it was marked handled: its answer
            # again (sent once: the same key), not "the game changed"
            log.info("mail %s from %s: its move in game %d was played already", mail.key,
                     mail.sender, view.id)
            if view.status != "active":  # its answer is the game-over mail, if not sent already
                await self.game_over_answers(mail, me, view.id, line)
                return
            await answer(m.tr("You played {move} in game #{id}.", move=view.moves[ply].san, id=view.id),
                         board=True)
            return
        if ply != view.ply and cmd.name not in _READS | _NOT_THE_BOARD:
            log.info("mail %s from %s answers game %d at ply %d, now %d: the board again",
                     mail.key, mail.sender, view.id, ply, view.ply)
            await answer(m.tr("The game changed since the mail you answered, so nothing was done. "
                              "Here is the board now."), board=True)
            return
        if cmd.name == "help":
            await answer(help_text(cmd["command"], m=m), board=False)
            return
        try:
            # the notices the command causes wait: the writer's game-over mail is this one's answer
            async with a.service.outbox.held():
                reply = await commands_text.execute(cmd, self.context(me, view.id, ply, m=m))
                m = await self.reread(cmd, mail, me, m)
                over = reply.changed and reply.game is not None and reply.game.status != "active"
                if over:  # the game-over mail, to both players, says it and shows the board
                    await self.game_over_answers(mail, me, view.id, line)
        except GameChanged:
            await answer(m.tr("The game changed meanwhile, so nothing was done. Here is the board now."),
                         board=True)
            return
        except IllegalMove as e:
            await answer(await self.refused_move(view.id, cmd["move"] or line, e, m), board=False)
            return
        except (ServiceError, GrammarError) as e:
            await answer(refusal(e, m), board=False)
            return
        if over:
            return
        await answer(full_text(reply), board=reply.changed or cmd.name == "board" and not cmd["square"])

    async def game_over_answers(self, mail: Incoming, me, game_id: int, line: str) -> None:
        """A mail that ended its game (a mate, a resignation, a draw accepted) is answered by
        the writer's game-over mail, which says first what it read: one mail, not two."""
        await self.a.notices.as_the_answer(ev.GameOver, me, lambda e: e.game_id == game_id, read=line,
                                           answering=(mail.message_id, mail.references))

    @staticmethod
    def in_game_meaning(cmd: Command, view, player_id: int) -> Command:
        """In a game's mail, accept and decline answer the other player's draw offer or
        takeback request, and draw (or takeback) alone accepts one that stands."""
        other = texts.other(view.side_of(player_id))
        if cmd.name in ("accept", "decline") and cmd["id"] is None:
            what = "draw" if view.draw_offer == other else "takeback" if view.takeback_by == other else None
            if what is not None:
                return Command(what, {"answer": cmd.name}, cmd.line)
        if cmd.name == "draw" and cmd["answer"] is None and view.draw_offer == other:
            return Command("draw", {"answer": "accept"}, cmd.line)
        if cmd.name == "takeback" and cmd["answer"] is None and view.takeback_by == other:
            return Command("takeback", {"answer": "accept"}, cmd.line)
        return cmd

    async def refused_move(self, game_id: int, text: str, error: Exception,
                           m: Markup = texts.PLAIN) -> str:
        """The engine's reason, and the legal moves of the piece the move named."""
        msg = refusal(error, m) + " " + m.tr("Nothing was played.")
        pos = await self.a.service.position(game_id)
        hint = piece_moves(pos, text, m)
        if hint:
            msg += "\n" + hint
        return msg

    # --- a reply to a challenge ---

    async def _signed_owner(self, mail: Incoming, tag: tokens.ReplyTag, what: str):
        """The player a reply to a challenge's or a tournament's mail acts for: the tag's, if
        the sender is they and the token verifies; else None (logged, never answered)."""
        me = await self._owner(mail, tag)
        if me is None:
            return None
        if tokens.signed_ply(self.a.secret, tag, 0) is None:
            log.warning("mail %s from %s has a forged token for %s %d: ignored",
                        mail.key, mail.sender, what, tag.id)
            return None
        await self.a.mailer.proven(mail.sender)  # a signed mail reached them, and they answered
        await self.a.accounts.proven(mail.sender)
        return me

    async def in_challenge(self, mail: Incoming, tag: tokens.ReplyTag, line: str) -> None:
        a = self.a
        me = await self._signed_owner(mail, tag, "challenge")
        if me is None:
            return
        reply_to = a.composer.reply_to("c", tag.id, me.id)  # a reply to the answer acts too
        m = await self.reader(mail, me)
        if not line.strip():
            await a.notices.text_reply(mail, no_text_of_your_own(
                m.tr("{accept} or {decline}", accept=m.code("accept"), decline=m.code("decline")), m),
                signed=True, reply_to=reply_to, m=m)
            return
        try:
            cmd = GRAMMAR.parse(line, in_game=False)
            if cmd.name not in ("accept", "decline"):
                raise GrammarError("reply accept or decline to the challenge")
            if cmd.name == "accept" and (game_id := await self._game_accepted(tag.id, me.id)) is not None:
                await self.accepted_already(mail, me, tag.id, game_id, line, m)
                return
            # the notices the command causes wait: the accepter's first game mail is this one's answer
            async with a.service.outbox.held():
                reply = await commands_text.execute(Command(cmd.name, {"id": tag.id}, cmd.line),
                                                    self.context(me, m=m))
                if cmd.name == "accept":
                    await a.notices.as_the_answer(ev.GameStarted, me, lambda e: e.challenge_id == tag.id,
                                                  read=line, answering=(mail.message_id, mail.references))
                    return
            text = reply.text
        except GrammarError:  # not accept, not decline: the list of every command would mislead
            text = answer_a_challenge(m)
        except ServiceError as e:
            text = refusal(e, m)
        await a.notices.text_reply(mail, text, signed=True, reply_to=reply_to, m=m)

    async def _game_accepted(self, challenge_id: int, player_id: int) -> int | None:
        """The game of a challenge to this player that they accepted already, else None."""
        c = await self.a.service.get_challenge(challenge_id)
        mine = c.opponent is not None and c.opponent.id == player_id
        return c.game_id if mine and c.status == ChallengeStatus.ACCEPTED else None

    async def accepted_already(self, mail: Incoming, me, challenge_id: int, game_id: int, line: str,
                               m: Markup = texts.PLAIN) -> None:
        """``accept`` to a challenge the writer accepted already: a mail handled again after a
        stop lost its "handled" mark is answered by the game's first mail, if that is not sent
        yet; else (sent, or a second mail) the writer is told where the game is, in a mail
        whose reply address is the game's, so a move replied to it is played."""
        a = self.a
        if await a.notices.as_the_answer(ev.GameStarted, me, lambda e: e.challenge_id == challenge_id,
                                          read=line, answering=(mail.message_id, mail.references)):
            return
        view = await a.service.game(game_id)
        await a.notices.text_reply(mail, m.tr("You accepted this challenge already: it is game #{id} "
                                              "(reply to this mail or to its mails with a move or a command).",
                                              id=game_id),
                                   signed=True, reply_to=a.composer.reply_to("g", game_id, me.id, view.ply), m=m)

    # --- a reply to a tournament's mail ---

    async def in_tournament(self, mail: Incoming, tag: tokens.ReplyTag, line: str) -> None:
        """A reply to a mail about a tournament (``t0``: the list of them, or the plain
        address's way to a challenge): the signed address shows it is the player's, so it
        acts for them (any command); join, leave or show alone are about that mail's event."""
        a = self.a
        me = await self._signed_owner(mail, tag, "tournament")
        if me is None:
            return
        words = line.split()
        m = await self.reader(mail, me)
        if not words:
            await a.notices.text_reply(mail, no_text_of_your_own(
                m.tr("{join}, {leave} or a command ({help} lists them)", join=m.code("join"),
                     leave=m.code("leave"), help=m.code("help")), m),
                reply_to=a.composer.reply_to("t", tag.id, me.id), signed=True, m=m)
            return
        if words[:1] and words[0].lower() in _TOURNAMENT_ACTS:
            line = "tournament " + line
        try:
            cmd = GRAMMAR.parse(line or "help", in_game=False)
            if cmd.name == "help":
                text = help_text(cmd["command"], m=m)
            else:
                ctx = self.context(me, tournament_id=tag.id or None, m=m)
                text = full_text(await commands_text.execute(cmd, ctx))
                m = await self.reread(cmd, mail, me, m)
        except GrammarError as e:
            text = refusal(e, m) + " " + mail_help_hint(m)
        except ServiceError as e:
            text = refusal(e, m)
        await a.notices.text_reply(mail, text, reply_to=a.composer.reply_to("t", tag.id, me.id),
                                   signed=True, m=m)

    async def tournament_by_plain_mail(self, mail: Incoming, cmd: Command, m: Markup = texts.PLAIN) -> None:
        """``tournament join|leave ID`` at the plain address, where anyone can write any From:
        nothing is done, the sender's address is mailed the way to do it, a reply to that
        mail (whose signed address proves it reached them)."""
        a = self.a
        me = await a.accounts.player_for(mail.sender)
        t = await commands_text.named_tournament(cmd, self.context(me, m=m))
        if cmd["act"] == "join" and t.status != "open":
            raise ServiceError(T("{name} (#{id}) has begun: it takes no more players", name=t.name, id=t.id))
        line = tournament_line(t, m)
        # the sender's own words are never mailed back (the From may be someone else's)
        say = m.code(cmd["act"]) if cmd["act"] in ("join", "leave", "withdraw", "start", "pause", "resume", "close") \
            else m.tr("the whole command ({command})", command=m.code(f"tournament {cmd['act']} {t.id} ..."))
        text = f"{line}\n\n{to_do_it(cmd['act'], say, m)} {signed_for_you(m)}"
        await a.notices.text_reply(mail, text, reply_to=a.composer.reply_to("t", t.id, me.id), m=m)

    async def challenge_by_plain_mail(self, mail: Incoming, cmd: Command, m: Markup = texts.PLAIN) -> None:
        """A challenge at the plain address from an address no signed reply has come from
        yet: nothing is done (a From header alone never starts a challenge: 25 forged
        senders would be 25 challenges to one person); the sender's address is mailed the
        way, a reply to that mail (signed: a reply shows it reached them)."""
        a = self.a
        me = await a.accounts.player_for(mail.sender)
        text = (m.tr("To send this challenge, reply to this mail with it on the first line:") + "\n\n"
                f"    {cmd.line.strip()[:200]}\n\n"
                + m.tr("(A mail to the bot's own address could come from anyone: the reply address of this "
                       "one is signed for you, so your reply shows it is you. Once you have answered one of "
                       "the bot's mails, challenges mailed to its own address are sent at once.)"))
        await a.notices.text_reply(mail, text, reply_to=a.composer.reply_to("t", 0, me.id), m=m)

    # --- a mail to the bot's own address ---

    async def plain(self, mail: Incoming, line: str) -> None:
        a = self.a
        # anyone can write any From here: the line is quoted back only once it is a command,
        # never a stranger's chat ("I read: `visit http://...`") mailed in the bot's name
        reply_to, read = None, ""
        known = await a.accounts.player_of(mail.sender)
        m = await self.reader(mail, known)
        try:
            if line.split()[:1] and line.split()[0].lower() == "piece":  # no game implied here
                text, read = piece_of_game(line, m), line
            else:
                try:
                    cmd = GRAMMAR.parse(line or "help", in_game=False)
                except GrammarError:
                    # the body's line is no command (chat: "Hello, how does this work?"): a
                    # subject that is one ("help") is read; else the body's error is said
                    cmd = _command_or_none(mail.subject) if line != mail.subject else None
                    if cmd is None:
                        raise
                read = cmd.line if line else ""  # an empty mail: help, but nothing was read
                if cmd.name == "help":
                    text = help_text(cmd["command"], m=m)
                elif cmd.name in ("accept", "decline"):
                    text = m.tr("Reply {accept} or {decline} to the challenge's own mail.",
                                accept=m.code("accept"), decline=m.code("decline"))
                elif cmd.name == "tournament" and cmd["act"] != "show":
                    await self.tournament_by_plain_mail(mail, cmd, m)
                    return
                elif cmd.name == "challenge" and not await a.accounts.is_proven(mail.sender):
                    await self.challenge_by_plain_mail(mail, cmd, m)
                    return
                elif cmd.name not in _UNSIGNED | {"tournament"}:
                    text = acts_for_a_player(cmd.name, signed=known is not None, m=m)
                else:
                    if known is None:  # a player made now: their first mail's language is theirs
                        known = await a.accounts.player_for(mail.sender)
                        m = await self.reader(mail, known)
                    text = full_text(await commands_text.execute(cmd, self.context(known, m=m)))
        except GrammarError as e:
            text = refusal(e, m) + " " + mail_help_hint(m)
        except ServiceError as e:
            text = refusal(e, m)
        if known is not None:
            # the answer goes to that address alone, so its reply address, signed for the
            # address's player, is read only by them (as a game mail's is): a reply to it acts
            # for them (`t0`: about no game; it takes tournament join ID too). A stranger's
            # address gets no player made for it, and an answer with no signed address.
            reply_to = a.composer.reply_to("t", 0, known.id)
        await a.notices.text_reply(mail, text, reply_to=reply_to, read=read, m=m)


def to_do_it(act: str, say: str, m: Markup) -> str:
    """"To join it, reply to this mail with join on the first line." (``say``: what to reply)."""
    if act == "join":
        return m.tr("To join it, reply to this mail with {say} on the first line.", say=say)
    if act in ("leave", "withdraw"):
        return m.tr("To leave it, reply to this mail with {say} on the first line.", say=say)
    if act == "start":
        return m.tr("To start it, reply to this mail with {say} on the first line.", say=say)
    if act == "pause":
        return m.tr("To pause it, reply to this mail with {say} on the first line.", say=say)
    if act == "resume":
        return m.tr("To resume it, reply to this mail with {say} on the first line.", say=say)
    if act == "close":
        return m.tr("To close it, reply to this mail with {say} on the first line.", say=say)
    return m.tr("To do it ({act}), reply to this mail with {say} on the first line.", act=m.code(act), say=say)


def signed_for_you(m: Markup = texts.PLAIN) -> str:
    return m.tr("(A mail to the bot's own address could come from anyone: the reply address of this "
                "one is signed for you, so your reply shows it is you.)")


def acts_for_a_player(command: str, *, signed: bool, m: Markup = texts.PLAIN) -> str:
    """The answer to a command that acts for a player (a vacation, a block) mailed to the
    plain address, whose From proves nothing; ``signed``: this answer's reply address is
    signed for the sender's player, so a reply to it does it."""
    if signed:
        return m.tr("{command} acts for you, and a mail to the bot's own address could come from "
                    "anyone: reply to this mail with it on the first line (its reply address is "
                    "signed for you, so your reply shows it is you), or put it in a reply to one of "
                    "your game mails.", command=m.code(command))
    return (m.tr("{command} is done in a reply to one of your game mails (its signed reply address "
                 "shows the mail is yours).", command=m.code(command)) + " " + mail_help_hint(m))


def _command_or_none(text: str) -> Command | None:
    try:
        return GRAMMAR.parse(text, in_game=False) if text.strip() else None
    except GrammarError:
        return None


def piece_of_game(line: str, m: Markup = texts.PLAIN) -> str:
    """``piece GAME NAME`` (at the plain address no game is implied): what the piece does;
    GrammarError if the game or the piece is not named (said in the reader's language)."""
    words = line.split()[1:]
    usage = m.tr("{usage} (a game's id, then the piece's name or letter)", usage=m.code("piece GAME NAME"))
    if len(words) < 2:
        raise GrammarError(m.tr("{piece}: which game's piece? Write {usage}; the games are: {games}",
                                piece=m.code("piece"), usage=usage, games=", ".join(rules.variants())))
    try:
        game = resolve_game(words[0])
    except ValueError as e:
        text = getattr(e, "text", None)
        said = m.say(text) if text is not None else str(e)
        raise GrammarError(m.tr("{problem}. Write {usage}", problem=said, usage=usage)) from None
    g = rules.game(game)
    return piece_text(g, find_piece(g, " ".join(words[1:])), m, WIDTH)


def already_played(view, ply: int, player_id: int, text: str) -> bool:
    """Whether the move after ``ply`` is this player's and reads as ``text``: a mail acted on
    whose "handled" mark a crash lost, handled again."""
    if len(view.moves) <= ply:
        return False
    done = view.moves[ply]
    typed = text.strip().rstrip("+#!?")
    return done.player_id == player_id and typed in (done.san.rstrip("+#!?"), done.lan)


def full_text(reply) -> str:
    """A reply's text, and what a chat would attach as a file (a mail has room for it)."""
    return reply.text + (f"\n\n{reply.attachment[1]}" if reply.attachment else "")


def piece_moves(pos, text: str, m: Markup = texts.PLAIN) -> str:
    """The legal moves of the piece a refused move named: from its first square when it
    names two (bot/operations/square_moves.py's words), else those of the same piece letter (or file,
    for a pawn); none for a line refused as several moves (issue #41)."""
    text = tidy(text)  # read as the engine read it: 1. e4, *e5*, e2 – e4
    if several_moves(text):
        return ""
    squares = _SQUARE.findall(text.strip().lower())
    if len(squares) >= 2:
        try:
            return texts.square_moves_text(square_moves(pos, squares[0]), m)
        except ServiceError:
            return ""
    first = text.strip()[:1]
    if not first.isalpha():
        return ""
    try:
        sans = sorted(san for san in map(pos.san, pos.legal_moves()) if san[:1] == first)
    except Exception:  # noqa: BLE001 - a hint only
        return ""
    if first.isupper():
        ptype = pos.game.types.get(first)
        if ptype:
            label = " / ".join(m.data(n) for n in (ptype.side_names or (ptype.name,)))
            if not sans:
                return m.tr("Your {piece} ({letter}): no legal move.", piece=label, letter=first)
            return m.trn("{n} move of your {piece} ({letter}): {moves}",
                         "{n} moves of your {piece} ({letter}): {moves}", len(sans), piece=label,
                         letter=first, moves=" ".join(sans))
        if not sans:
            return m.tr("Your {letter} pieces: no legal move.", letter=first)
        return m.trn("{n} move of your {letter} pieces: {moves}", "{n} moves of your {letter} pieces: {moves}",
                     len(sans), letter=first, moves=" ".join(sans))
    if not sans:  # as square_moves_text says
        return m.tr("Pawns on the {file} file: no legal move.", file=first)
    return m.trn("{n} move of pawns on the {file} file: {moves}", "{n} moves of pawns on the {file} file: {moves}",
                 len(sans), file=first, moves=" ".join(sans))
