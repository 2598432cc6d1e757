"""The bot's words, once, for every adapter: notices, status and result lines, game lists,
challenges and the commands' help. Each function takes a :class:`Markup` (``PLAIN`` for
the terminal, ``DISCORD`` for Discord's markdown, ``HTML`` for mail) that marks words up
and escapes user text (names, typed moves): an adapter adds only its own trimmings (an
embed, a colour, a mention), never its own wording.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from functools import cache

import rules
from language import ENGLISH, Language, T, Text, language

from ..delivery import events as ev
from .timetext import time_left

# --- markup -----------------------------------------------------------------------------

class Markup:
    """Plain text; the base of the others. Every method takes text as users wrote it (or
    the engine: a move, a game's name) and escapes it; ``raw=True`` takes text already
    marked up. ``list`` and ``lines`` take marked-up items."""

    name = "plain"
    bullet = "- "
    #: the reader's language: ``in_language`` gives this markup for another reader
    lang: Language = ENGLISH

    def in_language(self, code: Language | str | None) -> Markup:
        """This markup, for a reader of ``code`` ("fr"; None or unknown: English)."""
        lang = code if isinstance(code, Language) else language(code)
        if lang is self.lang:
            return self
        key = (type(self), lang.code)
        if key not in _IN_LANGUAGE:
            copy = object.__new__(type(self))
            copy.__dict__.update(self.__dict__)
            copy.lang = lang
            _IN_LANGUAGE[key] = copy
        return _IN_LANGUAGE[key]

    def tr(self, msgid: str, /, **params) -> str:
        """A sentence in the reader's language; ``params`` as marked up already (escape
        what users wrote: ``self.bold(name)``, ``self.escape(text)``)."""
        return self.lang.tr(msgid, **params)

    def trn(self, singular: str, plural: str, n: int, /, **params) -> str:
        return self.lang.trn(singular, plural, n, **params)

    def data(self, text: str) -> str:
        """A game's, a piece's or a side's name (or a rule) from its data file, in the
        reader's language (not escaped: mark it up, ``self.bold(self.data(name))``)."""
        return self.lang.data(text)

    def say(self, text: Text | str) -> str:
        """A ``Text`` (a refusal from the service, a reason from the rules) in the reader's
        language, its values escaped; a plain str escaped."""
        return self.lang.say(text, self.escape)

    def escape(self, text: str) -> str:
        return str(text)

    def _m(self, text: str, raw: bool) -> str:
        return str(text) if raw else self.escape(text)

    def bold(self, text: str, *, raw: bool = False) -> str:
        return self._m(text, raw)

    def italic(self, text: str, *, raw: bool = False) -> str:
        return self._m(text, raw)

    def code(self, text: str) -> str:
        return self.escape(text)

    def link(self, text: str, url: str) -> str:
        return url if text == url else f"{self.escape(text)} ({url})"

    def lines(self, items) -> str:
        return "\n".join(items)

    def list(self, items) -> str:
        return self.lines(self.bullet + i for i in items)

    def when(self, moment: datetime) -> str:
        """A moment, for a reader anywhere: in UTC, as the reader's language writes dates."""
        if self.lang is ENGLISH:
            return f"{moment.astimezone(UTC):%a %d %b %Y %H:%M} UTC"
        return self.lang.tr("{moment} UTC", moment=self.lang.moment(moment, UTC))


# Markdown that could change how user text reads: emphasis, code, spoilers, masked links
# ([text](url)), mentions and custom emoji (<...>) anywhere; quotes, headings and lists at
# the start of a line. A backslash makes each of them literal.
# Two passes: a translation (a Python call per match took 58 ms for 100 KB of backticks),
# then the line starts, whose indent is a line's own ([^\S\n]: blanks but the line break):
# "\s*" ran on over every line break after a line's start, and 100 KB of them took 89 s
# (issue 40). (A function is quicker than a template here, in Python 3.11.)
_MARKDOWN_ANYWHERE = str.maketrans({c: "\\" + c for c in "\\*_~`|<[]"})
_MARKDOWN_LINE_START = re.compile(r"^([^\S\n]*)([#>-])", re.MULTILINE)


def _line_start_escaped(m: re.Match) -> str:
    return m[1] + "\\" + m[2]


class DiscordMarkup(Markup):
    """Discord's markdown. Escaped text stays literal, and no mention can form in it (a
    zero-width space after every @). Moments are Discord timestamps (the reader's zone)."""

    name = "discord"
    bullet = "· "

    def escape(self, text: str) -> str:
        text = str(text).translate(_MARKDOWN_ANYWHERE)
        return _MARKDOWN_LINE_START.sub(_line_start_escaped, text).replace("@", "@\u200b")

    def bold(self, text: str, *, raw: bool = False) -> str:
        return f"**{self._m(text, raw)}**"

    def italic(self, text: str, *, raw: bool = False) -> str:
        return f"*{self._m(text, raw)}*"

    def code(self, text: str) -> str:
        return "`" + str(text).replace("`", "\u02cb") + "`"

    def link(self, text: str, url: str) -> str:
        return url if text == url else f"[{self.escape(text)}]({url})"

    def when(self, moment: datetime) -> str:
        t = int(moment.timestamp())
        return f"<t:{t}:f> (<t:{t}:R>)"


