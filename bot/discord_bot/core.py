"""``Fairy``: what every handler shares. The service, the client, the links, and the few
steps that several handlers take: who the user is, which game they mean, playing a
move, posting a board in a game's thread, opening that thread."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

import rules
from bot.errors import ServiceError
from bot.players import Player
from bot.service import GameService, GameView, MoveResult

from . import PLATFORM, format, images
from .replies import note_game
from .threads import Links

log = logging.getLogger("bot.discord_bot")

NO_PINGS = discord.AllowedMentions.none()


def fairy_of(interaction: discord.Interaction) -> Fairy:
    return interaction.client.fairy  # type: ignore[attr-defined]


def board_flip(view: GameView) -> bool:
    """Seen from the player to move (from White once the game is over)."""
    return view.status == "active" and view.turn == "b"


class Fairy:
    def __init__(self, service: GameService, client: discord.Client):
        self.service = service
        self.client = client
        self.links = Links(service.store)
        self._held: dict[int, list[Callable[[], Awaitable]]] = {}
        self._depth: dict[int, int] = {}

    # --- who and what -----------------------------------------------------------

    async def player(self, user: discord.abc.User) -> Player:
        return await self.service.player(PLATFORM, str(user.id), user.display_name)

    async def resolve_game(self, interaction: discord.Interaction, player: Player,
                           game_id: int | None = None, *, my_move: bool = False,
                           finished: bool = False, spectate: bool = False) -> int:
        """The game a command is about: the one named; else the player's game in this
        thread (anyone's, with ``spectate``); else the player's only game in progress
        (with ``my_move``: their only game where it is their move)."""
        if game_id is not None:
            note_game(interaction, game_id)
            return game_id
        mine = await self.service.list_games(player.id, include_finished=True)
        ids = {s.id for s in mine}
        if interaction.channel_id is not None:
            in_thread = await self.links.games_in(interaction.channel_id)
            here = [g for g in in_thread if g in ids]
            active = [s.id for s in mine if s.id in here and s.status == "active"]
            if active or here or (spectate and in_thread):
                gid = (active or here or in_thread)[-1]
                note_game(interaction, gid)
                return gid
        candidates = [s for s in mine if s.status == "active" or finished]
        if my_move and len([s for s in candidates if s.my_move]) == 1:
            candidates = [s for s in candidates if s.my_move]
        if not candidates:
            raise ServiceError("you have no game in progress: start one with /challenge")
        if len(candidates) > 1:
            listed = ", ".join(f"#{s.id}" for s in candidates[:10])
            raise ServiceError(f"you have several games ({listed}): say which with the game option")
        note_game(interaction, candidates[0].id)
        return candidates[0].id

    async def position(self, view: GameView):
        """The position ``view`` shows, with its history (the last move is marked from it):
        the service's cached replay; if the game has moved on since, ``view``'s own."""
        pos = await self.service.position(view.id)
        return pos if pos.fen() == view.fen else rules.from_fen(view.game, view.fen)

    async def channel(self, channel_id: int):
        ch = self.client.get_channel(channel_id)
        return ch if ch is not None else await self.client.fetch_channel(channel_id)

    async def user(self, user_id: int):
        u = self.client.get_user(user_id)
        return u if u is not None else await self.client.fetch_user(user_id)

    async def thread_link(self, game_id: int) -> str | None:
        row = await self.links.thread_of(game_id)
        return format.link(row.guild_id, row.thread_id) if row else None

    # --- doing ------------------------------------------------------------------

    async def act(self, game_id: int, op: Callable[[], Awaitable], *, note: str | None = None,
                  post: Callable[[GameView], bool] = lambda gv: True):
        """Run a service operation on a game, then post its board in the thread (if
        ``post`` says so). Notices for that thread that the operation sends wait until
        the board is there, so that the thread reads in order."""
        self._held.setdefault(game_id, [])
        self._depth[game_id] = self._depth.get(game_id, 0) + 1
        try:
            result = await op()
            view = result.game if isinstance(result, MoveResult) else result
            if post(view):
                await self.post_board(view, note)
            return result
        finally:
            self._depth[game_id] -= 1
            if not self._depth[game_id]:
                del self._depth[game_id]
                for send in self._held.pop(game_id, []):
                    try:
                        await send()
                    except Exception:  # counted as delivered: log it
                        log.warning("a held notice for game #%d could not be posted", game_id, exc_info=True)

    def hold(self, game_id: int | None, send: Callable[[], Awaitable]) -> bool:
        """Keep a post to a game's thread until its board is posted; False if nothing is
        under way on that game (then send now)."""
        if game_id is None or game_id not in self._depth:
            return False
        self._held[game_id].append(send)
        return True

    async def play(self, player_id: int, game_id: int, text: str,
                   expected_ply: int | None = None) -> MoveResult:
        """Play a move and post the new board in the game's thread."""
        return await self.act(game_id, lambda: self.service.move(game_id, player_id, text,
                                                                 expected_ply=expected_ply))

    async def board_file(self, view: GameView, *, flip: bool | None = None,
                         highlight: str | None = None) -> discord.File:
        pos = await self.position(view)
        return await images.board_file(pos, flip=board_flip(view) if flip is None else flip,
                                       highlight=highlight, name=f"game{view.id}-{view.ply}.png",
                                       outcome=(view.result, view.reason))

    async def post_board(self, view: GameView, note: str | None = None,
                         ping: tuple[str, ...] = ()) -> discord.Message | None:
        """Post the board in the game's thread, with the buttons while the game goes on;
        the previous board loses its buttons. A failure is logged, never raised: the
        game has already changed."""
        from .views import board_view
        row = await self.links.thread_of(view.id)
        if row is None:
            return None
        try:
            thread = await self.channel(int(row.thread_id))
            content = format.board_caption(view, note)
            mentions = NO_PINGS
            if ping:
                content += "\n" + " ".join(f"<@{u}>" for u in ping)
                mentions = discord.AllowedMentions(everyone=False, roles=False, users=True)
            kwargs = {"content": content[:2000], "file": await self.board_file(view),
                      "allowed_mentions": mentions}
            if view.status == "active":
                kwargs["view"] = board_view(view.id)
            msg = await thread.send(**kwargs)
        except Exception:  # Discord refused or is down; the move stands
            log.warning("could not post the board of game #%d in thread %s", view.id, row.thread_id,
                        exc_info=True)
            return None
        if row.board_message_id:
            try:
                await thread.get_partial_message(int(row.board_message_id)).edit(view=None)
            except Exception:  # noqa: BLE001 - deleted or too old: nothing to tidy
                log.debug("could not strip the buttons of game #%d's old board", view.id)
        await self.links.set_board_message(view.id, msg.id)
        return msg

    async def open_thread(self, view: GameView, channel, message=None):
        """A public thread for the game, hanging off the challenge message if there is one,
        and its first board (pinging both players adds them to the thread)."""
        name = format.thread_name(view)
        try:
            if message is not None:
                thread = await message.create_thread(name=name, auto_archive_duration=10080)
            else:
                thread = await channel.create_thread(name=name, auto_archive_duration=10080,
                                                     type=discord.ChannelType.public_thread)
        except (discord.HTTPException, AttributeError, TypeError):
            # no thread here (no permission, or the challenge was made in a thread): the
            # game is played in the channel itself
            log.warning("could not open a thread for game #%d; using channel %s", view.id,
                        getattr(channel, "id", "?"), exc_info=True)
            thread = channel
        guild_id = getattr(getattr(channel, "guild", None), "id", None)
        await self.links.set_thread(view.id, guild_id, channel.id, thread.id)
        players = tuple(p.user_id for p in (view.white, view.black) if p.platform == PLATFORM)
        await self.post_board(view, note="The game begins.", ping=players)
        return thread
