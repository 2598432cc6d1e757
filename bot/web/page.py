"""The game page: a Python string template; every text that comes from users is escaped."""

from __future__ import annotations

import json
from html import escape
from string import Template

from render import result_text
from render.result import side_names_of

PAGE = Template("""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="stylesheet" href="/static/game.css">
</head><body>
<header><h1>$title</h1><p id="status">$status</p></header>
<main>
<section id="board-wrap"><img id="board" alt="the board" src="$board_src" width="$width" height="$height">
<div id="choices" hidden></div><div id="drops"></div></section>
<aside>
<div id="controls"><button id="first" title="start (Home)">|&#x25C0;</button>
<button id="prev" title="back (left arrow)">&#x25C0;</button>
<button id="next" title="forward (right arrow)">&#x25B6;</button>
<button id="last" title="now (End)">&#x25B6;|</button>
<button id="flip" title="flip the board (f)">flip</button></div>
<ol id="moves">$moves</ol>
<section id="analysis"><h2>Analysis</h2>
<p class="hint">Click a piece to see its moves; play moves for both sides here. The game itself is not touched.</p>
<ol id="line"></ol>
<button id="takeback">take back</button> <button id="clear">clear line</button>
<button id="evaluate">computer</button><p id="eval"></p></section>
</aside></main>
<script id="game-data" type="application/json">$data</script>
<script src="/static/game.js"></script>
</body></html>
""")


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


def state(view) -> dict:
    """What the page's script needs of the game (JSON)."""
    return {
        "id": view.id, "game": view.game, "ply": view.ply, "status": view.status,
        "result": view.result, "reason": view.reason, "turn": view.turn,
        "statusText": status_text(view),
        "white": view.white.name, "black": view.black.name,
        "deadline": view.deadline.isoformat() if view.deadline else None,
        "moves": [{"ply": m.ply, "san": m.san, "lan": m.lan} for m in view.moves],
    }


def move_items(view) -> str:
    return "".join(f'<li data-ply="{m.ply}"{move_number(m.ply)}>{escape(m.san)}</li>'
                   for m in view.moves)


def move_number(ply: int) -> str:
    """White's moves carry their number (drawn by the style sheet before the move)."""
    return f' data-n="{(ply + 1) // 2}"' if ply % 2 else ""


def render_page(view, base: str, size: tuple[int, int]) -> str:
    """The whole page; ``base`` is the game's own path (``/g/<id>/<token>``)."""
    title = f"{view.white.name} – {view.black.name} · {game_name(view.game)} #{view.id}"
    data = json.dumps({"base": base, "state": state(view)})
    return PAGE.substitute(
        title=escape(title), status=escape(status_text(view)),
        board_src=escape(f"{base}/board.png?ply={view.ply}"), width=size[0], height=size[1],
        moves=move_items(view),
        # inside <script>: "</" and "<!--" must not appear, so "<" is written as \u003c
        data=data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
