"""The Discord adapter: translates between Discord and :class:`bot.operations.service.GameService`.

    runner     the client, intents, command sync, scheduler, ``main(settings) -> int``
    core       ``Fairy``: what every handler shares (service, client, players, game threads)
    commands   the slash commands and their autocompletes
    views      persistent buttons (``DynamicItem``, the ids in the custom id) and modals
    typed      moves typed as plain messages in a game's thread
    notifier   the service's events as DMs or channel mentions
    threads    game <-> thread, challenge -> message, notification preferences (in the DB)
    access     who may see a game where (its server), forged buttons, channels for notices
    replies    answering an interaction; errors become short private answers
    format     the words: whose turn, time left, captions, event texts
    suggest    legal-move and piece suggestions for autocomplete
    images     the render package's pictures as ``discord.File``
    translator Discord's localisations of the commands, from the catalogs (``FairypostTranslator``)
    shared     the asker's client, language (``reader``) and board side

May import: every package of ``bot`` but the other front ends (``bot.adapters`` and
``bot.cli`` start them), ``language``, ``rules``, ``render`` and ``ai``; and ``bot.web.server``, which the
runner starts in the bot's own process when the game pages are configured.
"""

PLATFORM = "discord"
