"""The mails the bot writes: headers (From, To, Reply-To with its signed token, Subject,
threading), the text, and the board as an inline PNG. Plain text, so nothing a player
typed can become markup; the text board is the terminal's."""

from __future__ import annotations

import hashlib
import textwrap
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid

import rules
from bot.words import text as texts
from bot.words.textboard import text_board
from bot.words.timetext import time_left

from . import tokens

WIDTH = 72

MAIL_HELP = """\
By mail: reply to a game's mail with a move or a command on its first line (the rest of
the mail, quoted text and signature, is not read). Mail the bot's own address (not a reply)
with help, games, rules GAME, ratings, piece GAME NAME, or challenge GAME ADDRESS [days N]
(challenge {example} bob@example.org), tournaments, or tournament join ID (or leave ID): the
answer to that is a mail to reply join (or leave) to. Reply accept or decline to a
challenge's mail. What acts for you (a vacation, a block, joining a tournament) goes in a
reply to one of your game mails or of the bot's tournament mails, which shows it is yours.
Games: """


def help_text(command: str | None = None) -> str:
    """How to play by mail, then the typed commands (those bot/commands/run.py runs)."""
    from bot.commands.run import typed_grammar
    if command is not None:
        return texts.help_text(typed_grammar(), texts.PLAIN, command)
    games = rules.variants()
    # the example names a game this server has (no game is named in bot/)
    return (MAIL_HELP.format(example=games[0] if games else "GAME") + ", ".join(games) + "\n\n"
            + texts.help_text(typed_grammar(), texts.PLAIN) + "\n")


game_name = texts.game_name
side_name = texts.side_name


def result_line(view) -> str:
    return texts.result_text(view.game, view.white, view.black, view.result, view.reason,
                             texts.PLAIN) + "."  # not capitalised: it may begin with a name


def move_list(view) -> str:
    """'1. e4 e5 2. Nf3' (set-up actions numbered like moves)."""
    parts = []
    for i, m in enumerate(view.moves):
        if i % 2 == 0:
            parts.append(f"{i // 2 + 1}.")
        parts.append(m.san)
    return textwrap.fill(" ".join(parts), WIDTH) if parts else "(no moves yet)"


def game_subject(view) -> str:
    return (f"fairypost game {view.id}: {game_name(view.game)}, "
            f"{view.white.name} - {view.black.name}")


