"""Replies as the common mail programs write them, in the languages of issue #41 item 3
(English, French, German, Spanish, Italian, Portuguese, Dutch, Polish, Swedish, Japanese,
Chinese, and Russian): each client's attribution line (or Outlook's header block) in each
language, written here after the shapes those clients produce (the multilingual fixtures
of talon, email_reply_parser and mail-parser-reply, and the clients themselves), put in a
whole mail (a plain part, and the HTML alternative where the client sends one) and read by
the bot's own reader, ``read_mail``. Each is read as the intended move: top-posted,
bottom-posted under the quote, its HTML alone; with nothing of the writer's own, as
nothing."""

from __future__ import annotations

import html
import textwrap
from email.message import EmailMessage

import pytest

from bot.email.attributions import SHAPES, is_attribution
from bot.email.parse import first_line, read_mail

BOT = "fairypost <bot@fairy.test>"
REPLY_TO = "bot+g1-p1-0123456789abcdef0123@fairy.test"
ORIGINAL = ["Chess: ann (White) vs bob (Black), game 1.", "", "It is your move (White).",
            "Reply to this mail with your move on the first line (e.g. e4), or a command:",
            "Moves:", "1. e4"]

# (client, language, attribution): as the client writes it above the quoted original
ATTRIBUTIONS = [
    ("Gmail", "en", "On Sat, Nov 28, 2026 at 5:45 AM fairypost <bot@fairy.test> wrote:"),
    ("Gmail", "fr", "Le sam. 28 nov. 2026 à 05:45, fairypost <bot@fairy.test> a écrit :"),
    ("Gmail", "de", "Am Sa., 28. Nov. 2026 um 05:45 Uhr schrieb fairypost <bot@fairy.test>:"),
    ("Gmail", "es", "El sáb, 28 nov 2026 a las 5:45, fairypost (<bot@fairy.test>) escribió:"),
    ("Gmail", "it", "Il giorno sab 28 nov 2026 alle ore 05:45 fairypost <bot@fairy.test> ha scritto:"),
    ("Gmail", "pt", "Em sáb., 28 de nov. de 2026 às 05:45, fairypost <bot@fairy.test> escreveu:"),
    ("Gmail", "nl", "Op za 28 nov 2026 om 05:45 schreef fairypost <bot@fairy.test>:"),
    ("Gmail", "pl", "sob., 28 lis 2026 o 05:45 fairypost <bot@fairy.test> napisał(a):"),
    ("Gmail", "sv", "Den lör 28 nov. 2026 kl 05:45 skrev fairypost <bot@fairy.test>:"),
    ("Gmail", "ja", "2026年11月28日(土) 5:47 fairypost <bot@fairy.test>:"),
    ("Gmail", "zh-CN", "fairypost <bot@fairy.test> 于2026年11月28日周六 05:45写道："),
    ("Gmail", "zh-TW", "fairypost <bot@fairy.test> 於 2026年11月28日 週六 上午5:45寫道："),
    ("Gmail", "ru", "сб, 28 нояб. 2026 г. в 05:45, fairypost <bot@fairy.test>:"),
    ("Gmail Android", "en", "On Sat, Nov 28, 2026, 05:58 fairypost <bot@fairy.test> wrote:"),
    ("Gmail Android", "de", "fairypost <bot@fairy.test> schrieb am Sa., 28. Nov. 2026, 05:58:"),
    ("Gmail Android", "fr", "Le sam. 28 nov. 2026, 05:58, fairypost <bot@fairy.test> a écrit :"),
    ("Gmail Android", "es", "El sáb, 28 nov 2026, 5:58, fairypost <bot@fairy.test> escribió:"),
    ("Gmail Android", "nl", "fairypost <bot@fairy.test> schreef op za 28 nov. 2026 05:58:"),
    ("Gmail Android", "pl", "sob., 28 lis 2026, 05:58 użytkownik fairypost <bot@fairy.test> napisał:"),
    ("Apple Mail", "en", "On 28 Nov 2026, at 05:45, fairypost <bot@fairy.test> wrote:"),
    ("Apple Mail", "fr", "Le 28 nov. 2026 à 05:45, fairypost <bot@fairy.test> a écrit :"),
    ("Apple Mail", "de", "Am 28.11.2026 um 05:45 schrieb fairypost <bot@fairy.test>:"),
    ("Apple Mail", "es", "El 28 nov 2026, a las 5:45, fairypost <bot@fairy.test> escribió:"),
    ("Apple Mail", "it", "Il giorno 28 nov 2026, alle ore 05:45, fairypost <bot@fairy.test> ha scritto:"),
    ("Apple Mail", "pt", "Em 28 de nov. de 2026, à(s) 05:45, fairypost <bot@fairy.test> escreveu:"),
    ("Apple Mail", "nl", "Op 28 nov. 2026 om 05:45 heeft fairypost <bot@fairy.test> het volgende geschreven:"),
    ("Apple Mail", "pl", "Wiadomość napisana przez fairypost <bot@fairy.test> w dniu 28.11.2026, o godz. 05:45:"),
    ("Apple Mail", "sv", "28 nov. 2026 kl. 05:45 skrev fairypost <bot@fairy.test>:"),
    ("Apple Mail", "ja", "2026/11/28 5:45、fairypost <bot@fairy.test>のメール:"),
    ("Apple Mail", "zh", "2026年11月28日 05:45，fairypost <bot@fairy.test> 写道："),
    ("Thunderbird", "en", "On 11/28/26 05:45, fairypost wrote:"),
    ("Thunderbird", "fr", "Le 28/11/2026 à 05:45, fairypost a écrit :"),
    ("Thunderbird", "de", "Am 28.11.26 um 05:45 schrieb fairypost:"),
    ("Thunderbird", "es", "El 28/11/26 a las 5:45, fairypost escribió:"),
    ("Thunderbird", "it", "Il 28/11/26 05:45, fairypost ha scritto:"),
    ("Thunderbird", "pt", "Em 28/11/2026 05:45, fairypost escreveu:"),
    ("Thunderbird", "nl", "Op 28-11-2026 om 05:45 schreef fairypost:"),
    ("Thunderbird", "pl", "W dniu 28.11.2026 o 05:45, fairypost pisze:"),
    ("Thunderbird", "sv", "Den 2026-11-28 kl. 05:45, skrev fairypost:"),
    ("Thunderbird", "ja", "2026/11/28 5:45 に fairypost さんは書きました:"),
    ("Thunderbird", "zh", "在 2026/11/28 05:45, fairypost 写道:"),
    ("Thunderbird", "ru", "28.11.2026 05:45, fairypost пишет:"),
    ("Outlook iOS/Android", "en", "On Sat, Nov 28, 2026 at 5:45 AM, fairypost <bot@fairy.test> wrote:"),
    ("K-9 Mail", "de", "Am 28. November 2026 05:45:00 MEZ schrieb fairypost <bot@fairy.test>:"),
    ("Yahoo", "en", "On Saturday, November 28, 2026, 05:45:00 AM GMT, fairypost <bot@fairy.test> wrote:"),
    ("Proton Mail", "en", "On Saturday, November 28th, 2026 at 05:45, fairypost <bot@fairy.test> wrote:"),
    ("Mutt", "any", "* fairypost <bot@fairy.test> [2026-11-28 05:58 +0000]:"),
    ("Mutt", "en", "On Sat, Nov 28, 2026 at 05:58:00AM +0000, fairypost wrote:"),
    ("GMX", "de", "fairypost <bot@fairy.test> hat am 28.11.2026 05:45 geschrieben:"),
    ("plain", "en", "fairypost wrote:"),
    ("plain", "en", "Ann writes:"),
]
# Outlook (desktop, on the web, new Outlook, for Mac): no attribution but the original's
# headers, unquoted, the original under them. (client, language, its four lines)
OUTLOOK_BLOCKS = [
    ("Outlook", "en", ["From: fairypost <bot@fairy.test>", "Sent: Saturday, November 28, 2026 5:45 AM",
                       "To: ann@a.test", "Subject: fairypost game 1: Chess, ann - bob"]),
    ("Outlook for Mac", "en", ["From: fairypost <bot@fairy.test>", "Date: Saturday, 28 November 2026 at 05:45",
                               "To: ann@a.test", "Subject: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "fr", ["De : fairypost <bot@fairy.test>", "Envoyé : samedi 28 novembre 2026 05:45",
                       "À : ann@a.test", "Objet : fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "de", ["Von: fairypost <bot@fairy.test>", "Gesendet: Samstag, 28. November 2026 05:45",
                       "An: ann@a.test", "Betreff: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "es", ["De: fairypost <bot@fairy.test>", "Enviado el: sábado, 28 de noviembre de 2026 5:45",
                       "Para: ann@a.test", "Asunto: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "it", ["Da: fairypost <bot@fairy.test>", "Inviato: sabato 28 novembre 2026 05:45",
                       "A: ann@a.test", "Oggetto: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "pt", ["De: fairypost <bot@fairy.test>", "Enviado: sábado, 28 de novembro de 2026 05:45",
                       "Para: ann@a.test", "Assunto: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "pt-BR", ["De: fairypost <bot@fairy.test>", "Enviada em: sábado, 28 de novembro de 2026 05:45",
                          "Para: ann@a.test", "Assunto: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "nl", ["Van: fairypost <bot@fairy.test>", "Verzonden: zaterdag 28 november 2026 05:45",
                       "Aan: ann@a.test", "Onderwerp: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "pl", ["Od: fairypost <bot@fairy.test>", "Wysłano: sobota, 28 listopada 2026 05:45",
                       "Do: ann@a.test", "Temat: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "sv", ["Från: fairypost <bot@fairy.test>", "Skickat: den 28 november 2026 05:45",
                       "Till: ann@a.test", "Ämne: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "ja", ["差出人: fairypost <bot@fairy.test>", "送信日時: 2026年11月28日 5:45",
                       "宛先: ann@a.test", "件名: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "zh-CN", ["发件人: fairypost <bot@fairy.test>", "发送时间: 2026年11月28日 5:45",
                          "收件人: ann@a.test", "主题: fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "zh-TW", ["寄件者：fairypost <bot@fairy.test>", "寄件日期：2026年11月28日 上午 05:45",
                          "收件者：ann@a.test", "主旨：fairypost game 1: Chess, ann - bob"]),
    ("Outlook", "ru", ["От: fairypost <bot@fairy.test>", "Отправлено: суббота, 28 ноября 2026 г. 5:45",
                       "Кому: ann@a.test", "Тема: fairypost game 1: Chess, ann - bob"]),
]
MOVES = ["Nf3", "e4", "d4", "c4", "g3", "Nc3", "b3", "f4"]
HTML_CLIENTS = ("Gmail", "Gmail Android", "Apple Mail", "Thunderbird", "Outlook iOS/Android", "Yahoo",
                "Proton Mail", "Outlook", "Outlook for Mac")


