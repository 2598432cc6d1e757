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
from language import ENGLISH, Language, Text, language

from ..delivery import events as ev
from .timetext import plural, time_left

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
        """A moment, for a reader anywhere."""
        return f"{moment.astimezone(UTC):%a %d %b %Y %H:%M} UTC"


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

REASONS = {
    "checkmate": "by checkmate", "stalemate": "by stalemate", "resignation": "by resignation",
    "time": "on time", "agreement": "by agreement", "threefold repetition": "by threefold repetition",
    "100-ply rule": "by the 100-ply rule", "adjudication": "by adjudication (the engine's evaluation "
    "at the round's deadline)",
}


@cache
def game_name(game: str) -> str:
    try:
        return rules.game(game).name
    except Exception:  # noqa: BLE001 - an unknown id still gets a name
        return game


def points_text(points: float) -> str:
    """3, 3½, ½: a score as a crosstable writes it."""
    whole, half = int(points), points - int(points) >= 0.5
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def side_name(game: str, side: str) -> str:
    try:
        return rules.game(game).side_names[0 if side == "w" else 1]
    except Exception:  # noqa: BLE001
        return "White" if side == "w" else "Black"


def other(side: str) -> str:
    return "b" if side == "w" else "w"


def days_text(days: int | None) -> str:
    return "no clock" if days is None else f"{plural(days, 'day')} per move"


def colour_text(colour: str, game: str) -> str:
    if colour == "random":
        return "colours by lot"
    return f"plays {side_name(game, 'w' if colour == 'white' else 'b')}"


def who_plays(colour: str, game: str, challenger: str) -> str:
    """The challenger's colour: 'Ann plays White', 'you play Black' (``challenger`` marked
    up, or 'you'), or 'colours by lot'."""
    if colour == "random":
        return "colours by lot"
    verb = "play" if challenger == "you" else "plays"
    return f"{challenger} {verb} {side_name(game, 'w' if colour == 'white' else 'b')}"


def player_of(view, side: str) -> ev.PlayerRef:
    return view.white if side == "w" else view.black


def who(view, side: str, m: Markup, *, always_side: bool = True) -> str:
    """A player in bold with their side: '**Ann** (White)'; without ``always_side``, a
    name that is the side's own ('White') is not said twice."""
    p, label = player_of(view, side), side_name(view.game, side)
    if not always_side and p.name.casefold() == label.casefold():
        return m.bold(p.name)
    return f"{m.bold(p.name)} ({label})"


def title(view) -> str:
    return f"Game #{view.id} · {game_name(view.game)}"


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
        return f"{who(view, 'w', m)} vs {who(view, 'b', m)}"
    def rated(side: str) -> str:
        return f"{rated_name(view, side, m, bold=True)} ({side_name(view.game, side)})"
    return f"{rated('w')} vs {rated('b')}" + ("" if view.rated else " · casual")


# --- results and whose turn ---------------------------------------------------------------

def result_text(game: str, white: ev.PlayerRef, black: ev.PlayerRef, result: str | None,
                reason: str | None, m: Markup) -> str:
    how = REASONS.get(reason or "", f"({reason})" if reason else "")
    if result == "1-0":
        return f"{m.bold(white.name)} ({side_name(game, 'w')}) wins {how}".rstrip()
    if result == "0-1":
        return f"{m.bold(black.name)} ({side_name(game, 'b')}) wins {how}".rstrip()
    if result == "1/2-1/2":
        return f"Drawn {how}".rstrip()
    return "The game was aborted"


def over_line(view, m: Markup) -> str:
    """'1-0 · **Ann** (White) wins by checkmate'."""
    return f"{view.result} · {result_text(view.game, view.white, view.black, view.result, view.reason, m)}"


