"""Untrusted text is bounded before it is parsed (issue 40, item 1: mail and the typed
grammar). Every parser of text from outside -- a mail's body, its headers and subject, its
HTML, a delivery report, a typed line -- gets 100 KB of the shapes that made the old
patterns backtrack (``am`` + ``schrieb`` thousands of times with no colon took 44 s at
64 KB; ``den ... skrev``, ``op ... schreef`` the same), repeated prefixes of each
attribution, long runs of spaces, ``[`` and ``(``, unclosed tags, and text hypothesis makes,
and must finish each call within 50 ms of its own CPU time: ``time.thread_time()`` counts
only this thread's work, so a machine busy with other processes does not fail it.
"""
from __future__ import annotations

import gc
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.email.parse import first_line, html_text, read_mail, without_reply_prefixes
from bot.words.grammar import GRAMMAR, MAX_LINE_CHARS, GrammarError

from .common import profile

PROFILE = profile()
SIZE = 100_000  # characters of each input
BOUND = 0.050  # seconds of this thread's CPU time a call may take

ATTRIBUTIONS = [("on", "wrote"), ("le", "a écrit"), ("am", "schrieb"), ("el", "escribió"),
                ("il", "ha scritto"), ("op", "schreef"), ("em", "escreveu"), ("den", "skrev"),
                ("w dniu", "pisze"), ("w dniu", "napisał"), ("", "написал")]


