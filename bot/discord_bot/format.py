"""The words the bot says: whose turn, time left, captions, notices. Plain text, no I/O."""

from __future__ import annotations

import re
from functools import cache

import discord

import rules
from bot import events as ev
from bot import premoves
from bot.timetext import plural, time_left  # noqa: F401 - the bot's words for durations, shared

from . import PLATFORM

COLOUR_W = discord.Colour(0xE8E4D8)
COLOUR_B = discord.Colour(0x3A3A46)
COLOUR_INFO = discord.Colour(0x5B7FA6)

REASONS = {
    "checkmate": "by checkmate", "stalemate": "by stalemate", "resignation": "by resignation",
    "time": "on time", "agreement": "by agreement", "threefold repetition": "by threefold repetition",
    "100-ply rule": "by the 100-ply rule",
}


@cache
def game_name(game: str) -> str:
    try:
        return rules.game(game).name
    except Exception:  # noqa: BLE001 - an unknown id still gets a name
        return game


@cache
def game_summary(game: str) -> str:
    try:
        return rules.game(game).summary
    except Exception:  # noqa: BLE001
        return ""


def piece_label(ptype) -> str:
    """A piece's name; both sides' names where they differ (a game whose sides name them differently)."""
    return " / ".join(ptype.side_names) if ptype.side_names else ptype.name


def rules_embed(game: str) -> discord.Embed:
    """A game's rules as the terminal's rules command says them: the summary, the special
    rules and the end in the description (at most 4096), the pieces in fields of at most
    1024 characters (the texts all come from the game's data file)."""
    g = rules.game(game)
    parts = [g.summary]
    if g.special_rules:
        parts.append("**Special rules**\n" + "\n".join(f"• {r}" for r in g.special_rules))
    if g.game_end:
        parts.append("**How the game ends**\n" + g.game_end)
    e = discord.Embed(title=g.name, description="\n\n".join(parts)[:4096], colour=COLOUR_INFO)
    chunk = ""
    for key, t in g.types.items():
        line = f"**{key}** {piece_label(t)}: {t.description}"
        if chunk and len(chunk) + 1 + len(line) > 1024:
            e.add_field(name="Pieces" if not e.fields else "Pieces (more)", value=chunk, inline=False)
            chunk = ""
        chunk = f"{chunk}\n{line}" if chunk else line[:1024]
    if chunk:
        e.add_field(name="Pieces" if not e.fields else "Pieces (more)", value=chunk, inline=False)
    return e


def piece_embed(game: str, key: str) -> discord.Embed:
    """One piece's card text: its move in words from the game's data file, as the
    terminal's piece command says it."""
    ptype = rules.game(game).types[key]
    return discord.Embed(title=f"{ptype.name} ({key}) · {game_name(game)}",
                         description=ptype.description[:4096] or None, colour=COLOUR_INFO)


def side_name(game: str, side: str) -> str:
    try:
        return rules.game(game).side_names[0 if side == "w" else 1]
    except Exception:  # noqa: BLE001
        return "White" if side == "w" else "Black"


# Markdown that could change how user text reads: emphasis, code, spoilers, masked links
# ([text](url)), mentions and custom emoji (<...>) anywhere; quotes, headings and lists at
# the start of a line. A backslash makes each of them literal.
_MARKDOWN = re.compile(r"([\\*_~`|<\[\]])|^(\s*)([#>-])", re.MULTILINE)


def _escape(m: re.Match) -> str:
    return "\\" + m[1] if m[1] else m[2] + "\\" + m[3]


def safe(text: str) -> str:
    """User-supplied text (a display name, a typed move, a time zone) as literal text:
    markdown escaped, and no mention can form (a zero-width space after every @)."""
    return _MARKDOWN.sub(_escape, str(text)).replace("@", "@\u200b")


def name(p) -> str:
    """A player's name, safe to post."""
    return safe(p.name)


def mention(p: ev.PlayerRef) -> str:
    return f"<@{p.user_id}>" if p.platform == PLATFORM and p.user_id.isdigit() else name(p)


def bold(text: str) -> str:
    return "**" + safe(text) + "**"


def days_text(days: int | None) -> str:
    return "no clock" if days is None else f"{plural(days, 'day')} per move"


def result_text(game: str, white: ev.PlayerRef, black: ev.PlayerRef, result: str | None,
                reason: str | None) -> str:
    how = REASONS.get(reason or "", f"({reason})" if reason else "")
    if result == "1-0":
        return f"{bold(white.name)} ({side_name(game, 'w')}) wins {how}".rstrip()
    if result == "0-1":
        return f"{bold(black.name)} ({side_name(game, 'b')}) wins {how}".rstrip()
    if result == "1/2-1/2":
        return f"Drawn {how}".rstrip()
    return "The game was aborted"


