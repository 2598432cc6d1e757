"""The players' operations: a player found (or made on first sight) by platform and id,
by number or by platform, and their settings.
"""

from __future__ import annotations

import re

from language import LANGUAGES, T, supported

from ..domain.errors import NotFound, SettingsError, text_of
from ..identity.players import Player, PlayerSettings, player_from_row
from ..timekeeping.clock import unknown_zone
from .command import UNSET, storable


def display_name(name: str) -> str:
    """A name fit to store and show: what is not valid Unicode and control characters
    (line breaks, escapes) become U+FFFD, as a name from the OS or a chat would be read."""
    return _NOT_SHOWN.sub("\ufffd", str(name))


# Unicode's categories Cc (C0, DEL, C1) and Cs (surrogates), as one class: a pattern's loop,
# not a Python call per character (100 KB of a name took 97 ms that way)
_NOT_SHOWN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class PlayerOps:
    """The service's players and settings (mixed into ``GameService``)."""

    async def player(self, platform: str, user_id: str, name: str | None = None) -> Player:
        """The player known on ``platform`` as ``user_id``, created on first sight."""
        platform, user_id = str(platform), str(user_id)
        if not platform or not user_id:
            raise SettingsError(T("a player needs a platform and a user id"))
        storable(platform, T("a platform name"))
        storable(user_id, T("a player's name or id"))
        name = display_name(name) if name is not None else None
        async with self.store.write() as tx:
            row = await tx.find_player(platform, user_id)
            if row is None:
                pid = await tx.insert_player(platform, user_id, name or user_id, "{}", self._now())
                row = await tx.player(pid)
            elif name and name != row.name:
                await tx.rename_player(row.id, name)
                row = await tx.player(row.id)
        return player_from_row(row)

    async def players_on(self, platform: str) -> list[Player]:
        """Every player known on ``platform`` (the terminal finds its local players' games so)."""
        async with self.store.read() as tx:
            rows = await tx.players_on(str(platform))
        return [player_from_row(r) for r in rows]

    async def get_player(self, player_id: int) -> Player:
        async with self.store.read() as tx:
            row = await tx.player(player_id)
        if row is None:
            raise NotFound(T("there is no player #{id}", id=player_id))
        return player_from_row(row)

    async def update_settings(self, player_id: int, *, timezone=UNSET, quiet_hours=UNSET,
                              digest_time=UNSET, confirm_moves=UNSET, language=UNSET) -> PlayerSettings:
        """timezone: IANA name; quiet_hours: ("22:00", "07:30") or None; digest_time: "08:00" or None;
        confirm_moves: "off", "typed" or "all" (players.CONFIRM_CHOICES); language: a code of
        ``language.LANGUAGES`` ("fr", "fr-FR" reads as "fr"), or None for the front end's choice."""
        quiet = quiet_hours if isinstance(quiet_hours, (tuple, list)) else (quiet_hours,)
        async with self._command(player_id):
            if isinstance(language, str):
                self._check_text(language, T("a setting"))
                code = supported(language)
                if code is None:
                    raise SettingsError(T("there is no language {code} here (choose one of {codes})",
                                          code=language, codes=", ".join(LANGUAGES)))
                language = code
            for value in (timezone, digest_time, confirm_moves, *quiet):
                if isinstance(value, str):
                    self._check_text(value, T("a setting"))
            async with self.store.write() as tx:
                row = await tx.player(player_id)
                if row is None:
                    raise NotFound(T("there is no player #{id}", id=player_id))
                current = PlayerSettings.from_json(row.settings)
                changes = {}
                if timezone is not UNSET:
                    changes["timezone"] = timezone or "UTC"
                if quiet_hours is not UNSET:
                    if quiet_hours is None:
                        changes["quiet_start"] = changes["quiet_end"] = None
                    else:
                        try:
                            changes["quiet_start"], changes["quiet_end"] = quiet_hours
                        except (TypeError, ValueError):
                            raise SettingsError(T("quiet hours are a start and an end, like {example}",
                                                              example="22:00-07:00")) from None
                if digest_time is not UNSET:
                    changes["digest_time"] = digest_time
                if confirm_moves is not UNSET:
                    changes["confirm_moves"] = confirm_moves
                if language is not UNSET:
                    changes["language"] = language
                try:
                    new = PlayerSettings(**{**current.__dict__, **changes})
                except ValueError as e:
                    raise SettingsError(text_of(e)) from None
                except OSError:  # bot.timekeeping.clock.zone: a name that is a folder of zones ("Europe"), or too long
                    raise SettingsError(unknown_zone(changes.get("timezone"))) from None
                await tx.set_player_settings(player_id, new.to_json())
        return new

    async def saw_language(self, player_id: int, code: str | None) -> None:
        """Remember the language a front end saw the player use (Discord's locale, a first
        mail's Content-Language, a browser's): notices use it until the player chooses one.
        Writes only when it changes, so a front end may call it on every command."""
        code = supported(code)
        if code is None:
            return
        player = await self.get_player(player_id)
        if player.settings.seen_language == code:
            return
        async with self.store.write() as tx:
            row = await tx.player(player_id)
            if row is None:
                return
            current = PlayerSettings.from_json(row.settings)
            seen = PlayerSettings(**{**current.__dict__, "seen_language": code})
            await tx.set_player_settings(player_id, seen.to_json())
