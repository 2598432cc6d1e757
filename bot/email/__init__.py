"""Play by email: the email adapter over the same game service (bot/email/README.md).

May import: every package of ``bot`` but the other front ends (``bot.adapters`` and
``bot.cli`` start them), ``language``, ``rules``, ``render`` and ``ai``.
"""
