"""The one text grammar (bot/words/grammar.py): commands, typed values, moves, clear refusals,
and the registry other commands are added to."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.words.grammar import GRAMMAR, Command, Grammar, GrammarError, parse


@pytest.mark.parametrize("line, name, args", [
    ("draw", "draw", {}),
    ("draw accept", "draw", {"answer": "accept"}),
    ("DRAW Decline", "draw", {"answer": "decline"}),
    ("takeback", "takeback", {}),
    ("undo", "takeback", {}),
    ("takeback accept", "takeback", {"answer": "accept"}),
    ("resign", "resign", {}),
    ("board", "board", {}),
    ("moves E4", "moves", {"square": "e4"}),
    ("moves j10", "moves", {"square": "j10"}),
    ("games", "games", {}),
    ("record", "record", {}),
    ("help", "help", {}),
    ("help draw", "help", {"command": "draw"}),
    ("accept", "accept", {}),
    ("accept #12", "accept", {"id": 12}),
    ("decline 7", "decline", {"id": 7}),
    ("vacation", "vacation", {}),
    ("vacation 5", "vacation", {"days": 5}),
    ("vacation end", "vacation", {"days": "end"}),
    ("challenge grandducal bob", "challenge", {"game": "grandducal", "opponent": "bob"}),
    ("challenge Grand <@42> days 3", "challenge", {"game": "grandducal", "opponent": "<@42>", "days": 3}),
    ("piece N", "piece", {"piece": "N"}),
    ("move e2 e4", "move", {"move": "e2 e4"}),
])
def test_commands_and_their_values(line, name, args):
    cmd = parse(line)
    assert (cmd.name, dict(cmd.args), cmd.line) == (name, args, line)


@pytest.mark.parametrize("line", ["Nf3", "e2e4", "O-O", "W(a2b2)-c2d2", "Cd1d3(NE)", "P@e2"])
def test_anything_else_in_a_game_is_a_move(line):
    assert parse(line) == Command("move", {"move": line}, line)


def test_a_left_out_value_reads_as_none():
    assert parse("challenge chess bob")["days"] is None


@pytest.mark.parametrize("line, problem, usage", [
    ("draw maybe", "'maybe' is not accept or decline", "draw [accept|decline]"),
    ("moves zz", "'zz' is not a square", "moves [SQUARE]"),
    ("challenge chess", "challenge needs an opponent", "challenge GAME OPPONENT [days N] [casual]"),
    ("challenge nogame bob", "there is no game 'nogame'", "challenge GAME OPPONENT [days N] [casual]"),
    ("challenge chess bob days", "days needs a number of days after it", "challenge GAME OPPONENT [days N] [casual]"),
    ("challenge chess bob days 0", "'0' is not a number of days (1 to 365)",
     "challenge GAME OPPONENT [days N] [casual]"),
    ("challenge chess bob weeks 2", "unexpected 'weeks 2'", "challenge GAME OPPONENT [days N] [casual]"),
    ("accept soon", "'soon' is not a number", "accept [ID]"),
    ("vacation soon", "'soon' is not a number of days or end", "vacation [N|end]"),
    ("resign now", "unexpected 'now'", "resign"),
    ("move", "move what? Write the move after it, as in move Nf3, or the move alone: Nf3", "move MOVE"),
    ("M", "M what? 'M' is short for move: write the move after it, as in M Nf3", "move MOVE"),
])
def test_a_bad_line_says_what_was_wrong_and_the_usage(line, problem, usage):
    with pytest.raises(GrammarError) as e:
        parse(line)
    assert problem in e.value.problem
    assert e.value.usage == usage
    assert str(e.value).endswith(f"(usage: {usage})")


def test_outside_a_game_an_unknown_word_is_refused_naming_the_commands():
    with pytest.raises(GrammarError, match="there is no command 'Nf3'; the commands are: .*challenge"):
        parse("Nf3", in_game=False)
    with pytest.raises(GrammarError, match="empty"):
        parse("   ")


def test_user_text_quoted_in_an_error_is_escaped_and_cut():
    with pytest.raises(GrammarError) as e:
        parse("moves \x1b[2J" + "x" * 100)
    assert "\x1b" not in str(e.value) and "\\x1b" in str(e.value)
    assert "\u2026" in str(e.value)


def test_a_command_is_added_in_one_line_and_parsed_with_its_values():
    g = GRAMMAR.extended()
    g.add("twomoves MOVE [then MOVE]", "play a move now and one after the reply",
          names={"MOVE": "move"}, aliases=("pm",))
    g.add("block OPPONENT", "refuse someone's challenges", needs_game=False)
    assert g.parse("pm Nf3")["move"] == "Nf3"
    assert dict(g.parse("block alice").args) == {"opponent": "alice"}
    assert g.find("block").needs_game is False
    assert GRAMMAR.find("twomoves") is None  # the copy, not the shared grammar
    assert GRAMMAR.parse("pm")["move"] == "pm"  # still a move there


def test_a_taken_word_or_an_unknown_kind_is_refused_at_registration():
    g = Grammar()
    g.add("draw", "offer a draw", aliases=("d",))
    with pytest.raises(ValueError, match="'d' is taken"):
        g.add("dance", "dance", aliases=("d",))
    assert [s.name for s in g] == ["draw"]
    with pytest.raises(ValueError, match="no kind of value COLOUR"):
        g.add("colour COLOUR", "pick")
    g.add("draw [accept|decline]", "offer or answer")  # the same name: replaced
    assert g.parse("draw accept")["answer"] == "accept"


WORDS = ["draw", "accept", "decline", "takeback", "challenge", "chess", "grand", "days", "3", "0",
         "#7", "moves", "e4", "z99", "vacation", "end", "help", "premove", "cancel", "?", "\x00",
         "\udcff", "9" * 30, " ", "\t", "Nf3"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=6).map(" ".join), st.booleans())
def test_any_line_is_a_command_or_a_grammar_error(line, in_game):
    try:
        cmd = parse(line, in_game=in_game)
    except GrammarError as e:
        assert e.problem and "\x00" not in str(e)
    else:
        assert GRAMMAR.find(cmd.name) is not None and cmd.line == line.strip()
