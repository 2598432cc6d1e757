"""Reading lines and writing text: the terminal's only I/O.

At a terminal, lines are read with ``input`` (line editing and history); from a
pipe or a file they are read plainly and echoed after the prompt, so that a
transcript reads like the session it was."""

from __future__ import annotations

import os
import re
import signal
import sys
import textwrap
import threading
from contextlib import contextmanager
from typing import TextIO

from language import T, from_environment

from ..words.text import PLAIN, Markup

#: how much of a user's text an error quotes back
SHOWN_CHARS = 40


#: the answers to a yes/no question (Enter alone is no), and the words that leave instead
YES = ("y", "yes")
NO = ("n", "no", "")
QUIT = ("quit", "q", "exit")
ANSWERS = T("type y (yes) or n (no; Enter alone is no), or quit to leave (the game is saved).")

#: the width of what is not a terminal (a pipe, a file), unless COLUMNS says another
DEFAULT_WIDTH = 80


class Console:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 width: int | None = None):
        self.inp = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.interactive = _isatty(self.inp) and _isatty(self.out)
        self._width = width
        # the reader's language: the terminal's (LANG), until a session knows whose turn it is
        self.m: Markup = PLAIN.in_language(from_environment(os.environ))
        if self.interactive:
            try:
                import readline  # noqa: F401 - gives input() line editing and history
            except ImportError:  # not on every platform
                pass

    @property
    def width(self) -> int:
        """The terminal's width now (it may have been resized), else COLUMNS, else 80."""
        if self._width is not None:
            return self._width
        if _isatty(self.out):
            try:
                return os.get_terminal_size(self.out.fileno()).columns
            except (OSError, ValueError):
                pass
        try:
            return int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            return DEFAULT_WIDTH

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Write ``text``, each line longer than the terminal wrapped at its spaces
        (``wrap=False``: a board, whose rows must stay whole)."""
        if wrap:
            text = wrapped(text, self.width - 1)
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """One line without its newline, or None at the end of the input. Ctrl-C while
        waiting raises KeyboardInterrupt at once (see ``_ctrl_c_interrupts``)."""
        with _ctrl_c_interrupts():
            if self.interactive:
                try:
                    return input(prompt)
                except EOFError:
                    self.say()
                    return None
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline()
        if not line:
            self.say()
            return None
        line = line.rstrip("\r\n")
        self.say(escaped(line), wrap=False)  # the echo: the line as it was typed
        return line

    def yes(self, prompt: str) -> bool | None:
        """A yes/no question: True, False, or None to leave (the end of the input, Ctrl-D,
        or a word that quits: at a question as at the prompt, ``quit`` must not be taken
        for an answer nor asked again for ever)."""
        while True:
            answer = self.ask(prompt)
            if answer is None:
                return None
            a = answer.strip().lower()
            if a in YES:
                return True
            if a in NO:
                return False
            if a in QUIT:
                return None
            self.say(self.m.tr("{answer} is not an answer here: {answers}", answer=shown(answer.strip()),
                               answers=self.m.say(ANSWERS)))


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def _ctrl_c_interrupts():
    """Inside ``asyncio.run`` SIGINT only marks the main task for cancelling, so a Ctrl-C
    typed while a line is read would be swallowed and the next line lost to the
    cancellation. While waiting for a line, Ctrl-C raises KeyboardInterrupt instead."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def escaped(text: str) -> str:
    """Control characters (NUL, ESC, ...) written as escapes, so echoing them back
    neither hides nor runs anything."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """A user's text quoted back in a message: escaped, and cut after ``limit`` characters."""
    cut = text if len(text) <= limit else text[:limit] + "\u2026"
    return f"'{escaped(cut)}'"


def quoting(message: str, text: str) -> str:
    """A message (the engine's, the service's) with the user's text, which it quotes
    in full, quoted as :func:`shown` does."""
    return message.replace(repr(text), shown(text))


# a line in columns ('  move MOVE        play a move'): its wrapped lines go on under the second
_COLUMNS = re.compile(r"^(\s+\S+(?: \S+)*\s{2,})\S")


def wrapped(text: str, width: int) -> str:
    """Each line of ``text`` longer than ``width`` broken at spaces, its continuation
    indented as the line is (under the second column of a line in columns)."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width or width < 20:
            out.append(line)
            continue
        columns = _COLUMNS.match(line)
        indent = (" " * len(columns.group(1)) if columns
                  else line[:len(line) - len(line.lstrip())])
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False, drop_whitespace=True) or [line])
    return "\n".join(out)