def turn_line(view, m: Markup) -> str:
    """One line: whose move it is and the time left; or how the game ended."""
    if view.status != "active":
        return over_line(view, m)
    doing = "to make the set-up" if view.in_setup else "to move"
    text = f"{who(view, view.turn, m)} {doing} · "
    text += time_left(view.seconds_left) + (" left" if view.seconds_left is not None else "")
    if view.in_check:
        text += " · check!"
    if view.draw_offer:
        text += f" · {m.escape(player_of(view, view.draw_offer).name)} offers a draw"
    if view.takeback_by:
        text += f" · {m.escape(player_of(view, view.takeback_by).name)} asks to take back"
    return text


def last_move_line(view, m: Markup) -> str | None:
    if not view.moves:
        return None
    last = view.moves[-1]
    return f"{m.escape(player_of(view, last.side).name)} played {m.bold(last.san)}"


def setup_hint(view) -> str | None:
    """The set-up action now due, in the game's own words; None outside a set-up."""
    if view.status != "active" or not view.in_setup:
        return None
    pos = rules.from_fen(view.game, view.fen)
    return pos.game.extension.setup_hint(pos)


def board_caption(view, m: Markup, note: str | None = None) -> str:
    """The text with a board: the game, the last move, whose turn and the time left
    (``note``: marked-up text of the adapter's, after the title)."""
    parts = [f"{m.bold(title(view))} · {players_line(view, m)}"]
    if note:
        parts.append(note)
    last = last_move_line(view, m)
    if last:
        parts.append(last)
    parts.append(turn_line(view, m))
    hint = setup_hint(view)
    if hint:
        parts.append(f"Set-up: choose {m.escape(hint)}")
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
    if sm.as_if:
        owner, piece = m.escape(sm.owner), m.escape(sm.piece)
        could = f"it could go to: {listed}" if sm.sans else "it could not move"
        return (f"{sm.square} is {owner}'s {piece}; if {owner} were to move, {could} "
                f"(not now: it is {m.escape(sm.to_move)}'s move).")
    if sm.piece is None:
        return f"There is no piece on {sm.square}."
    if not sm.sans:
        return f"The {m.escape(sm.piece)} on {sm.square} has no legal move."
    return f"{plural(len(sm.sans), 'move')} of the {m.escape(sm.piece)} on {sm.square}:{list_break}{listed}"


def status_text(view, m: Markup, setup: str | None = None) -> str:
    """The state of a game in sentences (the terminal's line under its board): the last
    move, who is to move or to make the set-up (``setup``: what to choose), the time and
    any draw offer; or how the game ended."""
    if view.status == "aborted":
        return "The game was aborted."
    if view.status != "active":
        if view.result == "1/2-1/2":
            return f"Game over: a draw ({view.reason})."
        winner = "w" if view.result == "1-0" else "b"
        return f"Game over: {view.result}, {who(view, winner, m, always_side=False)} wins ({view.reason})."
    parts = []
    if view.moves:
        last = view.moves[-1]
        parts.append(f"Last move: {m.bold(last.san)} ({side_name(view.game, last.side)}).")
    mover = who(view, view.turn, m, always_side=False)
    if view.in_setup:
        parts.append(sentence(f"Set-up: {mover} to choose {m.escape(setup or setup_hint(view) or 'a set-up action')}"))
    else:
        parts.append(f"{mover} to move" + (", in check." if view.in_check else "."))
    if view.deadline is not None:
        parts.append(f"Time: {time_left(view.seconds_left)} left, until {m.when(view.deadline)}.")
    if view.draw_offer:
        parts.append(f"{side_name(view.game, view.draw_offer)} offers a draw.")
    return " ".join(parts)


# --- game lists and challenges ------------------------------------------------------------

def game_line(s, m: Markup) -> str:
    """One of the player's games (a ``GameSummary``): '#3 <game> vs Ann 1523: your move'
    (beside the opponent's name their rating, in a game between people)."""
    if s.status != "active":
        state = f"{s.result} ({s.reason})"
    elif s.my_move:
        state = "your move" + (f", {time_left(s.seconds_left)} left" if s.seconds_left is not None else "")
    else:
        state = f"{m.escape(s.opponent.name)} to move"
    return f"#{s.id} {game_name(s.game)} vs {rated_name(s, other(s.my_side), m)}: {state}"


