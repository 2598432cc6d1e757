"""The computer opponent as a player of the service: it accepts challenges, plays its turns
with ``ai.think`` in a worker process, declines draws, gives hints and reviews.

    player  ``Computer`` (the notifier of the platform ``computer``), ``computer_player``,
            ``make_pool``

May import: ``language``, ``bot.operations``, ``bot.domain``, ``bot.identity``, ``bot.delivery``, ``ai``,
``rules`` and the standard library.
"""
