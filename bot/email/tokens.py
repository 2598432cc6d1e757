"""Reply addresses carrying a signed token: ``bot+g42-p7-<token>@example.org``.

The token is an HMAC (``bot.identity.signing``, key ``FAIRYPOST_EMAIL_SECRET``) over the game, the
player and the ply of the board the mail showed, so a reply proves which game and which
board it answers; the ply itself is not written in the address: the receiver finds it by
trying the game's plies from the current one back (a reply to an old board is "stale", a
token no ply makes is "forged"). A challenge's mails carry ``c<id>`` instead of ``g<id>``, a
tournament's ``t<id>`` (``t0``: the list of tournaments, no one event).
Tokens are hex, so a mail system that changes the address's case does not break them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.identity import signing

TOKEN_CHARS = 20  # 80 bits: far beyond guessing within a game's life

_HEX_TOKEN = "[0-9a-f]{" + str(TOKEN_CHARS) + "}"  # a token in a pattern: exactly TOKEN_CHARS hex digits

_TAG = re.compile(r"^(?P<kind>[gct])(?P<id>\d{1,18})-p(?P<player>\d{1,18})-(?P<token>" + _HEX_TOKEN + ")$",
                  re.IGNORECASE)


@dataclass(frozen=True)
class ReplyTag:
    kind: str  # 'g' a game, 'c' a challenge, 't' a tournament
    id: int
    player_id: int
    token: str


def _message(kind: str, thing_id: int, player_id: int, ply: int) -> str:
    return f"mail:{kind}{int(thing_id)}:p{int(player_id)}:ply{int(ply)}"


def sign(secret: bytes, kind: str, thing_id: int, player_id: int, ply: int = 0) -> str:
    return signing.mac(secret, _message(kind, thing_id, player_id, ply), TOKEN_CHARS, hex=True)


def reply_address(bot_address: str, secret: bytes, kind: str, thing_id: int, player_id: int,
                  ply: int = 0) -> str:
    """``bot+g42-p7-<token>@domain`` for the bot's address ``bot@domain``."""
    local, domain = bot_address.split("@", 1)
    token = sign(secret, kind, thing_id, player_id, ply)
    return f"{local}+{kind}{int(thing_id)}-p{int(player_id)}-{token}@{domain}"


def parse_tag(address: str, bot_address: str) -> ReplyTag | None:
    """The tag of one of the bot's plus-addresses; None for any other address."""
    if "@" not in address:
        return None
    local, domain = address.rsplit("@", 1)
    bot_local, bot_domain = bot_address.split("@", 1)
    if domain.lower() != bot_domain.lower() or "+" not in local:
        return None
    base, tag = local.split("+", 1)
    if base.lower() != bot_local.lower():
        return None
    m = _TAG.match(tag)
    if m is None:
        return None
    return ReplyTag(m["kind"].lower(), int(m["id"]), int(m["player"]), m["token"].lower())


def signed_ply(secret: bytes, tag: ReplyTag, current_ply: int) -> int | None:
    """The ply (0 .. current_ply) the tag's token was made for, newest first; None: forged."""
    for ply in range(current_ply, -1, -1):
        if signing.verify(secret, _message(tag.kind, tag.id, tag.player_id, ply), tag.token,
                          TOKEN_CHARS, hex=True):
            return ply
    return None


# --- the bot's own bounce addresses (VERP): the envelope sender of each mail it sends ---

_BOUNCE = re.compile(r"^b-(?P<id>\d{1,18})-(?P<token>" + _HEX_TOKEN + ")$", re.IGNORECASE)


def _bounce_message(mail_id: int, recipient: str) -> str:
    return f"mail:bounce:{int(mail_id)}:{recipient.lower()}"


def bounce_address(bot_address: str, secret: bytes, mail_id: int, recipient: str) -> str:
    """``bot+b-<mail id>-<token>@domain``: where the report of a failed delivery of the
    outbox's mail ``mail_id`` to ``recipient`` comes back. The token signs both, so a report
    counts only for a mail the bot sent, to the address it sent it to."""
    local, domain = bot_address.split("@", 1)
    token = signing.mac(secret, _bounce_message(mail_id, recipient), TOKEN_CHARS, hex=True)
    return f"{local}+b-{int(mail_id)}-{token}@{domain}"


@dataclass(frozen=True)
class BounceTag:
    mail_id: int
    token: str


def parse_bounce_tag(address: str, bot_address: str) -> BounceTag | None:
    """The tag of one of the bot's bounce addresses; None for any other address (its token
    is not checked here: ``bounce_verifies``)."""
    if "@" not in address:
        return None
    local, domain = address.rsplit("@", 1)
    bot_local, bot_domain = bot_address.split("@", 1)
    base, plus, tag = local.partition("+")
    if not plus or domain.lower() != bot_domain.lower() or base.lower() != bot_local.lower():
        return None
    m = _BOUNCE.match(tag)
    return None if m is None else BounceTag(int(m["id"]), m["token"].lower())


def bounce_verifies(secret: bytes, tag: BounceTag, recipient: str) -> bool:
    """Whether the tag was made by the bot for its mail ``tag.mail_id`` to ``recipient``."""
    return signing.verify(secret, _bounce_message(tag.mail_id, recipient), tag.token,
                          TOKEN_CHARS, hex=True)
