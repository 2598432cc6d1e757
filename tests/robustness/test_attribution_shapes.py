"""The attribution table (bot/email/attributions.py) and the fallback for unknown
attributions (a line ending in a colon right above a quote) on hostile text (issue #41 item
3): each new shape, repeated to 100 KB, read by every parser of a mail's text within 50 ms of
this thread's CPU time (``time.thread_time()``: a machine busy with other processes does not
fail it). The shapes of issue #40 stay in test_pathological_inputs.py."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.email.attributions import SHAPES, is_attribution
from bot.email.parse import first_line, html_text, read_mail

from .common import profile
from .test_pathological_inputs import BOUND, SIZE, cpu_time, filled, mail, quick

PROFILE = profile()


def verbs() -> list[str]:
    return sorted({verb for shape in SHAPES for verb in shape.verbs if verb and verb != "<address>"})


def shapes() -> list[str]:
    out = [
        "* " + filled("]"), "* " + filled("[") + "]:", filled("* x [1]:\n> \n"),
        filled("x:\n> \n"), filled("x:\n"), filled(":\n\n"), filled("x:\n\n\n\n"), filled("：\n>\n"),
        filled("a <b@\n"), filled("a <b@\nc>:\n> x\n"), filled("<a@b>:\n"), filled("<") + "@>:",
        filled("<a@") + ">:", filled("@") + ">:", filled("2026年11月28日") + ":",
        "2026年11月28日 " + filled("<a@b> ") + ":", filled("сб, 28 <a@b>:\n>\n"),
        filled("From: a\n\n"), filled("De: a\nPara: b\n"), filled("差出人: a\n"), filled("*" * 40 + ":"),
        filled("quoting ") + ":", filled("wiadomość napisana przez ") + ":",
        filled("<blockquote>\n"), filled("<blockquote>x</blockquote>\n"), filled("</blockquote>x\n"),
        filled("<blockquote>x:<br>"), filled("\u00a0:\n"),
        filled("a" * 997 + ":\n"), filled("a" * 997 + ":\n> q\n"),
    ]
    for verb in verbs():
        out += [filled(f"{verb} ") + ":", filled(f"x{verb}x") + ":", filled(f"{verb}\n") + ":",
                filled(f"{verb}:\n"), filled(f"{verb}" + "a" * 990 + ":\n")]
    return out


SHAPES_100KB = shapes()


@pytest.fixture(scope="module", autouse=True)
def warm():
    first_line("warm up:\n> x\n")


@pytest.mark.parametrize("text", SHAPES_100KB, ids=[f"{i}:{s[:12]!r}" for i, s in enumerate(SHAPES_100KB)])
def test_each_attribution_shape_at_100_kb_is_read_within_50_ms(text):
    quick(first_line, text)
    quick(html_text, text)
    quick(read_mail, mail({}, text))
    quick(read_mail, mail({}, text, "text/html"))


def test_one_longest_line_against_every_shape_is_quick():
    """A line of RFC 5322's limit, ending in a colon, tried against every shape of the table
    and wrapped windows of three such lines: well within the bound."""
    for verb in verbs():
        line = ("x" + verb + " ") * (990 // (len(verb) + 2)) + ":"
        assert cpu_time(is_attribution, "\n".join([line] * 3)) < BOUND
    assert len(SHAPES_100KB[0]) > SIZE


@PROFILE
@given(st.lists(st.sampled_from(["x", " ", ":", "：", ">", "\n", "<", "@", "]", "* ", "wrote", "schrieb am",
                                 "写道", "年", "1", "<blockquote>", "de:", "sent:"]), min_size=1, max_size=12))
def test_generated_attribution_pieces_repeated_to_100_kb_are_read_within_50_ms(pieces):
    text = filled("".join(pieces))
    quick(first_line, text)
    quick(read_mail, mail({}, text, "text/html"))
