"""What the bot answers to a player's mail, through real SMTP and IMAP servers on 127.0.0.1
(issue #41 item 3): every answer to a reply says first the line it read ("I read: `Nf3`",
escaped, cut short), and carries a signed Reply-To, so that answering it acts (the refusal
of a challenge's reply included); a reply with no text of the writer's own (only the quote,
only an attribution, an empty Outlook reply in Spanish) is told so; bottom-posted replies
under the attributions of the issue (Polish and Japanese Gmail, German Gmail on Android,
Mutt, a plain "X wrote:") are played. A mail that ends its game (mate, resign, a draw
accepted) or starts it (accept) is answered by the writer's game-over (first) mail, which
says what it read: one mail. The plain address's answers to a player's address are signed
for them."""

from __future__ import annotations

from email.message import EmailMessage

from bot.email import tokens
from bot.email.notices import READ_SHOWN_CHARS, i_read

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail
from .test_game_by_mail import ALICE, BOB, start_game

_ids = iter(range(1, 10**6))


def quoted(msg: EmailMessage) -> str:
    return "".join(f"> {line}\n" for line in text_of(msg).splitlines())


async def answer(bot, servers, sender: str, to_msg: EmailMessage | None, body: str) -> EmailMessage:
    """``body`` mailed by ``sender`` as a reply to ``to_msg`` (to its Reply-To; None: to the
    bot's own address), and the one answer the bot sent to it."""
    message_id = f"<answered.{next(_ids)}@{sender.split('@')[1]}>"
    if to_msg is None:
        raw = write_mail(sender, BOT, "hello", body, message_id=message_id)
    else:
        raw = write_mail(sender, str(to_msg.get("Reply-To") or to_msg["From"]), "Re: " + str(to_msg["Subject"]),
                         body, reply_to=to_msg, message_id=message_id)
    await servers.deliver(raw)
    await bot.step()
    answers = [m for m in servers.sent_to(sender) if m["In-Reply-To"] == message_id]
    assert len(answers) == 1, [text_of(m) for m in answers]
    return answers[0]


def first_line_of(msg: EmailMessage) -> str:
    return text_of(msg).splitlines()[0]


async def signed_for(bot, msg: EmailMessage, kind: str, thing_id: int, address: str, ply: int = 0) -> None:
    """The mail's Reply-To is the bot's, signed for this game (challenge, tournament), this
    player, and (a game) the ply it shows."""
    tag = tokens.parse_tag(str(msg["Reply-To"]), BOT)
    assert tag is not None and (tag.kind, tag.id) == (kind, thing_id), msg["Reply-To"]
    player = await bot.adapter.accounts.player_of(address)
    assert tag.player_id == player.id
    assert tokens.signed_ply(bot.adapter.secret, tag, ply) == ply


