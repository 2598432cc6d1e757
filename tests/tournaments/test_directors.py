"""#43 item 1 and #40 items 2-3 (tournaments): each event has directors (its maker; the
owner and the maker name others); only they, the owner, and a manager of the server the
event was made on act on it: an event made at the command line or in a DM is never a server
manager's. DM-made events are listed to no stranger. Making events has a budget an hour,
per maker and in all."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.domain.errors import NotFound
from bot.tournaments.errors import TournamentError

from .conftest import entered, people

SERVER, OTHER_SERVER = "discord:guild:1", "discord:guild:2"


async def test_the_maker_directs_and_names_other_directors(svc):
    ann, ben, cy, dee = await people(svc, 4)
    t = await entered(svc, [ann, ben, cy])
    assert [d.id for d in t.directors] == [ann.id]
    with pytest.raises(TournamentError, match="only the organiser"):
        await svc.pause_tournament(t.id, ben.id)
    with pytest.raises(TournamentError, match="only the server owner and the maker"):
        await svc.add_tournament_director(t.id, dee.id, ben.id)  # a player names no one
    t = await svc.add_tournament_director(t.id, ben.id, ann.id)  # the maker names Ben
    with pytest.raises(TournamentError, match="only the server owner and the maker"):
        await svc.add_tournament_director(t.id, dee.id, ben.id)  # a named director names no one
    t = await svc.add_tournament_director(t.id, cy.id)  # the owner names anyone
    assert {d.id for d in t.directors} == {ann.id, ben.id, cy.id}
    with pytest.raises(TournamentError, match="directs .* already"):
        await svc.add_tournament_director(t.id, cy.id)
    t = await svc.start_tournament(t.id, ben.id)  # a named director acts
    assert t.status == "running"
    t = await svc.remove_tournament_director(t.id, ben.id, ann.id)
    with pytest.raises(TournamentError, match="only the organiser"):
        await svc.pause_tournament(t.id, ben.id)  # no longer
    with pytest.raises(TournamentError, match="stays its director"):
        await svc.remove_tournament_director(t.id, ann.id, ann.id)
    t = await svc.remove_tournament_director(t.id, ann.id)  # the owner may take it away
    with pytest.raises(TournamentError, match="only the organiser"):
        await svc.pause_tournament(t.id, ann.id)
    with pytest.raises(NotFound):
        await svc.add_tournament_director(t.id, 999)
    with pytest.raises(NotFound):
        await svc.add_tournament_director(999, dee.id)


@pytest.mark.parametrize("made", ["owner", "dm"])
async def test_no_server_manager_acts_on_an_event_made_at_the_command_line_or_in_a_dm(svc, made):
    """The attack of #40: a manager of a server she made herself started the owner's event,
    removed a player and paused it. (Before: ``manager=True`` passed for any event with no
    server.)"""
    players = await people(svc, 3)
    eve = await svc.player("test", "eve", "Eve")
    t = await entered(svc, players, creator=None if made == "owner" else players[0].id, scope=None)
    for act, args in (("start_tournament", ()), ("close_tournament", ())):
        with pytest.raises(TournamentError, match="only the organiser"):
            await getattr(svc, act)(t.id, *args, eve.id, manager_of=OTHER_SERVER)
    await svc.start_tournament(t.id, None if made == "owner" else players[0].id)
    for act, args in (("pause_tournament", ()), ("remove_from_tournament", (players[1].id,)),
                      ("set_tournament_result", ((await svc.tournament(t.id)).pairings[0].game_id, "1-0", "x")),
                      ("close_tournament", ())):
        with pytest.raises(TournamentError, match="only the organiser"):
            await getattr(svc, act)(t.id, *args, eve.id, manager_of=OTHER_SERVER)
    after = await svc.tournament(t.id)
    assert after.status == "running" and not any(s.withdrawn for s in after.standings)
    assert all(p.result is None for p in after.pairings)


async def test_a_manager_acts_on_the_events_of_the_server_they_manage_only(svc):
    players = await people(svc, 3)
    mia = await svc.player("test", "mia", "Mia")
    t = await entered(svc, players, scope=SERVER)
    with pytest.raises(TournamentError, match="a manager of the server it was made on"):
        await svc.start_tournament(t.id, mia.id, manager_of=OTHER_SERVER)
    with pytest.raises(TournamentError, match="only the organiser"):
        await svc.start_tournament(t.id, mia.id)  # no manager at all
    t = await svc.start_tournament(t.id, mia.id, manager_of=SERVER)
    assert t.status == "running"


async def test_events_made_in_a_dm_are_listed_to_no_stranger(svc):
    ann, ben, cy, eve = await people(svc, 4)
    owners = await svc.create_tournament("chess", name="Owner's open", format="swiss", rounds=3)
    dm = await svc.create_tournament("chess", name="Ann's friends", format="round-robin", creator_id=ann.id)
    await svc.join_tournament(dm.id, ben.id)
    server = await svc.create_tournament("chess", name="Club", format="round-robin", creator_id=cy.id,
                                         scope=SERVER)
    await svc.add_tournament_director(dm.id, cy.id)

    async def listed(who, scope=None):
        return {t.id for t in await svc.listed_tournaments(who.id, scope)}
    assert await listed(eve) == {owners.id}
    assert await listed(eve, OTHER_SERVER) == {owners.id}
    assert await listed(eve, SERVER) == {owners.id, server.id}
    assert await listed(ann) == {owners.id, dm.id}  # its maker
    assert await listed(ben) == {owners.id, dm.id}  # its player
    assert await listed(cy) == {owners.id, dm.id, server.id}  # its director; the maker of the server's
    assert {t.id for t in await svc.listed_tournaments(None)} == {owners.id, dm.id, server.id}  # the owner


async def test_three_hundred_creations_in_one_instant_make_twenty(svc):
    """#40: 300 events in one instant. At most 20 an hour by one maker; the refusal says
    when the next is allowed; nothing is made by a refused one."""
    (eve,) = await people(svc, 1)
    made, refusals = 0, set()
    for i in range(300):
        try:
            await svc.create_tournament("chess", name=f"Spam {i}", format="round-robin", creator_id=eve.id)
            made += 1
        except TournamentError as e:
            refusals.add(str(e))
    assert made == 20
    assert refusals == {"you have made 20 tournaments in the last hour, the most allowed: try again in "
                        "60 minutes"}
    async with svc.store.read() as tx:
        assert (await tx.fetch_one("SELECT COUNT(*) FROM tournaments"))[0] == 20
    svc.clock.advance(minutes=59, seconds=59)
    with pytest.raises(TournamentError, match="try again in 1 minute$"):
        await svc.create_tournament("chess", name="Still", format="round-robin", creator_id=eve.id)
    svc.clock.advance(seconds=1)
    await svc.create_tournament("chess", name="Next hour", format="round-robin", creator_id=eve.id)
    for i in range(30):  # the owner's command line has no budget
        await svc.create_tournament("chess", name=f"Owner {i}", format="swiss", rounds=2)


async def test_the_budget_is_settable_lower_and_has_a_total(tmp_path, clock, notifier):
    from bot.config import ConfigError, Settings
    from bot.operations.service import GameService
    with pytest.raises(ConfigError, match="tournaments_per_hour must be from 1 to 20"):
        Settings(tournaments_per_hour=21)
    loaded = Settings.load(env={"FAIRYPOST_TOURNAMENTS_PER_HOUR": "2", "FAIRYPOST_TOURNAMENTS_TOTAL_PER_HOUR": "5"})
    assert (loaded.tournaments_per_hour, loaded.tournaments_total_per_hour) == (2, 5)
    settings = Settings(db_path=str(tmp_path / "g.db"), tournaments_per_hour=2, tournaments_total_per_hour=5,
                        command_rate_per_minute=0)
    svc = await GameService.open(settings, clock=clock, notifier=notifier)
    try:
        makers = await people(svc, 300, "m")
        with pytest.raises(TournamentError, match="you have made 2 tournaments"):
            for i in range(3):
                await svc.create_tournament("chess", name=f"A{i}", format="round-robin", creator_id=makers[0].id)
        made = 2
        for m in makers[1:]:  # 299 more makers, one each: the total stops them
            try:
                await svc.create_tournament("chess", name="One", format="round-robin", creator_id=m.id)
                made += 1
            except TournamentError as e:
                assert "5 tournaments have been made here in the last hour" in str(e)
        assert made == 5
        clock.advance(timedelta(hours=1))
        await svc.create_tournament("chess", name="Later", format="round-robin", creator_id=makers[-1].id)
    finally:
        await svc.close()


async def test_three_hundred_events_made_in_dms_are_not_listed_to_a_stranger(svc):
    """#40: 300 DM-made events were listed to every mail sender (1.7 s, 36 KB of the
    attackers' text). Fifteen makers, twenty each (their budget): a stranger's list holds
    none of them, and the owner's event is there."""
    from bot.commands.run import Context, execute
    from bot.words.grammar import parse
    from bot.words.text import PLAIN
    attackers = await people(svc, 15, "x")
    for x in attackers:
        svc.clock.advance(hours=1)  # the total budget (100 an hour) would stop them sooner
        for i in range(20):
            await svc.create_tournament("chess", name=f"FREE PRIZES visit evil.example {i}", format="swiss",
                                        rounds=2, creator_id=x.id)
    await svc.create_tournament("chess", name="Club open", format="swiss", rounds=3)
    (stranger,) = await people(svc, 1, "s")
    reply = await execute(parse("tournaments", in_game=False), Context(svc, stranger, PLAIN))
    assert "Club open" in reply.text and "evil" not in reply.text and len(reply.text) < 1000
    mine = await execute(parse("tournaments", in_game=False), Context(svc, attackers[0], PLAIN))
    assert mine.text.count("evil.example") == 20  # their own, to their maker
