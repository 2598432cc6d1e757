"""The computer opponent as a player: it accepts challenges and plays its turns.

The computer is a service player like any other, on the platform ``computer``, one per
level (user id ``level-3``, name "fairypost level 3"). It learns what to do the way
every player does, from the service's notices: :class:`Computer` is the ``Notifier`` for
that platform (put it beside the adapter's own with ``bot.delivery.notifiers.Notifiers``). On a
challenge it accepts at once; on "your move" (set-up actions included) it rebuilds the
game from its start and moves, runs ``ai.think`` in a worker process (never on the event
loop: it is seconds of pure Python) and plays the answer with ``expected_ply``, so an
answer to a position that has changed meanwhile (a takeback, a resignation) is dropped.

A notice is answered by a task, so the human's command that caused it returns at once.
A run that stops mid-think has already had that notice: ``resume()`` (at start) finds
every game where a computer player is to move, and every challenge waiting for one.
Hints and reviews (``hint``, ``review``) run in the same worker, with ``computer_cores``
processes that it keeps warm (a setting; default every core but one, so that the event
loop keeps one, at most ``DEFAULT_CORES_MAX``, as each holds every game's tables): a hint
is searched by them together (``ai.parallel.think``), a review's positions are shared
among them, each searched that many times longer on one core: the review takes as long
as on one core and sees deeper. The computer's own moves think on one core: the worker
is one process, and many games' turns wait for it.

The computer's turn always comes. A turn that fails (a worker that raises or cannot start,
a database error) is tried again after ``computer_retry_seconds`` (30), the pause doubling
each time up to an hour (``RETRY_MAX_SECONDS``): by the service's sweep, which wakes for it
(``sweep_due``/``next_due``, registered with ``GameService.add_sweeper``), and by a timer of
its own where no scheduler runs (the terminal). After ``computer_tell_after`` (3) failures of
one turn its opponent is told (``ComputerStalled``) and the server's log says so at ERROR.
Neither side loses on time meanwhile: the computer's turns have no deadline (the service
gives them none: ``_start_turn``), and the human's clock starts only when the computer has
moved, with a whole turn's time. The failures are counted in memory: a restart starts
afresh (``resume``).

The worker is a ``spawn`` process, which imports the main module again: ``start()`` (at
start-up, before anything else: ``Host.open``) starts a throwaway process the same way and
refuses with a clear message (``ComputerUnavailable``) if it cannot start, rather than
failing at the first turn; a fairypost started again inside such a process (a main script
that starts fairypost on import) refuses at once, before it opens anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from language import ENGLISH, Language
from language.text import T

from ..delivery import events as ev
from ..domain.errors import (
    ChallengeError,
    DatabaseUnavailable,
    GameChanged,
    GameOver,
    NotYourTurn,
    RateLimited,
    ServiceError,
)
from ..identity.players import Player
from ..operations.command import reason_text
from ..operations.service import COMPUTER, GameService, GameView

log = logging.getLogger(__name__)

PLATFORM = COMPUTER
DEFAULT_LEVEL = 3
THINK_SECONDS = 5.0     # a move's budget; the lower levels use a share of it (ai/levels.py)
HINT_SECONDS = 2.0
REVIEW_SECONDS = 0.3    # per position of the game
REVIEW_MIN_DEPTH = 2    # plies searched in every reviewed position, however long they take
BLUNDER_CP, MISTAKE_CP = 200, 100   # a move that loses more than this: ?? / ?
SCORE_CAP = 3000        # mates count as this much in a swing
RETRY_MAX_SECONDS = 3600  # the longest pause between two tries of a failed turn
DEFAULT_CORES_MAX = 4   # hint/review processes by default, each ~130 MB of game tables
PROBE_SECONDS = 60      # the start-up check of the worker process: how long it may take


class ComputerUnavailable(Exception):
    """The computer's worker process cannot start: ``str()`` says why and what to do."""


# --- who the computer is ----------------------------------------------------------------

def user_id(level: int) -> str:
    return f"level-{level}"


def name(level: int) -> str:
    return f"fairypost level {level}"  # a name that takes a side in brackets after it


def level_of(player: ev.PlayerRef | Player) -> int:
    """The level a computer player plays at (its user id says it)."""
    return int(player.user_id.rsplit("-", 1)[1])


def is_computer(player) -> bool:
    return player is not None and player.platform == PLATFORM