def quoted() -> str:
    return "".join(f"> {line}\n" if line else ">\n" for line in ORIGINAL)


def plain_reply(move: str, attribution: str, bottom: bool) -> str:
    """The text part: the move above the attribution and quote, or under them."""
    if bottom:
        return f"{attribution}\n\n{quoted()}\n{move}\n\n-- \nAnn\n"
    return f"{move}\n\n{attribution}\n\n{quoted()}"


def html_quote() -> str:
    return "<br>\n".join(html.escape(line) for line in ORIGINAL)


def html_reply(client: str, move: str, attribution: str, bottom: bool) -> str:
    """The HTML part, with the markup each client puts around the attribution and quote."""
    attr = html.escape(attribution)
    if client.startswith("Gmail"):
        quote = (f'<div class="gmail_quote"><div dir="ltr" class="gmail_attr">{attr}<br></div>'
                 '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px '
                 f'solid rgb(204,204,204);padding-left:1ex"><div dir="ltr">{html_quote()}</div>'
                 '</blockquote></div>')
        mine = f'<div dir="ltr">{move}</div>'
    elif client == "Apple Mail":
        quote = (f'<div dir="ltr"><br><blockquote type="cite">{attr}<br><br></blockquote></div>'
                 f'<blockquote type="cite"><div dir="ltr">{html_quote()}</div></blockquote>')
        mine = f'<div dir="ltr">{move}</div>'
    elif client == "Thunderbird":
        quote = (f'<div class="moz-cite-prefix">{attr}<br></div><blockquote type="cite" '
                 f'cite="mid:fairypost.1@fairy.test"><pre class="moz-quote-pre">{html.escape(chr(10).join(ORIGINAL))}'
                 '</pre></blockquote>')
        mine = f"<p>{move}</p>"
    else:
        quote = (f'<div class="yahoo_quoted"><div>{attr}</div><blockquote style="border-left: 1px '
                 f'solid #ccc">{html_quote()}</blockquote></div>')
        mine = f"<div>{move}</div>"
    body = f"{quote}{mine}" if bottom else f"{mine}<br>{quote}"
    return (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
            f'<style>p {{ margin: 0 }}</style></head><body>{body}</body></html>')


