"""``/settings email ADDRESS`` and ``/settings email_code CODE``: a Discord player links a
mail address (a code is mailed there; typing it back confirms it), and is then the same
player by mail: replies from that address act for them, challenges to it reach them.
``/settings email_notices True`` mails them their notices (boards to answer) too."""

from __future__ import annotations

from bot.errors import SettingsError


async def link_step(service, player_id: int, address: str | None, code: str | None,
                    notices: bool | None = None) -> str:
    """What was done, for the reply's "Done: ..." line; SettingsError if it cannot be."""
    from .adapter import EmailAdapter
    adapter = EmailAdapter.of(service)
    if adapter is None:
        raise SettingsError("this bot does not play by email (FAIRYPOST_EMAIL_ADDRESS is not set)")
    done = []
    if code is not None:
        linked = await adapter.confirm_address(player_id, code)
        done.append(f"{linked} is linked: you can play by mail from it")
    elif address is not None:
        sent_to = await adapter.link_address(player_id, address)
        done.append(f"a code was mailed to {sent_to}: give it as /settings email_code")
    if notices is not None:
        where = await adapter.mail_notices(player_id, notices)
        done.append(f"your notices are mailed to {where} too" if notices
                    else f"your notices are no longer mailed to {where}")
    return "; ".join(done)