def challenge_line(c, me_id: int, m: Markup) -> str:
    """An open challenge in the player's list, and until when it stays open."""
    until = f", open until {m.when(c.expires_at)}" if getattr(c, "expires_at", None) else ""
    if c.challenger.id == me_id:
        to = m.escape(c.opponent.name) if c.opponent else "anyone"
        return f"#{c.id} you challenged {to} to {game_name(c.game)}{until}"
    return (f"#{c.id} {m.escape(c.challenger.name)} challenges "
            f"{'you' if c.opponent else 'anyone'} to {game_name(c.game)}{until}")


def both_sides_line(s, m: Markup) -> str:
    """A game as an onlooker lists it (a ``GameSummary``): '#3    chess       Ann 1500? v
    Bob 1500?, 4 plies, Ann to move' (the terminal's list, where both players sit)."""
    if s.status == "active":
        state = f"{m.escape(s.white.name if (s.my_side == 'w') == s.my_move else s.black.name)} to move"
    elif s.status == "aborted":
        state = "aborted"
    else:
        state = f"{s.result} ({s.reason})"
    return (f"#{s.id:<4} {s.game:<11} {rated_name(s, 'w', m)} v {rated_name(s, 'b', m)}, "
            f"{s.ply} {'ply' if s.ply == 1 else 'plies'}, {state}")


NO_GAMES = "No games yet."


def games_text(summaries, challenges, me_id: int, m: Markup, *, limit: int = 25) -> str:
    """The player's games (their move first: ▶) and open challenges."""
    out = [("▶ " if s.my_move else "· ") + game_line(s, m) for s in summaries[:limit]] or [NO_GAMES]
    if challenges:
        out += ["", "Open challenges:"] + [challenge_line(c, me_id, m) for c in challenges[:10]]
    return m.lines(out)


def challenges_text(challenges, me_id: int, m: Markup, *, limit: int = 20) -> str:
    """The open challenges a player may take (to anyone, or to them), wherever they were
    made (Discord, mail, the web's lobby), and how to take one."""
    theirs = [c for c in challenges if c.challenger.id != me_id]
    if not theirs:
        return "No challenge is open to you now."
    return m.lines(["Open challenges (accept N takes one):"] +
                   [f"#{c.id} {m.escape(c.challenger.name)}: {challenge_terms(c, m)}" for c in theirs[:limit]])


def challenge_terms(c, m: Markup, challenger: str | None = None) -> str:
    """What a challenge offers: the game, rated or casual, clock, colour, until when
    (``challenger``: how to name the challenger, marked up; default their name)."""
    what = (f"{m.bold(game_name(c.game))} · {'rated' if c.rated else 'casual'} · {days_text(c.days)} · "
            f"{who_plays(c.colour, c.game, challenger or m.escape(c.challenger.name))}")
    if c.setup == "players":
        what += " · the players make the set-up"
    if c.expires_at is not None and c.status == "open":
        what += f" · open until {m.when(c.expires_at)}"
    return what


def challenge_sent_text(c, m: Markup) -> str:
    """The challenger's confirmation: 'Challenge #1 sent to Bob: Chess · rated · ... · you
    play White'."""
    to = f"to {m.bold(c.opponent.name)}" if c.opponent else "to anyone (an open challenge)"
    return f"Challenge #{c.id} sent {to}: {challenge_terms(c, m, 'you')}."


def challenge_text(c, m: Markup, opponent: str | None = None) -> str:
    """A challenge as its opponent reads it: who, what, rated or casual, clock, colour,
    until when (``opponent``: how the adapter names them)."""
    what = challenge_terms(c, m)
    if c.opponent is None:
        return m.lines([f"{m.bold(c.challenger.name)} offers an open challenge (#{c.id}): {what}",
                        "Anyone may accept."])
    return f"{opponent or m.bold(c.opponent.name)}, {m.bold(c.challenger.name)} challenges you (#{c.id}): {what}"


