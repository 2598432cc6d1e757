"""``fairypost play`` driven as a subprocess with scripted input, as a person would:
games to mate, bad input, the bot's commands, Super Chess's set-up, resuming."""

from __future__ import annotations

import re
import sys

import pytest

BOARD_ROW = re.compile(r"^\s*(\d+)  (.*?)\s*  \1$")


def boards(out: str) -> list[dict[int, list[str]]]:
    """Every text board printed, as rank -> the cells' texts (holes dropped)."""
    found, current = [], None
    for line in out.splitlines():
        m = BOARD_ROW.match(line)
        if m:
            if current is None:
                current = {}
                found.append(current)
            current[int(m.group(1))] = m.group(2).split()
        else:
            current = None
    return found


def test_superchess_to_mate_with_the_setup_choice(fairypost):
    # no --setup: the session asks; Enter takes the default set-up
    r = fairypost.play("superchess", lines=["", "Ag1f3", "k8", "Af3d4", "k7", "Ad4e6", "record"])
    assert r.code == 0, r.err
    assert "default  the usual set-up" in r.out and "players  make the four set-up actions" in r.out
    assert "White played Ae6#." in r.out
    assert "Game over: 1-0, White wins (checkmate)." in r.out
    final = boards(r.out)[-1]
    assert final[6] == [".", ".", ".", ".", "A", ".", ".", ".", ".", "."]
    assert final[1] == ["R", "N", "B", "C(N)", "K", "Q", ".", "B", "N", "R"]  # facing shown
    assert final[10][3] == "c(N)"
    assert "    a     b     c     d     e     f     g     h     j     k" in r.out  # no i file
    # the record, from the same database the bot uses
    assert '[Variant "superchess"]' in r.out and "1. Af3 k8 2. Ad4 k7 3. Ae6# 1-0" in r.out
    assert r.err == ""


def test_king_and_queen_to_mate_shows_promotion_hands_and_holes(fairypost):
    r = fairypost.play("kingqueen", lines=["Cd6", "Bf5", "e4", "Bg4", "exe5=+P#"])
    assert r.code == 0, r.err
    assert "Blue played exe5=+P#." in r.out
    assert "Game over: 1-0, Blue wins (checkmate)." in r.out
    final = boards(r.out)[-1]
    assert final[5] == ["p", ".", "p", ".", "+P", ".", "p", ".", "p"]  # a promoted Amazon
    assert final[7] == ["n", "k", "c"]  # the cross: ranks 6-7 have three squares
    assert "\n7           n  k  c            7\n" in r.out  # holes are blank
    assert "Blue in hand: P" in r.out and "Red in hand: -" in r.out
    assert "Blue> " in r.out and "Red> " in r.out  # the game's own side names


def test_bad_input_gets_the_engines_reason_and_changes_nothing(fairypost):
    r = fairypost.play("grandducal", lines=["Ke2", "z9", "hello", "e2e5", "e4", "Nf6"])
    assert r.code == 0, r.err
    assert "No King of yours can move to e2." in r.out
    assert "'z9': this board has no file 'z' (files are a b c d e f g h i j k l)." in r.out
    assert "'hello' is not a move I can read" in r.out and "(Type help for the commands.)" in r.out
    assert "The Pawn on e2 cannot move to e5." in r.out
    assert "White played e4." in r.out  # still White's move after four refusals
    assert "No Knight of yours can move to f6." in r.out
    played = [line for line in r.out.splitlines() if " played " in line]
    assert played == ["White played e4."]


def test_resume_goes_on_from_the_saved_game(fairypost):
    first = fairypost.play("grandducal", lines=["e4"])
    assert first.code == 0
    assert "Game #1 is saved. Go on with: fairypost play --resume 1" in first.out
    again = fairypost.play("--resume", lines=["e5", "Nj3"])
    assert again.code == 0, again.err
    assert "Game #1: Grand Ducal Chess" in again.out
    assert boards(again.out)[0][4][4] == "P"  # the position it was left in
    assert "Last move: e4 (White). Black to move." in again.out
    assert "Black played e5." in again.out and "White played Nj3." in again.out
    listed = fairypost("games")
    assert listed.code == 0
    assert "#1    grandducal  White 1500? v Black 1500?, 3 plies, Black to move" in listed.out
    by_id = fairypost.play("--resume", "1", lines=["record"])
    assert "1. e4 e5 2. Nj3 *" in by_id.out
    missing = fairypost.play("--resume", "7")
    assert missing.code == 1 and "there is no game #7" in missing.out


def test_a_draw_offer_left_open_is_answered_on_resume(fairypost):
    first = fairypost.play("chess", lines=["e4", "draw"])  # the input ends at the question
    assert "White, Black offers a draw. Do you accept? [y/n] \n" in first.out
    again = fairypost.play("--resume", lines=["y"])
    assert "White, Black offers a draw. Do you accept? [y/n] y" in again.out
    assert "Game over: a draw (agreement)." in again.out


def test_resume_with_nothing_to_resume(fairypost):
    r = fairypost.play("--resume")
    assert r.code == 1
    assert "There is no unfinished game to resume" in r.out


