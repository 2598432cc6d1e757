"""Running the text commands players type, once for the terminal, Discord threads and mail.

    run  running a parsed command (``bot.words.grammar``) for one player against the service:
         a neutral ``Reply`` (with an ``attachment`` for long texts such as a review)

May import: ``language``, ``bot.operations``, ``bot.tournaments``, ``bot.computer``, ``bot.words``,
``bot.identity``, ``bot.domain``, ``bot.delivery``, ``bot.store``, ``bot.timekeeping``,
``bot.config``, ``rules``, ``render`` and the standard library.
"""
