"""``Fairy``: what every handler shares. The service, the client, the links, and the few
steps that several handlers take: who the user is, which game they mean, playing a
move, posting a board in a game's thread, opening that thread."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

import rules
from bot.domain.errors import NotAPlayer, NotFound, ServiceError
from bot.identity.links import link_suffix
from bot.identity.players import Player
from bot.operations.service import GameService, GameView, MoveResult
from bot.words.text import DISCORD, Markup
from language import T, known
from rules.errors import RulesError

from . import PLATFORM, access, format, images
from .replies import note_game, pings
from .shared import board_flip, fairy_of, reader
from .threads import Links
from .views import board_view

log = logging.getLogger("bot.discord_bot")

#: the notes under a board posted in a thread ("Move taken back."): said in the thread's language
NOTES = (T("The game begins."), T("Move taken back."))


async def lookup_game(interaction: discord.Interaction) -> tuple[Fairy, Player, GameView] | None:
    """For an autocomplete: the adapter, the player and the game the options name (or this
    thread's, or their only one); None once the player's lookups are spent."""
    fairy = fairy_of(interaction)
    me = await fairy.player(interaction.user)
    if not await fairy.service.budget_lookup(me.id):
        return None
    gid = await fairy.resolve_game(interaction, me, getattr(interaction.namespace, "game", None))
    return fairy, me, await fairy.service.game(gid)


def _pick(games, my_move: bool, where: str) -> int:
    """The one game meant among ``games`` (with ``my_move``, preferring those where it is
    the player's move); several: the player is asked which."""
    if my_move and any(s.my_move for s in games):
        games = [s for s in games if s.my_move]
    if len(games) > 1:
        listed = known(", ".join(f"#{s.id}" for s in games[:10]))  # ours, not a user's: not escaped
        if where == "here":
            raise ServiceError(T("you have several games here ({games}): say which with the game option",
                                 games=listed))
        raise ServiceError(T("you have several games ({games}): say which with the game option", games=listed))
    return games[0].id


def _reason(error: BaseException) -> str:
    """One line on why Discord refused."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or type(error).__name__}".strip()
    return type(error).__name__


class Fairy:
    def __init__(self, service: GameService, client: discord.Client):
        self.service = service
        self.client = client
        self.links = Links(service.store)
        self.computer = None  # bot.computer.player.Computer, when the computer plays here (the runner's)
        self._held: dict[int, list[Callable[[], Awaitable]]] = {}
        self._depth: dict[int, int] = {}

    # --- who and what -----------------------------------------------------------

    async def player(self, user: discord.abc.User) -> Player:
        return await self.service.player(PLATFORM, str(user.id), user.display_name)

    async def me(self, interaction: discord.Interaction) -> tuple[Player, Markup]:
        """The asker, and their markup in the language they read (shared.reader)."""
        player = await self.player(interaction.user)
        return player, await reader(interaction, player)

    async def resolve_game(self, interaction: discord.Interaction, player: Player,
                           game_id: int | None = None, *, my_move: bool = False,
                           finished: bool = False, spectate: bool = False) -> int:
        """The game a command is about: the one named (if the player may see it here);
        else the player's game in this thread or channel (anyone's, with ``spectate``);
        else the player's only game in progress (with ``my_move``: their only game where
        it is their move). Where several fit, the player is asked to say which."""
        if game_id is not None:
            note_game(interaction, game_id)
            await self.visible_game(interaction, player, game_id)
            return game_id
        mine = await self.service.list_games(player.id, include_finished=True)
        if interaction.channel_id is not None:
            in_thread = await self.links.games_in(interaction.channel_id)
            here = [s for s in mine if s.id in in_thread]
            if here:
                gid = _pick([s for s in here if s.status == "active"] or here, my_move, "here")
            elif in_thread and spectate:
                gid = in_thread[-1]
            elif in_thread:
                raise NotAPlayer(T("game #{game} here is not your game (you can watch it with {command}); "
                                   "for one of yours, say which with the game option",
                                   game=in_thread[-1], command="/board"))
            else:
                gid = None
            if gid is not None:
                note_game(interaction, gid)
                return gid
        candidates = [s for s in mine if s.status == "active" or finished]
        if not candidates:
            raise ServiceError(T("you have no game in progress: start one with {command}", command="/challenge"))
        gid = _pick(candidates, my_move, "")
        note_game(interaction, gid)
        return gid

    async def visible_game(self, interaction: discord.Interaction, player: Player,
                           game_id: int) -> GameView:
        """Game ``game_id``, if the player may see it from here (access.can_see)."""
        try:
            view = await self.service.game(game_id)
        except NotFound:
            raise access.no_game(game_id) from None
        if not access.can_see(view, player.id, interaction.guild_id):
            raise access.no_game(game_id)
        return view

    async def games_fitting(self, user: discord.abc.Snowflake, game_ids: list[int],
                            text: str) -> list[GameView]:
        """Of these games, those where it is the user's move and ``text`` is a legal move."""
        out = []
        for gid in game_ids:
            view = await self.service.game(gid)
            who = view.to_move
            if (view.status != "active" or who is None or who.platform != PLATFORM
                    or who.user_id != str(user.id)):
                continue
            try:
                (await self.position(view)).parse(text.strip())
            except RulesError:
                continue
            out.append(view)
        return out

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
                         highlight: str | None = None, m: Markup = DISCORD) -> discord.File:
        """The game's board as a picture, its words (the banner) in ``m``'s language."""
        pos = await self.position(view)
        return await images.board_file(pos, flip=board_flip(view) if flip is None else flip,
                                       highlight=highlight, name=f"game{view.id}-{view.ply}.png",
                                       outcome=(view.result, view.reason), lang=m.lang)

    async def thread_readers(self, view: GameView) -> list[Markup]:
        """The markups of a game's thread, which both players read: one when they read the
        same language (the computer reads any), else White's and Black's, so that each
        post says everything in both (English when no player of ours is in it)."""
        codes: list[str] = []
        for ref in (view.white, view.black):
            if ref.platform != PLATFORM:
                continue
            try:
                code = (await self.service.get_player(ref.id)).reads()
            except ServiceError:  # (the computer, or a player gone: no language of theirs)
                continue
            if code not in codes:
                codes.append(code)
        return [DISCORD.in_language(c) for c in codes] or [DISCORD]

    async def post_board(self, view: GameView, note: str | None = None,
                         ping: tuple[str, ...] = ()) -> discord.Message | None:
        """Post the board in the game's thread, with the buttons while the game goes on;
        the previous board loses its buttons. A failure is logged, never raised: the
        game has already changed."""
        row = await self.links.thread_of(view.id)
        if row is None:
            return None
        try:
            thread = await self.channel(int(row.thread_id))
            readers = await self.thread_readers(view)
            m = readers[0]  # the picture's words: the first player's language
            content = "\n\n".join(format.board_caption(view, r.tr(note) if note else None, m=r)
                                   for r in readers) + link_suffix(self.service.settings, view.id)
            if ping:
                content += "\n" + " ".join(f"<@{u}>" for u in ping)
            kwargs = {"content": content[:2000], "file": await self.board_file(view, m=m),
                      "allowed_mentions": pings(*ping)}
            if view.status == "active":
                kwargs["view"] = board_view(view.id, m=m, also=readers[1:])
            msg = await thread.send(**kwargs)
        except discord.HTTPException as e:  # Discord refused or is down; the move stands
            log.warning("could not post the board of game #%d in thread %s (%s)", view.id, row.thread_id,
                        _reason(e))
            return None
        except Exception:  # a bug: its traceback
            log.exception("could not post the board of game #%d in thread %s", view.id, row.thread_id)
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
        name = format.thread_name(view, m=(await self.thread_readers(view))[0])
        try:
            if message is not None:
                thread = await message.create_thread(name=name, auto_archive_duration=10080)
            else:
                thread = await channel.create_thread(name=name, auto_archive_duration=10080,
                                                     type=discord.ChannelType.public_thread)
        except (discord.HTTPException, AttributeError, TypeError) as e:
            # expected: no permission, or the challenge was made in a thread (no thread
            # hangs off a thread). The game is played in the channel itself.
            log.info("no thread for game #%d (%s); it is played in channel %s", view.id,
                     _reason(e), getattr(channel, "id", "?"))
            thread = channel
        guild_id = getattr(getattr(channel, "guild", None), "id", None)
        await self.links.set_thread(view.id, guild_id, channel.id, thread.id)
        players = tuple(p.user_id for p in (view.white, view.black) if p.platform == PLATFORM)
        await self.post_board(view, note="The game begins.", ping=players)
        return thread