async def computer_player(service: GameService, level: int = DEFAULT_LEVEL) -> Player:
    import ai
    if level not in ai.LEVELS:
        raise ChallengeError(T("the computer's level is {first} to {last}, not {level}",
                                first=1, last=max(ai.LEVELS), level=level))
    return await service.player(PLATFORM, user_id(level), name(level))


async def challenge_computer(service: GameService, player_id: int, game: str,
                             level: int = DEFAULT_LEVEL, **options):
    """Challenge the computer and take its answer at once: the challenge, its game made.

    The computer accepts every challenge when its notice reaches it, but that notice may
    be delivered later, in the background: the challenger should not wait for it. Its
    own acceptance then finds the challenge taken and does nothing."""
    cpu = await computer_player(service, level)
    c = await service.challenge(player_id, game, opponent_id=cpu.id, **options)
    c = await service.get_challenge(c.id)
    if c.game_id is None and c.status == "open":
        try:
            await service.accept_challenge(c.id, cpu.id)
        except ServiceError:  # its notice got there first: the game is made all the same
            pass
        c = await service.get_challenge(c.id)
    return cpu, c


def opponent_computer(view: GameView, player_id: int) -> ev.PlayerRef | None:
    """The computer player of ``view`` if ``player_id`` plays against it."""
    other = view.black if view.white.id == player_id else view.white
    return other if is_computer(other) and view.side_of(player_id) else None


def check_hint(view: GameView, player_id: int) -> None:
    """Refuse a hint where none is allowed: only the human to move against the computer."""
    if opponent_computer(view, player_id) is None:
        raise ServiceError(T("hints are only for games against the computer; in a game between "
                             "people, the move is yours to find"))
    if view.status != "active":
        raise GameOver(T("the game is over: there is no move to hint"))
    if view.side_of(player_id) != view.turn:
        raise NotYourTurn(T("a hint is for your own move: it is the computer's turn"))


def check_review(view: GameView) -> None:
    if view.status == "active":
        raise ServiceError(T("a review is for a finished game: this one is still being played"))


# --- the worker's side (module functions: they are pickled by name) --------------------

def cores(settings) -> int:
    """Processes for a hint or a review: the setting, or every core but one, at most
    ``DEFAULT_CORES_MAX`` (at least 1)."""
    if settings.computer_cores is not None:
        return settings.computer_cores
    return max(1, min(DEFAULT_CORES_MAX, (os.cpu_count() or 1) - 1))


def _prepare(games, helpers: int = 1) -> None:
    """The worker's start: it ends with its parent (a ``fairypost`` killed outright cannot
    shut its pool down), then builds the games' tables."""
    import ai
    import ai.parallel
    import rules
    ai.parallel.end_with_parent()
    games = tuple(games if games is not None else rules.variants())
    for g in games:
        ai.prepare(g)
    if helpers > 1:   # a hint's searching processes, warm before the first one
        ai.parallel.shared_pool(helpers, games)


def _position(game: str, start_vfen: str, lans):
    import rules
    pos = rules.from_fen(game, start_vfen)
    for lan in lans:
        pos = pos.play(lan)
    return pos


def think_in_worker(game: str, start_vfen: str, lans, level: int, seconds: float, cores: int = 1):
    """(lan, san, score_cp, depth) of the computer's move after ``lans``; the top level
    with ``cores`` processes searching together."""
    import ai
    import ai.parallel
    ai.prepare(game)
    t = ai.parallel.think(_position(game, start_vfen, lans), level=level, seconds=seconds, cores=cores)
    return t.lan, t.san, t.score_cp, t.depth


def _finished(pos):
    """(None, None, score for the side to move) of a finished game (by its result), else None."""
    out = pos.outcome()
    if out is None:
        return None
    if out[0] == "1/2-1/2":
        return None, None, 0
    winner = "w" if out[0] == "1-0" else "b"
    return None, None, SCORE_CAP if winner == pos.turn else -SCORE_CAP


