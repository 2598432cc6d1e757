"""Buttons that keep working after a restart, and the modals they open.

Every button is a ``DynamicItem``: what it acts on is in its custom id (``fp:move:12``:
game 12), and the client registers the classes (``DYNAMIC_ITEMS``) at start, so a press
on a message posted by an earlier run finds its game again. The handlers translate to
the service and back; errors become private answers (``replies.report``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import ClassVar

import discord
from discord import ui

from bot.domain.errors import GameOver, NotAPlayer, NotYourTurn
from bot.operations.square_moves import square_moves
from bot.words.text import DISCORD, Markup, square_moves_text
from language import T, Text
from rules.errors import RulesError

from . import access, format, suggest
from .replies import NO_PINGS, defer, note_game, report, send
from .shared import board_flip, fairy_of, reader_of


def _check_my_move(gv, player_id: int) -> str:
    """The player's side, if it is their move in an active game; else a refusal."""
    side = gv.side_of(player_id)
    if side is None:
        raise NotAPlayer()
    if gv.status != "active":
        raise GameOver()
    if gv.turn != side:
        raise NotYourTurn(T("it is not your move: {name} is to move", name=gv.to_move.name))
    return side


class _Button(ui.DynamicItem[ui.Button], template=r"fp:-"):
    """Base: ``run`` does the work, any error is answered privately."""

    action: ClassVar[str] = "-"
    #: the label, in the reader's language when posted (``label``: as said for them; a subclass
    #: that sets only ``label`` has it as it is)
    caption: ClassVar[Text | str] = ""
    label: str = ""
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary
    emoji: ClassVar[str | None] = None

    def __init__(self, *ids: int, m: Markup = DISCORD, also: Sequence[Markup] = ()):
        """``m``: the markup of the reader the button is posted for (its label in their language);
        ``also``: other readers of the same button (a thread's players in two languages: the
        label in each, "Coup / Zug")."""
        custom_id = ":".join(["fp", self.action, *map(str, ids)])
        if self.caption:
            self.label = " / ".join(dict.fromkeys(r.lang.say(self.caption) for r in (m, *also)))[:80]
        else:
            self.label = type(self).label
        super().__init__(ui.Button(label=self.label or None, style=self.style, emoji=self.emoji,
                                   custom_id=custom_id))
        self.ids = ids

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*(int(x) for x in match.groups()))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            access.check_button_on_message(interaction, self.custom_id)
            await self.run(interaction, fairy_of(interaction))
        except Exception as e:  # noqa: BLE001 - every error gets a private answer
            await report(interaction, e)

    async def run(self, interaction: discord.Interaction, fairy) -> None:
        raise NotImplementedError

    async def game_and_player(self, interaction: discord.Interaction, fairy):
        """The game a board's button is for (noted as the one the user is at) and who pressed it."""
        (gid,) = self.ids
        note_game(interaction, gid)
        me, _ = await fairy.me(interaction)  # the asker's language: reader_of(interaction) from now on
        return gid, me


# --- challenges ------------------------------------------------------------------------

