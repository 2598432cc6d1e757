"""Time in the service: clocks and deadlines (clock), what is due and the sweep that does it
(reminders), and the scheduler that wakes the sweep (scheduler).

May import: ``language``, ``bot.domain``, ``bot.store``, ``bot.delivery``, ``bot.identity.players``
(``clock`` imports nothing of bot: players' settings use it) and the standard library.
"""
