"""A mail player whose mail stopped (their address bounced) is told on the game page, their
only other route: their own link's page says what happened and how to get mail again; the
opponent's and the watching link's pages do not; a signed reply from the address takes
it away. A linked Discord player can get a link code mailed to a stopped address (they
asked for it), which clears it once confirmed."""

from __future__ import annotations

from html.parser import HTMLParser

from aiohttp.test_utils import TestClient, TestServer

from bot.delivery import mail_status
from bot.identity import page_tokens as tokens
from bot.web.server import make_app

from .servers import reply_to_mail
from .test_bounces_and_loops import bounce_three, bounces_of, challenge_bob
from .test_game_by_mail import BOB, start_game

WEB_SECRET = b"web secret"


class Alerts(HTMLParser):
    """The text of the page's alerts about mail (class mail-stopped), tags taken away."""

    def __init__(self):
        super().__init__()
        self.alerts: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        if self._depth:
            self._depth += 1
        elif tag == "p" and ("class", "mail-stopped") in attrs:
            assert ("role", "alert") in attrs
            self._depth = 1
            self.alerts.append("")

    def handle_endtag(self, tag):
        if self._depth:
            self._depth -= 1

    def handle_data(self, data):
        if self._depth:
            self.alerts[-1] += data


async def page_alerts(service, game_id: int, side: str = "") -> list[str]:
    token = tokens.sign_side(WEB_SECRET, game_id, side) if side else tokens.sign(WEB_SECRET, game_id)
    client = TestClient(TestServer(make_app(service, WEB_SECRET)))
    await client.start_server()
    try:
        response = await client.get(f"/g/{game_id}/{token}")
        assert response.status == 200
        parser = Alerts()
        parser.feed(await response.text())
        return parser.alerts
    finally:
        await client.close()


async def test_a_mail_player_whose_mail_stopped_is_told_on_their_game_page(bot, servers):
    game_id, side = await start_game(bot, servers)
    bobs = "w" if side["w"] == BOB else "b"  # Bob, who plays by mail alone (the corpus's
    alices = "b" if bobs == "w" else "w"        # bounces name him)
    bob_mail = servers.last_to(BOB)
    assert await page_alerts(bot.service, game_id, bobs) == []
    verps = [bob_mail.envelope_sender] + [await challenge_bob(bot, servers, game)
                                          for game in ("grandducal", "superchess")]
    await bounce_three(bot, servers, BOB, verps)  # three mails to Bob bounced
    view = await bot.service.game(game_id)
    bob_id = (view.white if bobs == "w" else view.black).id
    stopped, = await mail_status.stopped_mail(bot.service.store, bob_id)
    alert, = await page_alerts(bot.service, game_id, bobs)
    assert f"The bot no longer mails you at {BOB}." in alert
    assert "3 mails to it bounced" in alert and "You can still play here." in alert
    assert "reply from that address to any mail the bot sent you (a reply saying board will do)" in alert
    assert f"{stopped.retry_at:%d %b %Y}" in alert and "/settings" not in alert  # mail alone: no Discord
    assert await page_alerts(bot.service, game_id, alices) == []  # Alice's mail goes on
    assert await page_alerts(bot.service, game_id) == []  # a watcher is told nothing of Bob's
    await servers.deliver(reply_to_mail(BOB, bob_mail, "board"))  # signed: it reaches Bob
    await bot.step()
    assert await bounces_of(bot, BOB) == (0, False)
    assert await page_alerts(bot.service, game_id, bobs) == []
