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
from bot.words.text import Markup
from bot.words.textboard import text_board
from bot.words.timetext import time_left

from . import tokens

WIDTH = 72



def mail_help(m: Markup = texts.PLAIN) -> str:
    """How to play by mail, wrapped at WIDTH, in the reader's language; the commands a
    player types stay as typed (values, never translated)."""
    games = rules.variants()
    # the example names a game this server has (no game is named in bot/)
    example = f"challenge {games[0] if games else 'GAME'} bob@example.org"
    def kept(code: str) -> str:  # a command is never cut over two lines
        return m.code(code).replace(" ", "\xa0")
    said = m.tr(
        "By mail: reply to a game's mail with a move or a command on its first line (the rest of "
        "the mail, quoted text and signature, is not read). Mail the bot's own address (not a "
        "reply) with {commands} ({example}), or {join} (or {leave}): the answer to that is a "
        "mail to reply {join_alone} (or {leave_alone}) to. Reply {accept} or {decline} to a "
        "challenge's mail. What acts for you (a vacation, a block, joining a tournament) goes in "
        "a reply to one of your game mails or of the bot's tournament mails, which shows it is "
        "yours.",
        commands=", ".join(kept(c) for c in ("help", "games", "rules GAME", "ratings", "piece GAME NAME",
                                             "challenge GAME ADDRESS [days N]", "tournaments")),
        example=kept(example), join=kept("tournament join ID"), leave=kept("leave ID"),
        join_alone=m.code("join"), leave_alone=m.code("leave"), accept=m.code("accept"),
        decline=m.code("decline"))
    return (textwrap.fill(said, 90, break_on_hyphens=False).replace("\xa0", " ") + "\n"
            + m.tr("Games: {games}", games=", ".join(games)))


def help_text(command: str | None = None, *, m: Markup = texts.PLAIN) -> str:
    """How to play by mail, then the typed commands (those bot/commands/run.py runs), in
    the reader's language (``m``)."""
    from bot.commands.run import typed_grammar
    if command is not None:
        return texts.help_text(typed_grammar(), m, command)
    return mail_help(m) + "\n\n" + texts.help_text(typed_grammar(), m) + "\n"


game_name = texts.game_name
side_name = texts.side_name


def result_line(view, m: Markup = texts.PLAIN) -> str:
    return texts.result_text(view.game, view.white, view.black, view.result, view.reason,
                             m) + "."  # not capitalised: it may begin with a name


def move_list(view, m: Markup = texts.PLAIN) -> str:
    """'1. e4 e5 2. Nf3' (set-up actions numbered like moves)."""
    parts = []
    for i, m in enumerate(view.moves):
        if i % 2 == 0:
            parts.append(f"{i // 2 + 1}.")
        parts.append(m.san)
    return textwrap.fill(" ".join(parts), WIDTH) if parts else m.tr("(no moves yet)")


def game_subject(view, m: Markup = texts.PLAIN) -> str:
    """Short: "fairypost" (how the bot's subjects begin, parse.BOT_SUBJECT_PREFIX), the
    game, the players."""
    return "fairypost " + m.tr("game {id}: {game}, {white} - {black}", id=view.id,
                               game=m.data(game_name(view.game)), white=view.white.name,
                               black=view.black.name)


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
             picture: tuple[str, str] = ("board.png", "the board"), lang_code: str | None = None) -> EmailMessage:
        """A mail; with ``png``, also an HTML version showing that picture above the text
        (``picture``: its file name and its words for those who cannot see it, said
        already in the reader's language); ``lang_code``: that language, said in
        Content-Language (and the HTML's lang)."""
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
            m.add_alternative(board_html(text, cid, alt, lang_code or "en"), subtype="html")
            m.get_payload()[1].add_related(png, maintype="image", subtype="png", cid=cid,
                                           filename=name, disposition="inline")
        if lang_code:  # last: set_content and add_alternative move Content-* headers into parts
            m["Content-Language"] = lang_code
        return m

    def game_mail(self, to: str, view, player_id: int, text: str, *, key: str,
                  png: bytes | None = None, first: bool = False,
                  answering: tuple[str | None, tuple[str, ...]] | None = None,
                  m: Markup = texts.PLAIN) -> EmailMessage:
        """A mail about a game, in its thread, with a reply address signed for the board
        it shows (the game's current ply). ``first``: the thread's first mail."""
        root = self.thread_root(view.id, player_id)
        if answering and answering[0]:  # the answer to a player's mail
            in_reply_to, refs = answering[0], tuple(dict.fromkeys((root, *answering[1], answering[0])))
            if first:  # the thread's first mail (the accepter's) refers to no root: it is the root
                refs = tuple(r for r in refs if r != root)
        else:
            in_reply_to, refs = (None, ()) if first else (root, (root,))
        return self.mail(to, game_subject(view, m), text, key=key,
                         reply_to=self.reply_to("g", view.id, player_id, view.ply),
                         in_reply_to=in_reply_to, references=refs,
                         message_id=root if first else None, png=png,
                         picture=("board.png", m.tr("the board")), lang_code=m.lang.code)


