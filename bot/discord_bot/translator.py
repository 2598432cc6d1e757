"""Discord's own localisations of the slash commands: their descriptions, their options'
descriptions and their choices, in each of our languages, from the same catalogs as every
other text (``tree.set_translator(FairypostTranslator())``, before the tree is synced).

The strings given to discord.py's decorators are ``locale_str("...")`` so that Babel finds
them; a choice made in a loop carries its sentence as ``locale_str(english, text=T(...))``
(a ``Text``), a game's name as ``locale_str(name, data=True)`` (the games' data catalog).
Command, group and option names stay English: they are what a player types, the same in
every server and in the help.
"""

from __future__ import annotations

from discord import Locale
from discord.app_commands import TranslationContextLocation, Translator, locale_str

from language import Language, Text, from_discord_locale, language

#: Discord's limit on a description's and a choice's name's length.
MAX_LENGTH = 100

#: the names a player types: never localised
_KEPT = frozenset({TranslationContextLocation.command_name, TranslationContextLocation.group_name,
                   TranslationContextLocation.parameter_name})


def localised(string: locale_str, lang: Language) -> str | None:
    """``string`` in ``lang``; None where the catalog has nothing for it (Discord then shows
    the English)."""
    extras = string.extras
    if extras.get("data"):  # a game's name: a title, often the same in every language
        return lang.data(string.message)[:MAX_LENGTH]
    text = extras.get("text")
    said = lang.say(text) if isinstance(text, Text) else lang.tr(string.message)
    if said == string.message:
        return None
    return said[:MAX_LENGTH]


class FairypostTranslator(Translator):
    async def translate(self, string: locale_str, locale: Locale, context) -> str | None:
        if context.location in _KEPT:
            return None
        code = from_discord_locale(locale)
        if code is None or code == "en":
            return None
        return localised(string, language(code))