class HtmlMarkup(Markup):
    """HTML, for mail: every text escaped, lines broken with <br>."""

    name = "html"

    def escape(self, text: str) -> str:
        return html.escape(str(text), quote=True)

    def bold(self, text: str, *, raw: bool = False) -> str:
        return f"<b>{self._m(text, raw)}</b>"

    def italic(self, text: str, *, raw: bool = False) -> str:
        return f"<i>{self._m(text, raw)}</i>"

    def code(self, text: str) -> str:
        return f"<code>{self.escape(text)}</code>"

    def link(self, text: str, url: str) -> str:
        return f'<a href="{html.escape(url, quote=True)}">{self.escape(text)}</a>'

    def lines(self, items) -> str:
        return "<br>\n".join(items)

    def list(self, items) -> str:
        return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


_IN_LANGUAGE: dict[tuple[type, str], Markup] = {}
PLAIN = Markup()
DISCORD = DiscordMarkup()
HTML = HtmlMarkup()


# --- games, sides, players ----------------------------------------------------------------

#: how a game ended, after "wins" or "Drawn" (a Text each: said in the reader's language)
REASON_PHRASES = {
    "checkmate": T("by checkmate"), "stalemate": T("by stalemate"), "resignation": T("by resignation"),
    "time": T("on time"), "agreement": T("by agreement"),
    "threefold repetition": T("by threefold repetition"), "100-ply rule": T("by the 100-ply rule"),
    "adjudication": T("by adjudication (the engine's evaluation at the round's deadline)"),
}
#: the same in English, for callers of before (#44)
REASONS = {k: str(v) for k, v in REASON_PHRASES.items()}
#: how a game ended, as a word in brackets: "1-0 (checkmate)"
REASON_NAMES = {
    "checkmate": T("checkmate"), "stalemate": T("stalemate"), "resignation": T("resignation"),
    "time": T("time"), "agreement": T("agreement"), "threefold repetition": T("threefold repetition"),
    "100-ply rule": T("100-ply rule"), "adjudication": T("adjudication"), "aborted": T("aborted"),
}


def reason_phrase(reason: str | None, m: Markup = PLAIN) -> str:
    """'by checkmate', in the reader's language; an unknown reason in brackets; '' for none."""
    if reason in REASON_PHRASES:
        return m.say(REASON_PHRASES[reason])
    return f"({m.escape(reason)})" if reason else ""


def reason_name(reason: str | None, m: Markup = PLAIN) -> str:
    """'checkmate', in the reader's language (an unknown reason as it is, escaped)."""
    if reason in REASON_NAMES:
        return m.say(REASON_NAMES[reason])
    return m.escape(reason or "")


@cache
def _game_name(game: str) -> str:
    try:
        return rules.game(game).name
    except Exception:  # noqa: BLE001 - an unknown id still gets a name
        return game


def game_name(game: str, m: Markup = PLAIN) -> str:
    """A game's name from its data file, in the reader's language (not escaped)."""
    return m.data(_game_name(game))


def points_text(points: float) -> str:
    """3, 3½, ½: a score as a crosstable writes it."""
    whole, half = int(points), points - int(points) >= 0.5
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def ordinal(n: int, m: Markup = PLAIN) -> str:
    """'1st', '22nd' ('1er', '22e'; '1.', '22.')."""
    if n == 1:
        return m.tr("1st")
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return m.tr("{n}th", n=n)
    if n % 10 == 1:
        return m.tr("{n}st", n=n)
    return m.tr("{n}nd", n=n) if n % 10 == 2 else m.tr("{n}rd", n=n)


def side_name(game: str, side: str, m: Markup = PLAIN) -> str:
    """A side's name in the game's data ('White', or the game's own), in the reader's language."""
    try:
        return m.data(rules.game(game).side_names[0 if side == "w" else 1])
    except Exception:  # noqa: BLE001
        return m.tr("White") if side == "w" else m.tr("Black")


def other(side: str) -> str:
    return "b" if side == "w" else "w"


def days_text(days: int | None, m: Markup = PLAIN) -> str:
    if days is None:
        return m.tr("no clock")
    return m.trn("{n} day per move", "{n} days per move", days)


def colour_text(colour: str, game: str, m: Markup = PLAIN) -> str:
    if colour == "random":
        return m.tr("colours by lot")
    return m.tr("plays {side}", side=side_name(game, "w" if colour == "white" else "b", m))


def who_plays(colour: str, game: str, challenger: str, m: Markup = PLAIN) -> str:
    """The challenger's colour: 'Ann plays White', 'you play Black' (``challenger`` marked
    up, or 'you'), or 'colours by lot'."""
    if colour == "random":
        return m.tr("colours by lot")
    side = side_name(game, "w" if colour == "white" else "b", m)
    if challenger == "you":
        return m.tr("you play {side}", side=side)
    return m.tr("{player} plays {side}", player=challenger, side=side)


def player_of(view, side: str) -> ev.PlayerRef:
    return view.white if side == "w" else view.black


