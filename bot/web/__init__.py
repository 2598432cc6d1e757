"""Game pages on the web: an aiohttp adapter on the game service (adapters -> service -> store).

    server.py   the aiohttp app and its routes (page, board image, state, live events, analysis)
    tokens.py   signed links: HMAC-SHA256 of the game id with the web secret
    analysis.py positions of a game at any ply plus a side line, and a square's legal moves as JSON
    page.py     the HTML page (a Python string template, every user text escaped)
    static/     one plain JS file and one CSS file, served by the bot (no build step, no CDN)
"""
