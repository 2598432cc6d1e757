"""Reading lines and writing text: the terminal's only I/O.

At a terminal, lines are read with ``input`` (line editing and history); from a
pipe or a file they are read plainly and echoed after the prompt, so that a
transcript reads like the session it was."""

from __future__ import annotations

import sys
from typing import TextIO


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
        """One line without its newline, or None at the end of the input."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                self.say()
                return None
        self.out.write(prompt)
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        line = line.rstrip("\r\n")
        self.say(line)
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
