"""A database and a settings file written by the previous release (main at 3b1b0ac) open
and play on with today's code (issue 39, item 4).

The fixtures (tests/bot/fixtures/release_3b1b0ac.*) were made by that release's own code
with ``fixtures/make_release_3b1b0ac.py`` (its docstring says how to make them again): a game
in progress in every game (a superchess in its set-up phase too), conditional moves, a draw
offer, a pending and an open challenge, a player's settings, a vacation, undelivered notices,
finished rated games, a round robin under way, a block, a public game, and the Discord
and email adapters' own rows. The ``.json`` beside the database is what
that release's service read from it; today's must read the same, then play on. A migration
that breaks, or a read of old rows that does, fails here."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import shutil
import sqlite3
from contextlib import closing
from datetime import datetime
from enum import Enum
from pathlib import Path

import pytest

from bot import cli
from bot.config import Settings
from bot.delivery import events as ev
from bot.discord_bot.tables import ChatTables
from bot.email.tables import EmailTables
from bot.operations.service import GameService
from bot.schemas import ADAPTER_SCHEMAS
from bot.store import MIGRATIONS, Store
from bot.timekeeping.clock import ManualClock
from bot.tournaments.crosstable import crosstable_of
from bot.words.text import PLAIN
from bot.words.tournament_text import tournament_text

FIXTURES = Path(__file__).parent / "fixtures"
RELEASE = "3b1b0ac"
RECORD = json.loads((FIXTURES / f"release_{RELEASE}.json").read_text())
WHEN = datetime.fromisoformat(RECORD["now"])  # the release's clock at its last write
PLAYERS = RECORD["players"]  # name -> id


def plain(value):
    """As the maker script wrote the release's answers: dataclasses as dicts, enums by
    value, times as ISO text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def same(old, new, where: str = "") -> None:
    """``new`` says everything ``old`` said (a field added since is not compared); floats
    (ratings) equal to rounding."""
    if isinstance(old, dict):
        assert isinstance(new, dict), f"{where}: {new!r} is no longer a record"
        for key, value in old.items():
            assert key in new, f"{where}.{key} is no longer read"
            same(value, new[key], f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), f"{where}: {new!r} != {old!r}"
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(old, float):
        assert math.isclose(old, new, rel_tol=1e-12), f"{where}: {new!r} != {old!r}"
    else:
        assert old == new, f"{where}: {new!r} != {old!r}"


@pytest.fixture
def old_database(tmp_path) -> Path:
    path = tmp_path / f"release_{RELEASE}.db"
    shutil.copyfile(FIXTURES / path.name, path)
    return path


@pytest.fixture
async def opened(old_database):
    """Today's service on the release's database: (service, its notifier, its clock)."""
    clock, notifier = ManualClock(WHEN), ev.MemoryNotifier()
    svc = await GameService.open(Settings(db_path=str(old_database), vacation_days_per_year=21),
                                 clock=clock, notifier=notifier)
    yield svc, notifier, clock
    await svc.close()


def _schema_of(path: Path) -> set[tuple[str, str, str]]:
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        return {(kind, name, re.sub(r"\s+", " ", sql or "")) for kind, name, sql in rows}


async def test_the_database_upgrades_to_what_a_new_one_gets(old_database, tmp_path):
    assert RECORD["schema_versions"]["core"] <= len(MIGRATIONS)
    for path in (old_database, tmp_path / "new.db"):
        store = await Store.open(str(path), schemas=ADAPTER_SCHEMAS)
        async with store.read() as tx:
            versions = dict(await tx._all("SELECT owner, version FROM schema_versions"))
        await store.close()
        assert versions == {"core": len(MIGRATIONS)} | {s.owner: len(s.migrations) for s in ADAPTER_SCHEMAS}
    assert _schema_of(old_database) == _schema_of(tmp_path / "new.db")