class Composer:
    """Makes the bot's mails, all From the bot's address."""

    def __init__(self, bot_address: str, secret: bytes, settings=None):
        self.bot_address = bot_address
        self.domain = bot_address.split("@", 1)[1]
        self.secret = secret
        self.settings = settings

    def reply_to(self, kind: str, thing_id: int, player_id: int, ply: int = 0) -> str:
        return tokens.reply_address(self.bot_address, self.secret, kind, thing_id, player_id, ply)

    def message_id(self, key: str) -> str:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        return f"<fairypost.{digest}@{self.domain}>"

    def thread_root(self, game_id: int, player_id: int) -> str:
        """The Message-ID every mail of one game to one player refers to: one thread."""
        return f"<fairypost.g{int(game_id)}.p{int(player_id)}@{self.domain}>"

    def mail(self, to: str, subject: str, text: str, *, key: str, reply_to: str | None = None,
             in_reply_to: str | None = None, references: tuple[str, ...] = (),
             message_id: str | None = None, png: bytes | None = None,
             picture: tuple[str, str] = ("board.png", "the board")) -> EmailMessage:
        """A mail; with ``png``, also an HTML version showing that picture above the text
        (``picture``: its file name and its words for those who cannot see it)."""
        m = EmailMessage()
        m["From"] = formataddr(("fairypost", self.bot_address))
        m["To"] = to
        m["Subject"] = subject
        m["Date"] = formatdate(localtime=False, usegmt=True)
        m["Message-ID"] = message_id or self.message_id(key)
        if reply_to:
            m["Reply-To"] = reply_to
        if in_reply_to:
            m["In-Reply-To"] = in_reply_to
        if references:
            m["References"] = " ".join(references)
        m["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
        m.set_content(text)
        if png is not None:  # an HTML version showing the picture in the mail, the text beside it
            name, alt = picture
            cid = make_msgid(name.split(".")[0], self.domain)
            m.add_alternative(board_html(text, cid, alt), subtype="html")
            m.get_payload()[1].add_related(png, maintype="image", subtype="png", cid=cid,
                                           filename=name, disposition="inline")
        return m

    def game_mail(self, to: str, view, player_id: int, text: str, *, key: str,
                  png: bytes | None = None, first: bool = False,
                  answering: tuple[str | None, tuple[str, ...]] | None = None) -> EmailMessage:
        """A mail about a game, in its thread, with a reply address signed for the board
        it shows (the game's current ply). ``first``: the thread's first mail."""
        root = self.thread_root(view.id, player_id)
        if answering and answering[0]:  # the answer to a player's mail
            in_reply_to, refs = answering[0], tuple(dict.fromkeys((root, *answering[1], answering[0])))
            if first:  # the thread's first mail (the accepter's) refers to no root: it is the root
                refs = tuple(r for r in refs if r != root)
        else:
            in_reply_to, refs = (None, ()) if first else (root, (root,))
        return self.mail(to, game_subject(view), text, key=key,
                         reply_to=self.reply_to("g", view.id, player_id, view.ply),
                         in_reply_to=in_reply_to, references=refs,
                         message_id=root if first else None, png=png)


def board_html(text: str, cid: str, alt: str = "the board") -> str:
    """The mail's text under the picture (the board, a crosstable): every word escaped
    (names are the players'), the text board kept in columns."""
    return (f'<html><body><p><img src="cid:{cid.strip("<>")}" alt="{alt}" '
            'style="max-width: 100%; height: auto" width="480"></p>'
            f'<pre style="font-family: monospace">{texts.HTML.escape(text)}</pre></body></html>\n')


def board_text(view, pos, player_id: int, note: str = "", link: str = "") -> str:
    """Everything a player needs to move: what happened, the board as text, the last move,
    all the moves, whose move and the time left, what to reply."""
    side = view.side_of(player_id)
    lines = [note] if note else []
    lines += [f"{game_name(view.game)}: {view.white.name} ({side_name(view.game, 'w')}) "
              f"vs {view.black.name} ({side_name(view.game, 'b')}), game {view.id}.", ""]
    lines.append(text_board(pos, flip=side == "b"))
    lines.append("")
    if view.moves:
        lines.append(f"Last move: {view.moves[-1].san} ({side_name(view.game, view.moves[-1].side)})")
    lines += ["Moves:", move_list(view), ""]
    if view.status != "active":
        lines.append(result_line(view))
    else:
        to_move = view.to_move
        mine = to_move is not None and to_move.id == player_id
        who = "your move" if mine else f"{to_move.name}'s move" if to_move else ""
        clock = (f"; {time_left(view.seconds_left)} left" if view.days is not None else
                 " (no clock)")
        lines.append(f"It is {who} ({side_name(view.game, view.turn)}){clock}.")
        if view.in_check:
            lines.append("Check!")
        if view.draw_offer and view.draw_offer != side:
            lines.append("Your opponent offers a draw: reply draw to accept, decline to decline.")
        if view.takeback_by and view.takeback_by != side:
            lines.append("Your opponent asks to take back the last move: reply takeback to "
                         "agree, decline to refuse.")
        if mine:
            lines.append("Reply to this mail with your move on the first line (e.g. "
                         f"{_example(pos)}), or a command: board, moves SQUARE, draw, takeback, "
                         "resign, games, help.")
        else:
            lines.append("You will get a mail when it is your move.")
    if link:
        lines += ["", f"Game page: {link}"]
    return "\n".join(lines) + "\n"


def _example(pos) -> str:
    """A legal move of the position, as the example of what to reply."""
    try:
        legal = pos.legal_moves()
        return pos.san(legal[len(legal) // 2]) if legal else "e4"
    except Exception:  # noqa: BLE001 - an example only
        return "e4"