def who(view, side: str, m: Markup, *, always_side: bool = True) -> str:
    """A player in bold with their side: '**Ann** (White)'; without ``always_side``, a
    name that is the side's own ('White') is not said twice, and is the side's name in the
    reader's language (two players at one keyboard are named after their sides)."""
    p, label = player_of(view, side), side_name(view.game, side, m)
    if not always_side and p.name.casefold() in (label.casefold(), side_name(view.game, side).casefold()):
        return m.bold(label)
    return f"{m.bold(p.name)} ({label})"


def title(view, m: Markup = PLAIN) -> str:
    """'Game #3 · Chess' (not escaped: the caller marks it up)."""
    return m.tr("Game #{id} · {game}", id=view.id, game=game_name(view.game, m))


def rating_of(game, side: str) -> str | None:
    """The player's rating shown beside their name ('1523', '1500?': provisional) in a
    ``GameView`` or ``GameSummary``; None against the computer."""
    return getattr(game, "white_rating" if side == "w" else "black_rating", None)


def rated_name(game, side: str, m: Markup, *, bold: bool = False) -> str:
    """A player's name with their rating beside it: 'Alice 1523'."""
    p = player_of(game, side)
    rating = rating_of(game, side)
    shown = m.bold(p.name) if bold else m.escape(p.name)
    return f"{shown} {rating}" if rating else shown


def players_line(view, m: Markup) -> str:
    """'**Alice** 1523 (White) vs **Bob** 1500? (Black)': in a game between people, their
    ratings beside the names (a '?': provisional), and whether the game is casual."""
    if not rating_of(view, "w"):  # against the computer
        return m.tr("{white} vs {black}", white=who(view, "w", m), black=who(view, "b", m))
    def rated(side: str) -> str:
        return f"{rated_name(view, side, m, bold=True)} ({side_name(view.game, side, m)})"
    line = m.tr("{white} vs {black}", white=rated("w"), black=rated("b"))
    return line + ("" if view.rated else " · " + m.tr("casual"))


# --- results and whose turn ---------------------------------------------------------------

def result_text(game: str, white: ev.PlayerRef, black: ev.PlayerRef, result: str | None,
                reason: str | None, m: Markup) -> str:
    how = reason_phrase(reason, m)
    if result in ("1-0", "0-1"):
        p, side = (white, "w") if result == "1-0" else (black, "b")
        if not how:
            return m.tr("{player} ({side}) wins", player=m.bold(p.name), side=side_name(game, side, m))
        return m.tr("{player} ({side}) wins {how}", player=m.bold(p.name), side=side_name(game, side, m), how=how)
    if result == "1/2-1/2":
        return m.tr("Drawn {how}", how=how) if how else m.tr("Drawn")
    return m.tr("The game was aborted")


def over_line(view, m: Markup) -> str:
    """'1-0 · **Ann** (White) wins by checkmate'."""
    return f"{view.result} · {result_text(view.game, view.white, view.black, view.result, view.reason, m)}"


def turn_line(view, m: Markup) -> str:
    """One line: whose move it is and the time left; or how the game ended."""
    if view.status != "active":
        return over_line(view, m)
    mover = who(view, view.turn, m)
    parts = [m.tr("{player} to make the set-up", player=mover) if view.in_setup
             else m.tr("{player} to move", player=mover)]
    parts.append(time_left(view.seconds_left, m.lang) if view.seconds_left is None
                 else m.tr("{time} left", time=time_left(view.seconds_left, m.lang)))
    if view.in_check:
        parts.append(m.tr("check!"))
    if view.draw_offer:
        parts.append(m.tr("{player} offers a draw", player=m.escape(player_of(view, view.draw_offer).name)))
    if view.takeback_by:
        parts.append(m.tr("{player} asks to take back", player=m.escape(player_of(view, view.takeback_by).name)))
    return " · ".join(parts)


def last_move_line(view, m: Markup) -> str | None:
    if not view.moves:
        return None
    last = view.moves[-1]
    return m.tr("{player} played {move}", player=m.escape(player_of(view, last.side).name), move=m.bold(last.san))


def setup_hint(view, m: Markup = PLAIN) -> str | None:
    """The set-up action now due, in the game's own words and the reader's language (not
    escaped); None outside a set-up."""
    if view.status != "active" or not view.in_setup:
        return None
    pos = rules.from_fen(view.game, view.fen)
    hint = pos.game.extension.setup_hint_text(pos)
    return m.lang.say(hint) if hint else None


def board_caption(view, m: Markup, note: str | None = None) -> str:
    """The text with a board: the game, the last move, whose turn and the time left
    (``note``: marked-up text of the adapter's, after the title)."""
    parts = [f"{m.bold(title(view, m))} · {players_line(view, m)}"]
    if note:
        parts.append(note)
    last = last_move_line(view, m)
    if last:
        parts.append(last)
    parts.append(turn_line(view, m))
    hint = setup_hint(view, m)
    if hint:
        parts.append(m.tr("Set-up: choose {action}", action=m.escape(hint)))
    return m.lines(parts)


