"""Everything a player reads, written once for every front end, and the grammar of what they type.

    text          notices, status and result lines, game lists, challenges, help; ``Markup``
                  (``PLAIN``, ``DISCORD``, ``HTML``), which escapes what users wrote
    grammar       the one text command grammar: ``parse(line) -> Command``, ``GrammarError``,
                  the registry ``GRAMMAR`` (the help texts are made from it)
    game_texts    a game's rules and a piece's card in words, from its data file
    rating_text   ratings and leaderboards
    tournament_text  tournaments: lists, standings, pairings
    timetext      durations and deadlines ("2 days 3 hours"), plurals
    textboard     a position as plain text (the terminal's board, and mail's)

May import: ``language``, ``bot.operations``, ``bot.tournaments.service``, ``bot.delivery.events``,
``bot.domain``, ``bot.timekeeping.clock``, ``rules`` and the standard library (``timetext`` and
``grammar`` import nothing of bot: the operations use ``timetext``).
"""
