"""Linking a chat player to a mail address, for any adapter's settings command (Discord's
``/settings email ADDRESS``, ``email_code CODE``, ``email_notices``): the running email
adapter registers itself here for its service; the command asks this module, never the
email adapter's code. A linked player is the same player by mail: replies from that
address act for them, challenges to it reach them, and (if asked) their notices are
mailed there too."""

from __future__ import annotations

import weakref
from typing import Protocol

from ..domain.errors import SettingsError


class Linker(Protocol):
    async def link_address(self, player_id: int, address: str) -> str: ...

    async def confirm_address(self, player_id: int, code: str) -> str: ...

    async def mail_notices(self, player_id: int, on: bool) -> str: ...


_LINKERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # service -> its linker


def register(service, linker: Linker) -> None:
    _LINKERS[service] = linker


def unregister(service) -> None:
    _LINKERS.pop(service, None)


async def link_step(service, player_id: int, address: str | None, code: str | None,
                    notices: bool | None = None) -> str:
    """What was done, for the reply's "Done: ..." line; SettingsError if it cannot be."""
    linker = _LINKERS.get(service)
    if linker is None:
        raise SettingsError("this bot does not play by email (FAIRYPOST_EMAIL_ADDRESS is not set)")
    done = []
    if code is not None:
        linked = await linker.confirm_address(player_id, code)
        done.append(f"{linked} is linked: you can play by mail from it")
    elif address is not None:
        sent_to = await linker.link_address(player_id, address)
        done.append(f"a code was mailed to {sent_to}: give it as /settings email_code")
    if notices is not None:
        where = await linker.mail_notices(player_id, notices)
        done.append(f"your notices are mailed to {where} too" if notices
                    else f"your notices are no longer mailed to {where}")
    return "; ".join(done)