class AcceptChallenge(_Button, template=r"fp:accept:(\d+)"):
    action, caption, style = "accept", T("Accept"), discord.ButtonStyle.success

    async def run(self, interaction, fairy):
        (cid,) = self.ids
        me, m = await fairy.me(interaction)
        access.check_can_accept(await fairy.service.get_challenge(cid), interaction.guild_id)
        await interaction.response.defer()
        # the game's first notices wait for its thread, so that they link to it
        async with fairy.service.outbox.held():
            gv = await fairy.service.accept_challenge(cid, me.id)
            await edited_here(interaction, fairy, "challenge", cid)
            note_game(interaction, gv.id)
            c = await fairy.service.get_challenge(cid)
            done = format.challenge_text(c, m=m) + "\n✅ " + m.tr("Accepted by {name}: game #{game}.",
                                                                   name=m.bold(me.name), game=gv.id)
            await interaction.edit_original_response(content=done, view=None, allowed_mentions=NO_PINGS)
            channel, message = await self._where(interaction, fairy, cid, done)
            thread = await fairy.open_thread(gv, channel, message) if channel is not None else None
        said = (m.tr("Game #{game} has begun in {thread}.", game=gv.id, thread=thread.mention) if thread is not None
                else m.tr("Game #{game} has begun: see it with {command}.", game=gv.id, command="/board"))
        await send(interaction, said, ephemeral=True)

    @staticmethod
    async def _where(interaction, fairy, cid, done):
        """The challenge's channel and message (the one pressed, or, from a DM, the one
        in the server, which is brought up to date)."""
        row = await fairy.links.challenge_message(cid)
        if row is None:
            return None, None
        mid = int(row.message_id) if row.message_id else None
        if interaction.channel_id == int(row.channel_id):
            channel = interaction.channel
        else:
            try:
                channel = await fairy.channel(int(row.channel_id))
            except discord.HTTPException:
                return None, None
        if mid is None:
            return channel, None
        if interaction.message is not None and interaction.message.id == mid:
            return channel, interaction.message
        message = channel.get_partial_message(mid)
        try:
            await message.edit(content=done, view=None, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            pass
        return channel, message


class DeclineChallenge(_Button, template=r"fp:decline:(\d+)"):
    """Declines; pressed by the challenger, withdraws the challenge."""

    action, caption, style = "decline", T("Decline"), discord.ButtonStyle.secondary

    async def run(self, interaction, fairy):
        (cid,) = self.ids
        me, m = await fairy.me(interaction)
        c = await fairy.service.get_challenge(cid)
        async with fairy.service.outbox.held():  # the challenger's notice once this is answered
            if c.challenger.id == me.id:
                c = await fairy.service.cancel_challenge(cid, me.id)
                how = m.tr("Withdrawn by {name}.", name=m.bold(me.name))
            else:
                c = await fairy.service.decline_challenge(cid, me.id)
                how = m.tr("Declined by {name}.", name=m.bold(me.name))
            await edited_here(interaction, fairy, "challenge", cid)
            text = format.challenge_text(c, m=m) + "\n❌ " + how
            # the message pressed carries this challenge's button (checked before ``run``)
            await interaction.response.edit_message(content=text, view=None, allowed_mentions=NO_PINGS)
        row = await fairy.links.challenge_message(cid)  # pressed in a DM: the server's copy too
        if row and row.message_id and (interaction.message is None or interaction.message.id != int(row.message_id)):
            try:
                channel = await fairy.channel(int(row.channel_id))
                await channel.get_partial_message(int(row.message_id)).edit(content=text, view=None,
                                                                            allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                pass


async def edited_here(interaction, fairy, what: str, ref_id: int) -> None:
    """A handler that settles an offer rewrites the message pressed (and a challenge's
    message in its channel) itself: the notifier is not to disable their buttons too,
    which would put them back, greyed, under the handler's words."""
    ids = [interaction.message.id if interaction.message is not None else None]
    if what == "challenge":
        row = await fairy.links.challenge_message(ref_id)
        ids.append(int(row.message_id) if row is not None and row.message_id else None)
    await fairy.links.take_offer_messages(what, ref_id, ids)


def challenge_view(challenge_id: int, *, m: Markup = DISCORD) -> ui.View:
    v = ui.View(timeout=None)
    v.add_item(AcceptChallenge(challenge_id, m=m))
    v.add_item(DeclineChallenge(challenge_id, m=m))
    return v


# --- the board's buttons -------------------------------------------------------------

class MoveButton(_Button, template=r"fp:move:(\d+)"):
    action, caption, style, emoji = "move", T("Move"), discord.ButtonStyle.primary, "♟️"

    async def run(self, interaction, fairy):
        gid, me = await self.game_and_player(interaction, fairy)
        gv = await fairy.service.game(gid)
        _check_my_move(gv, me.id)
        found = await asyncio.to_thread(suggest.suggest_moves, await fairy.position(gv), "", limit=4)
        examples = [san for _, san in found]
        await interaction.response.send_modal(MoveModal(gid, gv.ply, examples, m=reader_of(interaction)))


class DrawButton(_Button, template=r"fp:draw:(\d+)"):
    action, caption, emoji = "draw", T("Offer draw"), "🤝"

    async def run(self, interaction, fairy):
        gid, me = await self.game_and_player(interaction, fairy)
        await defer(interaction)
        gv = await fairy.act(gid, lambda: fairy.service.offer_draw(gid, me.id),
                             post=lambda gv: gv.status != "active")
        if gv.status != "active":
            await send(interaction, reader_of(interaction).tr("You accepted the draw offer: the game is drawn."))
        else:
            m = reader_of(interaction)
            await send(interaction, m.tr("You offered a draw; {name} has been told.",
                                         name=format.name(_opponent(gv, me.id))))


class ResignButton(_Button, template=r"fp:resign:(\d+)"):
    action, caption, style, emoji = "resign", T("Resign"), discord.ButtonStyle.danger, "🏳️"

    async def run(self, interaction, fairy):
        gid, me = await self.game_and_player(interaction, fairy)
        await ask_resign(interaction, fairy, gid, me.id)


async def ask_resign(interaction, fairy, gid: int, player_id: int) -> None:
    gv = await fairy.service.game(gid)
    if gv.side_of(player_id) is None:
        raise NotAPlayer()
    if gv.status != "active":
        raise GameOver()
    m = reader_of(interaction)
    v = ui.View(timeout=None)
    v.add_item(ConfirmResign(gid, gv.ply, m=m))
    await send(interaction, m.tr("Resign game #{game} against {name}? This cannot be undone. (Dismiss this "
                                 "message to keep playing.)", game=gid, name=format.name(_opponent(gv, player_id))),
               view=v)


class ConfirmResign(_Button, template=r"fp:resign-yes:(\d+):(\d+)"):
    action, caption, style = "resign-yes", T("Yes, resign"), discord.ButtonStyle.danger

    async def run(self, interaction, fairy):
        gid, ply = self.ids
        note_game(interaction, gid)
        me, m = await fairy.me(interaction)
        await interaction.response.defer()
        await fairy.act(gid, lambda: fairy.service.resign(gid, me.id, expected_ply=ply))
        await interaction.edit_original_response(content=m.tr("You resigned game #{game}.", game=gid), view=None)


class FlipButton(_Button, template=r"fp:flip:(\d+)"):
    action, caption, emoji = "flip", T("Flip"), "🔄"

    async def run(self, interaction, fairy):
        gid, me = await self.game_and_player(interaction, fairy)
        await fairy.service.budget_read(me.id)
        gv = await fairy.visible_game(interaction, me, gid)
        await defer(interaction)
        flip = not board_flip(gv)
        m = reader_of(interaction)
        seen = format.side_name(gv.game, "b" if flip else "w", m)
        await send(interaction, m.tr("{game}, seen from {side}'s side.", game=format.title(gv, m=m), side=seen) + "\n"
                   + format.turn_line(gv, m=m),
                   file=await fairy.board_file(gv, flip=flip, m=m))


class MyMovesButton(_Button, template=r"fp:mine:(\d+)"):
    action, caption, emoji = "mine", T("My moves"), "🔍"

    async def run(self, interaction, fairy):
        gid, me = await self.game_and_player(interaction, fairy)
        gv = await fairy.service.game(gid)
        _check_my_move(gv, me.id)
        await interaction.response.send_modal(PieceModal(gid, m=reader_of(interaction)))


def board_view(game_id: int, *, m: Markup = DISCORD, also: Sequence[Markup] = ()) -> ui.View:
    """A board's buttons, labelled for ``m``'s reader (and ``also``'s: a thread in two languages)."""
    v = ui.View(timeout=None)
    for cls in (MoveButton, MyMovesButton, FlipButton, DrawButton, ResignButton):
        v.add_item(cls(game_id, m=m, also=also))
    return v


# --- answers to draw offers and takeback requests (on notices) -----------------------

class Answer(_Button, template=r"fp:(draw|takeback)-(accept|decline):(\d+)"):
    """Accept / decline a draw offer or a takeback request."""

    def __init__(self, what: str, answer: str, game_id: int, *, m: Markup = DISCORD):
        self.action = f"{what}-{answer}"
        self.caption = T("Accept") if answer == "accept" else T("Decline")
        self.style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        super().__init__(game_id, m=m)
        self.what, self.answer = what, answer

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match[1], match[2], int(match[3]))

    async def run(self, interaction, fairy):
        gid, me = await self.game_and_player(interaction, fairy)
        op = getattr(fairy.service, f"{self.answer}_{self.what}")
        await interaction.response.defer()
        await fairy.act(gid, lambda: op(gid, me.id), note="Move taken back." if self.what == "takeback" else None,
                        post=lambda gv: self.answer == "accept")
        await edited_here(interaction, fairy, self.what, gid)
        m = reader_of(interaction)
        said = {("draw", "accept"): m.tr("Game #{game}: you accepted the draw offer.", game=gid),
                ("draw", "decline"): m.tr("Game #{game}: you declined the draw offer.", game=gid),
                ("takeback", "accept"): m.tr("Game #{game}: you accepted the takeback.", game=gid),
                ("takeback", "decline"): m.tr("Game #{game}: you declined the takeback.", game=gid)}
        await interaction.edit_original_response(content=said[self.what, self.answer], view=None)


def answer_view(what: str, game_id: int, *, m: Markup = DISCORD) -> ui.View:
    v = ui.View(timeout=None)
    v.add_item(Answer(what, "accept", game_id, m=m))
    v.add_item(Answer(what, "decline", game_id, m=m))
    return v


def offer_view(what: str, ref_id: int, *, settled: bool = False, m: Markup = DISCORD) -> ui.View:
    """The Accept / Decline buttons of a challenge (``ref_id``: its id) or of a game's draw
    offer or takeback request (the game's id); ``settled``: the same, disabled."""
    v = challenge_view(ref_id, m=m) if what == "challenge" else answer_view(what, ref_id, m=m)
    for child in v.children:
        child.item.disabled = settled
    return v


DYNAMIC_ITEMS = (AcceptChallenge, DeclineChallenge, MoveButton, DrawButton, ResignButton,
                 ConfirmResign, FlipButton, MyMovesButton, Answer)


# --- modals ---------------------------------------------------------------------------

class _Modal(ui.Modal):
    def __init__(self, title: str, game_id: int):
        super().__init__(title=title[:45], timeout=600)
        self.game_id = game_id

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        note_game(interaction, self.game_id)
        await report(interaction, error)


class MoveModal(_Modal):
    def __init__(self, game_id: int, ply: int, examples: list[str] = (), *, m: Markup = DISCORD):
        super().__init__(m.tr("Your move in game #{game}", game=game_id), game_id)
        self.ply = ply
        hint = m.tr("for example {moves}", moves=", ".join(examples or ("e4", "Nf3")))
        self.move = ui.TextInput(label=m.tr("Move (SAN like Nf3, or from-to like g1f3)")[:45],
                                 placeholder=hint[:100], max_length=40)
        self.add_item(self.move)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        fairy = fairy_of(interaction)
        note_game(interaction, self.game_id)
        me, _ = await fairy.me(interaction)
        if await asked_first(interaction, fairy, me, self.game_id, self.move.value, typed=True,
                             expected_ply=self.ply):
            return
        await defer(interaction)
        r = await fairy.play(me.id, self.game_id, self.move.value, expected_ply=self.ply)
        await send_played(interaction, r)


class PieceModal(_Modal):
    def __init__(self, game_id: int, *, m: Markup = DISCORD):
        super().__init__(m.tr("Which piece? (game #{game})", game=game_id), game_id)
        self.piece = ui.TextInput(label=m.tr("Its square (like e2) or its name")[:45],
                                  placeholder=f"e2, g1, {m.data('Knight')} …", max_length=30)
        self.add_item(self.piece)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        fairy = fairy_of(interaction)
        note_game(interaction, self.game_id)
        me, m = await fairy.me(interaction)
        await defer(interaction)
        gv = await fairy.service.game(self.game_id)
        side = _check_my_move(gv, me.id)
        text, square = await piece_moves_text(fairy, gv, self.piece.value, m=m)
        await send(interaction, text, file=await fairy.board_file(gv, flip=side == "b", highlight=square, m=m))


# --- shared words -----------------------------------------------------------------------

def _opponent(gv, player_id: int):
    return gv.black if gv.white.id == player_id else gv.white


def played_text(r, *, m: Markup = DISCORD) -> str:
    text = m.tr("You played {move} in game #{game}.", move=m.bold(r.san), game=r.game.id)
    if r.outcome is not None:
        text += " " + format.turn_line(r.game, m=m)
    return text


async def piece_moves_text(fairy, gv, named: str, *, m: Markup = DISCORD) -> tuple[str, str]:
    """'2 moves of the Knight on g1: Nf3 Nh3' for the piece the player named (its square or
    its name), and its square."""
    pos = await fairy.position(gv)
    return await asyncio.to_thread(_piece_moves, pos, named, m)  # legal moves, SAN: off the loop


def _piece_moves(pos, named: str, m: Markup) -> tuple[str, str]:
    found = square_moves(pos, suggest.find_piece(pos, named))
    return square_moves_text(found, m), found.square


# --- the next game ---------------------------------------------------------------------------

class NextGame(_Button, template=r"fp:next"):
    action, caption, emoji = "next", T("Next game"), "⏭️"

    async def run(self, interaction, fairy):
        me, m = await fairy.me(interaction)
        await defer(interaction)
        nxt = await fairy.service.next_game(me.id)
        if nxt is None:
            await send(interaction, m.tr("No game waits for your move."))
            return
        note_game(interaction, nxt.id)
        gv = await fairy.service.game(nxt.id)
        link = await fairy.thread_link(nxt.id)
        text = (m.tr("Your most urgent game:") + "\n" + format.board_caption(gv, m=m)
                + ("\n" + m.tr("Its thread: {link}", link=link) if link else ""))
        v = ui.View(timeout=None)
        v.add_item(MoveButton(nxt.id, m=m))
        v.add_item(NextGame(m=m))
        await send(interaction, text, view=v,
                   file=await fairy.board_file(gv, flip=gv.side_of(me.id) == "b", m=m))


def next_view(*, m: Markup = DISCORD) -> ui.View:
    v = ui.View(timeout=None)
    v.add_item(NextGame(m=m))
    return v


async def send_played(interaction: discord.Interaction, r, extra: str = "") -> None:
    """The answer to a move made: what was played, and the Next game button."""
    m = reader_of(interaction)
    text = played_text(r, m=m) + extra
    if r.answer:
        text += " " + m.tr("Your opponent's conditional answer {move} was played at once.", move=m.bold(r.answer))
    await send(interaction, text, view=next_view(m=m))


# --- move confirmation -----------------------------------------------------------------------

class ConfirmMove(_Button, template=r"fp:play:(\d+):(\d+):(\S+)"):
    """Plays the move asked about, if the game is still at the ply it was read at."""

    action, caption, style = "play", T("Confirm"), discord.ButtonStyle.success

    def __init__(self, game_id: int, ply: int, lan: str, *, m: Markup = DISCORD):
        super().__init__(game_id, ply, lan, m=m)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match[1]), int(match[2]), match[3])

    async def run(self, interaction, fairy):
        gid, ply, lan = self.ids
        note_game(interaction, gid)
        me, _ = await fairy.me(interaction)
        await defer(interaction)
        r = await fairy.play(me.id, gid, lan, expected_ply=ply)
        await send_played(interaction, r)


