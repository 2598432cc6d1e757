"""Ratings in the terminal: the header's ratings, the session's ratings command, and
``fairypost ratings [GAME]``; a game at one keyboard is casual unless --rated."""

from __future__ import annotations

from bot.operations.glicko import Rating, rate_game


def test_a_rated_game_at_the_keyboard_and_fairypost_ratings(fairypost):
    r = fairypost.play("chess", "--white", "Alice", "--black", "Bob", "--rated",
                       lines=["e4", "e5", "resign", "y", "ratings", "quit"])
    assert r.code == 0, r.err
    assert "Game #1: Chess, Alice (White) 1500? against Bob (Black) 1500?, a rated game." in r.out
    alice, bob = rate_game(Rating(), Rating(), 0.0)  # Alice resigned
    board = (f"Ratings, Chess:\n  1. Bob {bob.shown()} (1 rated game)\n"
             f"  2. Alice {alice.shown()} (1 rated game)\n")
    assert board + (f"Alice: Chess: {alice.shown()} (1 rated game)\n"
                    f"Bob: Chess: {bob.shown()} (1 rated game)\n") in r.out
    cli = fairypost("ratings", "chess", "--player", "alice")
    assert cli.code == 0, cli.err
    assert cli.out.startswith(board + f"Alice: Chess: {alice.shown()} (1 rated game)\nA ? marks")
    assert fairypost("ratings").out.startswith(board)  # every game's boards: only Chess has one
    bad = fairypost("ratings", "nope")
    assert bad.code == 2 and "there is no game 'nope'" in bad.err


def test_a_game_at_one_keyboard_is_casual_by_default(fairypost):
    r = fairypost.play("chess", lines=["e4", "resign", "y", "quit"])
    assert ", a casual game." in r.out
    assert fairypost("ratings").out.startswith("No rated game has been played yet.")
    vs = fairypost.play("chess", "--vs", "computer", "--rated")
    assert vs.code == 2 and "never rated" in vs.err
