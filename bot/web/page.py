"""The game page: a Python string template; every text that comes from users is escaped."""

from __future__ import annotations

import json
from html import escape
from string import Template

from render import result_text
from render.result import side_names_of

from ..words.text import HTML, mail_stopped_text

PAGE = Template("""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="icon" href="$icon" type="image/svg+xml">
<link rel="stylesheet" href="$style">
</head><body>
<header><h1>$title</h1><p id="status" role="status">$status</p>
<p id="banner"$banner_hidden>$banner</p>$mail_stopped</header>
<main>
<section id="board-wrap" aria-label="the board">
<div id="analysis-banner" role="status" hidden><strong>Analysis: not the game</strong><span
id="analysis-news"></span> <button id="banner-back" type="button">Back to the game</button></div>
<p id="setup-note" hidden></p>
<div id="board-box">
<img id="board" alt="" width="$width" height="$height">
<div id="squares" role="group"
 aria-label="the board: a button per square; arrow keys move between squares, Enter or Space picks"></div>
<div id="hand" role="group" aria-label="the pieces in hand"></div></div>
<p id="board-note" role="status"></p>
<noscript><img src="$fallback" alt="the board" width="$width" height="$height"></noscript>
<div id="choices" hidden></div><div id="drops"></div></section>
<aside>
$play
<div id="controls"><button id="first" title="start (Home)" aria-label="start">|&#x25C0;</button>
<button id="prev" title="back (left arrow)" aria-label="back">&#x25C0;</button>
<button id="next" title="forward (right arrow)" aria-label="forward">&#x25B6;</button>
<button id="last" title="now (End)" aria-label="now">&#x25B6;|</button>
<button id="flip" title="flip the board (f)">flip</button></div>
<h2 id="moves-title">Moves</h2>
<ol id="moves" aria-labelledby="moves-title">$moves</ol>
<p><a id="pgn" href="$pgn" download>Download PGN</a></p>
<section id="analysis" aria-labelledby="analysis-title"><h2 id="analysis-title">Analysis</h2>
<p class="hint">$hint</p>
<button id="analyse" type="button">Analyse</button>
<ol id="line"></ol>
<button id="takeback">take back</button> <button id="clear">clear line</button>
<button id="evaluate">computer</button><p id="eval"></p></section>
</aside></main>
<script id="game-data" type="application/json">$data</script>
<script src="$script"></script>
</body></html>
""")

PLAY = """<section id="play" aria-labelledby="play-title"><h2 id="play-title">You play $side</h2>
<p id="turn-note"></p>
<form id="move-form" autocomplete="off"><label for="move-text">Move</label>
<input id="move-text" name="move" size="14" spellcheck="false" autocapitalize="off">
<button id="send">send</button></form>
<p id="play-error" role="alert"></p>
<div id="offers"></div>
<div id="actions"><button data-action="offer_draw">offer a draw</button>
<button data-action="ask_takeback">ask to take back</button>
<button data-action="resign">resign</button></div>
<section id="premoves" aria-labelledby="premoves-title" hidden><h3 id="premoves-title">Conditional moves</h3>
<p class="hint">While your opponent thinks: their move, then your answer (more pairs may follow;
lines apart with ";"). If they play it, your answer is played at once.</p>
<p id="premove-now"></p>
<form id="premove-form" autocomplete="off"><label for="premove-text">Conditional moves</label>
<input id="premove-text" name="premoves" size="18" spellcheck="false" autocapitalize="off"
placeholder="e5 Nf3; d5 exd5"> <button>set</button></form>
<button id="premove-from-line" type="button" hidden>keep the analysis line as conditional moves</button>
<button id="premove-cancel" type="button" hidden>cancel them</button>
<p id="premove-error" role="alert"></p></section></section>"""

WATCH_HINT = ("Click a piece to see its moves; a move played here opens Analysis, for both "
              "sides: the game itself is not touched.")
PLAY_HINT = ("At the game's last move, on your turn, a click plays in the game; elsewhere "
             "(an earlier move, your opponent's turn) a move opens Analysis, for both sides, "
             "under its banner: the game is not touched.")


