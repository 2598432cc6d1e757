import asyncio

from bot import cli
from bot.config import ConfigError, Settings
from bot.identity import page_tokens as tokens
from bot.operations.service import GameService

from .conftest import new_game


def test_link_prints_the_signed_url(tmp_path, capsys, monkeypatch):
    db = tmp_path / "g.db"

    async def make():
        svc = await GameService.open(Settings(db_path=str(db)))
        try:
            return (await new_game(svc, "chess")).id
        finally:
            await svc.close()
    game_id = asyncio.run(make())
    monkeypatch.setenv("FAIRYPOST_DB", str(db))
    monkeypatch.setenv("FAIRYPOST_WEB_URL", "https://chess.example.org/")
    monkeypatch.setenv("FAIRYPOST_WEB_SECRET", "s3")
    assert cli.main(["link", str(game_id)]) == 0
    assert capsys.readouterr().out.strip() == \
        f"https://chess.example.org/g/{game_id}/{tokens.sign(b's3', game_id)}"
    for side, letter in (("white", "w"), ("black", "b")):   # each player's own link, to play
        assert cli.main(["link", str(game_id), "--side", side]) == 0
        assert capsys.readouterr().out.strip() == \
            f"https://chess.example.org/g/{game_id}/{tokens.sign_side(b's3', game_id, letter)}"
    assert cli.main(["link", str(game_id), "--public"]) == 0
    assert capsys.readouterr().out.strip() == f"https://chess.example.org/g/{game_id}"
    assert is_public(db, game_id)
    assert cli.main(["link", str(game_id), "--private"]) == 0
    assert f"/g/{game_id}/" in capsys.readouterr().out
    assert not is_public(db, game_id)
    assert cli.main(["link", str(game_id)]) == 0 and not is_public(db, game_id)
    capsys.readouterr()
    assert cli.main(["link", "999"]) == 1
    assert "no game #999" in capsys.readouterr().err


def test_web_settings_from_the_environment():
    s = Settings.load(env={"FAIRYPOST_WEB_PORT": "9000", "FAIRYPOST_WEB_HOST": "0.0.0.0",
                           "FAIRYPOST_WEB_URL": "https://x.org", "FAIRYPOST_WEB_SECRET": "k"})
    assert (s.web_port, s.web_host, s.web_url, s.web_secret) == (9000, "0.0.0.0", "https://x.org", "k")
    assert "k" not in repr(s)
    assert Settings().web_port is None and Settings().web_host == "127.0.0.1"
    for env in ({"FAIRYPOST_WEB_PORT": "70000"}, {"FAIRYPOST_WEB_PORT": "x"},
                {"FAIRYPOST_WEB_URL": "chess.example.org"}):
        try:
            Settings.load(env=env)
        except ConfigError as e:
            assert "web" in str(e).lower()
        else:
            raise AssertionError(env)


def test_fairypost_web_serves_the_linked_page(tmp_path):
    """`fairypost web` in its own process: the URL `fairypost link` prints opens the page."""
    import subprocess
    import sys
    import urllib.request

    from tests.ports import free_port

    db = tmp_path / "g.db"

    async def make():
        svc = await GameService.open(Settings(db_path=str(db)))
        try:
            return (await new_game(svc, "chess", ["e4"])).id
        finally:
            await svc.close()
    game_id = asyncio.run(make())
    port = free_port()  # the server is told it, and binds it in its own time
    env = {**__import__("os").environ, "FAIRYPOST_DB": str(db), "FAIRYPOST_WEB_PORT": str(port)}
    env.pop("FAIRYPOST_WEB_URL", None)
    env.pop("FAIRYPOST_WEB_SECRET", None)
    link = subprocess.run([sys.executable, "-m", "bot.cli", "link", str(game_id)], env=env,
                          capture_output=True, text=True, timeout=60)
    url = link.stdout.strip()
    assert url.startswith(f"http://127.0.0.1:{port}/g/{game_id}/"), link.stderr
    server = subprocess.Popen([sys.executable, "-m", "bot.cli", "web"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = server.stdout.readline()   # printed once it listens
        assert f"http://127.0.0.1:{port}/" in said, server.stderr.read()
        with urllib.request.urlopen(url, timeout=10) as r:
            html = r.read().decode()
        assert ">e4</li>" in html
        try:
            urllib.request.urlopen(url[:-3] + "AAA", timeout=5)
        except urllib.error.HTTPError as e:
            assert e.code == 404
        else:
            raise AssertionError("an altered token was served")
    finally:
        server.terminate()
        server.wait(timeout=10)


def is_public(db, game_id: int) -> bool:
    """What the game database says of the game's page, read through the service."""
    async def read():
        svc = await GameService.open(Settings(db_path=str(db)))
        try:
            return await svc.is_public(game_id)
        finally:
            await svc.close()
    return asyncio.run(read())