def outlook_plain(move: str, block: list[str]) -> str:
    return f"{move}\n\n" + "\n".join(block) + "\n\n" + "\n".join(ORIGINAL) + "\n" if move else \
        "\n".join(block) + "\n\n" + "\n".join(ORIGINAL) + "\n"


def outlook_html(move: str, block: list[str], client: str) -> str:
    def bold(line: str) -> str:
        label, colon, rest = line.partition("：" if "：" in line.split(" ")[0] else ":")
        return f"<b>{html.escape(label)}{colon}</b>{html.escape(rest)}"
    headers = "<br>\n".join(bold(line) for line in block)
    if client == "Outlook for Mac":
        header_div = (f'<div style="border:none;border-top:solid #B5C4DF 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
                      f'<p class="MsoNormal"><span style="font-size:12.0pt">{headers}</span></p></div>')
    else:
        header_div = ('<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" '
                      f'dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000">'
                      f'{headers}<br></font><div>&nbsp;</div></div>')
    mine = (f'<div style="font-family: Aptos, sans-serif; font-size: 12pt">{html.escape(move)}</div>'
            if move else '<div style="font-family: Aptos, sans-serif; font-size: 12pt"><br></div>')
    return (f"<html><head><style>body {{}}</style></head><body dir='ltr'>{mine}{header_div}"
            f"<div>{html_quote()}</div></body></html>")


