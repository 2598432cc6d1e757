"""Process lives: who holds a claim, and whether it still runs.

A process that claims work in the shared database (a notice it delivers: ``events.claimed_by``;
a mail it handles: the mail adapter's inbox claim) writes its life's id on the claim: a random
id (128 bits) made once when it opens the database (``Store.life``; a bot opens it once, at
start, so one id per process life), never its host name and pid. Those can be mistaken: two containers with the same
host name both run as pid 1 (a rolling deploy), and a restarted container reuses its pid,
so a name made of them says "this is me", or "that one is gone", of another live process.

Whether a life still runs is asked of the database, which knows it without a clock: each
open store holds a lock for its process's life that the system lets go of when the
process dies, however it dies (``Store.hold_life``; SQLite: a byte-range lock on the file
``<database>-lives``, at an offset made from the id; PostgreSQL: a session advisory lock).
``Store.life_ended(id)`` is then True only for a life whose lock nobody holds: its claims
can be taken back at once. A claim whose holder cannot be told dead (it still runs, or it
is on a database where no lock tells) keeps its lease (``lease_until``) and is taken back
only once that runs out.

A store that is closed lets go of its life (its process stops using the database): a test's
services, each with its store, stand for processes of their own. This module makes the ids,
keeps the lives this process holds, and the SQLite form of the lock.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import threading


def _forked() -> None:
    _held.clear()  # a child holds none of its parent's locks (POSIX locks are not inherited)
    _files.clear()


def new_life() -> str:
    """A new random life id."""
    return secrets.token_hex(16)


def is_life(holder: str | None) -> bool:
    """Whether ``holder`` is a life id (claims made before them carry host:pid:tag or
    nothing)."""
    return holder is not None and len(holder) == 32 and all(c in "0123456789abcdef" for c in holder)


async def known_dead(tx, holder: str | None) -> bool:
    """Whether a claim's holder is surely gone, asked in the transaction ``tx``: a claim
    without a holder (made before holders were named), or a life whose lock nobody holds.
    A holder named as before lives (host:pid:tag) may still run (an older version during a
    deploy): its lease decides."""
    return holder is None or (is_life(holder) and await tx.life_ended(holder))


def lock_key(life: str, bits: int = 60) -> int:
    """The life's place in a lock space of ``bits`` bits (its id's leading hex digits)."""
    return int(life[: bits // 4], 16)


#: the lives this process holds, per database (a file's real path, a server's URL)
_held: dict[str, set[str]] = {}


def held_here(database: str, life: str) -> bool:
    return life in _held.get(database, ())


def mark_held(database: str, life: str, held: bool) -> None:
    lives = _held.setdefault(database, set())
    if held:
        lives.add(life)
    else:
        lives.discard(life)


# --- SQLite: byte-range locks on one file beside the database --------------------------
#
# POSIX locks belong to the process, and closing any descriptor of the file lets go of all
# of them: so the file is opened once per process and kept open for its life, every lock
# and every test of one going through that one descriptor. A lock this process holds is
# known from ``_held`` (testing it here would take it again, and say "free").

_files: dict[str, int] = {}
_mutex = threading.Lock()
os.register_at_fork(after_in_child=_forked)


def file_key(db_path: str) -> str:
    return os.path.realpath(db_path)


def _lives_file(db_path: str) -> int:
    name = file_key(db_path) + "-lives"
    with _mutex:
        fd = _files.get(name)
        if fd is None:
            fd = _files[name] = os.open(name, os.O_RDWR | os.O_CREAT, 0o644)
        return fd


def hold_file_life(db_path: str, life: str) -> None:
    """Lock the life's byte of the database's lives file, for as long as this process runs
    (or until :func:`end_file_life`)."""
    fd = _lives_file(db_path)
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, lock_key(life))
    mark_held(file_key(db_path), life, True)


def end_file_life(db_path: str, life: str) -> None:
    """Let go of a life's lock (a test's process stopping; at exit the system does it)."""
    fd = _lives_file(db_path)
    mark_held(file_key(db_path), life, False)
    fcntl.lockf(fd, fcntl.LOCK_UN, 1, lock_key(life))


def file_life_ended(db_path: str, life: str) -> bool:
    """Whether no process holds the life's lock on this database (it is over)."""
    if held_here(file_key(db_path), life):
        return False
    fd = _lives_file(db_path)
    offset = lock_key(life)  # below 2**60: inside any 64-bit off_t
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
    except OSError as e:
        if e.errno in (errno.EACCES, errno.EAGAIN):
            return False  # another process holds it: that life runs
        raise
    fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset)
    return True