def review_in_worker(game: str, start_vfen: str, lans, seconds: float, cores: int = 1):
    """Per move: (best_lan, best_san, score_before, score_after), both for the mover.
    Each position is searched once: its score is the "after" of one move and the
    "before" of the next. With ``cores`` processes the positions are shared among them,
    each searched ``cores`` times ``seconds``: the same time in all, deeper."""
    import ai
    import ai.parallel
    ai.prepare(game)
    positions = [_position(game, start_vfen, [])]
    for lan in lans:
        positions.append(positions[-1].play(lan))
    searched = [_finished(pos) for pos in positions]
    playing = [i for i, s in enumerate(searched) if s is None]
    # two plies whatever the machine's load: a move that allows a mate in one, or loses a
    # piece to the one reply, is always seen (a review's marks must not change with load)
    thoughts = ai.parallel.think_each([positions[i] for i in playing], seconds=seconds * cores,
                                      cores=cores, level=5, min_depth=REVIEW_MIN_DEPTH)
    for i, t in zip(playing, thoughts, strict=True):
        searched[i] = (t.lan, t.san, _clamp(t.score_cp))
    out = []
    for i in range(len(lans)):
        mover = positions[i].turn
        best_lan, best_san, before = searched[i]
        after = searched[i + 1][2]
        out.append((best_lan, best_san, before, after if positions[i + 1].turn == mover else -after))
    return out


def _clamp(score: int) -> int:
    return max(-SCORE_CAP, min(SCORE_CAP, score))


def make_pool(workers: int = 1, games=None, helpers: int = 1) -> ProcessPoolExecutor:
    """The worker processes (spawned: a fork of a process with threads may deadlock); each
    builds the tables of ``games`` (default: every game) at start, and with ``helpers``
    above 1 starts that many searching processes of its own for hints and reviews."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_prepare, initargs=(games, helpers))


def _imported_again() -> bool:
    """Whether this is a spawned process running the main script again: multiprocessing
    runs it there as a module ``__mp_main__`` of its own (elsewhere that name is only
    another name for ``__main__``)."""
    again = sys.modules.get("__mp_main__")
    return again is not None and again is not sys.modules.get("__main__")


def _spawn_advice() -> str:
    path = getattr(sys.modules.get("__mp_main__", sys.modules.get("__main__")), "__file__", None)
    return ("The computer thinks in a worker process started with multiprocessing's \"spawn\", "
            "which runs the main script again in the new process" + (f" (here {path})" if path else "")
            + ": if that script starts fairypost when it is run, put that under "
            "`if __name__ == \"__main__\":`, or start fairypost with `fairypost run`.")


async def check_worker_starts(seconds: float = PROBE_SECONDS) -> None:
    """Start a throwaway process as the worker is started (spawn, the main script imported
    again) and see it end well; else raise ``ComputerUnavailable``."""
    if _imported_again():
        raise ComputerUnavailable("fairypost was started again inside the computer's worker "
                                  "process, by the main script run again there. " + _spawn_advice())
    probe = multiprocessing.get_context("spawn").Process(target=os.getpid, name="fairypost-probe",
                                                         daemon=True)
    try:
        probe.start()
    except (OSError, RuntimeError) as e:
        raise ComputerUnavailable(f"the computer's worker process could not start ({e}).") from None
    await asyncio.to_thread(probe.join, seconds)
    if probe.exitcode is None:
        probe.kill()
        await asyncio.to_thread(probe.join)
        raise ComputerUnavailable(f"the computer's worker process did not start within {seconds:g} s. "
                                  + _spawn_advice())
    if probe.exitcode != 0:
        raise ComputerUnavailable(f"the computer's worker process could not start (it exited with "
                                  f"code {probe.exitcode}). " + _spawn_advice())


@dataclass
class _Stall:
    """A turn of the computer's that failed: tried again from ``retry_at``."""
    player_id: int
    failures: int = 0
    retry_at: int | None = None  # None: being tried now
    told: bool = False


# --- what hints and reviews return ----------------------------------------------------------

@dataclass(frozen=True)
class Hint:
    lan: str
    san: str
    score_cp: int  # for the player to move

    def text(self, *, lang: Language = ENGLISH) -> str:
        return lang.tr("The computer would play {move} (score {score})", move=self.san,
                       score=pawns(self.score_cp, lang=lang))


@dataclass(frozen=True)
class ReviewedMove:
    ply: int
    side: str
    san: str
    lan: str
    best_san: str
    best_lan: str
    before: int  # the best score for the mover before the move
    after: int   # the mover's score after it

    @property
    def swing(self) -> int:
        return self.after - self.before

    @property
    def mark(self) -> str:
        if self.lan == self.best_lan:
            return "best"
        loss = self.before - self.after
        return "??" if loss > BLUNDER_CP else "?" if loss > MISTAKE_CP else ""