async def test_every_game_reads_as_the_release_left_it(opened):
    svc, _, _ = opened
    for game_id, old in RECORD["games"].items():
        view = await svc.game(int(game_id))
        same(old, plain(view), f"game {game_id}")
        assert view.fen == old["fen"] and [m.lan for m in view.moves] == [m["lan"] for m in old["moves"]]
    chess = RECORD["going"]["chess"]["id"]
    same(RECORD["premoves"], plain(await svc.premoves(chess, PLAYERS["Alice"])), "premoves")


async def test_players_ratings_settings_vacations_challenges_and_the_tournament_read_the_same(opened):
    svc, _, _ = opened
    for name, pid in PLAYERS.items():
        same(RECORD["ratings"][name], plain(await svc.player_ratings(pid)), f"{name}'s ratings")
        same(RECORD["settings"][name], plain((await svc.get_player(pid)).settings), f"{name}'s settings")
        same(RECORD["vacations"][name], plain(await svc.vacation(pid)), f"{name}'s vacation")
    assert (await svc.vacation(PLAYERS["Dave"])).on_vacation
    for which, old in RECORD["challenges"].items():
        same(old, plain(await svc.get_challenge(old["id"])), f"the {which} challenge")
    cup = await svc.tournament(RECORD["tournament"]["id"])
    same(RECORD["tournament"], plain(cup), "the tournament")
    shown = tournament_text(cup, PLAIN)  # as a player asks for it
    assert "Winter cup" in shown and all(s.player.name in shown for s in cup.standings)
    standings = [s["player"]["name"] for s in RECORD["tournament"]["standings"]]
    assert [p.name for p in crosstable_of(cup).players] == standings


async def test_blocks_public_games_and_the_front_ends_rows_read_the_same(opened):
    """The Discord adapter's rows (a game's thread, a challenge's message, where a player's
    notices go, the tournament's announcement) and the email adapter's (an address, a link
    asked for, a mail read and one to send), through today's adapters' tables."""
    svc, _, _ = opened
    for name, pid in PLAYERS.items():
        assert [p.id for p in await svc.blocked_players(pid)] == RECORD["blocked"][name]
    for game_id, public in RECORD["public"].items():
        assert await svc.is_public(int(game_id)) == public
    old = RECORD["front_ends"]
    chess, cup = RECORD["going"]["chess"]["id"], RECORD["tournament"]["id"]
    async with svc.store.read() as tx:
        chat, mail = ChatTables(tx), EmailTables(tx)
        now = {
            "game_thread": plain(await chat.game_thread(chess)),
            "challenge_message": plain(await chat.challenge_message(RECORD["challenges"]["pending"]["id"])),
            "chat_pref": plain(await chat.chat_pref(PLAYERS["Bob"])),
            "tournament_place": plain(await chat.tournament_place(cup, "discord")),
            "email_address": plain(await mail.email_address("erin@example.org")),
            "email_links": plain(await mail.email_links(PLAYERS["Alice"])),
            "unhandled_mails": plain(await mail.unhandled_mails()),
            "due_mails": plain(await mail.due_mails(old["email_address"]["confirmed_at"])),
        }
    assert set(now) == set(old)
    same(old, now, "the front ends' rows")


async def test_the_notices_it_left_undelivered_are_delivered_once(opened, old_database):
    """As the release itself delivered them (on a copy, by the maker script): the same
    notices, saying the same; those whose turn has ended since are obsolete, not sent."""
    svc, notifier, _ = opened
    left, delivered = RECORD["outbox"], RECORD["delivered"]
    assert left and {status for *_, status, _ in left} == {"pending"}
    assert await svc.outbox.drain() == delivered["count"] > 0
    got = {e.event_id: e for e in notifier.events}
    assert sorted(got) == sorted(delivered["ids"])
    for event_id, player_id, kind, _, payload in left:
        if event_id in got:
            event = got[event_id]
            assert (event.kind, event.recipient and event.recipient.id) == (kind, player_id)
            same(json.loads(payload), json.loads(ev.encode(event)), f"notice {event_id} ({kind})")
    assert await svc.outbox.drain() == 0
    with closing(sqlite3.connect(old_database)) as conn:
        assert dict(conn.execute("SELECT status, COUNT(*) FROM events WHERE id <= ? GROUP BY status",
                                 (left[-1][0],))) == delivered["statuses"]