def status_text(view) -> str:
    """Whose move it is and the clock, or the result."""
    if view.status != "active":
        if view.result:
            return result_text(view.game, view.result, view.reason) or f"Result {view.result}"
        return "Aborted" if view.status == "aborted" else view.status
    side = side_names_of(view.game)[0 if view.turn == "w" else 1]
    text = f"{side} to move ({view.to_move.name})" if view.to_move else f"{side} to move"
    if view.seconds_left is not None:
        hours = max(0, view.seconds_left) // 3600
        text += f" — {hours // 24} d {hours % 24} h left"
    return text


def game_name(game_id: str) -> str:
    import rules
    try:
        return rules.game(game_id).name
    except rules.RulesError:  # a server's own game no longer loaded: its id still says which
        return game_id


def banner_text(view) -> str | None:
    """The result over the board, once the game is over."""
    if view.status == "active":
        return None
    return status_text(view)


def state(view) -> dict:
    """What the page's script needs of the game (JSON)."""
    return {
        "id": view.id, "game": view.game, "ply": view.ply, "status": view.status,
        "result": view.result, "reason": view.reason, "turn": view.turn,
        "statusText": status_text(view), "version": view.version,
        "banner": banner_text(view), "inSetup": view.in_setup,
        "drawOffer": view.draw_offer.value if view.draw_offer else None,
        "takebackBy": view.takeback_by.value if view.takeback_by else None,
        "white": view.white.name, "black": view.black.name,
        "deadline": view.deadline.isoformat() if view.deadline else None,
        "moves": [{"ply": m.ply, "san": m.san, "lan": m.lan} for m in view.moves],
    }


def move_items(view) -> str:
    """The moves as text (the script makes each a button, in the Tab order)."""
    return "".join(f'<li data-ply="{m.ply}"{move_number(m.ply)}>{escape(m.san)}</li>'
                   for m in view.moves)


def move_number(ply: int) -> str:
    """White's moves carry their number (drawn by the style sheet before the move)."""
    return f' data-n="{(ply + 1) // 2}"' if ply % 2 else ""


def mail_stopped_notes(player, stopped) -> str:
    """For the player whose link this is: each address the bot mails no more (bot/delivery/mail_status.py),
    what happened and how to get mail again (HTML, every word escaped)."""
    return "".join(
        f'\n<p class="mail-stopped" role="alert">'
        f'{mail_stopped_text(s.address, s.bounces, s.retry_at, player.platform != "email", HTML)}</p>'
        for s in stopped)


def render_page(view, base: str, size: tuple[int, int], *, role: str = "", script: str,
                style: str, icon: str, mail_stopped: str = "") -> str:
    """The whole page; ``base`` is the game's own path (``/g/<id>/<token>``); ``role`` the
    side the link plays ("w", "b") or "" (a link to watch); ``mail_stopped``: the
    player's notes (mail_stopped_notes)."""
    title = f"{view.white.name} – {view.black.name} · {game_name(view.game)} #{view.id}"
    data = json.dumps({"base": base, "role": role or None, "state": state(view)})
    sides = side_names_of(view.game)
    banner = banner_text(view)
    return PAGE.substitute(
        title=escape(title), status=escape(status_text(view)),
        banner=escape(banner or ""), banner_hidden="" if banner else " hidden",
        mail_stopped=mail_stopped,
        width=size[0], height=size[1], moves=move_items(view),
        play=Template(PLAY).substitute(side=escape(sides[0 if role == "w" else 1])) if role else "",
        hint=escape(PLAY_HINT if role else WATCH_HINT),
        script=escape(script), style=escape(style), icon=escape(icon),
        pgn=escape(f"{base}/record.pgn"),
        # without the script (which draws the board itself): the server's picture
        fallback=escape(f"{base}/board.png?v={view.version}&ply={view.ply}&flip={int(role == 'b')}"),
        # inside <script>: "</" and "<!--" must not appear, so "<" is written as \u003c
        data=data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