def filled(piece: str, size: int = SIZE) -> str:
    return (piece * (size // max(1, len(piece)) + 1))[:size]


def shapes() -> list[str]:
    """The issue's shapes and their kin, each 100 KB."""
    out = [filled(" "), filled("["), filled("("), filled("<"), filled("<a "), filled("<!--"),
           filled("&"), filled("-"), filled("_"), filled(">"), filled("\n"), filled("> \n"),
           filled("re:"), filled("re "), filled("Re: [1] "), "re" + filled(" ")[:-3] + "x",
           filled("\u00a0"), filled("a" * 999 + "\n"), filled("On x wrote:\n\n"),
           filled("On x wrote:\n>\n"), filled("From: a\n"), filled("*from: "),
           filled("von meinem "), filled("sent from my"), filled("---- "), filled("<<>"),
           filled("<p>&amp;"), filled("<blockquote>"), filled("</blockquote>")]
    for first, verb in ATTRIBUTIONS:
        out += ["am " + filled("schrieb ")] if first == "am" else []
        out.append(filled(f"{first} " + f"{verb} " * 3))  # no colon anywhere
        out.append(f"{first} " + filled(f"{verb} ")[:-2] + ":")  # a colon at the very end
        out.append(f"{first} " + filled(f"{verb} ")[:-2] + ": x")
        out.append(f"{first}" + filled(" ") + f"{verb}:")
        for k in range(1, len(verb)):  # repeated prefixes of the verb
            out.append(f"{first} " + filled(verb[:k] + " "))
    return out


SHAPES = shapes()


def cpu_time(call, *args, **kwargs) -> float:
    gc.disable()  # a full collection among these 100 KB strings is no parser's work
    start = time.thread_time()
    try:
        call(*args, **kwargs)
    except GrammarError:
        pass  # refused is fine: quickly
    finally:
        took = time.thread_time() - start
        gc.enable()
    return took


def quick(call, *args, **kwargs) -> None:
    # the least of up to three runs: a parse costs the same each time, and a machine busy
    # with other work only adds to it (cold caches, a slower clock), never takes away
    took = cpu_time(call, *args, **kwargs)
    for _ in range(2):
        if took < BOUND:
            break
        took = min(took, cpu_time(call, *args, **kwargs))
    shown = ", ".join(repr(a[:30] if isinstance(a, str | bytes) else a) for a in args)
    assert took < BOUND, f"{call.__name__}({shown}...) took {took * 1000:.0f} ms of CPU"


def mail(headers: dict[str, str], body: str, content_type: str = "text/plain") -> bytes:
    head = {"From": "ann@a.test", "To": "bot@b.test", "Subject": "hello",
            "Message-ID": "<m1@a.test>", "Content-Type": f"{content_type}; charset=utf-8", **headers}
    lines = [f"{k}: {v}" for k, v in head.items()]
    return ("\r\n".join(lines) + "\r\n\r\n" + body).encode("utf-8", "surrogatepass")


def every_parser(text: str) -> None:
    """``text`` through each parser of text from outside, each call timed on its own."""
    quick(first_line, text)
    quick(html_text, text)
    quick(without_reply_prefixes, text)
    quick(read_mail, mail({}, text))
    quick(read_mail, mail({}, text, "text/html"))
    one_line = text.replace("\r", " ").replace("\n", " ")
    for header in ("From", "To", "Subject", "Content-Type", "Return-Path", "Auto-Submitted",
                   "References", "Precedence"):
        quick(read_mail, mail({header: one_line}, "hi"))
    quick(GRAMMAR.parse, text, in_game=True)
    quick(GRAMMAR.parse, text, in_game=False)
    quick(GRAMMAR.parse, text[:MAX_LINE_CHARS], in_game=False)  # the longest line it reads
    quick(GRAMMAR.parse, "challenge " + text[:MAX_LINE_CHARS - 10], in_game=False)


@pytest.fixture(scope="module", autouse=True)
def warm():
    every_parser("warm up: imports and compiled patterns")


@pytest.mark.parametrize("text", SHAPES, ids=[f"{i}:{s[:12]!r}" for i, s in enumerate(SHAPES)])
def test_each_shape_is_parsed_within_50_ms(text):
    every_parser(text)


def test_the_issues_attribution_still_reads_and_is_quick():
    """The 64 KB first line that took 44 s: now no attribution, and quick; real ones still
    are attributions (bottom-posted replies read below them)."""
    line = "am " + filled("schrieb ", 64_000)
    assert cpu_time(first_line, line) < BOUND
    assert first_line(line) == " ".join(line[:998].split())  # read as text, cut at a line's limit
    for attribution in ("On Tue, 3 Dec 2024, Ann <ann@x> wrote:", "Am 3.12.2024 schrieb Ann <ann@x>:",
                        "Den 3 dec. 2024 skrev Ann <ann@x>:", "Op 3 dec. 2024 schreef Ann:",
                        "Иван написал(а):", "W dniu 3.12.2024 Ann napisała:", "Le 3 déc. Ann a écrit :"):
        assert first_line(f"{attribution}\n> old\n\ne4") == "e4", attribution
        assert first_line(f"{attribution}\nold text unquoted") == "", attribution
    assert first_line("Am I late? Schrieb ich: e4\n") != ""  # a verb, but no colon at the end


def test_a_mail_of_deep_comments_is_read_with_the_header_empty():
    """``(`` nested 30,000 deep in From or Content-Type raised RecursionError in the header
    parser: the header is read as empty (no sender: not answered), the mail still read."""
    for header in ("From", "Content-Type", "To"):
        read = read_mail(mail({header: filled("(", 30_000)}, "e4"))
        assert read.key == "<m1@a.test>"
    assert read_mail(mail({"From": filled("(", 30_000)}, "e4")).sender == ""


def test_a_line_too_long_is_refused_saying_so():
    with pytest.raises(GrammarError, match="at most 2,000"):
        GRAMMAR.parse("e4 " * 5000)
    assert GRAMMAR.parse("e4 " + " " * 5000).name == "move"  # spaces around are not counted


@PROFILE
@given(st.text(min_size=1, max_size=30))
def test_generated_text_repeated_to_100_kb_is_parsed_within_50_ms(piece):
    every_parser(filled(piece))


# --- Discord messages and options, names, variant files (issue 40, item 1: the rest) ---------
#
# What a Discord user types (a message in a game's thread, an option's text as it is typed,
# which Discord sends up to 6,000 characters long), a name a player or a server shows, and
# the variant files a server owner writes: 100 KB of each shape through each reader, each call
# within 50 ms of this thread's CPU time.

import tomllib  # noqa: E402

import rules  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.discord_bot import suggest, typed  # noqa: E402
from bot.discord_bot.commands import _typed  # noqa: E402
from bot.discord_bot.format import safe  # noqa: E402
from bot.discord_bot.waiting import suggest_lines  # noqa: E402
from bot.operations import premoves  # noqa: E402
from bot.operations.players import display_name  # noqa: E402
from bot.words.text import DISCORD, HTML, PLAIN  # noqa: E402
from rules import betza, schema  # noqa: E402
from rules.vfen import read_fen  # noqa: E402

# moves, set-ups and premoves in the rules' own words: every variant's notation reader
DISCORD_SHAPES = SHAPES + [filled(p) for p in ("W(", "a1,", "a1 x ", "(N)", "Ca1(N) ", "x a1 and ", "e2-",
                                               "8/", "P(a", "forward-", "ch", "+#", " +", "Nf3 Nf6 Ng1 Ng8 ",
                                               "@", "<@1>", "`", "# ", "\n# ", "\n\n-", "*_~", "1. e4 ")]
STARTS = {g: rules.start(g) for g in rules.variants()}


def quick_cpu(call, *args) -> None:
    """``call(*args)`` within BOUND of this thread's CPU time, any refusal included. The
    collector is held off while it runs: a full collection (tens of ms among the rules'
    caches and these 100 KB strings) is no reader's work."""
    gc.disable()
    start = time.thread_time()
    try:
        call(*args)
    except Exception:  # noqa: BLE001 - refused is fine: quickly
        pass
    finally:
        took = time.thread_time() - start
        gc.enable()
    assert took < BOUND, f"{call.__name__}({args[-1][:30]!r}...) took {took * 1000:.0f} ms of CPU"


def discord_readers(text: str) -> None:
    """A message, an option as typed, a name: each reader on its own."""
    quick_cpu(typed.move_text, text)                  # a message in a game's thread
    capped = _typed(text)                             # an option as its autocomplete reads it
    assert len(capped) <= 100
    chess = STARTS["chess"]
    for reader in (suggest.suggest_moves, suggest.suggest_pieces, suggest.find_piece):
        quick_cpu(reader, chess, capped)
    quick_cpu(suggest.suggest_game_pieces, "superchess", capped)
    quick_cpu(suggest_lines, chess, text)             # /premove's lines as typed (6,000 at most)
    for markup in (DISCORD, HTML, PLAIN):             # a name (or any user text) posted
        quick_cpu(markup.escape, text)
    quick_cpu(safe, text)
    quick_cpu(display_name, text)


def move_readers(text: str) -> None:
    """A move or set-up text, as long as the service lets it reach the rules (max_input_chars),
    through every variant's notation; premoves' lines as long as they may be."""
    capped = text[:Settings().max_input_chars]
    for pos in STARTS.values():
        quick_cpu(pos.parse, capped)
    quick_cpu(premoves.build_tree, STARTS["chess"], text)   # refused: too long
    quick_cpu(premoves.build_tree, STARTS["chess"], text[:premoves.MAX_TEXT])


@pytest.fixture(scope="module", autouse=True)
def warm_the_rules():
    """Each variant's first list of moves and its notation's tables are made once, on first
    use (350 ms for Ganymede): made here, so that the calls timed are the readers' own work."""
    for pos in STARTS.values():
        suggest.suggest_moves(pos, "")
        suggest.suggest_pieces(pos, "")
        try:
            pos.parse("e4")
        except Exception:  # noqa: BLE001 - not a move in every game
            pass
    suggest.suggest_game_pieces("superchess", "")
    suggest_lines(STARTS["chess"], "e4 ")


@pytest.mark.parametrize("text", DISCORD_SHAPES, ids=[f"{i}:{s[:12]!r}" for i, s in enumerate(DISCORD_SHAPES)])
def test_discord_messages_options_and_names_are_read_within_50_ms(text):
    discord_readers(text)


@pytest.mark.parametrize("text", DISCORD_SHAPES, ids=[f"{i}:{s[:12]!r}" for i, s in enumerate(DISCORD_SHAPES)])
def test_moves_and_premoves_are_read_capped_within_50_ms(text):
    move_readers(text)


def test_a_name_of_line_breaks_is_escaped_quickly_and_still_escaped():
    """The Discord escape's line-start pattern ran its indent over every following line
    break: 100 KB of them took 89 s. Now linear, and a heading, quote or list behind blank
    lines is still escaped."""
    text = filled("\n")
    took = cpu_time(DISCORD.escape, text)
    assert took < BOUND, took
    assert DISCORD.escape("\n\n  # big\n> quote\n- item") == "\n\n  \\# big\n\\> quote\n\\- item"
    assert DISCORD.escape("a\n\t-b") == "a\n\t\\-b"


@PROFILE
@given(st.text(min_size=1, max_size=30))
def test_generated_discord_text_repeated_to_100_kb_is_read_within_50_ms(piece):
    discord_readers(filled(piece))
    move_readers(filled(piece))


VARIANT = '''name = "Small"
files = "abcdef"
ranks = 6
start = "rnkqnr/pppppp/6/6/PPPPPP/RNKQNR w - - 0 1"

[pieces.K]
name = "King"
betza = "K"
royal = true

[pieces.Q]
name = "Queen"
betza = "Q"

[pieces.R]
name = "Rook"
betza = "R"

[pieces.N]
name = "Knight"
betza = "N"

[pieces.P]
name = "Pawn"
betza = "fmWfcF"
'''


def variant_files(text: str) -> list[str]:
    """A server owner's variant file with ``text`` in each place a string goes."""
    toml = tomllib  # (the file is TOML: a string's quotes and escapes are TOML's)
    quoted = '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") \
        .replace("\t", "\\t") + '"'
    quoted = "".join(c if c.isprintable() or c in "\\\"" else f"\\u{ord(c):04x}" for c in quoted)
    out = []
    for old, new in (('name = "Small"', f"name = {quoted}"), ('files = "abcdef"', f"files = {quoted}"),
                     ('start = "rnkqnr/pppppp/6/6/PPPPPP/RNKQNR w - - 0 1"', f"start = {quoted}"),
                     ('betza = "Q"', f"betza = {quoted}"), ('name = "Rook"', f"name = {quoted}"),
                     ('royal = true', f"{quoted} = true"), ('[pieces.N]', f"[pieces.{quoted}]")):
        out.append(VARIANT.replace(old, new, 1))
    toml.loads(out[0])  # (well formed)
    return out


@pytest.mark.parametrize("text", SHAPES[::3], ids=[f"{i}:{s[:12]!r}" for i, s in enumerate(SHAPES[::3])])
def test_variant_files_are_read_and_checked_within_50_ms(tmp_path, text):
    """Each of a variant file's strings 100 KB of a shape: the file read, checked and refused
    (or loaded) quickly, as ``fairypost run`` reads the owner's folder at its start; the
    readers it calls on its own (Betza, the start position, the names' patterns) too."""
    for n, content in enumerate(variant_files(text)):
        folder = tmp_path / str(n)
        folder.mkdir()
        (folder / "small.toml").write_text(content, encoding="utf-8")
        try:
            quick_cpu(rules.add_good_variants, folder)
        finally:
            rules.remove_variants_dir(folder)
    quick_cpu(betza.parse, text)
    quick_cpu(read_fen, rules.game("chess"), text)
    quick_cpu(schema.GAME_ID.match, text)
    quick_cpu(schema.PIECE_KEY.match, text)
