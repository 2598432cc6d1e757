"""Autocomplete on real positions: legal moves in SAN matching what was typed, best
first, at most 25; the player's games; pieces that can move."""

from __future__ import annotations

import rules
from bot.discord_bot import commands, suggest

from .conftest import run, start_game


def sans(choices):
    return [v for _, v in choices]


def test_suggestions_for_a_real_chess_position():
    pos = rules.start("chess").play("e4").play("d5")
    legal = {pos.san(m) for m in pos.legal_moves()}
    everything = suggest.suggest_moves(pos, "")
    assert len(everything) == 25 < len(legal) and set(sans(everything)) <= legal
    assert sans(everything)[:2] == ["Bb5+", "exd5"]  # the check, then the capture
    assert sans(suggest.suggest_moves(pos, "ex"))[0] == "exd5"
    assert sans(suggest.suggest_moves(pos, "exd5+")) == ["exd5"]  # marks are forgiven
    assert sans(suggest.suggest_moves(pos, "Qh5")) == ["Qh5"]
    knights = sans(suggest.suggest_moves(pos, "N"))
    assert set(knights[:5]) == {"Na3", "Nc3", "Nf3", "Nh3", "Ne2"}
    assert set(sans(suggest.suggest_moves(pos, "knight"))) == set(knights[:5])
    assert sans(suggest.suggest_moves(pos, "g1f3")) == ["Nf3"]  # from-to finds the SAN
    assert suggest.suggest_moves(pos, "Nf3") == [("Nf3 · Knight g1→f3", "Nf3")]  # the piece, its squares
    assert suggest.suggest_moves(pos, "zz9") == []


def test_suggestions_for_a_fairy_position():
    pos = rules.start("grandducal")
    legal = {pos.san(m) for m in pos.legal_moves()}
    prince_moves = sorted(s for s in legal if s.startswith("I"))
    found = suggest.suggest_moves(pos, "I")
    princes = found[:len(prince_moves)]  # the exact-case matches first ...
    assert sorted(sans(princes)) == prince_moves and all("Prince" in n for n, _ in princes)
    assert "i3" in sans(found[len(prince_moves):])  # ... then the i-file's
    assert sans(suggest.suggest_moves(pos, "prince")) == sans(princes)
    pos = rules.start("superchess")
    cyclops = suggest.suggest_moves(pos, "Cd3")
    assert {v for _, v in cyclops} == {pos.san(m) for m in pos.legal_moves() if pos.san(m).startswith("Cd3")}
    assert len(suggest.suggest_moves(pos, "", limit=25)) == 25


def test_piece_suggestions_and_naming_a_piece():
    pos = rules.start("chess")
    assert suggest.suggest_pieces(pos, "g")[0] == ("g1 · Knight, 2 moves", "g1")
    assert {v for _, v in suggest.suggest_pieces(pos, "kni")} == {"b1", "g1"}
    assert suggest.find_piece(pos, "G1") == "g1"
    for bad, why in (("e5", "no piece"), ("knight", "several"), ("dragon", "none of the pieces")):
        try:
            suggest.find_piece(pos, bad)
        except Exception as e:  # noqa: BLE001
            assert why in str(e)
        else:
            raise AssertionError(bad)


async def test_move_autocomplete_handler_in_the_game_thread(world):
    w = world
    gv, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    choices = await commands.move_autocomplete(i, "e")
    assert 0 < len(choices) <= 25
    values = [c.value for c in choices]
    assert values[:2] == ["e3", "e4"]  # e-pawn moves first, then moves to the e-file
    assert set(values) <= {rules.start("chess").san(m) for m in rules.start("chess").legal_moves()}
    # Bob is not to move: one hint instead of moves
    j = w.interaction(w.bob, channel=thread)
    hint = await commands.move_autocomplete(j, "e5")
    assert len(hint) == 1 and "Not your move" in hint[0].name and hint[0].value == "e5"
    # outside the thread, with the game option filled in
    k = w.interaction(w.alice, namespace={"game": gv.id})
    assert [c.value for c in await commands.move_autocomplete(k, "Nf")] == ["Nf3"]


async def test_move_autocomplete_with_no_game_or_several(world):
    w = world
    i = w.interaction(w.alice)
    hint = await commands.move_autocomplete(i, "e4")
    assert "no game in progress" in hint[0].name
    await start_game(w)
    await start_game(w)  # Alice to move in both
    hint = await commands.move_autocomplete(w.interaction(w.alice), "e4")
    assert "several games" in hint[0].name


async def test_game_autocomplete_lists_my_games_most_urgent_first(world, clock):
    w = world
    g1, t1 = await start_game(w, days=7)
    clock.advance(hours=1)
    g2, _ = await start_game(w, days=1)  # less time left: first
    i = w.interaction(w.alice, channel=t1)
    await run(commands.move, i, move="e4")  # g1: now Bob's move
    choices = await commands.game_autocomplete(w.interaction(w.alice), "")
    assert [c.value for c in choices] == [g2.id, g1.id]
    assert "your move" in choices[0].name and "Bob to move" in choices[1].name
    assert [c.value for c in await commands.game_autocomplete(w.interaction(w.alice), f"#{g1.id}")] == [g1.id]


async def test_piece_and_timezone_autocomplete(world):
    w = world
    _, thread = await start_game(w, game="grandducal")
    ch = await commands.piece_square_autocomplete(w.interaction(w.alice, channel=thread), "i1")
    assert ch[0].value == "i1" and "Knight" in ch[0].name
    names = await commands.piece_name_autocomplete(w.interaction(w.alice, channel=thread), "gra")
    assert [c.value for c in names] == ["G"]  # the thread's game: Grand Ducal's Grand Duke
    anywhere = await commands.piece_name_autocomplete(w.interaction(w.alice), "Grand")
    assert "grandducal:G" in [c.value for c in anywhere]
    tz = await commands.timezone_autocomplete(w.interaction(w.alice), "europe/par")
    assert [c.value for c in tz] == ["Europe/Paris"]
