"""Discord's trimmings on the bot's words: the words are bot/words/text.py's, with Discord's
markdown (``text.DISCORD``); here are only the embeds, colours, mentions and links."""

from __future__ import annotations

from functools import cache

import discord

import rules
from bot.commands.run import typed_grammar
from bot.delivery import events as ev
from bot.words import text
from bot.words.game_texts import PIECES, piece_line, rules_body
from bot.words.text import DISCORD, REASONS, colour_text, days_text, game_name, side_name  # noqa: F401 - shared words
from bot.words.timetext import plural, time_left  # noqa: F401 - the bot's words for durations, shared

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


def rules_embed(game: str) -> discord.Embed:
    """A game's rules in the words of the terminal's rules command (bot/words/game_texts.py): the
    summary, the special rules and the end in the description (at most 4096), the pieces
    in fields of at most 1024 characters."""
    g = rules.game(game)
    e = discord.Embed(title=g.name, description=DISCORD.lines(rules_body(g, DISCORD))[:4096],
                      colour=COLOUR_INFO)
    chunk = ""
    for key, t in g.types.items():
        line = DISCORD.lines(piece_line(key, t, DISCORD))
        if chunk and len(chunk) + 1 + len(line) > 1024:
            e.add_field(name=PIECES if not e.fields else f"{PIECES} (more)", value=chunk, inline=False)
            chunk = ""
        chunk = f"{chunk}\n{line}" if chunk else line[:1024]
    if chunk:
        e.add_field(name=PIECES if not e.fields else f"{PIECES} (more)", value=chunk, inline=False)
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


def help_text(slash_commands) -> str:
    """/help: the slash commands (their descriptions) and the typed ones (the grammar's words)."""
    return text.slash_help({c.name: c.description for c in slash_commands}, typed_grammar(), DISCORD)
