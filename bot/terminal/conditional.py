"""The terminal's conditional moves, move confirmation and next game (bot/operations/premoves.py).

At one keyboard the lines belong to the player waiting (the side not to move): after
White's move, ``premove e5 Nf3`` is White's "if Black plays e5, I answer Nf3". ``next``
goes on with the most urgent game where the player who just moved is to move; ``confirm
on`` has a typed move asked about ("Play Nf3? [y/n]") before it is played.

Each function takes the terminal's ``Session`` as ``s`` (not imported: session.py imports
this module, and no import, not even a type's, goes back).
"""

from __future__ import annotations

from language import T
from rules.errors import RulesError

from ..commands.run import CONFIRM_SAID, set_confirm
from ..words.grammar import Command
from ..words.text import sentence
from ..words.timetext import time_left
from .commands import handles

# what premove does against the computer (the README says the same)
PREMOVE_VS_COMPUTER = T("premove does nothing against the computer: it answers each move at once, "
                        "so there is never a wait to answer in advance. Just type your next move. "
                        "(Conditional moves are for games between people.)")


# what ``confirm`` says it did: for this game, or (with ``default``) for every game
CONFIRM_THIS_GAME = {
    True: T("In this game, moves you type are asked about (\"Play Nf3?\") before they are played "
            "(until you leave; confirm on default: in every game)."),
    False: T("In this game, moves you type are played as typed (until you leave; confirm off "
             "default: in every game)."),
}
CONFIRM_DEFAULT = {True: T("So in every game from now on, here and in new ones (confirm off default "
                           "undoes it)."),
                   False: T("So in every game from now on, here and in new ones.")}


def waiting(s):
    """The player who waits for the other's move here (None once the game is over)."""
    v = s.view
    if v.status != "active":
        return None
    return s.player("b" if v.turn == "w" else "w")


async def lines_waiting(s) -> int:
    """How many conditional lines the waiting player has (told when a move drops them)."""
    p = waiting(s)
    return 0 if p is None else (await s.service.premoves(s.game_id, p.id)).count


def tell_after_move(s, r, lines_before: int) -> None:
    """What became of the waiting player's lines with the move just played."""
    answerer = s.who(r.game.moves[-1].side) if r.answer else None
    if answerer:
        s.say(s.m.tr("{who}'s conditional answer {move} was played at once.", who=answerer, move=r.answer))
    elif lines_before and r.outcome is None:
        s.say(s.m.trn("That move was in none of the other side's {n} conditional line: they are dropped.",
                      "That move was in none of the other side's {n} conditional lines: they are dropped.",
                      lines_before))


async def confirmed(s, player_id: int, text: str) -> bool | None:
    """Whether to play ``text`` (True at once unless the player asks to confirm moves);
    None at the end of the input. A move the engine does not read is not asked about:
    its refusal says why."""
    asks = s.confirm.get(s.game_id)  # this game's, said here; else the player's default
    if asks is None:
        asks = (await s.service.get_player(player_id)).confirms(typed=True)
    if not asks:
        return True
    try:
        san = s.pos.san(s.pos.parse(text.strip()))
    except RulesError:
        return True
    answer = s.console.yes(s.m.tr("Play {move}? [y/n] ", move=san))
    if answer is False:
        s.say(s.m.tr("Not played."))
    return answer


@handles("premove")
async def _premove(s, cmd: Command) -> bool:
    arg = (cmd["lines"] or "").strip()
    v = await s.refresh()
    if s.computer_side() is not None:
        s.say(s.m.say(PREMOVE_VS_COMPUTER))
        return True
    me = waiting(s)
    if me is None:
        s.say(sentence(s._over()))
        return True
    who = s.who("b" if v.turn == "w" else "w")
    if arg.lower() == "cancel":
        n = await s.service.cancel_premoves(s.game_id, me.id)
        s.say(s.m.trn("{who}'s {n} conditional line dropped.", "{who}'s {n} conditional lines dropped.", n, who=who)
              if n else s.m.tr("{who} has no conditional lines.", who=who))
        return True
    if arg:
        lines = await s.service.set_premoves(s.game_id, me.id, arg, expected_ply=v.ply)
        s.say(s.m.tr("{who} answers {other}'s next move so:", who=who, other=s.who(v.turn)))
    else:
        lines = await s.service.premoves(s.game_id, me.id)
        if not lines.count:
            s.say(s.m.tr("{who} has no conditional lines. Leave some with: {example}", who=who,
                         example="premove e5 Nf3; c5 Nc3"))
            return True
        s.say(s.m.tr("{who}'s conditional lines (their move, the answer, ...):", who=who))
    for line in lines.sans():
        s.say("  " + " ".join(line))
    return True


@handles("next")
async def _next(s, cmd: Command) -> bool:
    v = await s.refresh()
    me = waiting(s) if s.computer_side() is None else s.player(
        "b" if s.computer_side() == "w" else "w")
    if me is None:
        me = s.player(v.moves[-1].side) if v.moves else v.white
    nxt = await s.service.next_game(me.id)
    if nxt is None or nxt.id == s.game_id:
        s.say(s.m.tr("No other game waits for your move.") if s.computer_side() is not None  # "You"
              else s.m.tr("No other game waits for {name}'s move.", name=me.name))
        return True
    if nxt.seconds_left is not None:
        s.say(s.m.tr("On to game #{id} against {name}, {time} left.", id=nxt.id, name=nxt.opponent.name,
                     time=time_left(nxt.seconds_left, s.m.lang)))
    else:
        s.say(s.m.tr("On to game #{id} against {name}.", id=nxt.id, name=nxt.opponent.name))
    s.game_id = nxt.id
    await s.refresh()
    s.show()
    await s.computer_turn()
    return True


@handles("confirm")
async def _confirm(s, cmd: Command) -> bool:
    # the terminal's own. The same two names ("White", "Black") sit at this keyboard game
    # after game, so a setting of theirs would follow into every new game: ``confirm on``
    # is this game's (while it is played here), ``confirm on default`` also the players'
    # setting, for every game they start (Discord's /settings confirm_moves is the same)
    on = cmd["answer"] == "on"
    s.confirm[s.game_id] = on
    if not cmd["default"]:
        s.say(s.m.say(CONFIRM_THIS_GAME[on]))
        return True
    for p in (s.view.white, s.view.black):  # both people at this keyboard type moves
        if not _is_computer(s, p):
            await set_confirm(s.service, p.id, on)
    s.say(s.m.say(CONFIRM_SAID[on]) + " " + s.m.say(CONFIRM_DEFAULT[on]))
    return True


def _is_computer(s, p) -> bool:
    return s.computer_side() is not None and p.id == s.player(s.computer_side()).id