def test_the_bots_commands(fairypost):
    r = fairypost.play("chess", "--white", "Ann", "--black", "Bob", lines=[
        "help", "move e4", "moves g8", "undo", "e4", "board e7", "draw", "n", "e5",
        "piece knight", "legend", "fen", "draw", "y", "e5"])
    assert r.code == 0, r.err
    out = r.out
    assert "Type a move (Nf3, e2e4" in out and "resign" in out and "record" in out
    assert "Ann (White) played e4." in out
    assert "2 moves of the Knight on g8:\nNf6 Nh6" in out
    assert "Took back Ann's move e4." in out
    assert "2 moves of the Pawn on e7:\ne5 e6" in out
    assert "Ann (White), Bob (Black) offers a draw. Do you accept? [y/n] n" in out
    assert "Draw declined; play on." in out
    assert "N Knight (Chess)" in out
    assert "N  Knight" in out  # the legend
    assert "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" in out
    assert "Draw agreed." in out and "Game over: a draw (agreement)." in out
    assert "The game is over: 1/2-1/2 (agreement)." in out  # the last e5: too late


def test_resign_and_abort(fairypost):
    r = fairypost.play("ganymede", lines=["abort"])
    assert "The game was aborted." in r.out
    r = fairypost.play("gigachess2", lines=["e5", "resign", "n", "resign", "y"])
    assert "Black> resign\nBlack, resign game #2? [y/n] n\nNot resigned; play on." in r.out
    assert r.out.count("Black resigns.") == 1  # only after the yes
    assert "Black, resign game #2? [y/n] y\nBlack resigns." in r.out
    assert "Game over: 1-0, White wins (resignation)." in r.out


def test_choosing_a_game_from_the_list(fairypost):
    r = fairypost.play(lines=["nothing", "3", "rules"])
    assert r.code == 0, r.err
    assert "Which game?" in r.out
    for line in ("1  ganymede    Ganymede Chess, 12 x 12", "5  superchess  Super Chess, 10 x 10"):
        assert line in r.out
    assert "There is no game 'nothing'" in r.out
    assert "Game #1: Grand Ducal Chess" in r.out
    assert "G  Grand Duke: Moves as a Bishop" in r.out  # the rules command


def test_superchess_players_setup_and_states_in_text(fairypost):
    r = fairypost.play("superchess", "--setup", "players", lines=[
        "moves", "ef", "h j", "NE", "d10(NW)"])  # "h j": files, not a command
    assert r.code == 0, r.err
    assert "Set-up: White to choose the files of the two Super Pawns on rank 2" in r.out
    assert "45 legal moves:" in r.out
    start = boards(r.out)[0]
    assert start[1][3] == "C(?)" and start[2] == ["."] * 10  # nothing chosen yet
    final = boards(r.out)[-1]
    assert final[2] == ["P", "P", "P", "P", "S", "S", "P", "P", "P", "P"]
    assert final[9] == ["p", "p", "p", "p", "p", "p", "p", "s", "s", "p"]
    assert final[1][3] == "C(NE)" and final[10][3] == "c(NW)"
    assert "Last move: d10(NW) (Black). White to move." in r.out


def test_ganymede_walls_and_spearmen_as_text(fairypost):
    r = fairypost.play("ganymede", "--flip", lines=[])
    first = boards(r.out)[0]
    assert first[2] == ["W(E)", "W(W)", ".", "D", "N", ".", ".", "N", "D", ".", "W(E)", "W(W)"][::-1]
    assert first[3][5:7] == ["S(V)", "S(V)"]
    assert list(first) == list(range(1, 13))  # flipped: rank 1 at the top


def test_images_are_written_where_it_says(fairypost, tmp_path):
    folder = tmp_path / "pictures"
    r = fairypost.play("grandducal", "--images", str(folder), images=True, lines=["e4", "legend"])
    assert r.code == 0, r.err
    assert f"Board images are written to {folder}" in " ".join(r.out.split())
    png = folder / "game-1.png"
    assert f"Image: {png}" in r.out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (folder / "game-1-legend.png").read_bytes()[:4] == b"\x89PNG"


def test_health(fairypost, tmp_path):
    fairypost.db.parent.mkdir()  # the volume is there; the database not yet
    r = fairypost("health")
    assert r.code == 0, r.err
    assert r.out.startswith(f"ok: database {fairypost.db} (schema ")
    assert fairypost.db.exists()
    r = fairypost("health", env={"FAIRYPOST_DB": str(tmp_path / "nowhere" / "x.db")})
    assert r.code == 1 and "does not exist" in r.err


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG_DATA_HOME is the Linux rule")
def test_default_database_is_in_the_users_data_folder(fairypost, tmp_path):
    env = dict(fairypost.env)
    del env["FAIRYPOST_DB"]
    fairypost.env = env
    r = fairypost.play("chess", lines=["e4"])
    assert r.code == 0, r.err
    assert (tmp_path / "xdg" / "fairypost" / "fairypost.sqlite3").exists()
    assert "Board images are written to" not in r.out  # --no-images