async def test_every_game_in_progress_plays_on_and_its_notices_go_out(opened):
    svc, notifier, clock = opened
    await svc.outbox.drain()  # the release's notices first
    for name, going in RECORD["going"].items():
        notifier.clear()
        clock.advance(minutes=5)
        before = RECORD["games"][str(going["id"])]
        mover = before["to_move"]["id"]
        opponent = before["white"]["id"] if mover == before["black"]["id"] else before["black"]["id"]
        if before["in_setup"]:
            result = await svc.setup_action(going["id"], mover, going["next"])
        else:
            result = await svc.move(going["id"], mover, going["next"], expected_ply=before["ply"])
        view = await svc.game(going["id"])
        if name == "chess":  # Bob's Nc6 meets Alice's conditional Bb5, played at once
            assert [m.san for m in view.moves[-2:]] == ["Nc6", "Bb5"]
            assert notifier.of(ev.PremovePlayed, PLAYERS["Alice"])
            assert notifier.of(ev.YourMove, mover)
        else:
            assert view.ply == before["ply"] + 1, name  # a set-up action is a ply too
            assert view.fen != before["fen"] and result.game.turn.value != before["turn"], name
            assert notifier.of(ev.YourMove, opponent), f"{name}: no notice of the move for its opponent"


async def test_the_challenges_are_accepted_the_draw_offer_answered_the_tournament_goes_on(opened):
    svc, notifier, clock = opened
    await svc.outbox.drain()
    notifier.clear()
    pending, open_one = RECORD["challenges"]["pending"], RECORD["challenges"]["open"]
    game = await svc.accept_challenge(pending["id"], PLAYERS["Bob"])
    assert (game.game, game.white.id, game.black.id) == ("kingqueen", PLAYERS["Bob"], PLAYERS["Carol"])
    game = await svc.accept_challenge(open_one["id"], PLAYERS["Erin"])
    assert game.game == "gigachess2" and {game.white.id, game.black.id} == {PLAYERS["Dave"], PLAYERS["Erin"]}
    assert {e.recipient.id for e in notifier.of(ev.GameStarted)} == {
        PLAYERS[n] for n in ("Bob", "Carol", "Dave", "Erin")}

    drawn = RECORD["going"]["grandducal"]["id"]
    assert RECORD["games"][str(drawn)]["draw_offer"] == "w"
    view = await svc.accept_draw(drawn, PLAYERS["Bob"])
    assert (view.status.value, view.result) == ("finished", "1/2-1/2")

    cup = RECORD["tournament"]
    going = [p for p in cup["pairings"] if p["black"] and p["result"] is None]
    clock.advance(minutes=5)
    await svc.resign(going[0]["game_id"], going[0]["white"]["id"])
    after = await svc.tournament(cup["id"])
    assert after.status == "running"
    results = {p.game_id: p.result for p in after.pairings}
    assert results[going[0]["game_id"]] == "0-1"
    assert sum(r is not None for r in results.values()) == 1 + sum(
        p["result"] is not None for p in cup["pairings"] if p["black"])


def test_the_settings_file_reads_the_same_and_the_health_check_passes(old_database, tmp_path,
                                                                      monkeypatch, capsys):
    toml = tmp_path / "settings.toml"
    shutil.copyfile(FIXTURES / f"release_{RELEASE}.toml", toml)
    toml.chmod(0o600)  # as its owner keeps it (it holds mail passwords)
    same(RECORD["settings_file"], plain(Settings.load(toml, env={})), "the settings file")
    for name in list(__import__("os").environ):
        if name.startswith("FAIRYPOST_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.setenv("FAIRYPOST_DB", str(old_database))
    assert cli.main(["--config", str(toml), "health"]) == 0
    said = capsys.readouterr().out
    assert f"(schema {len(MIGRATIONS)})" in said and "superchess" in said
