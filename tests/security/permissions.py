"""Who may do what (issue 40, item 2): the table docs/permissions.md shows, as data. Each row
is (what, front end, who, allowed); test_permissions.py walks every row on its front end,
allowed and refused cells alike, and checks that the doc's table is this one."""

from __future__ import annotations

from typing import NamedTuple


class Row(NamedTuple):
    what: str
    front: str
    who: str
    allowed: bool


YES, NO = True, False

ROWS: list[Row] = [
    # --- challenges
    Row("challenge: make one", "Discord", "any member, in a server or a direct message", YES),
    Row("challenge: accept", "Discord", "the member challenged, in any server or a direct message", YES),
    Row("challenge: accept", "Discord", "another member, when it was made to someone", NO),
    Row("challenge: accept an open one", "Discord", "any member, in the server it was made in", YES),
    Row("challenge: accept an open one", "Discord", "a member in another server or a direct message", NO),
    Row("challenge: decline", "Discord", "the member challenged", YES),
    Row("challenge: decline", "Discord", "another member", NO),
    Row("challenge: withdraw", "Discord", "the challenger", YES),
    Row("challenge: make one", "mail", "a proven address (a signed reply came from it), at the bot's address", YES),
    Row("challenge: make one", "mail", "an address only named in a From header", NO),
    Row("challenge: accept", "mail", "the address challenged, replying to the challenge's signed mail", YES),
    Row("challenge: accept", "mail", "another From on a reply to that mail", NO),
    Row("challenge: accept", "mail", "anyone, at the bot's own address", NO),
    Row("challenge: make one", "CLI", "the owner, at the terminal (fairypost play)", YES),
    # --- game actions
    Row("game: move", "Discord", "the player to move, in any server or a direct message", YES),
    Row("game: move", "Discord", "a member who is not a player", NO),
    Row("game: resign", "Discord", "a player, confirming", YES),
    Row("game: resign", "Discord", "a member who is not a player", NO),
    Row("game: offer a draw", "Discord", "a player", YES),
    Row("game: offer a draw", "Discord", "a member who is not a player", NO),
    Row("game: abort (before both sides moved)", "Discord", "a player, typing it in the game's thread", YES),
    Row("game: abort (before both sides moved)", "Discord", "a member who is not a player, in the thread", NO),
    Row("game: premoves", "Discord", "the player not to move", YES),
    Row("game: premoves", "Discord", "a member who is not a player", NO),
    Row("game: move", "mail", "the player's address, replying to the game's signed mail", YES),
    Row("game: move", "mail", "another From on a reply to the game's mail", NO),
    Row("game: move", "mail", "anyone, at the bot's own address", NO),
    Row("game: move", "web", "the holder of the side's own link", YES),
    Row("game: move", "web", "the holder of the watch link", NO),
    Row("game: move", "web", "the holder of the other side's link", NO),
    Row("game: resign, offer a draw", "web", "the holder of the side's own link", YES),
    Row("game: resign, offer a draw", "web", "the holder of the watch link", NO),
    Row("game: move, resign", "CLI", "the owner, at the terminal (fairypost play)", YES),
    Row("game: the computer's evaluation", "web", "any link, while a game between people is on", NO),
    Row("game: the computer's evaluation", "web", "any link, once the game is over", YES),
    Row("game: a hint", "Discord", "a player, in a game between people", NO),
    # --- settings
    Row("settings: vacation, time zone, quiet hours, digest, confirmations", "Discord",
        "the member, for themself only (no option names another player)", YES),
    Row("settings: notices to a channel", "Discord", "the member: a channel here they and the bot may post in", YES),
    Row("settings: notices to a channel", "Discord", "the member, a channel of another server", NO),
    Row("settings: vacation", "mail", "the player's address, replying to a game's signed mail", YES),
    Row("settings: vacation", "mail", "anyone, at the bot's own address", NO),
    # --- links
    Row("link: a game's page (/share)", "Discord", "a player of the game", YES),
    Row("link: a game's page (/share)", "Discord", "a member who is not a player", NO),
    Row("link: a game's page", "web", "the holder of a link signed by the bot (or anyone, for a public game)", YES),
    Row("link: a game's page", "web", "a link altered or signed with another key", NO),
    Row("link: a mail address (/settings email)", "Discord",
        "any member (one code an hour per address, 20 addresses an hour each)", YES),
    Row("link: a mail address (/settings email)", "Discord", "any member, for an address whose mail stopped", NO),
    Row("link: confirm it (/settings email_code)", "Discord", "the member the code was mailed for", YES),
    Row("link: confirm it (/settings email_code)", "Discord", "another member, with that code", NO),
]
