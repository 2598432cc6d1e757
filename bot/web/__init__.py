"""Game pages on the web: an aiohttp adapter on the game service (adapters -> service -> store).

    server.py   the aiohttp app and its routes (page, board image, state, live events, analysis, play)
    tokens.py   signed links: HMAC-SHA256 of the game id (to watch) or of the id and a side (to play)
    live.py     the live pages: one read per change of a game for all its open streams
    work.py     pictures rendered once (a worker process), positions in threads, per-client caps
    analysis.py positions of a game at any ply plus a side line, and a square's legal moves as JSON
    page.py     the HTML page (a Python string template, every user text escaped)
    guard.py    what a page elsewhere or a broken client may not do: POSTs as same-origin JSON,
                JSON depth, the safety headers on every answer (aiohttp's own errors too)
    clients.py  who a request comes from for the per-client limits (trusted proxies, IPv6 /64)
    figures.py  pictures and names of choices: a promotion's piece, a facing, a piece in hand
    site.py     the site around the games: home, signing in and out, a player's own game pages
    site_pages.py, home.py   those pages' HTML ("Your games")
    reader.py   the page's language (the player's, the ``lang`` cookie, Accept-Language) and
                the footer's form choosing it
    lobby.py    the "New game" form and the Lobby (accept, decline, cancel)
    player_page.py  a player's page: ratings per game, finished games
    signin.py   single-use sign-in links and sessions (hashes kept; mail budgets)
    mailer.py   the sign-in mails, sent at once over SMTP
    schema.py   the site's own tables (web_signin_links, web_sessions)
    static/     plain JS and CSS files, served by the bot (no build step, no CDN)

May import: every package of ``bot`` but the other front ends (``bot.adapters`` and
``bot.cli`` start them), ``language``, ``rules``, ``render`` and ``ai``.
"""