def board_html(text: str, cid: str, alt: str = "the board", lang_code: str = "en") -> str:
    """The mail's text under the picture (the board, a crosstable): every word escaped
    (names are the players'), the text board kept in columns."""
    return (f'<html lang="{texts.HTML.escape(lang_code)}"><body><p><img src="cid:{cid.strip("<>")}" '
            f'alt="{texts.HTML.escape(alt)}" '
            'style="max-width: 100%; height: auto" width="480"></p>'
            f'<pre style="font-family: monospace">{texts.HTML.escape(text)}</pre></body></html>\n')


def board_text(view, pos, player_id: int, note: str = "", link: str = "", *,
               m: Markup = texts.PLAIN) -> str:
    """Everything a player needs to move: what happened, the board as text, the last move,
    all the moves, whose move and the time left, what to reply; in the reader's language
    (``m``)."""
    side = view.side_of(player_id)
    white, black = m.data(side_name(view.game, "w")), m.data(side_name(view.game, "b"))
    lines = [note] if note else []
    lines += [m.tr("{game}: {white} ({white_side}) vs {black} ({black_side}), game {id}.",
                   game=m.data(game_name(view.game)), white=view.white.name, white_side=white,
                   black=view.black.name, black_side=black, id=view.id), ""]
    lines.append(text_board(pos, flip=side == "b"))
    lines.append("")
    if view.moves:
        last = view.moves[-1]
        lines.append(m.tr("Last move: {move} ({side})", move=last.san,
                          side=m.data(side_name(view.game, last.side))))
    lines += [m.tr("Moves:"), move_list(view, m), ""]
    if view.status != "active":
        lines.append(result_line(view, m))
    else:
        to_move = view.to_move
        mine = to_move is not None and to_move.id == player_id
        turn = m.data(side_name(view.game, view.turn))
        left = time_left(view.seconds_left, m.lang) if view.days is not None else None
        if mine:
            lines.append(m.tr("It is your move ({side}); {left} left.", side=turn, left=left)
                         if left else m.tr("It is your move ({side}) (no clock).", side=turn))
        else:
            name = to_move.name if to_move else ""
            lines.append(m.tr("It is {name}'s move ({side}); {left} left.", name=name, side=turn, left=left)
                         if left else m.tr("It is {name}'s move ({side}) (no clock).", name=name, side=turn))
        if view.in_check:
            lines.append(m.tr("Check!"))
        if view.draw_offer and view.draw_offer != side:
            lines.append(m.tr("Your opponent offers a draw: reply {draw} to accept, {decline} to decline.",
                              draw=m.code("draw"), decline=m.code("decline")))
        if view.takeback_by and view.takeback_by != side:
            lines.append(m.tr("Your opponent asks to take back the last move: reply {takeback} to "
                              "agree, {decline} to refuse.", takeback=m.code("takeback"),
                              decline=m.code("decline")))
        if mine:
            lines.append(m.tr("Reply to this mail with your move on the first line (e.g. {example}), "
                              "or a command: {commands}.", example=m.code(_example(pos)),
                              commands=", ".join(m.code(c) for c in (
                                  "board", "moves SQUARE", "draw", "takeback", "resign", "games", "help"))))
        else:
            lines.append(m.tr("You will get a mail when it is your move."))
    if link:
        lines += ["", m.tr("Game page: {link}", link=link)]
    return "\n".join(lines) + "\n"


def _example(pos) -> str:
    """A legal move of the position, as the example of what to reply."""
    try:
        legal = pos.legal_moves()
        return pos.san(legal[len(legal) // 2]) if legal else "e4"
    except Exception:  # noqa: BLE001 - an example only
        return "e4"