def mail(plain: str | None, html_part: str | None) -> bytes:
    """A whole reply mail: the text part, and (``html_part``) its HTML alternative; or the
    HTML alone (``plain`` None), as some clients send."""
    m = EmailMessage()
    m["From"] = "Ann <ann@a.test>"
    m["To"] = REPLY_TO
    m["Subject"] = "Re: fairypost game 1: Chess, ann - bob"
    m["Message-ID"] = "<reply.1@a.test>"
    if plain is not None:
        m.set_content(plain)
        if html_part is not None:
            m.add_alternative(html_part, subtype="html")
    else:
        m.set_content(html_part, subtype="html")
    return bytes(m)


def cases(bottom: bool):
    for n, (client, language, attribution) in enumerate(ATTRIBUTIONS):
        yield pytest.param(client, attribution, MOVES[n % len(MOVES)],
                           id=f"{client}-{language}-{'bottom' if bottom else 'top'}")


@pytest.mark.parametrize("client, attribution, move", [*cases(bottom=False), *cases(bottom=True)])
def test_each_clients_attribution_in_each_language_is_read_past(client, attribution, move, request):
    """Top- and bottom-posted under each attribution: the move is read from the whole mail
    (text part and HTML alternative), from its HTML alone, and with the attribution wrapped
    over two lines as some clients wrap long lines (bottom-posted: the wrapped attribution
    is skipped, not read as the move)."""
    bottom = request.node.callspec.id.endswith("bottom")
    text = plain_reply(move, attribution, bottom)
    assert is_attribution(attribution), attribution
    if client in HTML_CLIENTS:
        page = html_reply(client, move, attribution, bottom)
        assert read_mail(mail(text, page)).first_line == move
        assert read_mail(mail(None, page)).first_line == move, page
    else:
        assert read_mail(mail(text, None)).first_line == move
    if len(attribution) > 40 and " " in attribution:
        wrapped = "\n".join(textwrap.wrap(attribution, width=len(attribution) // 2 + 8))
        assert read_mail(mail(plain_reply(move, wrapped, bottom), None)).first_line == move, wrapped


@pytest.mark.parametrize("client, language, block", OUTLOOK_BLOCKS,
                         ids=[f"{c}-{lang}" for c, lang, _ in OUTLOOK_BLOCKS])
def test_outlooks_header_block_in_each_language_ends_the_writers_text(client, language, block):
    """Outlook's block and the unquoted original under it are never read: the move above
    it is (text and HTML); with nothing above it the mail has no text of the writer's."""
    move = MOVES[len(language) % len(MOVES)]
    assert read_mail(mail(outlook_plain(move, block), outlook_html(move, block, client))).first_line == move
    assert read_mail(mail(None, outlook_html(move, block, client))).first_line == move
    # a line of underscores above the block, as Outlook's text part often has
    assert first_line(f"{move}\n\n{'_' * 32}\n" + "\n".join(block) + "\n\nYour move\n") == move
    # empty replies: only the block and the original (the Spanish one among them)
    assert read_mail(mail(outlook_plain("", block), outlook_html("", block, client))).first_line == ""
    assert read_mail(mail(None, outlook_html("", block, client))).first_line == ""
    assert read_mail(mail(outlook_plain("", block[:2]), None)).first_line == ""  # De:/Enviado el: only


@pytest.mark.parametrize("client, language, attribution", ATTRIBUTIONS,
                         ids=[f"{c}-{lang}" for c, lang, _ in ATTRIBUTIONS])
def test_a_reply_of_only_the_attribution_and_quote_has_no_text_of_the_writers(client, language, attribution):
    assert read_mail(mail(f"{attribution}\n\n{quoted()}", None)).first_line == ""
    assert read_mail(mail(f"\n\n{attribution}\n", None)).first_line == ""  # the attribution alone
    if client in HTML_CLIENTS:
        assert read_mail(mail(None, html_reply(client, "", attribution, bottom=False))).first_line == ""


def test_every_shape_of_the_table_is_met_by_a_sample():
    """No pattern of bot/email/attributions.py is there for nothing: each fits a sample."""
    from bot.email.attributions import _fits, said
    samples = [said(a) for _, _, a in ATTRIBUTIONS]
    samples += [said("Dne so 28. 11. 2026 5:45 uživatel fairypost <bot@fairy.test> napsal:"),
                said("2026년 11월 28일 (토) 오전 5:45, fairypost <bot@fairy.test>님이 작성:"),
                said("Quoting fairypost <bot@fairy.test>:"),
                said("fairypost <bot@fairy.test> написал(а):")]
    for shape in SHAPES:
        assert any(s is not None and _fits(shape, s) for s in samples), shape


@pytest.mark.parametrize("attribution", [
    "Le robot nous a dit le 28/11 :",  # no client's, in no table: above a quote, an attribution
    "Der Schachbot meinte am Samstag:",
    "ボットより：",
])
def test_an_unknown_attribution_above_a_quote_is_one(attribution):
    """The fallback: a line ending in a colon right above a quoted block. Bottom-posted
    under it, the writer's line is found below the quote (the issue's "That is too long to
    be a move (65 characters)"); wrapped inside an address, both halves are skipped."""
    assert not is_attribution(attribution)
    assert first_line(f"{attribution}\n{quoted()}\nNf3\n") == "Nf3"
    assert first_line(f"{attribution}\n\n{quoted()}\n\nNf3\n") == "Nf3"
    assert first_line("Ein Bot namens fairypost <bot@fairy.\ntest> meinte:\n> e4\n\ne5\n") == "e5"


def test_the_fallback_needs_the_quote_right_under_it():
    """A line ending in a colon that is not above a quote is the writer's, whatever follows."""
    assert first_line("My move:\nNf3\n> e4\n") == "My move:"
    assert first_line("e4\nLe robot nous a dit :\n> e4\n") == "e4"  # top-posted: the move first


def test_inline_and_nested_quotes_are_still_read():
    assert first_line("On Sat, Nov 28, 2026 at 5:45 AM Ann <a@b> wrote:\n> > old\n> Your move\nd4\n") == "d4"
    assert first_line("> Your move\nc4\n> Reply with your move\n") == "c4"
