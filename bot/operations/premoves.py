"""Conditional moves: "if they play X, I answer Y", left by a player waiting for the opponent.

A player writes lines, each alternating the opponent's move and their answer
(``Nf6 e5; Nc6 d4 Nf6 Bg5``: if they play Nf6 I play e5; if they play Nc6 I play d4,
and if they then play Nf6, Bg5). Every move is read by the engine from the position it
would be played in (any notation it reads: ``Nf6``, ``Ng8f6``, ``Ng8-f6`` are one move),
so the lines are a tree keyed by each move's LAN, the engine's identity of a move;
shared beginnings merge, two different answers to one move are refused.

The tree is stored per game and player (``premoves`` table), rooted at the opponent's
move after the ply it was set at. :func:`answer` runs inside the transaction of the
opponent's move (``GameService._play``): a move that a line expects gets its answer
played in that same transaction, the rest of that branch staying for the next round; a
move no line expects drops the tree; either way the player is told
(``events.PremovePlayed`` / ``PremovesDropped``). A takeback drops every tree of the game
(:func:`drop_all`). The opponent never sees them: only :func:`lines_of` reads them, for
their owner.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass

from language.text import T, Text
from rules.errors import RulesError

from ..delivery import events as ev
from ..delivery.events import ref
from ..domain.errors import GameChanged, NotYourTurn, PremoveError, text_of
from ..store import GameRow, Tx
from .command import storable

MAX_TEXT = 2000  # characters of lines at once
MAX_MOVES = 400  # moves in a tree: each is checked by the engine, in the transaction's work
_LINE_BREAK = re.compile(r"[;\n|]+")
_MOVE_NUMBER = re.compile(r"^\d+\.+")  # "1." "12..." before a move, or alone


@dataclass(frozen=True)
class Node:
    """The opponent's move, the answer to it, and the lines going on from there."""

    move: str  # LAN
    move_san: str
    answer: str  # LAN
    answer_san: str
    then: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Lines:
    """A player's conditional lines in a game, as they see them."""

    game_id: int
    ply: int  # the game's ply they wait at (the opponent's move comes next)
    tree: tuple[Node, ...]

    @property
    def count(self) -> int:
        return count_lines(self.tree)

    def sans(self) -> list[list[str]]:
        """Each line (root to leaf) as SAN: opponent's move, answer, ..."""
        out: list[list[str]] = []
        def walk(nodes, prefix):
            for n in nodes:
                line = prefix + [n.move_san, n.answer_san]
                if n.then:
                    walk(n.then, line)
                else:
                    out.append(line)
        walk(self.tree, [])
        return out

    def text(self) -> str:
        """The lines in the form they are typed in: ``Nf6 e5; Nc6 d4 Nf6 Bg5``."""
        return "; ".join(" ".join(line) for line in self.sans())


def count_lines(tree: tuple[Node, ...]) -> int:
    return sum(count_lines(n.then) if n.then else 1 for n in tree)


# --- reading and checking what a player types ------------------------------------------

def split_lines(text: str) -> list[list[str]]:
    """``Nf6 e5; Nc6 d4 Nf6 Bg5`` -> [[Nf6, e5], [Nc6, d4, Nf6, Bg5]]; move numbers
    (``1.``, ``1...``) and commas are dropped."""
    lines = []
    for chunk in _LINE_BREAK.split(text):
        tokens = []
        for token in chunk.replace(",", " ").split():
            token = _MOVE_NUMBER.sub("", token)
            if token:
                tokens.append(token)
        if tokens:
            lines.append(tokens)
    return lines


