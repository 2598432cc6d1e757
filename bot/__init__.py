"""fairypost's game service: storage, clocks, reminders and the game operations.

Every chat adapter (Discord, the terminal, later email) talks to one
:class:`bot.service.GameService`; nothing in this package knows about Discord.
"""
