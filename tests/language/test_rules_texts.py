"""The rules engine's refusals and the pictures' words in French, German and Spanish (#44).

Every reason of rules/reasons.py and the notation's, the hooks' and the geometry's refusals
are made to happen in real positions of each game; the refusal's ``e.text`` (a Text) is said
in fr/de/es and must leave no English word (tests/language/leaks.py), while ``str(e)``
stays the English of before. The pictures (legend, card, banner, hands, crosstable) are
handed their words in the reader's language.

The piece, side and game names are the data's, said from the catalogs too.
"""
from __future__ import annotations

import pytest

import rules
from language import ENGLISH, Text, language
from render.card import description, key_labels, piece_card, piece_card_image
from render.crosstable import Crosstable, Player, crosstable_image
from render.legend import draw_legend, legend_entries, legend_words
from render.position import board_image
from render.result import result_text
from rules.errors import RulesError
from tests.language.leaks import english_left

CODES = ("fr", "de", "es")
GLUE = frozenset({"and", "the", "of"})  # "King and Queen": not a name's words to let through



#: the facing words a player types for a Cyclops (rules/hooks/superchess.py): keywords, never translated
FACING_WORDS = ["forward-right", "back-right", "back-left", "forward-left", "right", "left"]


def _refused(pos, text) -> RulesError:
    with pytest.raises(RulesError) as err:
        pos.parse(text)
    return err.value


def _english_strings(said) -> list[str]:
    """The plain str values of a Text tree that read as English words (a sentence no
    catalog can say): a refusal must be Texts all the way down, values being moves,
    squares and names."""
    if isinstance(said, str):
        return [said] if " " in said.strip("'") and any(c.isalpha() for c in said) else []
    out = []
    for value in said.params.values():
        if isinstance(value, Text):
            out += _english_strings(value)
    return out


KQ = "***1k1***/***3***/9/9/9/***3***/***K2*** w - - 0 1 hand=P;dropped=-"