def build_tree(pos, text: str) -> tuple[Node, ...]:
    """The tree of the lines in ``text``, every move checked from ``pos`` (the opponent to
    move): a PremoveError names the first move that is not legal where it stands, a line
    ending on the opponent's move, or two different answers to one move."""
    if len(text) > MAX_TEXT:
        raise PremoveError(T("that is too much at once ({n} characters; at most {most})", n=len(text), most=MAX_TEXT))
    if pos.in_setup:
        raise PremoveError(T("conditional moves can be left once the set-up is over and play begins"))
    lines = split_lines(text)
    if not lines:
        raise PremoveError(T("no moves given: write lines like {example} "
                             "(their move, your answer, ...; lines apart with {separator})",
                             example="'Nf6 e5; Nc6 d4'", separator=";"))
    if sum(len(line) for line in lines) > MAX_MOVES:
        raise PremoveError(T("that is too many moves at once (at most {most})", most=MAX_MOVES))
    root: dict = {}  # opponent's LAN -> [san, answer LAN, answer SAN, dict of what follows]
    for number, line in enumerate(lines, 1):
        where = T("line {number}", number=number) if len(lines) > 1 else T("the line")
        if len(line) % 2:
            raise PremoveError(T("{where} ends with your opponent's move {move}: "
                                 "add your answer to it, or leave it out", where=where, move=line[-1]))
        p, level = pos, root
        for i in range(0, len(line), 2):
            theirs, p = _read(p, line[i], where, i)
            mine, p = _read(p, line[i + 1], where, i + 1)
            node = level.get(theirs[0])
            if node is None:
                node = level[theirs[0]] = [theirs[1], mine[0], mine[1], {}]
            elif node[1] != mine[0]:
                raise PremoveError(T("two different answers to {move} ({where}): {first} and {second}; keep one",
                                     move=theirs[1], where=where, first=node[2], second=mine[1]))
            level = node[3]
    return _freeze(root)


def _read(pos, token: str, where: Text, index: int):
    """(LAN, SAN) of ``token`` in ``pos``, and the position after it."""
    try:
        move = pos.parse(token)
        san = pos.san(move)
        return (move.lan, san), pos.play(move)
    except RulesError as e:
        why = text_of(e)
        if index % 2 == 0 and " of yours" in str(why):  # the rules speak to the one to move: them
            why = str(why).replace(" of yours", " of theirs")
        values = dict(move=token, where=where, number=index + 1, why=why)
        if index % 2:
            raise PremoveError(T("{move} ({where}, move {number}, your) is not a legal move there: {why}",
                                 **values)) from None
        raise PremoveError(T("{move} ({where}, move {number}, your opponent's) is not a legal move "
                             "there: {why}", **values)) from None


def _freeze(level: dict) -> tuple[Node, ...]:
    return tuple(Node(lan, v[0], v[1], v[2], _freeze(v[3])) for lan, v in level.items())


def to_json(tree: tuple[Node, ...]) -> str:
    def enc(n: Node):
        return {"m": n.move, "ms": n.move_san, "a": n.answer, "as": n.answer_san,
                "n": [enc(c) for c in n.then]}
    return json.dumps([enc(n) for n in tree], separators=(",", ":"))


def from_json(text: str) -> tuple[Node, ...]:
    def dec(d) -> Node:
        return Node(d["m"], d["ms"], d["a"], d["as"], tuple(dec(c) for c in d["n"]))
    return tuple(dec(d) for d in json.loads(text))


# --- the service's operations ----------------------------------------------------------

async def lines_of(tx: Tx, g: GameRow, player_id: int) -> Lines:
    """The player's own lines (none once they no longer wait at the game's ply)."""
    rows = await tx.premoves(g.id, player_id)
    if not rows or g.status != "active" or rows[0].ply != g.ply:
        return Lines(g.id, g.ply, ())
    return Lines(g.id, g.ply, from_json(rows[0].tree))


def check_waiting(pos, side: str, opponent_name: str) -> None:
    """Lines are left while the opponent is to move (their move is what a line answers)."""
    if pos.in_setup:
        raise PremoveError(T("conditional moves can be left once the set-up is over and play begins"))
    if pos.turn == side:
        raise NotYourTurn(T("it is your move: make it first; conditional moves answer your "
                            "opponent's next move (they wait while {name} is to move)", name=opponent_name))


async def store_lines(tx: Tx, g: GameRow, player_id: int, tree: tuple[Node, ...], now: int) -> None:
    await tx.set_premoves(g.id, player_id, g.ply, to_json(tree), now)


@dataclass(frozen=True)
class Answered:
    lan: str
    san: str
    pos: object  # the position after it
    outcome: tuple[str, str] | None