# --- notices (the service's events) ---------------------------------------------------------

def mail_stopped_text(address: str, bounces: int, retry_at: datetime, linked: bool,
                      m: Markup) -> str:
    """What a player whose mail stopped reads on the game page (their only other route when
    they play by mail alone): what happened and how to get mail again."""
    again = ("link it again (/settings email in Discord), or reply " if linked else "reply ")
    return (f"{m.bold('The bot no longer mails you at ' + address + '.', raw=False)} "
            f"{plural(bounces, 'mail')} to it bounced, so it may be wrong, full or closed. "
            f"You can still play here. To get mail there again, {again}from that address to "
            f"any mail the bot sent you (a reply saying {m.code('board')} will do); otherwise "
            f"the bot tries it once more after {m.when(retry_at)}.")


def event_text(e: ev.Event, m: Markup, where: str | None = None) -> str | None:
    """What a notice says to its recipient; None: nothing to say (a lobby notice, an empty
    digest). ``where``: marked-up text of the adapter's (a link to the game), on a line
    of its own at the end."""
    to = "\n" + where if where else ""
    if m is HTML and to:
        to = "<br>" + to
    name = m.escape
    if isinstance(e, ev.MailStopped):
        return (f"Mail to {name(e.address)} bounced {e.bounces} times, so the bot sends none "
                f"there now. Check the address and link it again (/settings email) to get "
                f"mail there; your games go on here.{to}")
    if isinstance(e, ev.YourMove):
        last = f"{name(e.opponent.name)} played {m.bold(e.last_move)}. " if e.last_move else ""
        left = f"Answer by {m.when(e.deadline)}." if e.deadline is not None else ""
        return (f"Your move in game #{e.game_id} ({game_name(e.game)}) against "
                f"{name(e.opponent.name)}. {last}{left}".rstrip() + to)
    if isinstance(e, ev.TimeWarning):
        return (f"⏰ Game #{e.game_id} ({game_name(e.game)}) against {name(e.opponent.name)}: "
                f"{time_left(e.seconds_left)} left for your move.{to}")
    if isinstance(e, ev.GameStarted):
        me = e.recipient.id if e.recipient else None
        side = "w" if me == e.white.id else "b"
        opp = e.black if side == "w" else e.white
        turn = ""
        if e.your_move:  # the one notice the player to move gets at the start
            turn = " It is your move" + (f": answer by {m.when(e.deadline)}." if e.deadline else ".")
        by = "" if e.tournament_deadline is None else f" (the round ends {m.when(e.tournament_deadline)})"
        event = ("" if e.tournament_id is None else
                 f"Tournament #{e.tournament_id} {m.bold(e.tournament_name or '')}, round "
                 f"{e.tournament_round}{by}: ")
        return (f"{event}Game #{e.game_id} ({game_name(e.game)}) against {name(opp.name)} has begun: you "
                f"play {side_name(e.game, side)}, {days_text(e.days)}, "
                f"{'a rated' if e.rated else 'a casual'} game.{turn}{to}")
    if isinstance(e, ev.GameOver):
        return (f"Game #{e.game_id} ({game_name(e.game)}) is over: {e.result} · "
                f"{result_text(e.game, e.white, e.black, e.result, e.reason, m)}.{to}")
    if isinstance(e, ev.ChallengeReceived):
        if e.recipient is None:
            return None
        extra = " · the players make the set-up" if e.setup == "players" else ""
        return (f"{name(e.challenger.name)} challenges you to {m.bold(game_name(e.game))} "
                f"(#{e.challenge_id}) · {'rated' if e.rated else 'casual'} · {days_text(e.days)} · "
                f"{who_plays(e.colour, e.game, name(e.challenger.name))}{extra}.{to}")
    if isinstance(e, ev.ChallengeClosed):
        if e.how == "declined":
            return f"{name(e.by.name)} declined your challenge #{e.challenge_id}."
        if e.how == "expired":
            return f"Your challenge #{e.challenge_id} expired: no one answered it in time."
        return f"{name(e.by.name)} withdrew challenge #{e.challenge_id}."
    if isinstance(e, ev.DrawOffered):
        return f"{name(e.by.name)} offers a draw in game #{e.game_id} ({game_name(e.game)}).{to}"
    if isinstance(e, ev.DrawDeclined):
        return f"{name(e.by.name)} declined your draw offer in game #{e.game_id}.{to}"
    if isinstance(e, ev.TakebackAsked):
        return (f"{name(e.by.name)} asks to take back {m.bold(e.move)} in game #{e.game_id} "
                f"({game_name(e.game)}).{to}")
    if isinstance(e, ev.TakebackAnswered):
        how = "agreed to take back" if e.accepted else "refused to take back"
        return f"{name(e.by.name)} {how} your last move in game #{e.game_id}.{to}"
    if isinstance(e, ev.PremovePlayed):
        left = (f" {plural(e.lines_left, 'line')} still wait{'s' if e.lines_left == 1 else ''}."
                if e.lines_left else "")
        return (f"Game #{e.game_id}: {name(e.opponent.name)} played {m.bold(e.their_move)}, and your "
                f"conditional answer {m.bold(e.answer)} was played.{left}{to}")
    if isinstance(e, ev.PremovesDropped):
        why = {"move": f"{name(e.opponent.name)} played {m.bold(e.move or '?')}, which none of them expected",
               "takeback": "a move was taken back"}.get(
            e.why, f"the answer {m.bold(e.move or '?')} could no longer be played")
        return (f"Game #{e.game_id}: your {plural(e.lines, 'conditional line')} "
                f"{'was' if e.lines == 1 else 'were'} dropped: {why}. It is your move.{to}")
    if isinstance(e, ev.ComputerStalled):
        return (f"Game #{e.game_id} ({game_name(e.game)}): {name(e.computer.name)} could not make "
                f"its move ({plural(e.failures, 'attempt')} failed). It keeps trying; the game waits "
                f"for it, and neither side can lose on time meanwhile.{to}")
    if isinstance(e, ev.TournamentBye):
        return (f"Tournament #{e.tournament_id} {m.bold(e.name)}, round {e.round}: you have a bye "
                f"this round ({points_text(e.points)} point{'' if e.points == 1 else 's'}), no game.")
    if isinstance(e, ev.TournamentDeadline):
        games = ", ".join(f"#{g}" for g in e.games)
        if e.adjudicated:
            return (f"Tournament #{e.tournament_id} {m.bold(e.name)}: round {e.round}'s deadline came; "
                    f"{plural(len(e.games), 'game')} still going ({games}) "
                    f"{'was' if len(e.games) == 1 else 'were'} adjudicated by the engine's evaluation.")
        return (f"Tournament #{e.tournament_id} {m.bold(e.name)}: round {e.round}'s deadline came with "
                f"{plural(len(e.games), 'game')} still going ({games}). They are yours to decide as its "
                "director: the next round is paired when every game of this one is over or decided.")
    if isinstance(e, ev.TournamentOver):
        place = "you won it" if e.place == 1 else f"you finished {ordinal(e.place)}"
        winner = "" if e.place == 1 or e.winner is None else f" {name(e.winner.name)} won it."
        return (f"🏆 Tournament #{e.tournament_id} {m.bold(e.name)} ({game_name(e.game)}) is "
                f"over: {place} of {e.players}, with {points_text(e.points)} "
                f"point{'' if e.points == 1 else 's'}.{winner}")
    if isinstance(e, ev.Digest):
        if not e.games:
            return None
        items = []
        for g in e.games:
            left = f", {time_left(g.seconds_left)} left" if g.seconds_left is not None else ""
            items.append(f"#{g.game_id} {game_name(g.game)} vs {name(g.opponent)}{left}")
        return m.lines([f"Your move in {plural(len(e.games), 'game')}:", m.list(items)])
    return None


