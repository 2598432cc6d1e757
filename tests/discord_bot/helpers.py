"""Spec'd mocks of discord.py objects, in the manner of python-discord/bot's tests/helpers.py.

Every mock has ``spec_set`` on the real discord.py class, so the code under test can use
only what exists there (a misspelt attribute or a wrong method fails the test), and the
coroutine methods are ``AsyncMock`` (unittest.mock makes them so from the spec). Nothing
here touches the network.
"""

from __future__ import annotations

import itertools
from unittest import mock

import discord

from bot.discord_bot.runner import FairyClient

_ids = itertools.count(5_000)
EVERYONE_MAY_POST = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True)
ANSWER_LOG: dict[int, list[dict]] = {}  # id(interaction) -> its answers, in order


def next_id() -> int:
    return next(_ids)


def spec_mock(cls, **attrs):
    m = mock.MagicMock(spec_set=cls)
    for k, v in attrs.items():
        setattr(m, k, v)
    return m


def make_guild(gid: int | None = None):
    guild = spec_mock(discord.Guild, id=gid or next_id(), name="chess club")
    guild.me = spec_mock(discord.Member, id=next_id(), name="fairypost", bot=True, guild=guild)
    return guild


def make_member(name: str, uid: int | None = None, *, guild=None, bot: bool = False):
    uid = uid or next_id()
    m = spec_mock(discord.Member, id=uid, name=name.lower(), display_name=name, global_name=name,
                  mention=f"<@{uid}>", bot=bot, guild=guild)
    m.send.return_value = None
    return m


class World:
    """The Discord side of a test: a guild, a channel, members, the threads the bot opens,
    everything sent anywhere (``sent``: (where, kwargs) in order), and a mocked client
    whose ``fairy`` is the real adapter."""

    def __init__(self):
        self.guild = make_guild()
        self.channels: dict[int, object] = {}
        self.users: dict[int, object] = {}
        self.messages: dict[int, object] = {}
        self.sent: list[tuple[object, dict]] = []
        self.client = spec_mock(FairyClient, fairy=None)
        self.client.get_channel.side_effect = lambda cid: self.channels.get(cid)
        self.client.fetch_channel.side_effect = self._fetch_channel
        self.client.get_user.side_effect = lambda uid: self.users.get(uid)
        self.client.fetch_user.side_effect = self._fetch_user
        self.channel = self.text_channel("games")

    async def _fetch_channel(self, cid):
        if cid not in self.channels:
            raise discord.NotFound(mock.MagicMock(status=404, reason="Not Found"), "Unknown Channel")
        return self.channels[cid]

    async def _fetch_user(self, uid):
        if uid not in self.users:
            raise discord.NotFound(mock.MagicMock(status=404, reason="Not Found"), "Unknown User")
        return self.users[uid]

    # --- things in the world ---

    def member(self, name: str, **kw):
        m = make_member(name, guild=self.guild, **kw)
        self.users[m.id] = m

        async def dm(*args, **kwargs):
            if args:
                kwargs["content"] = args[0]
            self.sent.append((m, kwargs))
            return self.message(None, author=None, content=kwargs.get("content") or "",
                                view=kwargs.get("view"))
        m.send.side_effect = dm
        m.create_dm.return_value = self.dm_channel(m)  # its messages edited later (edits in ``sent``)
        return m

    def message(self, channel, *, author=None, content: str = "", view=None):
        """A message; with ``view``, it carries that view's buttons (``components``), as
        Discord gives them in a button press's interaction."""
        msg = spec_mock(discord.Message, id=next_id(), channel=channel, author=author, content=content,
                        guild=self.guild, components=components_of(view))
        msg.edit.return_value = None

        async def create_thread(**kw):
            return await self._thread_for(channel, kw)
        msg.create_thread.side_effect = create_thread
        self.messages[msg.id] = msg
        return msg

    def partial(self, channel, mid: int):
        p = spec_mock(discord.PartialMessage, id=mid, channel=channel)

        async def edit(**kw):
            self.sent.append((("edit", mid), kw))

        async def create_thread(**kw):
            return await self._thread_for(channel, kw)
        p.edit.side_effect = edit
        p.create_thread.side_effect = create_thread
        return p

    def _install_send(self, ch):
        async def send(*args, **kwargs):
            if args:
                kwargs["content"] = args[0]
            self.sent.append((ch, kwargs))
            return self.message(ch, content=kwargs.get("content") or "", view=kwargs.get("view"))
        ch.send.side_effect = send
        ch.get_partial_message.side_effect = lambda mid: self.partial(ch, mid)

    def text_channel(self, name: str, guild=None):
        """A text channel of the world's server (or of ``guild``: another server)."""
        cid = next_id()
        ch = spec_mock(discord.TextChannel, id=cid, name=name, mention=f"<#{cid}>", guild=guild or self.guild,
                       type=discord.ChannelType.text)
        ch.is_news.return_value = False
        ch.permissions_for.return_value = EVERYONE_MAY_POST
        self._install_send(ch)

        async def create_thread(**kw):
            return await self._thread_for(ch, kw)
        ch.create_thread.side_effect = create_thread
        self.channels[cid] = ch
        return ch

    async def _thread_for(self, channel, kw):
        tid = next_id()
        t = spec_mock(discord.Thread, id=tid, name=kw.get("name"), mention=f"<#{tid}>", guild=self.guild,
                      parent=channel, parent_id=getattr(channel, "id", None))
        t.permissions_for.return_value = EVERYONE_MAY_POST
        self._install_send(t)
        self.channels[tid] = t
        self.threads.append(t)
        return t

    @property
    def threads(self) -> list:
        if not hasattr(self, "_threads"):
            self._threads = []
        return self._threads

    def sent_to(self, where) -> list[dict]:
        return [kw for w, kw in self.sent if w is where]

    def dms(self, member) -> list[dict]:
        return self.sent_to(member)

    # --- interactions ---

    def dm_channel(self, user):
        """The user's direct messages with the bot."""
        cid = next_id()
        ch = spec_mock(discord.DMChannel, id=cid, recipient=user, type=discord.ChannelType.private)
        self._install_send(ch)
        self.channels[cid] = ch
        return ch

    def interaction(self, user, *, channel=None, message=None, namespace: dict | None = None,
                    command=None, data: dict | None = None, dm: bool = False):
        """An interaction by ``user`` in ``channel`` (default: the world's channel; with
        ``dm``, their direct messages, where there is no server)."""
        channel = self.dm_channel(user) if dm else self.channel if channel is None else channel
        i = mock.MagicMock(spec_set=discord.Interaction)
        i.user = user
        i.client = self.client
        i.channel = channel
        i.channel_id = channel.id if channel is not None else None
        i.guild = None if isinstance(channel, discord.DMChannel) else channel.guild
        i.guild_id = i.guild.id if i.guild is not None else None
        i.message = message
        i.extras = {}
        i.command = command
        i.data = data or {}
        i.namespace = _namespace(namespace or {})
        state = {"done": False}
        log = ANSWER_LOG.setdefault(id(i), [])

        original = self.message(channel, author=None)

        def recorder(via, responds):
            async def record(*args, **kwargs):
                if args and via != "send_modal":
                    kwargs["content"] = args[0]
                elif args:
                    kwargs["modal"] = args[0]
                kwargs["_via"] = via
                log.append(kwargs)
                if via == "send_message" and "view" in kwargs:  # the answer now carries them
                    original.components = components_of(kwargs["view"])
                if responds:
                    state["done"] = True
            return record

        resp = mock.MagicMock(spec_set=discord.InteractionResponse)
        resp.is_done.side_effect = lambda: state["done"]
        for name in ("send_message", "defer", "send_modal", "edit_message", "autocomplete"):
            getattr(resp, name).side_effect = recorder(name, True)
        i.response = resp
        i.followup = mock.MagicMock(spec_set=discord.Webhook)
        i.followup.send.side_effect = recorder("followup", False)
        i.edit_original_response.side_effect = recorder("edit_original", False)
        i.original_response.return_value = original
        return i


