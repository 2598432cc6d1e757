"""The game page: a Python string template; every text that comes from users is escaped."""

from __future__ import annotations

import json
from html import escape
from string import Template

from language import ENGLISH, Language, T
from render import result_text
from render.result import side_names_of

from ..words.text import HTML, mail_stopped_text

PAGE = Template("""<!doctype html>
<html lang="$lang"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="icon" href="$icon" type="image/svg+xml">
<link rel="stylesheet" href="$style">
</head><body>
<header><h1>$title</h1><p id="status" role="status">$status</p>
<p id="banner"$banner_hidden>$banner</p>$mail_stopped</header>
<main>
<section id="board-wrap" aria-label="$w_board">
<div id="analysis-banner" role="status" hidden><strong>$w_not_the_game</strong> <span
id="analysis-news"></span> <button id="banner-back" type="button">$w_back</button></div>
<p id="setup-note" hidden></p>
<div id="board-box">
<img id="board" alt="" width="$width" height="$height">
<div id="squares" role="group"
 aria-label="$w_squares"></div>
<div id="hand" role="group" aria-label="$w_hand"></div></div>
<p id="board-note" role="status"></p>
<noscript><img src="$fallback" alt="$w_board" width="$width" height="$height"></noscript>
<div id="choices" hidden></div><div id="drops"></div></section>
<aside>
$play
<div id="controls"><button id="first" title="$w_start_key" aria-label="$w_start">|&#x25C0;</button>
<button id="prev" title="$w_back_key" aria-label="$w_backward">&#x25C0;</button>
<button id="next" title="$w_forward_key" aria-label="$w_forward">&#x25B6;</button>
<button id="last" title="$w_now_key" aria-label="$w_now">&#x25B6;|</button>
<button id="flip" title="$w_flip_key">$w_flip</button></div>
<h2 id="moves-title">$w_moves</h2>
<ol id="moves" aria-labelledby="moves-title">$moves</ol>
<p><a id="pgn" href="$pgn" download>$w_pgn</a></p>
<section id="analysis" aria-labelledby="analysis-title"><h2 id="analysis-title">$w_analysis</h2>
<p class="hint">$hint</p>
<button id="analyse" type="button">$w_analyse</button>
<ol id="line"></ol>
<button id="takeback">$w_takeback</button> <button id="clear">$w_clear</button>
<button id="evaluate">$w_computer</button><p id="eval"></p></section>
</aside></main>
<footer>$choice</footer>
<script id="game-data" type="application/json">$data</script>
<script src="$script"></script>
</body></html>
""")

PLAY = """<section id="play" aria-labelledby="play-title"><h2 id="play-title">$w_you_play</h2>
<p id="turn-note"></p>
<form id="move-form" autocomplete="off"><label for="move-text">$w_move</label>
<input id="move-text" name="move" size="14" spellcheck="false" autocapitalize="off">
<button id="send">$w_send</button></form>
<p id="play-error" role="alert"></p>
<div id="offers"></div>
<div id="actions"><button data-action="offer_draw">$w_offer_draw</button>
<button data-action="ask_takeback">$w_ask_takeback</button>
<button data-action="resign">$w_resign</button></div>
<section id="premoves" aria-labelledby="premoves-title" hidden><h3 id="premoves-title">$w_premoves</h3>
<p class="hint">$w_premoves_hint</p>
<p id="premove-now"></p>
<form id="premove-form" autocomplete="off"><label for="premove-text">$w_premoves</label>
<input id="premove-text" name="premoves" size="18" spellcheck="false" autocapitalize="off"
placeholder="e5 Nf3; d5 exd5"> <button>$w_set</button></form>
<button id="premove-from-line" type="button" hidden>$w_keep_line</button>
<button id="premove-cancel" type="button" hidden>$w_cancel_premoves</button>
<p id="premove-error" role="alert"></p></section></section>"""

WATCH_HINT = T("Click a piece to see its moves; a move played here opens Analysis, for both "
               "sides: the game itself is not touched.")
PLAY_HINT = T("At the game's last move, on your turn, a click plays in the game; elsewhere "
              "(an earlier move, your opponent's turn) a move opens Analysis, for both sides, "
              "under its banner: the game is not touched.")