async def test_every_answer_in_a_game_says_what_it_read_and_is_signed(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    board = servers.last_to(white)
    for line, says in (("Bb4", "No Bishop of yours can move to b4"), ("board", "It is your move"),
                       ("moves e2", "e3"), ("help", "By mail:"), ("Nf3 please", "")):
        got = await answer(bot, servers, white, board, f"{line}\n\n-- \nAlice\n\n" + quoted(board))
        assert first_line_of(got) == f"I read: `{line}`", text_of(got)
        assert says in text_of(got)
        await signed_for(bot, got, "g", game_id, white, ply=0)
    played = await answer(bot, servers, white, board, "e4\n\n" + quoted(board))
    assert first_line_of(played) == "I read: `e4`"
    await signed_for(bot, played, "g", game_id, white, ply=1)
    # an answer to the old board: the game changed, and what was read is said
    stale = await answer(bot, servers, white, board, "d4\n")
    assert first_line_of(stale) == "I read: `d4`" and "The game changed" in text_of(stale)
    await signed_for(bot, stale, "g", game_id, white, ply=1)
    # bottom-posted under each of the attributions: played
    plies = [(black, "e5", "2026年11月28日(土) 5:47 fairypost <bot@fairy.test>:"),
             (white, "Nf3", "sob., 28 lis 2026 o 05:45 fairypost <bot@fairy.test> napisał(a):"),
             (black, "Nc6", "fairypost <bot@fairy.test> schrieb am Sa., 28. Nov. 2026, 05:58:"),
             (white, "Bb5", "* fairypost <bot@fairy.test> [2026-11-28 05:58 +0000]:"),
             (black, "a6", "fairypost wrote:"),
             (white, "Ba4", "Le robot d'échecs nous écrivit ce samedi :")]  # no client's: the fallback
    for mover, move, attribution in plies:
        last = servers.last_to(mover)
        got = await answer(bot, servers, mover, last, f"{attribution}\n\n{quoted(last)}\n{move}\n\n-- \nme\n")
        assert first_line_of(got) == f"I read: `{move}`", text_of(got)
    assert [m.san for m in (await bot.service.game(game_id)).moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6",
                                                                         "Ba4"]


async def test_a_reply_with_no_text_of_its_own_is_told_so(bot, servers):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    board = servers.last_to(white)
    outlook_es = ("De: fairypost <bot@fairy.test>\nEnviado el: sábado, 28 de noviembre de 2026 5:45\n"
                  "Para: alice@a.test\nAsunto: fairypost game 1: Chess\n\n" + text_of(board))
    for body in ("\n" + quoted(board),  # only the quote
                 "On Sat, Nov 28, 2026 at 5:45 AM fairypost <bot@fairy.test> wrote:\n\n" + quoted(board),
                 "2026年11月28日(土) 5:47 fairypost <bot@fairy.test>:\n",  # only an attribution
                 outlook_es,  # the empty Outlook reply in Spanish
                 "De: fairypost <bot@fairy.test>\nEnviado el: sábado, 28 de noviembre de 2026 5:45\n"):
        got = await answer(bot, servers, white, board, body)
        text = text_of(got)
        assert text.startswith("Your mail has no text of your own, so nothing was done"), text
        assert "is not a move" not in text and "I read" not in text
        await signed_for(bot, got, "g", game_id, white)
    assert (await bot.service.game(game_id)).moves == ()


async def test_the_line_read_is_escaped_and_cut_short(bot, servers):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    board = servers.last_to(white)
    line = "`Nf3`\u202e" + "x" * 200
    got = await answer(bot, servers, white, board, line + "\n")
    shown = first_line_of(got)
    assert shown.startswith("I read: `") and shown.endswith("\u2026`")
    inner = shown[len("I read: `"):-1]
    assert "`" not in inner and "\u202e" not in inner and "\\u202e" in inner  # the override shown, not obeyed
    assert len(inner) <= READ_SHOWN_CHARS + len("\\u202e")
    assert (await bot.service.game(game_id)).moves == ()
    assert i_read("  e2  \t e4 ") == "I read: `e2 e4`"
    assert i_read("a\x00b") == "I read: `a\\x00b`"


async def test_a_challenges_answers_say_what_they_read_and_a_reply_to_the_refusal_accepts(bot, servers):
    """The issue's trap: the refusal of a challenge's reply had no signed Reply-To, so
    replying accept to it went to the bot's plain address and failed again."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
    await bot.step()
    invitation = servers.last_to(BOB)
    refusal = await answer(bot, servers, BOB, invitation, "Maybe later, I am busy\n")
    assert first_line_of(refusal) == "I read: `Maybe later, I am busy`"
    assert "reply accept or decline to the challenge" in text_of(refusal)
    assert "the commands are" not in text_of(refusal)  # not every command: the two that answer
    await signed_for(bot, refusal, "c", 1, BOB)
    empty = await answer(bot, servers, BOB, refusal, "\n" + quoted(refusal))
    assert text_of(empty).startswith("Your mail has no text of your own, so nothing was done: write accept "
                                     "or decline")
    await signed_for(bot, empty, "c", 1, BOB)
    await servers.deliver(reply_to_mail(BOB, empty, "accept"))  # a reply to the answer acts
    await bot.step()
    assert (await bot.service.game(1)).status == "active"
    # a second challenge, declined: that answer too says what it read
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 5"))
    await bot.step()
    declined = await answer(bot, servers, BOB, servers.last_to(BOB, "challenges you"), "decline\n")
    assert first_line_of(declined) == "I read: `decline`"
    await signed_for(bot, declined, "c", 2, BOB)


async def test_a_tournaments_answers_say_what_they_read_and_are_signed(bot, servers):
    await bot.service.create_tournament("chess", name="Winter", format="round-robin", days=3)
    listing = await answer(bot, servers, ALICE, None, "tournaments\n")
    assert first_line_of(listing) == "I read: `tournaments`"
    await signed_for(bot, listing, "t", 0, ALICE)
    shown = await answer(bot, servers, ALICE, listing, "tournament show 1\n\n" + quoted(listing))
    assert first_line_of(shown) == "I read: `tournament show 1`" and "Winter" in text_of(shown)
    await signed_for(bot, shown, "t", 0, ALICE)
    empty = await answer(bot, servers, ALICE, listing, "\n" + quoted(listing))
    assert text_of(empty).startswith("Your mail has no text of your own, so nothing was done: write join")
    await signed_for(bot, empty, "t", 0, ALICE)
    invite = await answer(bot, servers, BOB, None, "tournament join 1\n")
    assert first_line_of(invite) == "I read: `tournament join 1`"
    await signed_for(bot, invite, "t", 1, BOB)
    joined = await answer(bot, servers, BOB, invite, "join\n")
    assert first_line_of(joined) == "I read: `join`" and "You are in #1 Winter" in text_of(joined)
    await signed_for(bot, joined, "t", 1, BOB)


async def test_the_plain_address_quotes_a_command_never_a_strangers_chat(bot, servers):
    """Anyone can write any From to the plain address: its answer quotes the line only once
    the line is a command, so no one's text is mailed to someone else in the bot's name.
    Its answers come From the plain address, where a reply's commands are read."""
    helped = await answer(bot, servers, ALICE, None, "help\n")
    assert first_line_of(helped) == "I read: `help`" and "By mail:" in text_of(helped)
    chat = await answer(bot, servers, ALICE, None, "Visit http://phish.example/login now\n")
    assert "I read" not in text_of(chat) and "phish.example" not in text_of(chat)
    assert "There is no command 'Visit'" in text_of(chat)
    for got in (helped, chat):
        assert got["Reply-To"] is None and BOT in str(got["From"])


async def play_to_scholars_mate(bot, servers, white: str, black: str) -> None:
    """1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6, each mailed as a reply and answered once."""
    for mover, move in ((white, "e4"), (black, "e5"), (white, "Bc4"), (black, "Nc6"), (white, "Qh5"),
                        (black, "Nf6")):
        got = await answer(bot, servers, mover, servers.last_to(mover), f"{move}\n")
        assert first_line_of(got) == f"I read: `{move}`", text_of(got)


async def test_the_mate_mailed_is_answered_by_the_game_over_mail_which_says_what_it_read(bot, servers):
    """The mail that ends the game is answered by the mover's game-over mail (one mail, in
    reply to theirs), which says first what it read; the opponent's copy does not."""
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    await play_to_scholars_mate(bot, servers, white, black)
    before = {p: len(servers.sent_to(p)) for p in (white, black)}
    mate = f"<mate.{next(_ids)}@a.test>"
    raw = reply_to_mail(white, servers.last_to(white), "Qxf7#", message_id=mate)
    drawn = []  # the boards drawn (the real drawing, counted): one a mail, none for the notice
    notices, draw = bot.adapter.notices, bot.adapter.notices._png  # delivered after the answer

    async def counted(view, pos, player_id, m):
        drawn.append(player_id)
        return await draw(view, pos, player_id, m)
    notices._png = counted
    await servers.deliver(raw)
    await bot.step()
    view = await bot.service.game(game_id)
    assert (view.status, view.result, view.reason) == ("finished", "1-0", "checkmate")
    assert sorted(drawn) == sorted([view.white.id, view.black.id])
    new = {p: servers.sent_to(p)[before[p]:] for p in (white, black)}
    assert [len(new[white]), len(new[black])] == [1, 1], {p: [text_of(m) for m in ms] for p, ms in new.items()}
    mine, theirs = new[white][0], new[black][0]
    assert first_line_of(mine) == "I read: `Qxf7#`", text_of(mine)
    assert mine["In-Reply-To"] == mate and mate in str(mine["References"])  # the answer, in its thread
    for got in (mine, theirs):
        assert "1-0" in text_of(got) and "checkmate" in text_of(got) and "Last move: Qxf7#" in text_of(got)
    assert "I read" not in text_of(theirs) and theirs["In-Reply-To"] != mate
    await signed_for(bot, mine, "g", game_id, white, ply=7)  # `record` in a reply is still read
    # the same mail handled again (a stop lost its "handled" mark): no second answer
    await bot.adapter.handler.handle(raw)
    await bot.step()
    assert len(servers.sent_to(white)) == before[white] + 1 and len(servers.sent_to(black)) == before[black] + 1


async def test_a_resignation_mailed_is_answered_by_the_game_over_mail(bot, servers):
    game_id, side = await start_game(bot, servers)
    black = side["b"]
    count = len(servers.sent_to(black))
    got = await answer(bot, servers, black, servers.last_to(black), "resign\n\n-- \nBob\n")
    assert first_line_of(got) == "I read: `resign`" and "1-0" in text_of(got), text_of(got)
    assert len(servers.sent_to(black)) == count + 1
    assert "I read" not in text_of(servers.last_to(side["w"]))
    assert (await bot.service.game(game_id)).status == "finished"


async def test_a_draw_accepted_by_mail_is_answered_by_the_game_over_mail(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    offered = await answer(bot, servers, white, servers.last_to(white), "draw\n")
    assert first_line_of(offered) == "I read: `draw`"
    offer = servers.last_to(black)
    assert "Reply draw to accept" in text_of(offer)
    before = {p: len(servers.sent_to(p)) for p in (white, black)}
    got = await answer(bot, servers, black, offer, "draw\n\n" + quoted(offer))
    assert [len(servers.sent_to(p)) - before[p] for p in (white, black)] == [1, 1]
    assert first_line_of(got) == "I read: `draw`" and "1/2-1/2" in text_of(got), text_of(got)
    assert "I read" not in text_of(servers.last_to(white))
    assert (await bot.service.game(game_id)).result == "1/2-1/2"


async def test_accept_mailed_is_answered_by_the_accepters_first_game_mail(bot, servers):
    """The accepter's first mail of the game is the answer to their accept: it says what it
    read, replies to their mail, and is still the game thread's first mail (referring to no
    root but itself); the challenger's has no "I read:"."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
    await bot.step()
    invitation = servers.last_to(BOB)
    before = {p: len(servers.sent_to(p)) for p in (ALICE, BOB)}
    got = await answer(bot, servers, BOB, invitation, "accept\n\n" + quoted(invitation))
    assert [len(servers.sent_to(p)) - before[p] for p in (ALICE, BOB)] == [1, 1]  # one mail each
    assert first_line_of(got) == "I read: `accept`", text_of(got)
    assert "has begun" in text_of(got) and "Chess" in text_of(got)
    view = await bot.service.game(1)
    assert view.status == "active"
    root = bot.adapter.composer.thread_root(view.id, (await bot.adapter.accounts.player_of(BOB)).id)
    assert got["Message-ID"] == root and root not in str(got.get("References", ""))
    await signed_for(bot, got, "g", view.id, BOB)
    challengers = servers.last_to(ALICE)
    assert "has begun" in text_of(challengers) and "I read" not in text_of(challengers)


async def test_a_known_players_answers_at_the_plain_address_are_signed_and_a_reply_to_them_acts(bot, servers):
    """An answer at the plain address goes to the From address alone, so when that address
    is a player's it carries a reply address signed for them: "vacation 5" mailed there
    is refused (the From proves nothing), and replying it to the refusal acts. A stranger's
    address gets no player made and no signed address; someone else replying to Bob's
    signed answer is ignored."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "c", f"challenge chess {BOB}"))
    await bot.step()
    await signed_for(bot, servers.last_to(ALICE, "Challenge #1 sent"), "t", 0, ALICE)
    bob = await bot.adapter.accounts.player_of(BOB)
    refusal = await answer(bot, servers, BOB, None, "vacation 5\n")
    assert first_line_of(refusal) == "I read: `vacation 5`"
    assert "reply to this mail with it" in text_of(refusal)
    await signed_for(bot, refusal, "t", 0, BOB)
    assert not (await bot.service.vacation(bob.id)).on_vacation
    for got in (await answer(bot, servers, BOB, None, "help\n"),
                await answer(bot, servers, BOB, None, "Hello, how does this work?\n")):
        await signed_for(bot, got, "t", 0, BOB)
    # someone else answering Bob's signed mail: ignored, no answer, nothing done
    forged = write_mail("mallory@m.test", str(refusal["Reply-To"]), "Re: x", "vacation 5\n", reply_to=refusal)
    await servers.deliver(forged)
    await bot.step()
    assert servers.sent_to("mallory@m.test") == [] and not (await bot.service.vacation(bob.id)).on_vacation
    done = await answer(bot, servers, BOB, refusal, "vacation 5\n\n" + quoted(refusal))
    assert first_line_of(done) == "I read: `vacation 5`"
    assert (await bot.service.vacation(bob.id)).on_vacation
    await signed_for(bot, done, "t", 0, BOB)
    # a stranger: no player made for the address, no signed address in the answer
    stranger = await answer(bot, servers, "carol@c.test", None, "vacation 5\n")
    assert stranger["Reply-To"] is None and "reply to one of your game mails" in text_of(stranger)
    assert await bot.adapter.accounts.player_of("carol@c.test") is None


async def test_accept_again_says_where_the_game_is_and_a_move_replied_to_it_is_played(bot, servers):
    """``accept`` to a challenge the writer accepted already: handled again (a stop lost its
    mark) or mailed again, it gets no "no longer open" but where the game is, with the game's
    signed reply address."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
    await bot.step()
    invitation = servers.last_to(BOB)
    accept = write_mail(BOB, str(invitation["Reply-To"]), "Re: x", "accept\n", reply_to=invitation,
                        message_id="<accept.1@b.test>")
    await servers.deliver(accept)
    await bot.step()
    count = len(servers.sent_to(BOB))
    await bot.adapter.handler.handle(accept)  # handled again: its answer (the first mail) went out
    await bot.step()
    assert len(servers.sent_to(BOB)) == count + 1
    assert "You accepted this challenge already: it is game #1" in text_of(servers.last_to(BOB))
    view = await bot.service.game(1)
    moves = ["e4", "e5"]
    if view.white.user_id == ALICE:  # Alice moves first: Bob answers her move
        await bot.service.move(1, view.white.id, moves.pop(0))
    again = await answer(bot, servers, BOB, invitation, "accept\n")  # a second mail
    assert first_line_of(again) == "I read: `accept`" and "no longer open" not in text_of(again)
    assert "You accepted this challenge already: it is game #1" in text_of(again)
    ply = 2 - len(moves)
    await signed_for(bot, again, "g", 1, BOB, ply=ply)
    played = await answer(bot, servers, BOB, again, f"{moves[0]}\n")  # the game's address: played
    assert first_line_of(played) == f"I read: `{moves[0]}`"
    assert len((await bot.service.game(1)).moves) == ply + 1
