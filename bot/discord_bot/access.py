"""Who may see what, and where. A challenge, and the game it becomes, belong to the server
it was made in (its *scope*, ``discord:guild:<id>``, kept by the service): there anyone
may look at the game; elsewhere (another server, a DM) only its players. Game and
challenge numbers are sequential, so a refusal never says whether the number exists.

Buttons carry their target in their custom id, which a modified client can forge: a
press counts only if the message it came on really carries that button.
"""

from __future__ import annotations

import discord

from bot.domain.errors import NotFound, SettingsError
from bot.operations.service import Challenge, GameView
from language import T

SCOPE_PREFIX = "discord:guild:"


def scope_of(guild_id: int | None) -> str | None:
    """The service's name for a Discord server (None: a DM)."""
    return f"{SCOPE_PREFIX}{guild_id}" if guild_id else None


def can_see(game: GameView, player_id: int, guild_id: int | None) -> bool:
    return game.side_of(player_id) is not None or (game.scope is not None
                                                   and game.scope == scope_of(guild_id))


def no_game(game_id: int) -> NotFound:
    return NotFound(T("there is no game #{game} you can see here", game=game_id))


def check_can_accept(c: Challenge, guild_id: int | None) -> None:
    """An open challenge is accepted in its own server; one made to a player, by that
    player from anywhere (the DM telling them has the buttons too; the service checks
    that it is them)."""
    if c.opponent is None and c.scope is not None and c.scope != scope_of(guild_id):
        raise NotFound(T("there is no challenge #{challenge} you can accept here", challenge=c.id))


def button_ids(message: discord.Message | None) -> set[str]:
    """The custom ids of the buttons on a message."""
    out = set()
    for row in getattr(message, "components", None) or ():
        for child in getattr(row, "children", ()):
            cid = getattr(child, "custom_id", None)
            if cid:
                out.add(cid)
    return out


def check_button_on_message(interaction: discord.Interaction, custom_id: str) -> None:
    """Refuse a press whose custom id is not among its message's buttons (a forged one)."""
    if interaction.message is not None and custom_id not in button_ids(interaction.message):
        raise NotFound(T("that button does not belong to this message"))


# --- where notices may go ---------------------------------------------------------------

_NEEDED = ("view_channel", "send_messages")


def _missing(perms: discord.Permissions, thread: bool) -> list[str]:
    needed = _NEEDED + (("send_messages_in_threads",) if thread else ())
    return [p.replace("_", " ") for p in needed if not getattr(perms, p)]


def check_notice_channel(interaction: discord.Interaction, target) -> None:
    """A channel for a player's notices must be a plain text channel (or a thread of
    one) of this server, where both the player and the bot may read and post."""
    guild = interaction.guild
    if guild is None or interaction.guild_id is None:
        raise SettingsError(T("choose a server channel for your notices (or use this command in one)"))
    if getattr(getattr(target, "guild", None), "id", None) != interaction.guild_id:
        raise SettingsError(T("that channel is not in this server"))
    thread = isinstance(target, discord.Thread)
    parent = target.parent if thread else target
    if not isinstance(parent, discord.TextChannel):
        kind = getattr(getattr(parent, "type", None), "name", "that kind of").replace("_", " ")
        raise SettingsError(T("notices go to a text channel or a thread, not to a channel of this kind ({kind})",
                              kind=kind))
    if parent.is_news():
        raise SettingsError(T("notices cannot go to an announcement channel: choose a text channel"))
    for bot, member in ((False, interaction.user), (True, guild.me)):
        missing = " or ".join(_missing(target.permissions_for(member), thread))  # (Discord's words)
        if missing and bot:
            raise SettingsError(T("in #{channel}, the bot may not {missing}: choose another channel",
                                  channel=target.name, missing=missing))
        if missing:
            raise SettingsError(T("in #{channel}, you may not {missing}: choose another channel",
                                  channel=target.name, missing=missing))
