"""Delivering what the service has to say: notices to players, each once, after its commit.

    events     the event dataclasses (``YourMove``, ``GameOver``, ...), ``Notifier``, ``PlayerRef``
               and the outbox's JSON form of an event
    outbox     claiming, sending and marking notices; retries; taking over a dead process's claims
    notifiers  ``Notifiers([...])``: several front ends' notifiers behind one, by platform
    limits     the per-player command budgets (token buckets, in the process or shared in the database)
    mail_status  whether the bot's mail to a player stopped (bounces), for the game page

The process lives that claims carry are the store's (``bot.store.lives``): the store holds
their locks.

May import: ``language``, ``bot.domain``, ``bot.store``, ``bot.config`` and the standard library; and, for
``mail_status`` alone, ``bot.email.tables`` and ``bot.email.sending`` (the mail adapter's
bounce records, there whether or not this process runs the mail, read as ``bot.schemas``
takes its migrations, so that the game page need not import the mail adapter).
"""