def title(view) -> str:
    return f"Game #{view.id} · {game_name(view.game)}"


def players_line(view) -> str:
    return (f"{bold(view.white.name)} ({side_name(view.game, 'w')}) vs "
            f"{bold(view.black.name)} ({side_name(view.game, 'b')})")


def turn_line(view) -> str:
    """Whose move it is and the time left; or how the game ended."""
    if view.status != "active":
        return f"{view.result} · {result_text(view.game, view.white, view.black, view.result, view.reason)}"
    who = view.to_move
    doing = "to make the set-up" if view.in_setup else "to move"
    text = f"{bold(who.name)} ({side_name(view.game, view.turn)}) {doing} · "
    text += time_left(view.seconds_left) + (" left" if view.seconds_left is not None else "")
    if view.in_check:
        text += " · check!"
    if view.draw_offer:
        offerer = view.white if view.draw_offer == "w" else view.black
        text += f" · {name(offerer)} offers a draw"
    if view.takeback_by:
        asker = view.white if view.takeback_by == "w" else view.black
        text += f" · {name(asker)} asks to take back"
    return text


def last_move_line(view) -> str | None:
    if not view.moves:
        return None
    m = view.moves[-1]
    who = view.white if m.side == "w" else view.black
    return f"{name(who)} played **{m.san}**"


def board_caption(view, note: str | None = None) -> str:
    """The text of a board post: the game, the last move, whose turn and the time left."""
    lines = [f"**{title(view)}** · {players_line(view)}"]
    if note:
        lines.append(note)
    last = last_move_line(view)
    if last:
        lines.append(last)
    lines.append(turn_line(view))
    hint = setup_hint(view)
    if hint:
        lines.append(f"Set-up: choose {hint}")
    return "\n".join(lines)


def setup_hint(view) -> str | None:
    """The set-up action now due, in the game's own words; None outside a set-up."""
    if view.status != "active" or not view.in_setup:
        return None
    pos = rules.from_fen(view.game, view.fen)
    return pos.game.extension.setup_hint(pos)


def thread_name(view) -> str:
    return f"#{view.id} {game_name(view.game)}: {view.white.name} vs {view.black.name}"[:100]


def colour_text(colour: str, game: str) -> str:
    if colour == "random":
        return "colours by lot"
    return f"plays {side_name(game, 'w' if colour == 'white' else 'b')}"


def challenge_text(c, opponent_mention: str | None = None) -> str:
    """A challenge message: who, what, clock, colour."""
    what = f"**{game_name(c.game)}** · {days_text(c.days)} · {name(c.challenger)} {colour_text(c.colour, c.game)}"
    if c.setup == "players":
        what += " · the players make the set-up"
    if c.opponent is None:
        return f"{bold(c.challenger.name)} offers an open challenge (#{c.id}): {what}\nAnyone may accept."
    return f"{opponent_mention or bold(c.opponent.name)}, {bold(c.challenger.name)} challenges you (#{c.id}): {what}"


def ambiguous_move(text: str, game_ids: list[int]) -> str:
    """The question when a move fits several of the player's games in one channel (raw
    text: escape it to post it)."""
    listed = ", ".join(f"#{g}" for g in game_ids[:10])
    return f"{text} is a move in several of your games here ({listed}): say which"


def link(guild_id: str | None, channel_id: str | None) -> str | None:
    if not channel_id:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def game_choice_name(s, clean=str) -> str:
    """One line of the player's games, for autocomplete and (``clean=safe``) /games."""
    if s.status != "active":
        state = f"{s.result} ({s.reason})"
    elif s.my_move:
        state = "your move" + (f", {time_left(s.seconds_left)} left" if s.seconds_left is not None else "")
    else:
        state = f"{clean(s.opponent.name)} to move"
    return f"#{s.id} {game_name(s.game)} vs {clean(s.opponent.name)}: {state}"[:100]


def games_embed(summaries, challenges, me_id: int) -> discord.Embed:
    e = discord.Embed(title="Your games", colour=COLOUR_INFO)
    if summaries:
        e.description = "\n".join(("▶ " if s.my_move else "· ") + game_choice_name(s, safe) for s in summaries[:25])
    else:
        e.description = "No games yet: start one with `/challenge`."
    if challenges:
        lines = []
        for c in challenges[:10]:
            if c.challenger.id == me_id:
                to = name(c.opponent) if c.opponent else "anyone"
                lines.append(f"#{c.id} you challenged {to} to {game_name(c.game)}")
            else:
                lines.append(f"#{c.id} {name(c.challenger)} challenges "
                             f"{'you' if c.opponent else 'anyone'} to {game_name(c.game)}")
        e.add_field(name="Open challenges", value="\n".join(lines)[:1024], inline=False)
    return e


# --- notices (the service's events) ---------------------------------------------------

