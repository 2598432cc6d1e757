"""The text commands players type, once for the terminal, Discord threads and mail.

    grammar  the one grammar: ``parse(line) -> Command``, ``GrammarError``, the registry ``GRAMMAR``
    run      running a parsed command for one player against the service: a neutral ``Reply``

May import: ``bot.operations``, ``bot.computer``, ``bot.words``, ``bot.identity``,
``bot.domain``, ``bot.delivery``, ``bot.store``, ``bot.timekeeping``, ``bot.config``,
``rules``, ``render`` and the standard library.
"""