def page_words(lang: Language) -> dict[str, str]:
    """The page's own words (its labels and buttons) in ``lang``, escaped for HTML."""
    tr = lang.tr
    words = {
        "board": tr("the board"), "not_the_game": tr("Analysis: not the game"),
        "back": tr("Back to the game"),
        "squares": tr("the board: a button per square; arrow keys move between squares, Enter or Space picks"),
        "hand": tr("the pieces in hand"), "start_key": tr("start (Home)"), "start": tr("start"),
        "back_key": tr("back (left arrow)"), "backward": tr("back"),
        "forward_key": tr("forward (right arrow)"), "forward": tr("forward"),
        "now_key": tr("now (End)"), "now": tr("now"), "flip_key": tr("flip the board (f)"), "flip": tr("flip"),
        "moves": tr("Moves"), "pgn": tr("Download PGN"), "analysis": tr("Analysis"), "analyse": tr("Analyse"),
        "takeback": tr("take back"), "clear": tr("clear line"), "computer": tr("computer"),
        "move": tr("Move"), "send": tr("send"), "offer_draw": tr("offer a draw"),
        "ask_takeback": tr("ask to take back"), "resign": tr("resign"), "premoves": tr("Conditional moves"),
        "premoves_hint": tr("While your opponent thinks: their move, then your answer (more pairs may "
                            "follow; lines apart with \";\"). If they play it, your answer is played at once."),
        "set": tr("set"), "keep_line": tr("keep the analysis line as conditional moves"),
        "cancel_premoves": tr("cancel them"),
    }
    return {f"w_{k}": escape(v) for k, v in words.items()}


#: what the page's script says (its sentences, each with its {values}), by key
SCRIPT_WORDS = {
    "noAnswer": T("the server did not answer"),
    "refused": T("refused ({status})"),
    "wentOnBanner": T("The game went on: {moves}."),
    "changedBanner": T("The game changed."),
    "wentOnNote": T("The game went on ({moves}): back to the game."),
    "changedNote": T("The game changed: back to the game."),
    "empty": T("empty"),
    "square": T("{square} {what}"),
    "squareTarget": T("{square} {what}, a move goes here"),
    "squareChosen": T("{square} {what}, chosen"),
    "dropFromHand": T("drop a {piece} from the hand ({count} there)"),
    "noPieces": T("no pieces"),
    "inHand": T("in hand"),
    "drop": T("drop {piece}"),
    "setup": T("Set-up: before the first move, each side in turn places its pieces on its own squares, "
               "shown by the dots. Click a dot to put a piece there (a piece placed in pairs: click each "
               "of its two squares), then pick the piece from the pictures if several fit."),
    "setupYours": T("It is your turn to place."),
    "setupTheirs": T("Your opponent is placing."),
    "over": T("The game is over."),
    "analysisNote": T("Analysis: moves here are not the game's."),
    "yourMove": T("Your move: click a piece, then where it goes (or drag it, or type it)."),
    "theirMove": T("Your opponent's move. You may leave conditional moves below."),
    "accept": T("accept"),
    "decline": T("decline"),
    "drawOffered": T("Your opponent offers a draw."),
    "youOfferedDraw": T("You offered a draw."),
    "takebackAsked": T("Your opponent asks to take back their last move."),
    "youAskedTakeback": T("You asked to take back your move."),
    "resignConfirm": T("Resign this game?"),
    "chooseFacing": T("Choose which way the piece faces after its move:"),
    "choosePromotion": T("Choose the piece it becomes:"),
    "choosePiece": T("Choose the piece:"),
    "noLegalMove": T("The {piece} on {square} has no legal move here."),
    "otherSquare": T("Now click the other square of the pair."),
    "premovesSet": T("Set: {moves}"),
    "premovesNone": T("None set."),
    "thinking": T("thinking…"),
    "evaluation": T("{text}, depth {depth}: {line}"),
    "linkClosed": T("This link no longer opens the game."),
}


def script_words(lang: Language) -> dict[str, str]:
    """SCRIPT_WORDS in ``lang``, their {values} left for the script to fill in (raw text:
    the script sets textContent, never HTML)."""
    return {key: lang.translations.gettext(text.msgid) for key, text in SCRIPT_WORDS.items()}


def shown_name(view, side: str, lang: Language = ENGLISH) -> str:
    """A player's name; one that is its side's own ("White": two players at one keyboard are
    named after their sides) is the side's name in ``lang``."""
    name = (view.white if side == "w" else view.black).name
    english = side_names_of(view.game)[0 if side == "w" else 1]
    return lang.data(english) if name.casefold() == english.casefold() else name