def sentence(text: str) -> str:
    """Capitalised and ending in a stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def square_moves_text(sm, m: Markup, list_break: str = " ") -> str:
    """What ``moves SQUARE`` answers (``sm``: bot/operations/square_moves.py's ``SquareMoves``):
    '2 moves of the Knight on g1: Nf3 Nh3', with ``list_break`` before the moves (a
    terminal puts them on a line of their own); 'There is no piece on e4.'; 'The Pawn on
    e2 has no legal move.'; or for a piece of the side not to move, what it could do."""
    listed = m.escape(" ".join(sm.sans))
    piece = m.escape(m.data(sm.piece)) if sm.piece else ""
    if sm.as_if:
        owner, mover = m.escape(m.data(sm.owner)), m.escape(m.data(sm.to_move))
        if sm.sans:
            return m.tr("{square} is {owner}'s {piece}; if {owner} were to move, it could go to: {moves} "
                        "(not now: it is {mover}'s move).", square=sm.square, owner=owner, piece=piece,
                        moves=listed, mover=mover)
        return m.tr("{square} is {owner}'s {piece}; if {owner} were to move, it could not move "
                    "(not now: it is {mover}'s move).", square=sm.square, owner=owner, piece=piece, mover=mover)
    if sm.piece is None:
        return m.tr("There is no piece on {square}.", square=sm.square)
    if not sm.sans:
        return m.tr("The {piece} on {square} has no legal move.", piece=piece, square=sm.square)
    return m.trn("{n} move of the {piece} on {square}:{space}{moves}",
                 "{n} moves of the {piece} on {square}:{space}{moves}", len(sm.sans),
                 piece=piece, square=sm.square, space=list_break, moves=listed)


def status_text(view, m: Markup, setup: str | None = None) -> str:
    """The state of a game in sentences (the terminal's line under its board): the last
    move, who is to move or to make the set-up (``setup``: what to choose), the time and
    any draw offer; or how the game ended."""
    if view.status == "aborted":
        return m.tr("The game was aborted.")
    if view.status != "active":
        if view.result == "1/2-1/2":
            return m.tr("Game over: a draw ({reason}).", reason=reason_name(view.reason, m))
        winner = "w" if view.result == "1-0" else "b"
        return m.tr("Game over: {result}, {player} wins ({reason}).", result=view.result,
                    player=who(view, winner, m, always_side=False), reason=reason_name(view.reason, m))
    parts = []
    if view.moves:
        last = view.moves[-1]
        parts.append(m.tr("Last move: {move} ({side}).", move=m.bold(last.san),
                          side=side_name(view.game, last.side, m)))
    mover = who(view, view.turn, m, always_side=False)
    if view.in_setup:
        action = m.escape(setup or setup_hint(view, m) or m.tr("a set-up action"))
        parts.append(sentence(m.tr("Set-up: {player} to choose {action}", player=mover, action=action)))
    elif view.in_check:
        parts.append(m.tr("{player} to move, in check.", player=mover))
    else:
        parts.append(m.tr("{player} to move.", player=mover))
    if view.deadline is not None:
        parts.append(m.tr("Time: {time} left, until {moment}.", time=time_left(view.seconds_left, m.lang),
                          moment=m.when(view.deadline)))
    if view.draw_offer:
        parts.append(m.tr("{side} offers a draw.", side=side_name(view.game, view.draw_offer, m)))
    return " ".join(parts)


# --- game lists and challenges ------------------------------------------------------------

def game_line(s, m: Markup) -> str:
    """One of the player's games (a ``GameSummary``): '#3 <game> vs Ann 1523: your move'
    (beside the opponent's name their rating, in a game between people)."""
    if s.status != "active":
        state = f"{s.result} ({reason_name(s.reason, m)})"
    elif s.my_move:
        state = (m.tr("your move") if s.seconds_left is None
                 else m.tr("your move, {time} left", time=time_left(s.seconds_left, m.lang)))
    else:
        state = m.tr("{player} to move", player=m.escape(s.opponent.name))
    return m.tr("#{id} {game} vs {opponent}: {state}", id=s.id, game=game_name(s.game, m),
                opponent=rated_name(s, other(s.my_side), m), state=state)


def _open_until(c, m: Markup) -> str | None:
    expires = getattr(c, "expires_at", None)
    return m.tr("open until {moment}", moment=m.when(expires)) if expires else None


def challenge_line(c, me_id: int, m: Markup) -> str:
    """An open challenge in the player's list, and until when it stays open."""
    until = _open_until(c, m)
    game, player = game_name(c.game, m), m.escape(c.challenger.name)
    if c.challenger.id == me_id:
        line = (m.tr("#{id} you challenged {opponent} to {game}", id=c.id, opponent=m.escape(c.opponent.name),
                     game=game) if c.opponent else m.tr("#{id} you challenged anyone to {game}", id=c.id, game=game))
    elif c.opponent:
        line = m.tr("#{id} {player} challenges you to {game}", id=c.id, player=player, game=game)
    else:
        line = m.tr("#{id} {player} challenges anyone to {game}", id=c.id, player=player, game=game)
    return f"{line}, {until}" if until else line


def both_sides_line(s, m: Markup) -> str:
    """A game as an onlooker lists it (a ``GameSummary``): '#3    chess       Ann 1500? v
    Bob 1500?, 4 plies, Ann to move' (the terminal's list, where both players sit)."""
    if s.status == "active":
        name = s.white.name if (s.my_side == "w") == s.my_move else s.black.name
        state = m.tr("{player} to move", player=m.escape(name))
    elif s.status == "aborted":
        state = reason_name("aborted", m)
    else:
        state = f"{s.result} ({reason_name(s.reason, m)})"
    plies = m.trn("{n} ply", "{n} plies", s.ply)
    return f"#{s.id:<4} {s.game:<11} {rated_name(s, 'w', m)} v {rated_name(s, 'b', m)}, {plies}, {state}"


NO_GAMES = "No games yet."


def games_text(summaries, challenges, me_id: int, m: Markup, *, limit: int = 25) -> str:
    """The player's games (their move first: ▶) and open challenges."""
    out = [("▶ " if s.my_move else "· ") + game_line(s, m) for s in summaries[:limit]] or [m.tr("No games yet.")]
    if challenges:
        out += ["", m.tr("Open challenges:")] + [challenge_line(c, me_id, m) for c in challenges[:10]]
    return m.lines(out)


def challenges_text(challenges, me_id: int, m: Markup, *, limit: int = 20) -> str:
    """The open challenges a player may take (to anyone, or to them), wherever they were
    made (Discord, mail, the web's lobby), and how to take one."""
    theirs = [c for c in challenges if c.challenger.id != me_id]
    if not theirs:
        return m.tr("No challenge is open to you now.")
    return m.lines([m.tr("Open challenges ({command} takes one):", command="accept N")] +
                   [f"#{c.id} {m.escape(c.challenger.name)}: {challenge_terms(c, m)}" for c in theirs[:limit]])


def challenge_terms(c, m: Markup, challenger: str | None = None) -> str:
    """What a challenge offers: the game, rated or casual, clock, colour, until when
    (``challenger``: how to name the challenger, marked up; default their name)."""
    terms = [m.bold(game_name(c.game, m)), m.tr("rated") if c.rated else m.tr("casual"), days_text(c.days, m),
             who_plays(c.colour, c.game, challenger or m.escape(c.challenger.name), m)]
    if c.setup == "players":
        terms.append(m.tr("the players make the set-up"))
    if c.expires_at is not None and c.status == "open":
        terms.append(m.tr("open until {moment}", moment=m.when(c.expires_at)))
    return " · ".join(terms)


def challenge_sent_text(c, m: Markup) -> str:
    """The challenger's confirmation: 'Challenge #1 sent to Bob: Chess · rated · ... · you
    play White'."""
    terms = challenge_terms(c, m, "you")
    if c.opponent:
        return m.tr("Challenge #{id} sent to {player}: {terms}.", id=c.id, player=m.bold(c.opponent.name), terms=terms)
    return m.tr("Challenge #{id} sent to anyone (an open challenge): {terms}.", id=c.id, terms=terms)


def challenge_text(c, m: Markup, opponent: str | None = None) -> str:
    """A challenge as its opponent reads it: who, what, rated or casual, clock, colour,
    until when (``opponent``: how the adapter names them)."""
    what = challenge_terms(c, m)
    if c.opponent is None:
        return m.lines([m.tr("{player} offers an open challenge (#{id}): {terms}", player=m.bold(c.challenger.name),
                             id=c.id, terms=what), m.tr("Anyone may accept.")])
    return m.tr("{opponent}, {player} challenges you (#{id}): {terms}", opponent=opponent or m.bold(c.opponent.name),
                player=m.bold(c.challenger.name), id=c.id, terms=what)


# --- notices (the service's events) ---------------------------------------------------------

def mail_stopped_text(address: str, bounces: int, retry_at: datetime, linked: bool,
                      m: Markup) -> str:
    """What a player whose mail stopped reads on the game page (their only other route when
    they play by mail alone): what happened and how to get mail again."""
    board, when = m.code("board"), m.when(retry_at)
    again = (m.tr("To get mail there again, link it again ({command} in Discord), or reply from that address "
                  "to any mail the bot sent you (a reply saying {board} will do); otherwise the bot tries it "
                  "once more after {moment}.", command="/settings email", board=board, moment=when) if linked else
             m.tr("To get mail there again, reply from that address to any mail the bot sent you (a reply "
                  "saying {board} will do); otherwise the bot tries it once more after {moment}.",
                  board=board, moment=when))
    return " ".join([m.bold(m.tr("The bot no longer mails you at {address}.", address=address)),
                     m.trn("{n} mail to it bounced, so it may be wrong, full or closed.",
                           "{n} mails to it bounced, so it may be wrong, full or closed.", bounces),
                     m.tr("You can still play here."), again])


def _points(points: float, m: Markup) -> str:
    """'3½ points', '1 point'."""
    # the count that picks the form: a half counts down below one ("½ point" in French, whose
    # singular runs below two; "½ points" in English, whose 0 is plural), up above it
    count = int(points) if points < 1 or points == int(points) else int(points) + 1
    return m.trn("{n} point", "{n} points", count, n=points_text(points))


def event_text(e: ev.Event, m: Markup, where: str | None = None) -> str | None:
    """What a notice says to its recipient; None: nothing to say (a lobby notice, an empty
    digest). ``where``: marked-up text of the adapter's (a link to the game), on a line
    of its own at the end."""
    to = "\n" + where if where else ""
    if m.name == "html" and to:
        to = "<br>" + to
    name = m.escape
    if isinstance(e, ev.MailStopped):
        return m.trn("Mail to {address} bounced {n} time, so the bot sends none there now. Check the address "
                     "and link it again ({command}) to get mail there; your games go on here.",
                     "Mail to {address} bounced {n} times, so the bot sends none there now. Check the address "
                     "and link it again ({command}) to get mail there; your games go on here.",
                     e.bounces, address=name(e.address), command="/settings email") + to
    if isinstance(e, ev.GameStarted):
        return _game_started(e, m) + to
    if isinstance(e, ev.ChallengeReceived):
        if e.recipient is None:
            return None
        terms = [m.tr("rated") if e.rated else m.tr("casual"), days_text(e.days, m),
                 who_plays(e.colour, e.game, name(e.challenger.name), m)]
        if e.setup == "players":
            terms.append(m.tr("the players make the set-up"))
        head = m.tr("{player} challenges you to {game} (#{id})", player=name(e.challenger.name),
                    game=m.bold(game_name(e.game, m)), id=e.challenge_id)
        return " · ".join([head, *terms]) + "." + to
    if isinstance(e, ev.ChallengeClosed):
        if e.how == "declined":
            return m.tr("{player} declined your challenge #{id}.", player=name(e.by.name), id=e.challenge_id)
        if e.how == "expired":
            return m.tr("Your challenge #{id} expired: no one answered it in time.", id=e.challenge_id)
        return m.tr("{player} withdrew challenge #{id}.", player=name(e.by.name), id=e.challenge_id)
    if isinstance(e, ev.Digest):
        if not e.games:
            return None
        items = []
        for g in e.games:
            item = m.tr("#{id} {game} vs {opponent}", id=g.game_id, game=game_name(g.game, m),
                        opponent=name(g.opponent))
            if g.seconds_left is not None:
                item += ", " + m.tr("{time} left", time=time_left(g.seconds_left, m.lang))
            items.append(item)
        return m.lines([m.trn("Your move in {n} game:", "Your move in {n} games:", len(e.games)), m.list(items)])
    text = _game_event(e, m) or _tournament_event(e, m)
    if text is None:
        return None
    return text if isinstance(e, ev.TournamentBye | ev.TournamentDeadline | ev.TournamentOver) else text + to


def _game_started(e: ev.GameStarted, m: Markup) -> str:
    me = e.recipient.id if e.recipient else None
    side = "w" if me == e.white.id else "b"
    opp = e.black if side == "w" else e.white
    values = dict(id=e.game_id, game=game_name(e.game, m), opponent=m.escape(opp.name),
                  side=side_name(e.game, side, m), clock=days_text(e.days, m))
    if e.rated:
        text = m.tr("Game #{id} ({game}) against {opponent} has begun: you play {side}, {clock}, a rated game.",
                    **values)
    else:
        text = m.tr("Game #{id} ({game}) against {opponent} has begun: you play {side}, {clock}, a casual game.",
                    **values)
    if e.tournament_id is not None:
        event = m.tr("Tournament #{id} {name}, round {round}", id=e.tournament_id,
                     name=m.bold(e.tournament_name or ""), round=e.tournament_round)
        if e.tournament_deadline is not None:
            event += " (" + m.tr("the round ends {moment}", moment=m.when(e.tournament_deadline)) + ")"
        text = m.tr("{event}: {notice}", event=event, notice=text)  # French and Spanish end the first with a stop
    if e.your_move:  # the one notice the player to move gets at the start
        text += " " + (m.tr("It is your move: answer by {moment}.", moment=m.when(e.deadline)) if e.deadline
                       else m.tr("It is your move."))
    return text


def _game_event(e: ev.Event, m: Markup) -> str | None:
    """A notice about one game (None: not one of these)."""
    name = m.escape
    if isinstance(e, ev.YourMove):
        parts = [m.tr("Your move in game #{id} ({game}) against {opponent}.", id=e.game_id,
                      game=game_name(e.game, m), opponent=name(e.opponent.name))]
        if e.last_move:
            parts.append(m.tr("{player} played {move}.", player=name(e.opponent.name), move=m.bold(e.last_move)))
        if e.deadline is not None:
            parts.append(m.tr("Answer by {moment}.", moment=m.when(e.deadline)))
        return " ".join(parts)
    if isinstance(e, ev.TimeWarning):
        return "⏰ " + m.tr("Game #{id} ({game}) against {opponent}: {time} left for your move.", id=e.game_id,
                            game=game_name(e.game, m), opponent=name(e.opponent.name),
                            time=time_left(e.seconds_left, m.lang))
    if isinstance(e, ev.GameOver):
        return m.tr("Game #{id} ({game}) is over: {result} · {how}.", id=e.game_id, game=game_name(e.game, m),
                    result=e.result, how=result_text(e.game, e.white, e.black, e.result, e.reason, m))
    if isinstance(e, ev.DrawOffered):
        return m.tr("{player} offers a draw in game #{id} ({game}).", player=name(e.by.name), id=e.game_id,
                    game=game_name(e.game, m))
    if isinstance(e, ev.DrawDeclined):
        return m.tr("{player} declined your draw offer in game #{id}.", player=name(e.by.name), id=e.game_id)
    if isinstance(e, ev.TakebackAsked):
        return m.tr("{player} asks to take back {move} in game #{id} ({game}).", player=name(e.by.name),
                    move=m.bold(e.move), id=e.game_id, game=game_name(e.game, m))
    if isinstance(e, ev.TakebackAnswered):
        by = name(e.by.name)
        if e.accepted:
            return m.tr("{player} agreed to take back your last move in game #{id}.", player=by, id=e.game_id)
        return m.tr("{player} refused to take back your last move in game #{id}.", player=by, id=e.game_id)
    if isinstance(e, ev.PremovePlayed):
        text = m.tr("Game #{id}: {opponent} played {move}, and your conditional answer {answer} was played.",
                    id=e.game_id, opponent=name(e.opponent.name), move=m.bold(e.their_move), answer=m.bold(e.answer))
        if e.lines_left:
            text += " " + m.trn("{n} line still waits.", "{n} lines still wait.", e.lines_left)
        return text
    if isinstance(e, ev.PremovesDropped):
        move = m.bold(e.move or "?")
        if e.why == "move":
            why = m.tr("{opponent} played {move}, which none of them expected", opponent=name(e.opponent.name),
                       move=move)
        elif e.why == "takeback":
            why = m.tr("a move was taken back")
        else:
            why = m.tr("the answer {move} could no longer be played", move=move)
        return m.trn("Game #{id}: your {n} conditional line was dropped: {why}. It is your move.",
                     "Game #{id}: your {n} conditional lines were dropped: {why}. It is your move.",
                     e.lines, id=e.game_id, why=why)
    if isinstance(e, ev.ComputerStalled):
        return m.trn("Game #{id} ({game}): {computer} could not make its move ({n} attempt failed). It keeps "
                     "trying; the game waits for it, and neither side can lose on time meanwhile.",
                     "Game #{id} ({game}): {computer} could not make its move ({n} attempts failed). It keeps "
                     "trying; the game waits for it, and neither side can lose on time meanwhile.",
                     e.failures, id=e.game_id, game=game_name(e.game, m), computer=name(e.computer.name))
    return None


def _tournament_event(e: ev.Event, m: Markup) -> str | None:
    """A notice about a tournament (None: not one of these)."""
    if isinstance(e, ev.TournamentBye):
        return m.tr("Tournament #{id} {name}, round {round}: you have a bye this round ({points}), no game.",
                    id=e.tournament_id, name=m.bold(e.name), round=e.round, points=_points(e.points, m))
    if isinstance(e, ev.TournamentDeadline):
        values = dict(id=e.tournament_id, name=m.bold(e.name), round=e.round, games=", ".join(f"#{g}" for g in e.games))
        if e.adjudicated:
            return m.trn("Tournament #{id} {name}: round {round}'s deadline came; {n} game still going ({games}) "
                         "was adjudicated by the engine's evaluation.",
                         "Tournament #{id} {name}: round {round}'s deadline came; {n} games still going ({games}) "
                         "were adjudicated by the engine's evaluation.", len(e.games), **values)
        return m.trn("Tournament #{id} {name}: round {round}'s deadline came with {n} game still going ({games}). "
                     "They are yours to decide as its director: the next round is paired when every game of this "
                     "one is over or decided.",
                     "Tournament #{id} {name}: round {round}'s deadline came with {n} games still going ({games}). "
                     "They are yours to decide as its director: the next round is paired when every game of this "
                     "one is over or decided.", len(e.games), **values)
    if isinstance(e, ev.TournamentOver):
        place = m.tr("you won it") if e.place == 1 else m.tr("you finished {place}", place=ordinal(e.place, m))
        text = "🏆 " + m.tr("Tournament #{id} {name} ({game}) is over: {place} of {players}, with {points}.",
                            id=e.tournament_id, name=m.bold(e.name), game=game_name(e.game, m), place=place,
                            players=e.players, points=_points(e.points, m))
        if e.place != 1 and e.winner is not None:
            text += " " + m.tr("{player} won it.", player=m.escape(e.winner.name))
        return text
    return None


# --- the typed commands' help -----------------------------------------------------------------

def spec_help(spec, m: Markup) -> str:
    """A grammar entry's help in the reader's language, escaped (a Text, or a message id)."""
    return m.say(spec.help) if isinstance(spec.help, Text) else m.escape(m.data(spec.help))


def _also(spec, m: Markup) -> str:
    return " " + m.tr("(also: {aliases})", aliases=", ".join(spec.aliases)) if spec.aliases else ""


def help_text(grammar, m: Markup, command: str | None = None) -> str:
    """The commands of a grammar (bot/words/grammar.py), one a line, or one command's usage and
    what it does. An unknown ``command`` raises the grammar's error."""
    from language import T

    from .grammar import GrammarError, shown
    if command is not None:
        spec = grammar.find(command)
        if spec is None:
            raise GrammarError(T("there is no command {word}; the commands are: {commands}",
                                 word=shown(command), commands=", ".join(s.name for s in grammar)))
        return f"{m.code(spec.usage)}: {spec_help(spec, m)}{_also(spec, m)}"
    out = [m.tr("Type a move ({examples}) or a command:", examples="Nf3, e2e4, Ng1-f3, O-O, exd5, e7e8=Q ...")]
    column = 16
    for spec in grammar:
        also = _also(spec, m)
        if m.name == "plain":  # a terminal's columns; a long usage gets a line of its own
            if len(spec.usage) > column:
                out.append(f"  {spec.usage}")
                out.append(f"  {'':<{column}} {spec_help(spec, m)}{also}")
            else:
                out.append(f"  {spec.usage:<{column}} {spec_help(spec, m)}{also}")
        else:
            out.append(f"{m.code(spec.usage)}: {spec_help(spec, m)}{also}")
    return m.lines(out)


# --- Discord's /help: the slash commands, and the typed ones from the grammar ----------------

# The slash commands by what they are for; each says what it does in its own description
# (the words Discord's command picker shows too). A command in no section goes in the last.
# In the notes, {x} is a command or a move, <x> a button (doubled braces: Texts format them).
GUIDE = (
    (T("Start a game"), ("challenge",),
     T("Leave out the opponent for an open challenge anyone can accept; accepting opens a thread "
       "for the game in this channel.")),
    (T("Play"), ("move", "board", "draw", "takeback", "resign", "premove"),
     T("In the game's thread you can also just type the move ({{Nf3}}, {{e2e4}}), or press <Move> under "
       "the board; <Next game> after a move: your most urgent game.")),
    (T("Look things up"), ("games", "record", "replay", "share", "rules", "piece", "ratings"),
     T("Games are rated unless the challenge says {{rated: False}}; games against the computer never are.")),
    (T("Play the computer"), ("hint", "review"),
     T("Challenge the computer (its option, or this bot as the opponent) at a level from 1 to 5.")),
    (T("Tournaments"), ("tournament",),
     T("{{/tournament create}} posts it with a <Join> button and a thread for its news; its maker "
       "or a server manager starts, pauses and resumes it.")),
    (T("You"), ("settings", "help"),
     T("In {{/settings}} too: confirming moves before they are made, blocking someone's challenges. "
       "The {{game}} option is only needed outside the game's thread when you have several games.")),
)
TYPED_HEADING = T("Typed in a game's thread (if this bot reads messages)")
TYPED_NOTE = T("Conditional lines go by {{/premove}}: typed in the thread, your opponent could read them.")
TYPED_NOTE_SHORT = T("Conditional lines go by {{/premove}}: typed in the thread, your opponent could read "
                     "them. Type {{help COMMAND}} there for one of them.")
EMBED_DESCRIPTION = 4096  # Discord's limit on an embed's description


def _note(words: Text | str, m: Markup) -> str:
    parts = re.split(r"(\{[^}]+\}|<[^>]+>)", m.lang.say(words))
    return "".join(m.code(p[1:-1]) if p.startswith("{") else m.bold(p[1:-1]) if p.startswith("<")
                   else m.escape(p) for p in parts)


def slash_help(slash: dict[str, str], typed, m: Markup, limit: int = EMBED_DESCRIPTION) -> str:
    """Discord's /help: ``slash`` the slash commands' descriptions by name, ``typed`` the
    grammar of what can be typed in a game's thread (bot/commands/run.py's), each with
    the grammar's words for it (the terminal's and email's help say the same). Longer
    than ``limit``, the typed commands are listed by their usage alone."""
    placed = {name for _, names, _ in GUIDE for name in names}
    sections = [(h, [n for n in names if n in slash], w) for h, names, w in GUIDE]
    sections[-1][1].extend(n for n in slash if n not in placed)
    out = [m.tr("{name}: correspondence chess variants, one move at a time.", name=m.bold("fairypost"))]
    for heading, names, words in sections:
        if names:
            out += ["", m.bold(m.lang.say(heading)), *(f"{m.code('/' + n)}: {m.escape(slash[n])}" for n in names),
                    _note(words, m)]
    # premove: typed in a thread the opponent reads it (/premove instead); language: /settings has it
    specs = [spec for spec in typed if spec.name not in ("premove", "language")]
    heading = m.bold(m.lang.say(TYPED_HEADING))
    full = m.lines([*out, "", heading, *(f"{m.code(s.usage)}: {spec_help(s, m)}" for s in specs), _note(TYPED_NOTE, m)])
    if len(full) <= limit:
        return full
    return m.lines([*out, "", heading, ", ".join(m.code(s.usage) for s in specs), _note(TYPED_NOTE_SHORT, m)])
