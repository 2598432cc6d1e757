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
from bot.words.text import DISCORD, REASONS, Markup, colour_text, days_text, game_name, side_name  # noqa: F401 - shared words
from bot.words.timetext import plural, time_left  # noqa: F401 - the bot's words for durations, shared
from language import ENGLISH, Language, T, Text, known

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


def rules_embed(game: str, *, m: Markup = DISCORD) -> discord.Embed:
    """A game's rules in the words of the terminal's rules command (bot/words/game_texts.py): the
    summary, the special rules and the end in the description (at most 4096), the pieces
    in fields of at most 1024 characters."""
    g = rules.game(game)
    pieces = m.tr(PIECES)
    e = discord.Embed(title=m.data(g.name), description=m.lines(rules_body(g, m))[:4096],
                      colour=COLOUR_INFO)
    chunk = ""
    for key, t in g.types.items():
        line = m.lines(piece_line(key, t, m))
        if chunk and len(chunk) + 1 + len(line) > 1024:
            e.add_field(name=pieces if not e.fields else m.tr("{pieces} (more)", pieces=pieces), value=chunk,
                        inline=False)
            chunk = ""
        chunk = f"{chunk}\n{line}" if chunk else line[:1024]
    if chunk:
        e.add_field(name=pieces if not e.fields else m.tr("{pieces} (more)", pieces=pieces), value=chunk,
                    inline=False)
    return e


def piece_embed(game: str, key: str, *, m: Markup = DISCORD) -> discord.Embed:
    """One piece's card text: its move in words from the game's data file, as the
    terminal's piece command says it."""
    ptype = rules.game(game).types[key]
    return discord.Embed(title=f"{m.data(ptype.name)} ({key}) · {m.data(game_name(game))}",
                         description=m.data(ptype.description)[:4096] or None, colour=COLOUR_INFO)


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
                reason: str | None, *, m: Markup = DISCORD) -> str:
    return text.result_text(game, white, black, result, reason, m)


def title(view, *, m: Markup = DISCORD) -> str:
    """'Game #3 · Chess' in the reader's language (not escaped: the caller marks it up)."""
    return text.title(view, m)


def players_line(view, *, m: Markup = DISCORD) -> str:
    return text.players_line(view, m)


def turn_line(view, *, m: Markup = DISCORD) -> str:
    """Whose move it is and the time left; or how the game ended."""
    return text.turn_line(view, m)


def last_move_line(view, *, m: Markup = DISCORD) -> str | None:
    return text.last_move_line(view, m)


def board_caption(view, note: str | None = None, *, m: Markup = DISCORD) -> str:
    """The text of a board post: the game, the last move, whose turn and the time left."""
    return text.board_caption(view, m, note)


setup_hint = text.setup_hint


def thread_name(view, *, m: Markup = DISCORD) -> str:
    """A game thread's name (plain: Discord shows no markup there), in ``m``'s language."""
    return m.tr("#{id} {game}: {white} vs {black}", id=view.id, game=game_name(view.game, m),
                white=view.white.name, black=view.black.name)[:100]


def challenge_text(c, opponent_mention: str | None = None, *, m: Markup = DISCORD) -> str:
    """A challenge message: who, what, clock, colour."""
    return text.challenge_text(c, m, opponent_mention)


def ambiguous_move(text: str, game_ids: list[int], *, how: str = "") -> Text:
    """The question when a move fits several of the player's games in one channel (a Text
    with raw values: ``m.say`` escapes them); ``how``: "slash" (the /move command's game
    option) or "typed" (a move typed in a message: /move and its game option)."""
    listed = known(", ".join(f"#{g}" for g in game_ids[:10]))  # ours, not a user's: not escaped
    if how == "typed":
        return T("{move} is a move in several of your games here ({games}): say which with /move and its "
                 "game option.", move=text, games=listed)
    return T("{move} is a move in several of your games here ({games}): say which with the game option",
             move=text, games=listed)


def link(guild_id: str | None, channel_id: str | None) -> str | None:
    if not channel_id:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def game_choice_name(s, clean=str, *, lang: Language = ENGLISH) -> str:
    """One line of the player's games, for autocomplete (plain) and (``clean=safe``) /games."""
    return text.game_line(s, (DISCORD if clean is safe else text.PLAIN).in_language(lang))[:100]


def games_embed(summaries, challenges, me_id: int, *, m: Markup = DISCORD) -> discord.Embed:
    e = discord.Embed(title=m.tr("Your games"), colour=COLOUR_INFO)
    if summaries:
        e.description = text.games_text(summaries, (), me_id, m)
    else:
        e.description = m.tr("No games yet: start one with {command}.", command=m.code("/challenge"))
    if challenges:
        lines = [text.challenge_line(c, me_id, m) for c in challenges[:10]]
        e.add_field(name=m.tr("Open challenges"), value="\n".join(lines)[:1024], inline=False)
    return e


# --- notices (the service's events) ---------------------------------------------------

def event_text(e: ev.Event, where: str | None = None, *, m: Markup = DISCORD) -> str | None:
    """What a notice says to its recipient (``m``: in their language); None: nothing to say."""
    return text.event_text(e, m, where)


def help_text(slash_commands, *, m: Markup = DISCORD) -> str:
    """/help: the slash commands (their descriptions, as the translator gives them to Discord)
    and the typed ones (the grammar's words)."""
    return text.slash_help({c.name: m.tr(c.description) for c in slash_commands}, typed_grammar(), m)