# (game, VFEN or None for the start, the text, a part of the English refusal of today)
CASES = [
    # rules/reasons.py, each reason
    ("chess", None, "Bb5", "The Bishop on f1 is blocked by your Pawn on e2; the Bishop on c1 does not move that way"),
    ("chess", None, "Nd2", "Your own Pawn stands on d2"),
    ("chess", None, "Ng1g3", "the Knight on g1 cannot move to g3. It does not move that way"),
    ("chess", None, "Ng3", "The Knights on b1 and g1 do not move that way"),
    ("chess", None, "h5", "None of your Pawns moves that way"),
    ("chess", None, "exd3", "The Pawn on e2 goes to d3 only to take, and d3 is empty"),
    ("chess", "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "exe4", "The Pawn on e3 goes to e4 only when it is empty"),
    ("chess", "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e5", "The Pawn on e3 is no longer on its first squares"),
    ("chess", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3",
     "'Nc3' is illegal: the Knight on e2 is pinned: moving it would leave your King in check"),
    ("chess", "4k3/8/8/8/8/4r3/3N4/4K3 w - - 0 1", "Nb3",
     "the Knight on d2 going to b3 does not help: your King is in check and stays so"),
    ("chess", "4k3/8/8/8/8/3r4/8/4K3 w - - 0 1", "Kd2", "it would leave your King in check on d2"),
    ("chess", "n7/1P6/8/8/8/8/8/k1K5 w - - 0 1", "bxc8", "The Pawn on b7 goes to c8 only to take"),
    ("chess", "n7/1P6/8/8/8/8/8/k1KB4 w - - 0 1", "bxc8", "A capital B is the Bishop"),
    ("kingqueen", "***1k1***/***3***/9/9/9/***3***/***K2*** w - - 0 1 hand=-;dropped=-", "Qd3",
     "never leaves its castle"),
    ("kingqueen", "***1k1***/***3***/9/9/9/***3***/***KC1*** w - - 0 1 hand=-;dropped=-", "Cxe7",
     "jumps over exactly one piece"),
    # drops (reasons.drop_reason, letter_note, the King and Queen hook)
    ("kingqueen", KQ, "A@d2", "no piece with the letter A; your Amazon is written P (P@d2)"),
    ("kingqueen", None, "Aa4", "your Amazon is written P (Pa4)"),
    ("kingqueen", KQ, "P@a4", "drop only onto an empty square of your own castle"),
    ("kingqueen", KQ, "P@d1", "your Queen on d1 stands there"),
    ("kingqueen", KQ.replace("dropped=-", "dropped=w"), "P@d2", "you dropped last turn"),
    ("kingqueen", KQ, "+P@d2", "a piece is always dropped unpromoted"),
    ("kingqueen", KQ, "B@d2", "you hold no"),
    ("kingqueen", KQ.replace("hand=P", "hand=-"), "B@d2", "you have nothing in hand"),
    ("kingqueen", KQ, "K@d2", "is never held in hand, so never dropped"),
    # rules/notation.py
    ("chess", None, "", "empty move"),
    ("chess", None, "e4" * 40, "too long to be a move"),
    ("chess", None, "e4 e5", "one move at a time: I read e4 and e5"),
    ("chess", None, "Zf3", "this game has no piece with the letter Z"),
    ("chess", None, "e3e5", "there is no piece on e3"),
    ("chess", None, "e7e5", "is Black's; it is White's move"),
    ("chess", None, "Qf3", "no Queen of yours can move to f3"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3", "you have no Knight on the board"),
    ("chess", "4k1n1/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3", "you (White) have no Knight"),
    ("chess", None, "Nhf3", "you have no Knight on the h file"),
    ("chess", None, "N3f3", "you have no Knight on rank 3"),
    ("chess", None, "O-O", "castling that way is not possible now"),
    ("chess", None, "?!?", "is not a move I can read"),
    ("chess", None, "Nxf3", "there is nothing to take on f3"),
    ("chess", None, "e2e4=Q", "is not possible; the legal moves there are"),
    ("chess", None, "e2e4x", None),
    ("chess", None, "z9", "this board has no file"),
    ("chess", None, "a9", "this board has ranks 1 to 8"),
    ("chess", None, "B4", "B is the Bishop's letter, and no square follows it"),
    ("chess", "4k3/8/8/8/R6R/8/8/4K3 w - - 0 1", "Rd4", "is ambiguous: it could be Rad4 or Rhd4"),
    ("chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "Kh8", "the game is over (checkmate)"),
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Kg8", "the game is over (stalemate)"),
]


def _position(game_id, fen):
    return rules.start(game_id) if fen is None else rules.from_fen(game_id, fen)


@pytest.mark.parametrize("game_id, fen, text, english", CASES, ids=[f"{c[0]}-{c[2][:12]}" for c in CASES])
def test_each_refusal_is_said_in_each_language(game_id, fen, text, english):
    err = _refused(_position(game_id, fen), text)
    assert isinstance(err.text, Text), f"{str(err)!r} is a plain str"
    assert str(err) == err.text.english() == ENGLISH.say(err.text)
    if english is not None:
        assert english in str(err)
    assert _english_strings(err.text) == []
    for code in CODES:
        said = language(code).say(err.text)
        assert said != str(err)
        assert english_left(said, code, own=[text]) == [], said


GAME_CASES = {
    # Ganymede's Wall (its hook), Super Chess's Cyclops and Archer, Grand Ducal's jump
    "ganymede": [
        (None, "Qa5", "The Queen on f1 does not move that way"),
        (None, "Sf5", "The Spearman on f3 is blocked by your Pawn on f4"),
        (None, "Wc5", "no Wall of yours can move onto c5"),
        ("6k5/12/12/12/12/12/12/12/12/pn10/W(E)W(W)10/6K5 w - - 0 1", "Wa3", "a Wall stands on two squares"),
        ("6k5/12/12/12/12/12/12/12/12/pn10/W(E)W(W)10/6K5 w - - 0 1", "a2b2-a4b4",
         "cannot move to a4-b4"),
        ("6k5/12/12/12/12/12/12/12/12/pn10/W(E)W(W)10/6K5 w - - 0 1", "c2d2-c3d3", "there is no Wall on c2"),
    ],
    "superchess": [],
    "grandducal": [],
    "gigachess2": [],
}


@pytest.mark.parametrize("game_id, fen, text, english",
                         [(g, f, t, e) for g, cases in GAME_CASES.items() for f, t, e in cases])
def test_the_hooks_refusals_are_said_in_each_language(game_id, fen, text, english):
    test_each_refusal_is_said_in_each_language(game_id, fen, text, english)


def test_super_chess_set_up_and_shots_in_each_language():
    game = rules.game("superchess")
    setup = rules.from_fen("superchess", game.setup_start_fen)
    texts = ["Nf3", "e2 e2", "x9 y9", "S@e5,S@f5"]
    start = rules.start("superchess")
    texts_later = ["A^e5", "Ce4(Q)", "S@e2", "Bf3(N)"]
    for pos, typed in [(setup, t) for t in texts] + [(start, t) for t in texts_later]:
        err = _refused(pos, typed)
        assert isinstance(err.text, Text), str(err)
        for code in CODES:
            said = language(code).say(err.text)
            assert english_left(said, code, own=[*FACING_WORDS, typed]) == [], (typed, said)


def test_every_refusal_of_random_positions_of_every_game_is_said_in_french():
    """Each game, a few positions along a random game: every letter of the mover's on
    squares those pieces cannot reach (tests/rules/test_refusal_names_piece's texts)."""
    from tests.rules.test_refusal_names_piece import _position as random_position
    from tests.rules.test_refusal_names_piece import _texts

    fr = language("fr")
    seen = 0
    for game_id in sorted(rules.variants()):
        for seed, plies in ((1, 0), (7, 30), (12, 3)):
            pos = random_position(game_id, seed, plies)
            if pos.outcome() is not None:
                continue
            for typed, _name in _texts(pos)[::37]:
                try:
                    pos.parse(typed)
                except RulesError as err:
                    seen += 1
                    assert isinstance(err.text, Text), f"{game_id} {typed!r}: {err}"
                    said = fr.say(err.text)
                    assert english_left(said, "fr", own=[*FACING_WORDS, typed]) == [], (game_id, typed,
                                                                                             said)
    assert seen > 50


def test_exact_french_sentences():
    fr = language("fr")
    pinned = _refused(rules.from_fen("chess", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"), "Nc3")
    assert fr.say(pinned.text).startswith("'Nc3' est illégal : la pièce ")
    assert " en e2 est clouée : la bouger laisserait votre " in fr.say(pinned.text)
    assert fr.say(_refused(rules.start("chess"), "").text) == "coup vide : tapez un coup comme Nf3 ou e2e4"
    assert fr.say(_refused(rules.start("chess"), "e4 e5").text) == "un coup à la fois : je lis e4 et e5"
    blocked = fr.say(_refused(rules.start("chess"), "Bb5").text)
    assert " en f1 est bloquée par votre " in blocked and "; " not in blocked.replace(" ; ", "")


def test_two_readers_of_one_refusal_each_get_their_own():
    err = _refused(rules.start("chess"), "O-O")
    assert language("fr").say(err.text) == "'O-O' : ce roque n'est pas possible maintenant"
    assert language("de").say(err.text) == "'O-O': diese Rochade ist jetzt nicht möglich"
    assert str(err) == "'O-O': castling that way is not possible now"


def test_an_unknown_game_is_refused_in_the_readers_language():
    with pytest.raises(RulesError) as err:
        rules.game("nosuchgame")
    said = language("fr").say(err.value.text)
    assert said.startswith("aucun jeu 'nosuchgame' ; les jeux sont : ")
    assert str(err.value).startswith("no game 'nosuchgame'; the games are: ")


# --- render ---------------------------------------------------------------------------

def test_a_french_legend_is_drawn_with_french_words():
    pos = rules.from_fen("kingqueen", KQ)
    entries = legend_entries(pos)
    fr, en = language("fr"), ENGLISH
    words = legend_words(pos.game, entries, lang=fr)
    assert words.title.endswith(" : les pièces") and words.in_hand == "en réserve"
    assert legend_words(pos.game, entries).title == "King and Queen: the pieces"
    img_fr, _ = draw_legend(pos.game, entries, lang=fr)
    img_en, _ = draw_legend(pos.game, entries, lang=en)
    assert img_fr.size != img_en.size or img_fr.tobytes() != img_en.tobytes()
    for code in CODES:
        said = " ".join([legend_words(pos.game, entries, lang=language(code)).title,
                         legend_words(pos.game, entries, lang=language(code)).in_hand])
        assert english_left(said, code, own=[]) == [], said


def test_a_long_german_name_fits_its_legend():
    """The legend is as wide as its longest name: a long German one widens it rather than
    being cut off (a catalog naming the Nightrider at length)."""
    from tests.language.test_infrastructure import made_language

    pos = rules.start("ganymede")
    entries = legend_entries(pos)
    long_name = "Nachtreiter mit einem sehr, sehr langen Namen"
    de = made_language("de", {"Nightrider": long_name, "{game}: the pieces": "{game}: die Figuren"})
    assert long_name in legend_words(pos.game, entries, lang=de).names
    img_de, boxes = draw_legend(pos.game, entries, lang=de)
    img_en, _ = draw_legend(pos.game, entries)
    from render.legend import FONT
    from render.pen import load_font
    name_w = load_font(FONT, max(14, round(56 * 0.4))).getlength(long_name)
    right = max(b[c][2] for b in boxes for c in b)  # the figures' right edge
    assert img_de.size[0] > img_en.size[0] and img_de.size[0] >= right + name_w


def test_a_french_piece_card():
    fr = language("fr")
    card = piece_card("chess", "P", lang=fr)
    assert key_labels(card, fr) == ("se déplace ou prend", "se déplace, ne prend jamais", "prend seulement")
    assert key_labels(card) == ("moves or captures", "moves, never captures", "captures only")
    assert piece_card_image("chess", "P", lang=fr).tobytes() != piece_card_image("chess", "P").tobytes()
    assert piece_card("chess", "P").text == piece_card("chess", "P", lang=ENGLISH).text


def test_an_orthodox_piece_without_its_own_words_gets_the_usual_ones_in_french():
    """A piece whose data file has no description (a server's own game) reads the usual
    words: the six chess pieces' by their Betza, and the promotion."""
    import dataclasses

    game = rules.game("chess")
    fr = language("fr")
    bare = {k: dataclasses.replace(t, description="") for k, t in game.types.items()}
    assert description(game, bare["P"], fr).startswith("Une case tout droit vers l'avant")
    assert "Se promeut sur la dernière rangée en " in description(game, bare["P"], fr)
    assert description(game, bare["P"]).startswith("One square straight forward")
    assert description(game, bare["K"], fr) == "Royale. Une case dans n'importe quelle direction. Roque."
    for code in CODES:
        for t in bare.values():
            said = description(game, t, language(code))
            assert english_left(said, code, own=[]) == [], said


def test_a_states_words_on_a_card():
    card = piece_card("superchess", "C", state="NE", lang=language("fr"))
    assert "orienté vers NE" in card.subtitle
    wall = piece_card("ganymede", "W", lang=language("de"))
    assert "liegend" in wall.subtitle


@pytest.mark.parametrize("result, reason, fr", [
    ("1-0", "checkmate", "Échec et mat — victoire du camp "),
    ("0-1", "resignation", " abandonne — victoire du camp "),
    ("1/2-1/2", "agreement", "Nulle par accord mutuel"),
    ("1/2-1/2", "stalemate", "Pat — nulle"),
    ("*", "aborted", "Partie annulée"),
])
def test_a_result_banner_in_french(result, reason, fr):
    said = result_text("chess", result, reason, lang=language("fr"))
    assert fr in said
    assert result_text("chess", "1-0", "checkmate") == "Checkmate \u2014 White wins"
    for code in CODES:
        assert english_left(result_text("chess", result, reason, lang=language(code)), code,
                            own=[]) == []


def test_the_board_picture_says_its_banner_and_hands_in_the_readers_language():
    pos = rules.from_fen("kingqueen", KQ.replace("hand=P", "hand=-"))
    fr = board_image(pos, lang=language("fr"), result="")
    en = board_image(pos, result="")
    assert fr.size == en.size and fr.tobytes() != en.tobytes()  # "aucune pièce en réserve"
    mate = rules.from_fen("chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    assert board_image(mate, lang=language("fr")).tobytes() != board_image(mate).tobytes()


def test_a_french_crosstable():
    t = Crosstable(title="Coupe", format="swiss", rounds=2, players=(), games=())
    fr = crosstable_image(t, lang=language("fr"))
    en = crosstable_image(t)
    assert fr.tobytes() != en.tobytes()
    withdrawn = Crosstable(title="Coupe", format="swiss", rounds=1, games=(),
                           players=(Player("Ann", 1.0, rating=1500, withdrawn=True),))
    assert crosstable_image(withdrawn, lang=language("de")).size[0] >= crosstable_image(withdrawn).size[0]


def test_the_set_up_hint_in_each_language():
    """Super Chess's set-up: what is due now, as the front ends say it (setup_hint_text),
    is the English setup_hint word for word, and said in each language."""
    game = rules.game("superchess")
    pos = rules.from_fen("superchess", game.setup_start_fen)
    steps = 0
    while pos.setup is not None and steps < 6:
        hint = game.extension.setup_hint_text(pos)
        assert isinstance(hint, Text) and str(hint) == game.extension.setup_hint(pos)
        for code in CODES:
            said = language(code).say(hint)
            assert english_left(said, code, own=FACING_WORDS) == [], said
        pos = pos.play(pos.legal_moves()[0])
        steps += 1
    assert steps >= 2


def test_the_browsers_empty_board_heads_its_hand_panels_in_the_readers_language():
    """render.parts.face_image: King and Queen's hand panels are headed by the sides'
    names, as the reader's catalog says them."""
    from render.parts import face_image
    from tests.language.test_infrastructure import made_language

    blue = made_language("fr", {"Blue": "Les Bleus tout au long", "Red": "Les Rouges tout au long"})
    assert face_image("kingqueen", False, 40, lang=blue).tobytes() != face_image("kingqueen", False, 40).tobytes()
    assert face_image("kingqueen", False, 40, lang=ENGLISH).tobytes() == face_image("kingqueen", False, 40).tobytes()
