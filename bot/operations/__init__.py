"""The game service: ``GameService`` and its operations, which every front end calls.

It knows no chat platform and no database dialect: it takes player ids and text, returns
plain dataclasses (``results``), raises ``bot.domain.errors`` refusals and hands notices to
the outbox (``bot.delivery``).

    service       ``GameService``: opening, closing, players, reading games, the sweep
    challenges    challenges with a life: limits, budgets, expiry, blocks
    offers        draw offers and takebacks: one ``Offer`` each, made, answered, lapsed
    ratings       ratings in the service (updated when a rated game ends, leaderboards);
                  ``glicko`` is the Glicko-2 arithmetic
    premoves      conditional moves: lines, their tree, answered in the move's transaction
    results       what the operations return (``GameView``, ``MoveResult``, ``Challenge``, ...)
    record        a game's record as PGN-like text
    replays       a game as an animated GIF (``fairypost replay``)
    square_moves  the legal moves of the piece on one square, for every front end

May import: ``bot.domain``, ``bot.store``, ``bot.timekeeping``, ``bot.identity``,
``bot.delivery``, ``bot.words.timetext``, ``bot.tournaments.service`` (its operations are the
service's), ``bot.config``, ``bot.schemas``, ``rules``, ``render`` and the standard library.
"""
