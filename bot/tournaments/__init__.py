"""Round robins and Swiss events over the game service.

    pairing     pure: Berger tables, Dutch Swiss pairing
    tables      the tournament tables' queries
    batches     a start's or a round's games, made in short transactions (resumable)
    planning    a Swiss round's pairing worked out before its transaction (a worker process)
    tiebreaks   the tie-breaks, as FIDE's C.07 (2023) defines them
    counting    what the event counts for each game (decided, forfeit, cancelled, played):
                the one definition the standings, tie-breaks, page and pairing read
    deadlines   a Swiss round's deadline: adjudicated by the engine, or told to its director
    service     ``TournamentOps`` (part of ``GameService``: create, join, start, pause, ...)
                and ``TournamentSweeper`` (rounds made when due)
    directors   who directs an event and sees it listed; the creation budget (``DirectorOps``)
    withdrawals a player who leaves, by the event's rule (ICCF's by default); timeouts
    results     a director's result by hand, replacement, extension, closing (``ResultOps``)
    acts        the typed ``tournament ACT ...`` beyond join, leave and show (every text front end)
    director_tables  the directors' tables' queries; errors  ``TournamentError``
    views       what the tournament operations return (``TournamentView``, standings, pairings)
    crosstable  the crosstable's rows, for the pictures and pages
    cli         ``fairypost tournament ...``

The words are in ``bot.words.tournament_text``.

May import: ``language``, ``bot.operations`` (its ratings and, for the CLI, the service), ``bot.words``,
``bot.commands``, ``bot.domain``, ``bot.store``, ``bot.timekeeping``, ``bot.identity``,
``bot.delivery``, ``bot.config``, ``rules``, ``render``, ``ai`` (the engine's evaluation, for
an adjudication) and the standard library.
"""
