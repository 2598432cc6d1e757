"""The game service: ``GameService`` and its operations, which every front end calls.

It knows no chat platform and no database dialect: it takes player ids and text, returns
plain dataclasses (``results``), raises ``bot.domain.errors`` refusals and hands notices to
the outbox (``bot.delivery``).

    service       ``GameService``: opening and closing it, its delivery and listeners; the
                  operations come from one class per family, each in its module:
    players       players found or made, their settings
    challenges    challenges made, answered, listed; their life: limits, budgets, expiry,
                  blocks
    moves         a game's start, its moves, resigning, aborting, a takeback's undoing, its end
    offers        draw offers and takebacks: one ``Offer`` each, made, answered, lapsed
    premoves      conditional moves: lines, their tree, answered in the move's transaction
    games         reading games: a game, its position and record, a player's games
    vacations     vacations: started, ended, the paused time given back
    ratings       ratings in the service (updated when a rated game ends, leaderboards);
                  ``glicko`` is the Glicko-2 arithmetic
    sweep         what is due as time passes (timeouts, expiries, reminders, pruning), the
                  next wake
    command       the steps every command shares: budgets, text checks, the snapshot, the
                  versioned write, delivery after the commit
    snapshots     a game as an operation reads it, and the cache of its positions
    results       what the operations return (``GameView``, ``MoveResult``, ``Challenge``, ...)
    record        a game's record as PGN (``game_pgn``)
    record_command  ``fairypost record GAME_ID [FILE]``
    replays       a game as an animated GIF (``fairypost replay``)
    fair_play     when the computer may help a player of a game (an evaluation, a hint): one
                  rule for every front end
    square_moves  the legal moves of the piece on one square, for every front end

A family's module may import ``command``, ``snapshots`` and another family's functions
(``moves`` settles offers and answers conditional moves), never ``service``, which imports
them all; one family's operations reach another's only through ``self``, the one
``GameService``.

May import: ``language``, ``bot.domain``, ``bot.store``, ``bot.timekeeping``, ``bot.identity``,
``bot.delivery``, ``bot.words.timetext``, ``bot.tournaments.service`` (its operations are the
service's), ``bot.config``, ``bot.schemas``, ``rules``, ``render`` and the standard library.
"""
