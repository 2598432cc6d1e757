"""The game record (bot/operations/record.py): a set-up phase's actions go in a leading comment,
told apart by the position (the game's rules hook), not by the game's name."""

from bot.operations.record import format_record, setup_actions


async def test_a_super_chess_record_puts_the_set_up_in_a_comment(opener, engine):
    svc = await opener()
    ann, bob = await svc.player("test", "a", "Ann"), await svc.player("test", "b", "Bob")
    c = await svc.challenge(ann.id, "superchess", opponent_id=bob.id, colour="white", setup="players")
    g = await svc.accept_challenge(c.id, bob.id)
    while g.in_setup:  # each side's set-up choices, the first legal one each time
        action = (await svc.legal_moves(g.id))[0]
        g = (await svc.setup_action(g.id, g.to_move.id, action)).game
    actions = len(g.moves)
    for player, move in ((ann, "e4"), (bob, "e7"), (ann, "f4")):
        g = (await svc.move(g.id, player.id, move)).game
    text = await svc.record(g.id)
    # the facings in the record's form, without brackets (rules.pgn_forms): d1(E) is d1=E
    assert [m.san for m in g.moves[:actions]] == ["S@a2,S@b2", "S@a9,S@b9", "d1(E)", "d10(E)"]
    assert actions == 4 and text.endswith("\n\n{Set-up: S@a2,S@b2 S@a9,S@b9 d1=E d10=E} 1. e4 e7 2. f4 *\n")
    assert setup_actions(engine.from_fen("superchess", g.start_vfen), g.moves) == actions


async def test_without_set_up_actions_every_move_is_numbered(opener, engine):
    svc = await opener()
    ann, bob = await svc.player("test", "a", "Ann"), await svc.player("test", "b", "Bob")
    c = await svc.challenge(ann.id, "chess", opponent_id=bob.id, colour="white")
    g = await svc.accept_challenge(c.id, bob.id)
    g = (await svc.move(g.id, ann.id, "e4")).game
    assert setup_actions(engine.from_fen("chess", g.start_vfen), g.moves) == 0
    assert "{" not in format_record(g) and format_record(g).rstrip().endswith("1. e4 *")
    # told that the first move was a set-up action, the writer puts it in the comment
    assert format_record(g, setup_moves=1).rstrip().endswith("{Set-up: e4} *")
