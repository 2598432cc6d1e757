"""Who a player is and how a link or a reply proves it.

    players        ``Player``, ``PlayerSettings`` (time zone, quiet hours, digest, confirmation)
    signing        the one HMAC helper and the secrets kept beside the database
    page_tokens    signed game page links (to watch a game, or to play one side)
    links          a game's page link for any front end (``game_link``, ``link_suffix``)
    account_links  linking a chat player to a mail address, for any front end's settings
    web_links      one-time sign-in links for the web site (mailed by it, given by Discord)

May import: ``language``, ``bot.domain``, ``bot.store``, ``bot.timekeeping``, ``bot.delivery.events``,
``bot.config`` and the standard library.
"""
