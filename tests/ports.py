"""Ports for the servers the tests start on 127.0.0.1 and must name before they listen
(a subprocess told its port, Dovecot's configuration, the IMAP server of tests/email).

Such a port cannot be the kernel's pick (``bind(("127.0.0.1", 0))`` then close): that
comes from the ephemeral range, the range every outgoing connection takes its own port
from, so in a parallel run another test's connection (to PostgreSQL, a mail server) may take
it in the moment between the pick and the server's start, and the server fails with
"address in use". These ports come from below that range, where no connection is given a
port, chosen at random so that two workers seldom try one, and free when chosen.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

_CHOOSER = random.SystemRandom()  # not the tests' seeded ``random``: every worker its own picks
_LOWEST = 10_000  # above the well-known and most registered services' ports


def _ephemeral_low() -> int:
    """Where the kernel's ephemeral range begins (Linux's setting; 32768 elsewhere)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A port on 127.0.0.1 that nobody listens on now, outside the ephemeral range."""
    high = max(_LOWEST + 1000, _ephemeral_low())
    for _ in range(200):
        port = _CHOOSER.randrange(_LOWEST, high)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use: another
            return port
    raise RuntimeError(f"no free port on 127.0.0.1 from {_LOWEST} to {high}")
