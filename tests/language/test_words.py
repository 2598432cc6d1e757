"""The bot's words (bot/words/: text, timetext, textboard, rating_text, game_texts) in French,
German and Spanish (issue #44): every notice kind, the status lines of a real game, the game
lists and challenges, each game's rules and piece cards, durations and dates; no English left
in what a reader of another language reads, a few exact French sentences, and one notice said
to two readers in two languages."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

import rules
from bot.config import Settings
from bot.delivery import events as ev
from bot.operations.service import GameService
from bot.operations.square_moves import square_moves
from bot.words import text
from bot.words.game_texts import find_piece, piece_text, rules_text
from bot.words.rating_text import ratings_text
from bot.words.text import DISCORD, HTML, PLAIN
from bot.words.textboard import legend_lines, text_board
from bot.words.timetext import time_left
from language import ENGLISH, language
from tests.language.leaks import english_left

READERS = ("fr", "de", "es")
MARKUPS = (PLAIN, DISCORD, HTML)
ANN = ev.PlayerRef(1, "discord", "11", "Ann")
BOB = ev.PlayerRef(2, "email", "bob@example.org", "Bob")
ENGINE = ev.PlayerRef(3, "computer", "3", "Stockfish")
WHEN = datetime(2026, 11, 24, 21, 0, tzinfo=UTC)
#: what the players wrote or typed, the tournament's name, and the command a player types
#: (`/settings email`: a command's name is never translated): they stay as written
OWN = ["Ann", "Bob", "Stockfish", "Spring Open", "bob@example.org", "/settings email"]
LINK = "https://example.org/g/3"


def every_event(recipient=ANN, opponent=BOB, game="grandducal"):
    """One event of each kind a player reads (bot/delivery/events.py), with realistic values."""
    common = {"recipient": recipient, "game_id": 3, "game": game}
    return [
        ev.YourMove(**common, opponent=opponent, ply=4, last_move="Nf3", deadline=WHEN),
        ev.YourMove(**common, opponent=opponent, ply=0, last_move=None, deadline=None),
        ev.TimeWarning(**common, opponent=opponent, level="80%", deadline=WHEN, seconds_left=2 * 86400 + 5 * 3600),
        ev.TimeWarning(**common, opponent=opponent, level="1h", deadline=WHEN, seconds_left=40),
        ev.GameStarted(**common, white=recipient, black=opponent, days=3, challenge_id=9, rated=True,
                       your_move=True, deadline=WHEN),
        ev.GameStarted(**common, white=opponent, black=recipient, days=None, challenge_id=9),
        ev.GameStarted(**common, white=recipient, black=opponent, days=1, challenge_id=None, rated=True,
                       tournament_id=4, tournament_name="Spring Open", tournament_round=2,
                       tournament_deadline=WHEN),
        *(ev.GameOver(**common, white=recipient, black=opponent, result=result, reason=reason, last_move="Qh4#")
          for result, reason in (("0-1", "checkmate"), ("1-0", "resignation"), ("1/2-1/2", "stalemate"),
                                 ("1/2-1/2", "agreement"), ("0-1", "time"), ("1/2-1/2", "threefold repetition"),
                                 ("1/2-1/2", "100-ply rule"), ("1-0", "adjudication"), ("*", "aborted"))),
        ev.ChallengeReceived(recipient=recipient, challenge_id=9, challenger=opponent, game=game, days=3,
                             colour="random", setup="default", open=False),
        ev.ChallengeReceived(recipient=recipient, challenge_id=9, challenger=opponent, game=game, days=1,
                             colour="white", setup="players", open=False, rated=True),
        *(ev.ChallengeClosed(recipient=recipient, challenge_id=9, how=how, by=opponent)
          for how in ("declined", "cancelled", "expired")),
        ev.DrawOffered(**common, by=opponent),
        ev.DrawDeclined(**common, by=opponent),
        ev.TakebackAsked(**common, by=opponent, move="e4"),
        ev.TakebackAnswered(**common, by=opponent, accepted=True),
        ev.TakebackAnswered(**common, by=opponent, accepted=False),
        ev.Digest(recipient=recipient, day="2026-11-24",
                  games=(ev.DigestEntry(3, game, opponent.name, WHEN, 7200),
                         ev.DigestEntry(4, game, "Bob", None, None))),
        ev.PremovePlayed(**common, opponent=opponent, their_move="e5", answer="Nf3", lines_left=2),
        ev.PremovePlayed(**common, opponent=opponent, their_move="e5", answer="Nf3", lines_left=1),
        ev.PremovePlayed(**common, opponent=opponent, their_move="e5", answer="Nf3", lines_left=0),
        *(ev.PremovesDropped(**common, opponent=opponent, why=why, move="d5", lines=lines)
          for why, lines in (("move", 1), ("takeback", 3), ("illegal", 2))),
        ev.ComputerStalled(**common, computer=ENGINE, failures=3),
        ev.MailStopped(recipient=recipient, address="bob@example.org", bounces=5),
        ev.TournamentBye(recipient=recipient, tournament_id=4, name="Spring Open", round=2, points=1.0),
        ev.TournamentBye(recipient=recipient, tournament_id=4, name="Spring Open", round=3, points=0.5),
        ev.TournamentDeadline(recipient=recipient, tournament_id=4, name="Spring Open", round=2, games=(7,),
                              adjudicated=True),
        ev.TournamentDeadline(recipient=recipient, tournament_id=4, name="Spring Open", round=2, games=(7, 8),
                              adjudicated=False),
        ev.TournamentOver(recipient=recipient, tournament_id=4, name="Spring Open", game=game, place=1, players=8,
                          points=5.5, winner=recipient),
        ev.TournamentOver(recipient=recipient, tournament_id=4, name="Spring Open", game=game, place=3, players=8,
                          points=4.0, winner=opponent),
        ev.TournamentOver(recipient=recipient, tournament_id=4, name="Spring Open", game=game, place=22,
                          players=30, points=1.0, winner=opponent),
    ]


def kinds_said() -> set[str]:
    return {e.kind for e in every_event()}


def test_every_kind_a_player_reads_is_in_the_sample():
    silent = {"offer_settled", "tournament_news"}  # no words: a lobby's update, a thread's news
    assert kinds_said() | silent == set(ev.EVENT_TYPES)


@pytest.mark.parametrize("code", READERS)
@pytest.mark.parametrize("m", MARKUPS, ids=lambda m: m.name)
def test_every_notice_is_said_in_the_readers_language(code, m):
    reader = m.in_language(code)
    own = OWN
    for e in every_event():
        said = text.event_text(e, reader, where=reader.link(LINK, LINK))
        assert said, e.kind
        assert english_left(said, code, own) == [], (e.kind, said)
        assert said != text.event_text(e, m, where=m.link(LINK, LINK)), e.kind


def test_notices_in_french_word_for_word():
    fr = PLAIN.in_language("fr")
    started, over = every_event(game="chess")[4], every_event(game="chess")[7]
    assert text.event_text(every_event(game="chess")[0], fr) == (
        f"À vous de jouer dans la partie #3 ({fr.data('Chess')}) contre Bob. Bob a joué Nf3. "
        f"Répondez avant le {fr.when(WHEN)}.")
    assert text.event_text(started, fr) == (
        f"La partie #3 ({fr.data('Chess')}) contre Bob a commencé : vous avez les {fr.data('White')}, 3 jours par "
        f"coup, une partie classée. À vous de jouer : répondez avant le {fr.when(WHEN)}.")
    assert text.event_text(over, fr).endswith(f"est terminée : 0-1 · Bob ({fr.data('Black')}) gagne par échec et mat.")
    assert text.event_text(ev.TimeWarning(recipient=ANN, game_id=3, game="chess", opponent=BOB, level="80%",
                                          deadline=WHEN, seconds_left=2 * 86400 + 5 * 3600), fr).endswith(
        "contre Bob : il vous reste 2\xa0jours 5\xa0heures pour jouer.")
    bye = ev.TournamentBye(recipient=ANN, tournament_id=4, name="Spring Open", round=3, points=0.5)
    assert text.event_text(bye, fr) == ("Tournoi #4 Spring Open, ronde 3 : vous êtes exempt à cette ronde "
                                        "(½ point), pas de partie.")
    placed = ev.TournamentOver(recipient=ANN, tournament_id=4, name="Spring Open", game="chess", place=3, players=8,
                               points=4.0, winner=BOB)
    assert text.event_text(placed, fr).endswith(": vous avez fini 3e sur 8, avec 4 points. Bob l'a gagné.")


def test_one_notice_two_readers_two_languages():
    """The same event said to a French and a German player of one game: each their own."""
    e = ev.DrawOffered(recipient=ANN, game_id=3, game="chess", by=BOB)
    fr, de = text.event_text(e, DISCORD.in_language("fr")), text.event_text(e, DISCORD.in_language("de"))
    own = OWN
    assert fr.startswith("Bob propose la nulle dans la partie #3") and english_left(fr, "fr", own) == []
    assert de.startswith("Bob bietet in Partie #3") and english_left(de, "de", own) == []
    # and the English of before is untouched
    assert text.event_text(e, DISCORD) == "Bob offers a draw in game #3 (Chess)."


def test_english_stays_as_it_was():
    e = every_event(game="chess")
    assert text.event_text(e[0], PLAIN) == ("Your move in game #3 (Chess) against Bob. Bob played Nf3. "
                                           "Answer by Tue 24 Nov 2026 21:00 UTC.")
    assert text.event_text(e[4], PLAIN) == ("Game #3 (Chess) against Bob has begun: you play White, 3 days per "
                                           "move, a rated game. It is your move: answer by Tue 24 Nov 2026 21:00 UTC.")
    assert time_left(2 * 86400 + 5 * 3600) == "2 days 5 hours" and time_left(None) == "no clock"
    assert text.ordinal(22) == "22nd" and text.ordinal(11) == "11th" and text.ordinal(1) == "1st"
    assert text.days_text(1) == "1 day per move" and text.REASONS["checkmate"] == "by checkmate"


def test_durations_dates_and_ordinals_in_each_language():
    fr, de, es = language("fr"), language("de"), language("es")
    assert time_left(2 * 86400 + 5 * 3600, fr) == "2\xa0jours 5\xa0heures"  # Babel's spaces: no break
    assert time_left(3600 + 60, de) == "1 Stunde 1 Minute"
    assert time_left(30, es) == "menos de un minuto" and time_left(None, fr) == "sans pendule"
    assert time_left(0, de) == "keine Zeit"
    assert PLAIN.in_language("fr").when(WHEN) == f"{fr.moment(WHEN, UTC)} UTC" == "24 nov. 2026, 21:00 UTC"
    assert "nov." in PLAIN.in_language("fr").when(WHEN)
    assert DISCORD.in_language("fr").when(WHEN) == DISCORD.when(WHEN)  # Discord's timestamps: the reader's own
    assert [text.ordinal(n, PLAIN.in_language("fr")) for n in (1, 2, 22)] == ["1er", "2e", "22e"]
    assert [text.ordinal(n, PLAIN.in_language("de")) for n in (1, 3)] == ["1.", "3."]
    assert text.days_text(3, PLAIN.in_language("es")) == "3 días por jugada"
    assert text.days_text(1, PLAIN.in_language("fr")) == "1 jour par coup"


@pytest.fixture
async def service(tmp_path):
    s = await GameService.open(Settings(db_path=str(tmp_path / "words.db")), rng=random.Random(1))
    yield s
    await s.close()


async def test_a_real_games_lines_in_each_language(service):
    """A game of Chess from the challenge to mate, and what each line of bot/words says of it
    on the way, in French, German and Spanish."""
    ann = await service.player("discord", "11", "Ann")
    bob = await service.player("discord", "12", "Bob")
    open_one = await service.challenge(bob.id, "grandducal", colour="random", days=2)
    c = await service.challenge(ann.id, "chess", opponent_id=bob.id, colour="white", days=3)
    read: dict[str, list[str]] = {code: [] for code in READERS}

    def say(fn, *args, **kw):
        for code in READERS:
            for m in MARKUPS:
                read[code].append(fn(*args, m.in_language(code), **kw))

    say(text.challenge_text, c)
    say(text.challenge_text, open_one)
    say(text.challenge_sent_text, c)
    say(text.challenge_sent_text, open_one)
    say(lambda c, m: text.challenges_text(c, ann.id, m), await service.list_challenges(ann.id))
    say(lambda c, m: text.challenges_text(c, bob.id, m), [])
    say(lambda s, c, m: text.games_text(s, c, ann.id, m), [], await service.list_challenges(ann.id))
    view = await service.accept_challenge(c.id, bob.id)
    for san in ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"):
        mover = view.white if view.turn == "w" else view.black
        view = (await service.move(view.id, mover.id, san, expected_ply=view.ply)).game
        say(text.board_caption, view)
        say(text.status_text, view)
        say(text.turn_line, view)
    await service.offer_draw(view.id, view.white.id)
    view = await service.game(view.id)
    say(text.board_caption, view)
    say(text.status_text, view)
    pos = rules.from_fen(view.game, view.fen)
    for sq in ("g1", "e4", "a8", "c6", "h5"):
        say(text.square_moves_text, square_moves(pos, sq))
    say(lambda s, m: text.games_text(s, [], ann.id, m), await service.list_games(ann.id))
    say(lambda s, m: m.lines([text.both_sides_line(g, m) for g in s]), await service.list_games(ann.id))
    view = (await service.move(view.id, view.white.id, "Qxf7#", expected_ply=view.ply)).game
    assert view.status != "active"
    say(text.status_text, view)
    say(text.turn_line, view)
    say(text.board_caption, view)
    say(lambda s, m: text.games_text(s, [], ann.id, m),
        await service.list_games(ann.id, include_finished=True))
    for code in READERS:
        own = OWN
        for said in read[code]:
            assert english_left(said, code, own + ["accept"]) == [], said  # `accept N`: the command typed
    fr = PLAIN.in_language("fr")
    assert text.status_text(view, fr) == f"Partie terminée : 1-0, Ann ({fr.data('White')}) gagne (échec et mat)."
    assert text.challenge_sent_text(c, fr).startswith(f"Défi #{c.id} envoyé à Bob : {fr.data('Chess')} · classée · "
                                                      "3 jours par coup · vous jouez les ")


async def test_ratings_text_in_each_language(service):
    ann = await service.player("discord", "11", "Ann")
    for code in READERS:
        said = await ratings_text(service, None, [ann], DISCORD.in_language(code))
        assert english_left(said, code, OWN) == [], said
    said = await ratings_text(service, "chess", [ann], PLAIN.in_language("fr"))
    assert said.startswith(f"Classements, {language('fr').data('Chess')} :\n  aucune partie classée pour l'instant")
    assert said.endswith("Un ? marque un classement provisoire (trop peu de parties classées récentes pour en "
                         "être sûr).")


@pytest.mark.parametrize("game_id", rules.variants())
def test_rules_and_piece_cards_of_every_game_in_each_language(game_id):
    g = rules.game(game_id)
    # the command a player types, the game's id and the Betza notations: codes, in no language
    own = ["piece CODE", game_id] + [p.betza or "" for p in g.types.values()]
    for code in READERS:
        for m in MARKUPS:
            reader = m.in_language(code)
            said = [rules_text(game_id, reader, width=72 if m is PLAIN else None)]
            said += [piece_text(g, p, reader) for p in g.types.values()]
            for words in said:
                assert english_left(words, code, own) == [], words
    fr = PLAIN.in_language("fr")
    card = rules_text(game_id, fr)
    assert "(tapez piece CODE pour l'une d'elles) :" in card and "Pièces" in card
    assert f"({g.id}) : échiquier de {g.geometry.width} x {g.geometry.height}, colonnes" in card


def test_a_piece_asked_for_in_the_readers_language_and_a_refusal_said_in_it():
    g = rules.game("chess")
    knight = find_piece(g, "Knight")
    assert find_piece(g, language("fr").data("Knight"), language("fr")) is knight
    with pytest.raises(Exception) as refused:
        find_piece(g, "Zeppelin", language("fr"))
    said = PLAIN.in_language("fr").say(refused.value.text)
    assert said.startswith(f"{language('fr').data('Chess')} n'a pas de pièce 'Zeppelin'. Ses pièces : K ")
    assert str(refused.value).startswith("Chess has no piece 'Zeppelin'. Its pieces: K King")


@pytest.mark.parametrize("game_id", rules.variants())
def test_text_boards_hands_and_legends_in_each_language(game_id):
    pos = rules.start(game_id)
    for code in READERS:
        lang = language(code)
        board = text_board(pos, hands=True, lang=lang)
        legend = "\n".join(legend_lines(pos, lang))
        for words in (board, legend):
            assert english_left(words, code) == [], words
    assert text_board(pos, hands=True) == text_board(pos, hands=True, lang=ENGLISH)
    assert f"{language('fr').data(rules.game(game_id).side_names[0])} en réserve : " in text_board(
        pos, hands=True, lang=language("fr"))


def test_help_frames_in_french():
    from bot.words.grammar import GRAMMAR
    fr = PLAIN.in_language("fr")
    examples = "(Nf3, e2e4, Ng1-f3, O-O, exd5, e7e8=Q ...)"
    assert text.help_text(GRAMMAR, fr).startswith(f"Tapez un coup {examples} ou une commande :")
    assert text.help_text(GRAMMAR, PLAIN).startswith(f"Type a move {examples} or a command:")
    slash = {"challenge": "Challenge someone", "move": "Make a move", "settings": "Your settings"}
    for code in READERS:
        said = text.slash_help(slash, GRAMMAR, DISCORD.in_language(code))
        assert len(said) <= text.EMBED_DESCRIPTION
    said = text.slash_help(slash, GRAMMAR, DISCORD.in_language("fr"))
    assert "**Commencer une partie**" in said and "`/premove`" in said and "**Coup**" in said
    assert "`Nf3`" in said and "{" not in said