def pawns(score_cp: int, *, lang: Language = ENGLISH) -> str:
    import ai
    mate = ai.mate_in(score_cp)
    if mate is not None:  # as ai.describe_score says it, in the reader's language
        return lang.tr("mate in {n}", n=mate) if mate > 0 else lang.tr("mated in {n}", n=-mate)
    return f"{score_cp / 100:+.1f}"


def review_text(view: GameView, moves: list[ReviewedMove], *, lang: Language = ENGLISH) -> str:
    """The record with each move's score swing (for the mover, in pawns) and its mark."""
    result = view.result or "*"
    if view.reason:
        result = f"{result} ({lang.say(reason_text(view.reason))})"
    lines = [lang.tr("Review of game #{id} ({game}): {white} v {black}, {result}", id=view.id,
                     game=view.game, white=view.white.name, black=view.black.name, result=result),
             lang.tr("Scores in pawns for the side that moved: before (best play) -> after the move."),
             lang.tr("{blunder} a blunder (more than 2 pawns lost), {mistake} a mistake (more than 1), "
                     "{best}: the computer's own choice.", blunder="??", mistake="?", best=_best(lang)), ""]
    for m in moves:
        number = f"{(m.ply + 1) // 2}." + ("" if m.side == "w" else "..")
        note = (_best(lang) if m.mark == "best" else
                lang.tr("{mark} (best was {move})", mark=m.mark, move=m.best_san) if m.mark else "")
        lines.append(f"{number:<6} {m.san:<12} {_cp(m.before):>6} -> {_cp(m.after):>6} "
                     f"({_cp(m.swing)}) {note}".rstrip())
    lines += ["", review_counts(moves, lang=lang)]
    return "\n".join(lines)


def _best(lang: Language) -> str:
    """The mark of a move the computer would have played itself."""
    return lang.tr("best")


def review_counts(moves: list[ReviewedMove], *, lang: Language = ENGLISH) -> str:
    """'1 blunder(s) (??), 2 mistake(s) (?), 9 move(s) as the computer would play.'"""
    marks = [m.mark for m in moves]
    return lang.tr("{blunders} blunder(s) ({blunder}), {mistakes} mistake(s) ({mistake}), "
                   "{best} move(s) as the computer would play.", blunders=marks.count("??"),
                   blunder="??", mistakes=marks.count("?"), mistake="?", best=marks.count("best"))


def review_summary(game_id: int, moves: list[ReviewedMove], *, lang: Language = ENGLISH) -> str:
    return lang.tr("The review of game #{id}: {counts}", id=game_id, counts=review_counts(moves, lang=lang))


def review_file_name(game_id: int) -> str:
    return f"fairypost-review-{game_id}.txt"


def hint_line(game_id: int, hint: Hint, *, lang: Language = ENGLISH) -> str:
    return lang.tr("Game #{id}: {hint}.", id=game_id, hint=hint.text(lang=lang))


def _cp(score: int) -> str:
    return f"{score / 100:+.1f}" if abs(score) < SCORE_CAP else ("+mate" if score > 0 else "-mate")


# --- the player ---------------------------------------------------------------------------------

Act = Callable[[int, Callable[[], Awaitable]], Awaitable]