# --- the typed commands' help -----------------------------------------------------------------

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
        also = " " + m.tr("(also: {aliases})", aliases=", ".join(spec.aliases)) if spec.aliases else ""
        return f"{m.code(spec.usage)}: {m.escape(m.tr(spec.help))}{also}"
    out = [m.tr("Type a move ({moves} ...) or a command:", moves="Nf3, e2e4, Ng1-f3, O-O, exd5, e7e8=Q")]
    column = 16
    for spec in grammar:
        also = " " + m.tr("(also: {aliases})", aliases=", ".join(spec.aliases)) if spec.aliases else ""
        if m.name == "plain":  # a terminal's columns; a long usage gets a line of its own
            if len(spec.usage) > column:
                out.append(f"  {spec.usage}")
                out.append(f"  {'':<{column}} {m.tr(spec.help)}{also}")
            else:
                out.append(f"  {spec.usage:<{column}} {m.tr(spec.help)}{also}")
        else:
            out.append(f"{m.code(spec.usage)}: {m.escape(m.tr(spec.help))}{also}")
    return m.lines(out)


# --- Discord's /help: the slash commands, and the typed ones from the grammar ----------------

# The slash commands by what they are for; each says what it does in its own description
# (the words Discord's command picker shows too). A command in no section goes in the last.
# In the notes, {x} is a command or a move, <x> a button.
GUIDE = (
    ("Start a game", ("challenge",),
     "Leave out the opponent for an open challenge anyone can accept; accepting opens a thread "
     "for the game in this channel."),
    ("Play", ("move", "board", "draw", "takeback", "resign", "premove"),
     "In the game's thread you can also just type the move ({Nf3}, {e2e4}), or press <Move> under "
     "the board; <Next game> after a move: your most urgent game."),
    ("Look things up", ("games", "record", "replay", "share", "rules", "piece", "ratings"),
     "Games are rated unless the challenge says {rated: False}; games against the computer never are."),
    ("Play the computer", ("hint", "review"),
     "Challenge the computer (its option, or this bot as the opponent) at a level from 1 to 5."),
    ("Tournaments", ("tournament",),
     "{/tournament create} posts it with a <Join> button and a thread for its news; its maker "
     "or a server manager starts, pauses and resumes it."),
    ("You", ("settings", "help"),
     "In {/settings} too: confirming moves before they are made, blocking someone's challenges. "
     "The {game} option is only needed outside the game's thread when you have several games."),
)
TYPED_HEADING = "Typed in a game's thread (if this bot reads messages)"
TYPED_NOTE = "Conditional lines go by {/premove}: typed in the thread, your opponent could read them."
EMBED_DESCRIPTION = 4096  # Discord's limit on an embed's description


def _note(words: str, m: Markup) -> str:
    parts = re.split(r"(\{[^}]+\}|<[^>]+>)", words)
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
    out = [f"{m.bold('fairypost')}: correspondence chess variants, one move at a time."]
    for heading, names, words in sections:
        if names:
            out += ["", m.bold(heading), *(f"{m.code('/' + n)}: {m.escape(slash[n])}" for n in names),
                    _note(words, m)]
    # premove: typed in a thread the opponent reads it (/premove instead); language: /settings has it
    specs = [spec for spec in typed if spec.name not in ("premove", "language")]
    full = m.lines([*out, "", m.bold(TYPED_HEADING),
                    *(f"{m.code(s.usage)}: {m.escape(m.tr(s.help))}" for s in specs), _note(TYPED_NOTE, m)])
    if len(full) <= limit:
        return full
    return m.lines([*out, "", m.bold(TYPED_HEADING), ", ".join(m.code(s.usage) for s in specs),
                    _note(TYPED_NOTE + " Type {help COMMAND} there for one of them.", m)])
