"""Links to a game's web page, for any adapter's messages (Discord, email, the terminal):
the signed address (bot/identity/page_tokens.py) on the configured base URL. A player's own link
(``player_link``) lets its holder play that player's side: it goes only where that player
alone reads it (a mail to them, a direct or ephemeral message, their terminal)."""

from __future__ import annotations

from language import ENGLISH, Language

from . import page_tokens as tokens


def base_url(settings) -> str:
    """FAIRYPOST_WEB_URL, else the address the pages are served on."""
    return settings.web_url or f"http://{settings.web_host}:{settings.web_port or 8080}"


def game_link(settings, game_id: int) -> str:
    """The link to watch the game."""
    secret = tokens.load_secret(settings.web_secret, settings.db_path)
    return tokens.game_url(base_url(settings), secret, game_id)


def player_link(settings, game_id: int, side: str) -> str:
    """A player's own link: it plays ``side`` ("w"/"white" or "b"/"black")."""
    side = tokens.SIDES.get(side, side)
    secret = tokens.load_secret(settings.web_secret, settings.db_path)
    return tokens.side_url(base_url(settings), secret, game_id, side)


def tournament_link(settings, tournament_id: int) -> str:
    """The link to a tournament's page: its standings, crosstable and games."""
    secret = tokens.load_secret(settings.web_secret, settings.db_path)
    return tokens.tournament_url(base_url(settings), secret, tournament_id)


def tournament_link_line(settings, tournament_id: int, *, lang: Language = ENGLISH) -> str:
    """A line with the tournament's page, for the standings; "" unless FAIRYPOST_WEB_URL is set."""
    if not settings.web_url:
        return ""
    return lang.tr("Tournament page: {link}", link="<" + tournament_link(settings, tournament_id) + ">")


def link_suffix(settings, game_id: int, side: str | None = None, *, lang: Language = ENGLISH) -> str:
    """A new line with the game's page, for chat messages; "" unless FAIRYPOST_WEB_URL is
    set. With ``side``: the player's own link (for their eyes only), to play there."""
    if not settings.web_url:
        return ""
    if side:
        return "\n" + lang.tr("Your game page (play here; keep it to yourself): {link}",
                              link="<" + player_link(settings, game_id, side) + ">")
    return "\n" + lang.tr("Game page: {link}", link="<" + game_link(settings, game_id) + ">")
