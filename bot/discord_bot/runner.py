"""The Discord client: intents, the command tree and its sync, the persistent buttons,
the reminder scheduler, and a clean stop; ``DiscordAdapter`` is the bot as one adapter of
``fairypost run`` (bot/adapters.py)."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from bot.computer.player import Computer
from bot.config import Settings
from bot.delivery.notifiers import Notifiers
from bot.operations.service import GameService
from bot.timekeeping.reminders import ReminderScheduler

from . import commands, tournament_commands, tournament_join, typed, views, waiting
from .core import Fairy
from .notifier import DiscordNotifier
from .replies import report
from .shards import Shards
from .translator import FairypostTranslator

log = logging.getLogger("bot.discord_bot")

NEEDS_INTENT = """\
Discord refused the Message Content intent. Either turn it on (Developer Portal, your
application, Bot, Privileged Gateway Intents, Message Content Intent), or unset
FAIRYPOST_DISCORD_MESSAGE_CONTENT: /move and the Move button work without it."""

BAD_TOKEN = "Discord refused the token: check DISCORD_TOKEN (Developer Portal, Bot, Reset Token)."


def make_intents(settings: Settings) -> discord.Intents:
    """The default intents; message content (privileged) only if configured, for moves
    typed in game threads."""
    intents = discord.Intents.default()
    intents.message_content = bool(settings.discord_message_content)
    return intents


class FairyTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report(interaction, error)


class FairyClient(discord.Client):
    """The bot. ``fairy`` is set in ``setup_hook`` (after login, before the gateway)."""

    fairy: Fairy | None = None
    scheduler: ReminderScheduler | None = None
    web = None  # the game pages' aiohttp runner, when FAIRYPOST_WEB_PORT is set

    #: the shards this process runs (a ShardedFairyClient's), None: the whole bot
    shards: Shards | None = None

    def __init__(self, settings: Settings, *, service: GameService | None = None, hosted: bool = False,
                 **client_options):
        super().__init__(intents=make_intents(settings), allowed_mentions=discord.AllowedMentions.none(),
                         **client_options)
        self.settings = settings
        self.tree = FairyTree(self)
        commands.add_commands(self.tree)
        self.tree.add_command(tournament_commands.tournament)
        self.fairy = Fairy(service, self) if service is not None else None
        # hosted: one adapter of `fairypost run` (bot/adapters.py), which owns the service,
        # the computer, the reminders and the pages; else the client runs its own
        self.hosted = hosted
        self.scheduler = None
        self._closed = False

    async def setup_hook(self) -> None:
        if not self.hosted:
            await self._own_service()
        await self.tree.set_translator(FairypostTranslator())  # Discord's own localisations
        self.add_dynamic_items(*views.DYNAMIC_ITEMS, *waiting.DYNAMIC, tournament_join.JoinTournament)
        if self.shards is None or self.shards.syncs_commands:  # one process registers them
            await self.sync_commands()

    async def _own_service(self) -> None:
        """A client alone: its service (if none was given), the computer, delivery, the
        reminders and (FAIRYPOST_WEB_PORT) the game pages."""
        if self.fairy is None:
            # the computer plays its own notices' games (bot/computer/player.py), in a worker process
            computer = Computer()
            await computer.start()  # a worker that cannot start: refused now, not at the first turn
            service = await GameService.open(self.settings,
                                             notifier=Notifiers([DiscordNotifier(self), computer]))
            self.fairy = Fairy(service, self)
            computer.bind(service, act=self.fairy.act)
            self.fairy.computer = computer
            await computer.resume()
        self.fairy.service.start_delivery()  # commands answer at once; notices follow in the background
        self.scheduler = ReminderScheduler(self.fairy.service)
        await self.scheduler.start()
        if self.settings.web_port:  # the game pages beside the bot (bot/web/)
            from bot.web.server import start as start_web
            self.web = await start_web(self.fairy.service, self.settings)

    async def sync_commands(self) -> None:
        try:
            if self.settings.discord_guild_id:
                guild = discord.Object(id=self.settings.discord_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            log.info("registered %d slash commands%s", len(synced),
                     f" in server {self.settings.discord_guild_id}" if self.settings.discord_guild_id else "")
        except discord.HTTPException:
            log.exception("could not register the slash commands: was the bot invited with the "
                          "applications.commands scope?")

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds))

    async def on_message(self, message: discord.Message) -> None:
        if self.settings.discord_message_content:
            await typed.on_message(self.fairy, message)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.scheduler is not None:
            self.scheduler.shutdown()
        if self.web is not None:
            await self.web.cleanup()
        await super().close()
        if self.fairy is not None and not self.hosted:
            if self.fairy.computer is not None:
                await self.fairy.computer.close()
            await self.fairy.service.close()


class ShardedFairyClient(FairyClient, discord.AutoShardedClient):
    """The bot running some of its shards (``fairypost run --shards A-B --shard-count N``)."""

    def __init__(self, settings: Settings, shards: Shards, **kw):
        super().__init__(settings, **shards.client_options(), **kw)
        self.shards = shards


def make_client(settings: Settings, shards: Shards | None = None, **kw) -> FairyClient:
    return FairyClient(settings, **kw) if shards is None else ShardedFairyClient(settings, shards, **kw)


class DiscordAdapter:
    """The Discord bot as one adapter of ``fairypost run`` (bot/adapters.py)."""

    name = "discord"

    def __init__(self, settings: Settings, client: FairyClient | None = None,
                 shards: Shards | None = None):
        self.settings = settings
        self.client = client or make_client(settings, shards, hosted=True)
        self.notifier = DiscordNotifier(self.client)
        self.act = None
        self._connection: asyncio.Future | None = None

    def attach(self, service: GameService) -> Fairy:
        """The bot's side of the service (no connection yet)."""
        fairy = Fairy(service, self.client)
        self.client.fairy = fairy
        self.act = fairy.act
        return fairy

    def use_computer(self, computer: Computer) -> None:
        self.client.fairy.computer = computer

    async def start(self, service: GameService) -> None:
        self.attach(service)
        await self.client.login(self.settings.discord_token)  # its setup_hook: buttons, commands
        self._connection = asyncio.ensure_future(self.client.connect())

    async def wait(self) -> None:
        if self._connection is not None:
            await self._connection

    async def stop(self) -> None:
        await self.client.close()


def explain(error: BaseException) -> str | None:
    """A Discord failure in the server owner's words."""
    if isinstance(error, discord.LoginFailure):
        return BAD_TOKEN
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return NEEDS_INTENT
    if isinstance(error, (OSError, discord.GatewayNotFound)):
        return f"fairypost: cannot reach Discord: {error}"
    return None