async def asked_first(interaction: discord.Interaction, fairy, me, gid: int, text: str, *,
                      typed: bool, expected_ply: int | None = None, reply_to=None) -> bool:
    """If the player confirms their moves (typed ones, or all): ask "Play Nf3?" with a
    Confirm button instead of playing, and say True. False: play it now (no confirmation
    wanted, or the engine does not read the text: the move's refusal says why)."""
    if not me.confirms(typed=typed):
        return False
    gv = await fairy.service.game(gid)
    if gv.status != "active" or (expected_ply is not None and expected_ply != gv.ply):
        return False  # the move's own refusal says what changed
    pos = await fairy.position(gv)
    try:
        move = await asyncio.to_thread(pos.parse, text.strip())
        san = pos.san(move)
    except RulesError:
        return False
    if len(f"fp:play:{gid}:{gv.ply}:{move.lan}") > 100:  # Discord's limit on a custom id
        return False
    m = reader_of(interaction) if interaction is not None else DISCORD.in_language(me.reads())
    v = ui.View(timeout=None)
    v.add_item(ConfirmMove(gid, gv.ply, move.lan, m=m))
    question = m.tr("Play {move} in game #{game}? (Dismiss this to think again.)", move=m.bold(san), game=gid)
    if reply_to is not None:  # a typed message in the thread: the question answers it there
        await reply_to.reply(question, view=v, allowed_mentions=NO_PINGS)
    else:
        await send(interaction, question, view=v)
    return True