async def answer(service, tx: Tx, g: GameRow, lan: str, san: str, new, draw_offer: str | None,
                 now: int) -> Answered | None:
    """After the opponent's move ``lan`` (ply ``g.ply + 1``, written in ``tx``, leading to
    ``new``, the game going on): the waiting player's answer if a line expects that move,
    played and recorded in the same transaction; else their lines are dropped. Who waits
    is the player now to move."""
    side = new.turn
    waiting_id = g.white_id if side == "w" else g.black_id
    rows = await tx.premoves(g.id, waiting_id)
    if not rows:
        return None
    row = rows[0]
    tree = from_json(row.tree)
    opponent = ref(await tx.player(g.black_id if side == "w" else g.white_id))
    node = next((n for n in tree if n.move == lan), None) if row.ply == g.ply else None
    if node is None:
        await _drop(service, tx, g, waiting_id, opponent, "move", san, count_lines(tree), now)
        return None

    def play():  # the rules' work, off the event loop
        move = new.parse(node.answer)
        after = new.play(move)
        return move.lan, new.san(move), after, after.outcome()
    try:
        a_lan, a_san, after, outcome = await asyncio.to_thread(play)
    except RulesError:
        await _drop(service, tx, g, waiting_id, opponent, "illegal", node.answer_san,
                    count_lines(tree), now)
        return None
    ply = g.ply + 2
    await service._record_move(tx, g, ply, g.turn_no + 2, side, waiting_id, a_lan, a_san, after,
                               outcome, draw_offer, now)
    if node.then and outcome is None:
        await tx.set_premoves(g.id, waiting_id, ply, to_json(node.then), now)
    else:
        await tx.delete_premoves(g.id, waiting_id)
    left = count_lines(node.then) if outcome is None else 0
    event = ev.PremovePlayed(game_id=g.id, game=g.game, opponent=opponent, their_move=san,
                             answer=a_san, lines_left=left)
    await service._emit(tx, event, waiting_id, now, game_id=g.id)
    return Answered(a_lan, a_san, after, outcome)


async def drop_all(service, tx: Tx, g: GameRow, why: str, now: int) -> None:
    """Drop every player's lines in the game (a takeback changed the position they wait at)."""
    for row in await tx.premoves(g.id):
        opponent = ref(await tx.player(g.black_id if row.player_id == g.white_id else g.white_id))
        lines = count_lines(from_json(row.tree)) if row.ply == g.ply else 0
        if lines:
            await _drop(service, tx, g, row.player_id, opponent, why, None, lines, now)
        else:
            await tx.delete_premoves(g.id, row.player_id)


async def _drop(service, tx: Tx, g: GameRow, player_id: int, opponent: ev.PlayerRef, why: str,
                move: str | None, lines: int, now: int) -> None:
    await tx.delete_premoves(g.id, player_id)
    event = ev.PremovesDropped(game_id=g.id, game=g.game, opponent=opponent, why=why, move=move,
                               lines=lines)
    await service._emit(tx, event, player_id, now, game_id=g.id)


class PremoveOps:
    """The service's conditional moves: left, read and cancelled by their owner (mixed into
    ``GameService``); ``answer`` and ``drop_all`` are called in a move's or a takeback's
    transaction."""

    async def premoves(self, game_id: int, player_id: int) -> Lines:
        """The player's own conditional lines in the game (never the opponent's)."""
        snap = await self._snapshot(game_id)
        self._side(snap, player_id)
        async with self.store.read() as tx:
            return await lines_of(tx, snap.game, player_id)

    async def set_premoves(self, game_id: int, player_id: int, text: str, *,
                           expected_ply: int | None = None) -> Lines:
        """Leave lines like ``Nf6 e5; Nc6 d4 Nf6 Bg5`` (their move, my answer, ...), in place
        of any before; every move is checked from the current position."""
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            storable(str(text), T("conditional moves"))  # no length limit: lines may be many
            check_waiting(cmd.pos, cmd.side, cmd.player(cmd.side.other).name)
            tree = await asyncio.to_thread(build_tree, cmd.pos, str(text))
            async with self.store.write() as tx:
                g = await tx.game(game_id)
                # a move meanwhile: the lines were checked on another position
                if g.version != cmd.game.version:
                    raise GameChanged()
                await store_lines(tx, g, player_id, tree, cmd.now)
        return Lines(game_id, g.ply, tree)

    async def cancel_premoves(self, game_id: int, player_id: int) -> int:
        """Drop the player's conditional lines in the game; how many there were."""
        async with self._command(player_id):
            lines = await self.premoves(game_id, player_id)
            async with self.store.write() as tx:
                await tx.delete_premoves(game_id, player_id)
        return lines.count