def components_of(view) -> list:
    """A view's buttons as a sent message's ``components`` (real discord.py ActionRows)."""
    if view is None:
        return []
    return [discord.components.ActionRow(row) for row in view.to_components()]


def _namespace(values: dict):
    """A real Namespace, as Discord would fill it with the options typed so far."""
    types = {bool: 5, int: 4, str: 3}
    options = [{"name": k, "type": types[type(v)], "value": v} for k, v in values.items() if v is not None]
    return discord.app_commands.Namespace(mock.MagicMock(spec_set=discord.Interaction), {}, options)


# --- reading what was sent ------------------------------------------------------------------

def call_kwargs(async_mock) -> dict:
    """The keyword arguments of the last call (content given positionally folded in)."""
    args, kwargs = async_mock.call_args
    kwargs = dict(kwargs)
    if args:
        kwargs["content"] = args[0]
    return kwargs


def answers(i) -> list[dict]:
    """Every answer an interaction got, in order: responses (``_via``: send_message, defer,
    send_modal, edit_message), follow-ups and edits of the original response."""
    return [a for a in ANSWER_LOG.get(id(i), []) if a["_via"] != "defer"]


def last_answer(i) -> dict:
    a = answers(i)
    assert a, "the interaction got no answer"
    return a[-1]


def png_of(file: discord.File) -> bytes:
    fp = file.fp
    pos = fp.tell()
    fp.seek(0)
    data = fp.read()
    fp.seek(pos)
    return data


def is_png(file) -> bool:
    return isinstance(file, discord.File) and png_of(file)[:8] == b"\x89PNG\r\n\x1a\n"


def pinged(sent: dict) -> list[int] | bool:
    """The user ids a post may ping (its ``allowed_mentions``), or False for none."""
    users = sent["allowed_mentions"].users
    return [u.id for u in users] if isinstance(users, list) else users


def pings_no_one(allowed: discord.AllowedMentions | None) -> bool:
    """``allowed_mentions`` that let a post ping no user, role or @everyone."""
    return allowed is not None and not (allowed.users or allowed.roles or allowed.everyone)


def custom_ids(view) -> list[str]:
    return [item.custom_id for item in view.children]
