"""Reading lines and writing text: the terminal's only I/O.

At a terminal, lines are read with ``input`` (line editing and history); from a
pipe or a file they are read plainly and echoed after the prompt, so that a
transcript reads like the session it was."""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from typing import TextIO

#: how much of a user's text an error quotes back
SHOWN_CHARS = 40


class Console:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None):
        self.inp = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.interactive = _isatty(self.inp) and _isatty(self.out)
        if self.interactive:
            try:
                import readline  # noqa: F401 - gives input() line editing and history
            except ImportError:  # not on every platform
                pass

    def say(self, text: str = "") -> None:
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
        self.say(escaped(line))
        return line

    def yes(self, prompt: str) -> bool | None:
        """A yes/no question: True, False, or None at the end of the input."""
        while True:
            answer = self.ask(prompt)
            if answer is None:
                return None
            a = answer.strip().lower()
            if a in ("y", "yes"):
                return True
            if a in ("n", "no", ""):
                return False
            self.say("Please answer yes or no.")


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
