"""Linking a chat player to a mail address, for any adapter's settings command (Discord's
``/settings email ADDRESS``, ``email_code CODE``, ``email_notices``): the running email
adapter registers itself here for its service; the command asks this module, never the
email adapter's code. A linked player is the same player by mail: replies from that
address act for them, challenges to it reach them, and (if asked) their notices are
mailed there too.

Code mails have budgets one person cannot spend for another (``CodeMailBudget``): an
address gets at most one code per ``email_code_resend_minutes`` (default 60: one pending
code, re-sent at most hourly, whoever asks), and one requester mails codes to at most
``email_codes_per_hour`` addresses an hour (default 20). The adapter mails no code to an
address whose mail stopped (bounced), but for its own player. The budgets are kept in the
process that mails the codes, the one whose email adapter registered here."""

from __future__ import annotations

import math
import weakref
from collections import deque
from typing import Protocol

from language import ENGLISH, Language
from language.text import T, Tn

from ..domain.errors import RateLimited, SettingsError

HOUR = 3600.0
MAX_ADDRESS = 320  # RFC 5321's longest path: a longer text is no address (and no budget's key)


class Linker(Protocol):
    async def link_address(self, player_id: int, address: str) -> str: ...

    async def confirm_address(self, player_id: int, code: str) -> str: ...

    async def mail_notices(self, player_id: int, on: bool) -> str: ...


_LINKERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # service -> its linker
_BUDGETS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # service -> its CodeMailBudget


class CodeMailBudget:
    """Who may have a code mailed where, now: ``take`` reserves a mail (refused with
    ``RateLimited``, nothing reserved), ``give_back`` returns one that was not sent.
    Taken and returned without waiting, so requests at one instant are counted one by one."""

    MAX_TRACKED = 100_000  # addresses remembered; beyond, those whose wait is over go

    def __init__(self, resend_minutes: int = 60, per_hour: int = 20):
        self.resend = resend_minutes * 60.0
        self.per_hour = per_hour
        self._mailed: dict[str, float] = {}  # address -> when its code was mailed
        self._asked: dict[int, deque[float]] = {}  # requester -> when they had codes mailed (last hour)

    def take(self, requester: int, address: str, now: float) -> None:
        last = self._mailed.get(address)
        if last is not None and now - last < self.resend:
            wait = _minutes(self.resend - (now - last))
            raise RateLimited(T("a code was mailed to {address} less than {minutes} ago: give that one "
                                "(it is good for a day), or ask again in {wait}", address=address,
                                minutes=_in_minutes(_minutes(self.resend)), wait=_in_minutes(wait)),
                              retry_after=int(self.resend - (now - last)) + 1)
        asked = self._asked.setdefault(requester, deque())
        while asked and now - asked[0] >= HOUR:
            asked.popleft()
        if len(asked) >= self.per_hour:
            wait = _minutes(HOUR - (now - asked[0]))
            raise RateLimited(T("codes were mailed to {most} addresses for you in the last hour, "
                                "the most there may be: try again in {wait}", most=self.per_hour,
                                wait=_in_minutes(wait)),
                              retry_after=int(HOUR - (now - asked[0])) + 1)
        asked.append(now)
        self._mailed[address] = now
        if len(self._mailed) > self.MAX_TRACKED:
            self._mailed = {a: t for a, t in self._mailed.items() if now - t < self.resend}
            self._asked = {r: q for r, q in self._asked.items() if q and now - q[-1] < HOUR}

    def give_back(self, requester: int, address: str, now: float) -> None:
        """The mail ``take`` reserved at ``now`` was not sent (refused, failed)."""
        if self._mailed.get(address) == now:
            del self._mailed[address]
        asked = self._asked.get(requester)
        if asked and now in asked:
            asked.remove(now)


def _minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


def _in_minutes(n: int):
    return Tn("{n} minute", "{n} minutes", n)


def code_budget(service) -> CodeMailBudget:
    """The service's code-mail budget, made with its settings on first use."""
    budget = _BUDGETS.get(service)
    if budget is None:
        settings = service.settings
        budget = _BUDGETS[service] = CodeMailBudget(settings.email_code_resend_minutes,
                                                    settings.email_codes_per_hour)
    return budget


def register(service, linker: Linker) -> None:
    _LINKERS[service] = linker


def unregister(service) -> None:
    _LINKERS.pop(service, None)


async def link_step(service, player_id: int, address: str | None, code: str | None,
                    notices: bool | None = None, *, lang: Language = ENGLISH) -> str:
    """What was done, for the reply's "Done: ..." line, in ``lang``; SettingsError if it cannot be."""
    linker = _LINKERS.get(service)
    if linker is None:
        raise SettingsError(T("this bot does not play by email ({variable} is not set)",
                              variable="FAIRYPOST_EMAIL_ADDRESS"))
    done = []
    if code is not None:
        linked = await linker.confirm_address(player_id, code)
        done.append(lang.tr("{address} is linked: you can play by mail from it", address=linked))
    elif address is not None:
        key = address.strip().lower()[:MAX_ADDRESS]  # the adapter checks it is an address
        budget, now = code_budget(service), service.clock.now().timestamp()
        budget.take(player_id, key, now)
        try:
            sent_to = await linker.link_address(player_id, address)
        except BaseException:
            budget.give_back(player_id, key, now)
            raise
        done.append(lang.tr("a code was mailed to {address}: give it as {command}", address=sent_to,
                            command="/settings email_code"))
    if notices is not None:
        where = await linker.mail_notices(player_id, notices)
        done.append(lang.tr("your notices are mailed to {address} too", address=where) if notices
                    else lang.tr("your notices are no longer mailed to {address}", address=where))
    return "; ".join(done)