class Computer:
    """The notifier of the ``computer`` platform; ``bind(service)`` before the first notice."""

    platforms = frozenset({PLATFORM})

    def __init__(self, pool: Executor | None = None, *, seconds: float = THINK_SECONDS,
                 hint_seconds: float = HINT_SECONDS, review_seconds: float = REVIEW_SECONDS,
                 games=None):
        """Without ``pool``, its own (``make_pool(1, games)``: its worker starts when first
        needed), shut down by ``close``."""
        self.pool = pool
        self.games = games
        self.seconds = seconds
        self.hint_seconds = hint_seconds
        self.review_seconds = review_seconds
        self.service: GameService | None = None
        self._act: Act | None = None
        self._tasks: dict[tuple[int, int], asyncio.Task] = {}  # (game, ply) -> its turn
        self._held: dict[int, asyncio.Event] = {}  # games whose answers wait (see held())
        self._stalls: dict[tuple[int, int], _Stall] = {}  # (game, ply) -> its failures
        self._timer: asyncio.TimerHandle | None = None  # the next retry, where no sweep runs
        self._own_pool = False

    async def start(self) -> None:
        """At start-up: refuse (``ComputerUnavailable``) if the worker process cannot start,
        rather than fail at the first turn."""
        await check_worker_starts()

    def bind(self, service: GameService, act: Act | None = None) -> None:
        """``act(game_id, op)``: how a move is made (the Discord adapter posts its board)."""
        self.service = service
        self._act = act
        if self.pool is None:
            self.pool = make_pool(1, self.games, cores(service.settings))
            self._own_pool = True
        service.add_sweeper(self)  # failed turns are tried again by the sweep

    async def close(self) -> None:
        if self.service is not None:
            self.service.remove_sweeper(self)
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        if self._own_pool:  # waits for a search under way (within its budget)
            self.pool.shutdown(wait=True, cancel_futures=True)

    async def _in_worker(self, fn, *args):
        try:
            return await self._submit(fn, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new one, once
            if not self._own_pool:
                raise
            log.warning("the computer's worker process died; starting another")
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = make_pool(1, self.games, cores(self.service.settings))
            return await self._submit(fn, *args)

    def _submit(self, fn, *args) -> asyncio.Future:
        """``fn(*args)`` in the worker. The pool starts its process at a submission: it starts
        with Ctrl-C ignored (and keeps ignoring it), so a Ctrl-C typed at the terminal while
        it is still importing is the main process's alone, never a traceback of the worker's."""
        import ai.parallel
        with ai.parallel.sigint_ignored():
            return asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    # --- notices ---

    async def notify(self, event: ev.Event) -> None:
        if not is_computer(event.recipient):
            return
        if isinstance(event, ev.ChallengeReceived):
            await self._accept(event.challenge_id, event.recipient.id)
        elif isinstance(event, ev.YourMove):
            self._schedule(event.game_id, event.recipient.id, event.ply)
        elif isinstance(event, ev.DrawOffered):  # it plays on
            await self._answer(self.service.decline_draw, event.game_id, event.recipient.id)
        elif isinstance(event, ev.TakebackAsked):  # it lets a player take a move back
            await self._answer(self.service.accept_takeback, event.game_id, event.recipient.id)

    async def _accept(self, challenge_id: int, player_id: int) -> None:
        await self._answer(self.service.accept_challenge, challenge_id, player_id)

    @staticmethod
    async def _answer(op, item_id: int, player_id: int) -> None:
        try:
            await op(item_id, player_id)
        except ServiceError as e:  # withdrawn, or moved on meanwhile: nothing to answer
            log.info("the computer's answer (%s #%d) was refused: %s", op.__name__, item_id, e)

    def _schedule(self, game_id: int, player_id: int, ply: int) -> None:
        key = (game_id, ply)
        if key in self._tasks:
            return
        task = asyncio.get_running_loop().create_task(self._turn(game_id, player_id, ply))
        self._tasks[key] = task
        task.add_done_callback(lambda t: self._tasks.pop(key, None))

    async def resume(self, game_id: int | None = None) -> int:
        """Answer what a stopped run left: challenges to the computer, and its turns (in
        ``game_id`` only, if given). Returns how many."""
        n = 0
        for p in await self.service.players_on(PLATFORM):
            for c in await self.service.list_challenges(p.id) if game_id is None else ():
                if c.opponent is not None and c.opponent.id == p.id:
                    await self._accept(c.id, p.id)
                    n += 1
            for s in await self.service.list_games(p.id):
                if s.my_move and game_id in (None, s.id):
                    self._schedule(s.id, p.id, s.ply)
                    n += 1
        return n

    @contextlib.asynccontextmanager
    async def held(self, game_id: int) -> AsyncIterator[None]:
        """The computer plays no move in ``game_id`` meanwhile (one found waits, and is
        dropped if the game has changed): for a change of several steps, such as taking
        back the computer's reply and then the player's move."""
        self._held[game_id] = released = asyncio.Event()
        try:
            yield
        finally:
            del self._held[game_id]
            released.set()

    def thinking(self, game_id: int) -> bool:
        return any(g == game_id for g, _ in self._tasks)

    async def idle(self, game_id: int | None = None) -> None:
        """Wait until the computer has answered (in ``game_id``, or everywhere)."""
        while True:
            tasks = [t for (g, _), t in self._tasks.items() if game_id is None or g == game_id]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    # --- a turn ---

    async def _turn(self, game_id: int, player_id: int, ply: int) -> None:
        try:
            await self._play_turn(game_id, player_id, ply)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bug, a worker that cannot start: tried again, never dropped
            await self._failed(game_id, player_id, ply, e)
        else:
            self._stalls.pop((game_id, ply), None)

    async def _failed(self, game_id: int, player_id: int, ply: int, error: Exception) -> None:
        settings = self.service.settings
        stall = self._stalls.setdefault((game_id, ply), _Stall(player_id))
        stall.failures += 1
        pause = min(RETRY_MAX_SECONDS, settings.computer_retry_seconds * 2 ** (stall.failures - 1))
        stall.retry_at = self._clock() + pause
        if stall.failures == 1 and isinstance(error, DatabaseUnavailable):  # the store logs the outage
            log.warning("the computer's turn in game #%d waits for the database; trying again in %d s",
                        game_id, pause)
        elif stall.failures == 1:
            log.exception("the computer's turn in game #%d failed; trying again in %d s", game_id, pause)
        else:
            log.warning("the computer's turn in game #%d failed again (%d times: %s: %s); trying "
                        "again in %d s", game_id, stall.failures, type(error).__name__, error, pause)
        if stall.failures >= settings.computer_tell_after and not stall.told:
            log.error("the computer has failed %d times to move in game #%d: its opponent is told",
                      stall.failures, game_id)
            try:
                await self.service.report_stalled_turn(game_id, player_id, stall.failures)
                stall.told = True
            except Exception:  # noqa: BLE001 - the database may be what fails: told at the next failure
                log.exception("telling the opponent in game #%d failed", game_id)
        self._arm()
        self.service.wake_listeners()  # the scheduler wakes the sweep for the retry

    def _clock(self) -> int:
        return int(self.service.clock.now().timestamp())

    # --- the sweep's part (GameService.add_sweeper) ---

    async def sweep_due(self, now: int) -> int:
        """Try again each failed turn whose pause is over; how many."""
        return self._retry_due(now)

    def _retry_due(self, now: int) -> int:
        due = [(key, s) for key, s in self._stalls.items() if s.retry_at is not None and s.retry_at <= now]
        for (game_id, ply), stall in due:
            stall.retry_at = None  # until it fails again (or is done with)
            self._schedule(game_id, stall.player_id, ply)
        self._arm()
        return len(due)

    def next_due(self) -> int | None:
        """When the next failed turn is to be tried again."""
        return min((s.retry_at for s in self._stalls.values() if s.retry_at is not None), default=None)

    def _arm(self) -> None:
        """A timer for the next retry, so that it comes where no scheduler sweeps (the
        terminal); where one does, whichever comes first tries, the other finds it done."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        when = self.next_due()
        if when is not None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(max(0, when - self._clock()),
                                          lambda: self._retry_due(self._clock()))

    async def _play_turn(self, game_id: int, player_id: int, ply: int) -> None:
        view = await self.service.game(game_id)
        if view.status != "active" or view.ply != ply or view.to_move is None \
                or view.to_move.id != player_id:
            return  # the game moved on before the notice was read
        lan, _san, _score, _depth = await self._in_worker(
            think_in_worker, view.game, view.start_vfen, [m.lan for m in view.moves],
            level_of(view.to_move), self.seconds)
        while game_id in self._held:
            await self._held[game_id].wait()
        for _ in range(10):
            try:
                op = lambda: self.service.move(game_id, player_id, lan, expected_ply=ply)  # noqa: E731
                await (self._act(game_id, op) if self._act else op())
                return
            except RateLimited as e:  # one computer player plays many games
                await asyncio.sleep(e.retry_after)
            except (GameChanged, GameOver, NotYourTurn):
                log.info("the computer's answer in game #%d came too late: dropped", game_id)
                return
        raise RuntimeError("the computer's move was refused as too many commands, 10 times")

    # --- hints and reviews ---

    async def hint(self, view: GameView, player_id: int) -> Hint:
        """The computer's move for the player to move, in a game against the computer."""
        check_hint(view, player_id)
        lan, san, score, _ = await self._in_worker(
            think_in_worker, view.game, view.start_vfen, [m.lan for m in view.moves], 5,
            self.hint_seconds, cores(self.service.settings))
        return Hint(lan, san, score)

    async def review(self, view: GameView) -> list[ReviewedMove]:
        """Each move's score swing, once the game is over."""
        check_review(view)
        rows = await self._in_worker(review_in_worker, view.game, view.start_vfen,
                                     [m.lan for m in view.moves], self.review_seconds,
                                     cores(self.service.settings))
        return [ReviewedMove(m.ply, m.side, m.san, m.lan, best_san, best_lan, before, after)
                for m, (best_lan, best_san, before, after) in zip(view.moves, rows, strict=True)]