def status_text(view, lang: Language = ENGLISH) -> str:
    """Whose move it is and the clock, or the result."""
    if view.status != "active":
        return ended_text(view.game, view.status, view.result, view.reason, lang)
    side = lang.data(side_names_of(view.game)[0 if view.turn == "w" else 1])
    name = shown_name(view, view.turn, lang) if view.to_move else None
    text = lang.tr("{side} to move ({name})", side=side, name=name) if name and name != side \
        else lang.tr("{side} to move", side=side)
    if view.seconds_left is not None:
        hours = max(0, view.seconds_left) // 3600
        text = lang.tr("{status} — {days} d {hours} h left", status=text, days=hours // 24, hours=hours % 24)
    return text


def ended_text(game: str, status: str, result: str | None, reason: str | None,
               lang: Language = ENGLISH) -> str:
    """How a game that is no longer played ended, in ``lang``: its result ("Checkmate — Black
    wins"), else "Aborted"; the status itself only for one no page knows a word for."""
    if result:
        return result_text(game, result, reason, lang) or lang.tr("Result {result}", result=result)
    return lang.tr("Aborted") if status == "aborted" else str(status)


def game_name(game_id: str, lang: Language = ENGLISH) -> str:
    """The game's name in ``lang`` (a data text: the five games' names stay their own)."""
    import rules
    try:
        return lang.data(rules.game(game_id).name)
    except rules.RulesError:  # a server's own game no longer loaded: its id still says which
        return game_id


def banner_text(view, lang: Language = ENGLISH) -> str | None:
    """The result over the board, once the game is over."""
    if view.status == "active":
        return None
    return status_text(view, lang)


def state(view, lang: Language = ENGLISH) -> dict:
    """What the page's script needs of the game (JSON)."""
    return {
        "id": view.id, "game": view.game, "ply": view.ply, "status": view.status,
        "result": view.result, "reason": view.reason, "turn": view.turn,
        "statusText": status_text(view, lang), "version": view.version,
        "banner": banner_text(view, lang), "inSetup": view.in_setup,
        "drawOffer": view.draw_offer.value if view.draw_offer else None,
        "takebackBy": view.takeback_by.value if view.takeback_by else None,
        "white": shown_name(view, "w", lang), "black": shown_name(view, "b", lang),
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


def mail_stopped_notes(player, stopped, lang: Language = ENGLISH) -> str:
    """For the player whose link this is: each address the bot mails no more (bot/delivery/mail_status.py),
    what happened and how to get mail again (HTML in ``lang``, every word escaped)."""
    m = HTML.in_language(lang)
    return "".join(
        f'\n<p class="mail-stopped" role="alert">'
        f'{mail_stopped_text(s.address, s.bounces, s.retry_at, player.platform != "email", m)}</p>'
        for s in stopped)


def render_page(view, base: str, size: tuple[int, int], *, role: str = "", script: str,
                style: str, icon: str, mail_stopped: str = "", lang: Language = ENGLISH,
                choice: str = "") -> str:
    """The whole page; ``base`` is the game's own path (``/g/<id>/<token>``); ``role`` the
    side the link plays ("w", "b") or "" (a link to watch); ``mail_stopped``: the
    player's notes (mail_stopped_notes); ``lang`` the reader's; ``choice`` the footer's
    language form (HTML)."""
    title = f"{shown_name(view, 'w', lang)} – {shown_name(view, 'b', lang)} · {game_name(view.game, lang)} #{view.id}"
    data = json.dumps({"base": base, "role": role or None, "state": state(view, lang),
                       "words": script_words(lang)})
    sides = side_names_of(view.game)
    banner = banner_text(view, lang)
    words = page_words(lang)
    side = lang.data(sides[0 if role == "w" else 1])
    play = Template(PLAY).substitute(words, w_you_play=escape(lang.tr("You play {side}", side=side))) \
        if role else ""
    return PAGE.substitute(
        words, lang=escape(lang.code), choice=choice,
        title=escape(title), status=escape(status_text(view, lang)),
        banner=escape(banner or ""), banner_hidden="" if banner else " hidden",
        mail_stopped=mail_stopped,
        width=size[0], height=size[1], moves=move_items(view), play=play,
        hint=escape(lang.say(PLAY_HINT if role else WATCH_HINT)),
        script=escape(script), style=escape(style), icon=escape(icon),
        pgn=escape(f"{base}/record.pgn"),
        # without the script (which draws the board itself): the server's picture
        fallback=escape(f"{base}/board.png?v={view.version}&ply={view.ply}&flip={int(role == 'b')}"),
        # inside <script>: "</" and "<!--" must not appear, so "<" is written as \u003c
        data=data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