def event_text(e: ev.Event, where: str | None = None) -> str | None:
    """What a notice says to its recipient; None: nothing to say (not for this adapter)."""
    to = f"\n{where}" if where else ""
    if isinstance(e, ev.YourMove):
        last = f"{name(e.opponent)} played **{e.last_move}**. " if e.last_move else ""
        left = ""
        if e.deadline is not None:
            left = f"Answer by <t:{int(e.deadline.timestamp())}:f> (<t:{int(e.deadline.timestamp())}:R>)."
        return f"Your move in game #{e.game_id} ({game_name(e.game)}) against {name(e.opponent)}. {last}{left}{to}"
    if isinstance(e, ev.TimeWarning):
        return (f"⏰ Game #{e.game_id} ({game_name(e.game)}) against {name(e.opponent)}: "
                f"{time_left(e.seconds_left)} left for your move.{to}")
    if isinstance(e, ev.GameStarted):
        me = e.recipient.id if e.recipient else None
        side = "w" if me == e.white.id else "b"
        other = e.black if side == "w" else e.white
        return (f"Game #{e.game_id} ({game_name(e.game)}) against {name(other)} has begun: you play "
                f"{side_name(e.game, side)}, {days_text(e.days)}.{to}")
    if isinstance(e, ev.GameOver):
        return (f"Game #{e.game_id} ({game_name(e.game)}) is over: {e.result} · "
                f"{result_text(e.game, e.white, e.black, e.result, e.reason)}.{to}")
    if isinstance(e, ev.ChallengeReceived):
        if e.recipient is None:
            return None
        extra = " · the players make the set-up" if e.setup == "players" else ""
        return (f"{name(e.challenger)} challenges you to **{game_name(e.game)}** (#{e.challenge_id}) · "
                f"{days_text(e.days)} · {name(e.challenger)} {colour_text(e.colour, e.game)}{extra}.{to}")
    if isinstance(e, ev.ChallengeClosed):
        if e.how == "declined":
            return f"{name(e.by)} declined your challenge #{e.challenge_id}."
        return f"{name(e.by)} withdrew challenge #{e.challenge_id}."
    if isinstance(e, ev.DrawOffered):
        return f"{name(e.by)} offers a draw in game #{e.game_id} ({game_name(e.game)}).{to}"
    if isinstance(e, ev.DrawDeclined):
        return f"{name(e.by)} declined your draw offer in game #{e.game_id}.{to}"
    if isinstance(e, ev.TakebackAsked):
        return f"{name(e.by)} asks to take back **{e.move}** in game #{e.game_id} ({game_name(e.game)}).{to}"
    if isinstance(e, ev.TakebackAnswered):
        how = "agreed to take back" if e.accepted else "refused to take back"
        return f"{name(e.by)} {how} your last move in game #{e.game_id}.{to}"
    if isinstance(e, ev.PremovePlayed):
        return premoves.played_text(e, name(e.opponent), bold) + to
    if isinstance(e, ev.PremovesDropped):
        return premoves.dropped_text(e, name(e.opponent), bold) + to
    if isinstance(e, ev.Digest):
        if not e.games:
            return None
        lines = [f"Your move in {plural(len(e.games), 'game')}:"]
        for g in e.games:
            left = f", {time_left(g.seconds_left)} left" if g.seconds_left is not None else ""
            lines.append(f"· #{g.game_id} {game_name(g.game)} vs {safe(g.opponent)}{left}")
        return "\n".join(lines)
    return None


HELP = """\
**fairypost**: correspondence chess variants, one move at a time.

**Start a game**
`/challenge game opponent days colour`: challenge someone (leave out the opponent for an open \
challenge anyone can accept). Accepting opens a thread for the game in this channel.

**Play**
`/move move`: start typing and pick from the legal moves. In the game's thread you can also \
just type the move (`Nf3`, `e2e4`), or press **Move** under the board.
`/board`: the position, from your side if you like, with one piece's moves marked.
`/draw`, `/takeback`, `/resign`: offer, ask, answer, give up.
`/premove lines`: while your opponent is to move, answers left in advance (`Nf6 e5; Nc6 d4`: \
if they play Nf6, you play e5); only you see them. **Next game** after a move: your most urgent game.

**Look things up**
`/games`: your games, most urgent first. `/record`: a game's record as a file. \
`/replay`: a game as an animated picture. `/share`: a game's web page, if this bot has them.
`/rules`: a game's rules and pieces. `/piece`: one piece's card.

**Play the computer**
`/challenge` with the computer option (or this bot as the opponent) and a level from 1 to 5. \
In its games `/hint` shows the move it would play; after any game `/review` marks each move's \
blunders and best replies.

**You**
`/settings`: notices by DM or in a channel, quiet hours and time zone, daily digest, vacation, \
confirming moves before they are made.

The `game` option is only needed outside the game's thread when you have several games."""
