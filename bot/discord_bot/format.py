"""Discord's trimmings on the bot's words: the words are bot/text.py's, with Discord's
markdown (``text.DISCORD``); here are only the embeds, colours, mentions and links."""

from __future__ import annotations

from functools import cache

import discord

import rules
from bot import events as ev
from bot import text
from bot.commands_text import typed_grammar
from bot.text import DISCORD, REASONS, colour_text, days_text, game_name, side_name  # noqa: F401 - shared words
from bot.timetext import plural, time_left  # noqa: F401 - the bot's words for durations, shared

from . import PLATFORM

COLOUR_W = discord.Colour(0xE8E4D8)
COLOUR_B = discord.Colour(0x3A3A46)
COLOUR_INFO = discord.Colour(0x5B7FA6)


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


def safe(text: str) -> str:
    """User-supplied text (a display name, a typed move, a time zone) as literal text:
    markdown escaped, and no mention can form (a zero-width space after every @)."""
    return DISCORD.escape(text)


def name(p) -> str:
    """A player's name, safe to post."""
    return safe(p.name)


def mention(p: ev.PlayerRef) -> str:
    return f"<@{p.user_id}>" if p.platform == PLATFORM and p.user_id.isdigit() else name(p)


def bold(text: str) -> str:
    return DISCORD.bold(text)


def result_text(game: str, white: ev.PlayerRef, black: ev.PlayerRef, result: str | None,
                reason: str | None) -> str:
    return text.result_text(game, white, black, result, reason, DISCORD)


def title(view) -> str:
    return text.title(view)


def players_line(view) -> str:
    return text.players_line(view, DISCORD)


def turn_line(view) -> str:
    """Whose move it is and the time left; or how the game ended."""
    return text.turn_line(view, DISCORD)


def last_move_line(view) -> str | None:
    return text.last_move_line(view, DISCORD)


def board_caption(view, note: str | None = None) -> str:
    """The text of a board post: the game, the last move, whose turn and the time left."""
    return text.board_caption(view, DISCORD, note)


setup_hint = text.setup_hint


def thread_name(view) -> str:
    return f"#{view.id} {game_name(view.game)}: {view.white.name} vs {view.black.name}"[:100]


def challenge_text(c, opponent_mention: str | None = None) -> str:
    """A challenge message: who, what, clock, colour."""
    return text.challenge_text(c, DISCORD, opponent_mention)


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
    """One line of the player's games, for autocomplete (plain) and (``clean=safe``) /games."""
    return text.game_line(s, DISCORD if clean is safe else text.PLAIN)[:100]


def games_embed(summaries, challenges, me_id: int) -> discord.Embed:
    e = discord.Embed(title="Your games", colour=COLOUR_INFO)
    if summaries:
        e.description = text.games_text(summaries, (), me_id, DISCORD)
    else:
        e.description = "No games yet: start one with `/challenge`."
    if challenges:
        lines = [text.challenge_line(c, me_id, DISCORD) for c in challenges[:10]]
        e.add_field(name="Open challenges", value="\n".join(lines)[:1024], inline=False)
    return e


# --- notices (the service's events) ---------------------------------------------------

def event_text(e: ev.Event, where: str | None = None) -> str | None:
    """What a notice says to its recipient; None: nothing to say (not for this adapter)."""
    return text.event_text(e, DISCORD, where)


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
`/ratings`: a game's leaderboard and your own ratings (games are rated unless the challenge \
says `rated: False`; games against the computer never are).

**Play the computer**
`/challenge` with the computer option (or this bot as the opponent) and a level from 1 to 5. \
In its games `/hint` shows the move it would play; after any game `/review` marks each move's \
blunders and best replies.

**You**
`/settings`: notices by DM or in a channel, quiet hours and time zone, daily digest, vacation, \
confirming moves before they are made, blocking someone's challenges (`block`, `unblock`).

The `game` option is only needed outside the game's thread when you have several games."""

# the typed commands, from the one grammar, when the bot reads messages (the intent is on)
HELP += ("\n\n**Typed in a game's thread** (if this bot reads messages)\n"
         + ", ".join(DISCORD.code(spec.usage) for spec in typed_grammar()
                     if spec.needs_game and spec.name != "premove")  # premove: in private, /premove
         + ", and `help` for the rest.")
