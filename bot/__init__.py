"""fairypost's bot: one game service and the front ends that reach it.

The root holds only the process: ``cli`` (the ``fairypost`` command), ``config`` (settings
from TOML and ``FAIRYPOST_*``), ``adapters`` (what ``fairypost run`` starts) and ``schemas``
(every front end's tables, so any process keeps them migrated). The rest is in packages named
for their job (bot/README.md, "Architecture", draws them and the path of a move):

    domain       the refusals (errors) and stored kinds (Side, GameStatus, Outcome) every layer shares
    store        the game database: SQLite or PostgreSQL behind one Store/Tx, migrations, process lives
    timekeeping  clocks, deadlines, reminders and the scheduler that wakes them
    identity     players and their settings, signed links and tokens, chat-to-mail account links
    delivery     notices: the events, the outbox that delivers them, notifiers, rate limits
    operations   the game service (GameService) and its operations by family
    tournaments  round robins and Swiss events over the service
    computer     the computer opponent as a player (ai/ in a worker process)
    words        everything a player reads, once for every front end
    commands     the one text command grammar and running a parsed command
    discord_bot, email, web, terminal   the front ends

Layers point one way: front ends -> commands, words -> computer, tournaments -> operations ->
delivery, identity, timekeeping -> store -> domain; ``rules``, ``render`` and ``ai`` below all
of them. ``tests/test_layout.py`` holds every package to what its docstring says it may import.
"""
