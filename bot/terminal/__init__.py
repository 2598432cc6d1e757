"""Playing offline, in a terminal: ``fairypost play``.

    console    reading lines, writing text
    (the text board is bot/words/textboard.py, shared with mail)
    images     the PNG pictures a session writes (render's, as the bot posts them)
    session    one game at one keyboard: moves and the bot's commands
    play       starting, choosing and resuming games; the list of games

May import: every package of ``bot`` but the other front ends (``bot.adapters`` and
``bot.cli`` start them), ``language``, ``rules``, ``render`` and ``ai``.
"""
