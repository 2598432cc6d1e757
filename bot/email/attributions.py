"""The lines mail programs write above the text they quote, as data: the attribution ("On
... Ann <ann@x> wrote:") of each common client in each language, and Outlook's header
block ("From: ..." / "Sent: ...") with its translations. ``parse.first_line`` skips them to
find the writer's own text.

Every shape is read with string methods and at most one regular expression anchored at the
line's start with bounded repeats only (a date's digits), so each check takes time linear in
the line, whatever the line is (the text comes from anyone: tests/robustness/
test_attribution_shapes.py and test_pathological_inputs.py hold them to 50 ms of CPU on
100 KB of hostile shapes). Samples of each are in tests/email/test_reply_clients.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

END, WORD = "end", "word"  # where the verb stands: last, or a word anywhere after the start
ADDRESS = "<address>"  # the "verb" of a line that ends in an address: "... Ann <ann@x>"


@dataclass(frozen=True)
class Shape:
    """One client's attribution in one language, as it reads lower-cased, its spaces made
    one and its final colon (``:``, ``：``, `` :``) taken off."""
    clients: str
    language: str
    start: str  # a pattern the line begins with ("" any), bounded: no * or + in it
    verbs: tuple[str, ...]  # one of these stands where ``at`` says
    at: str = END

    def __post_init__(self) -> None:
        assert "*" not in self.start.replace(r"\*", "") and "+" not in self.start, self.start


# The shapes, one line per client and language (examples of each in the tests). A verb of
# Latin letters must stand as a word; a Chinese or Japanese one may follow any character.
SHAPES: tuple[Shape, ...] = (
    # "On Sat, Nov 28, 2026 at 5:45 AM Ann <a@b> wrote:" (Gmail), "On 28 Nov 2026, at 05:45,
    # Ann <a@b> wrote:" (Apple Mail), "On 11/28/26 05:45, Ann wrote:" (Thunderbird), Outlook
    # on phones, Yahoo, Mutt's default, and plain "Ann wrote:"; slrn and others: "Ann writes:"
    Shape("Gmail, Apple Mail, Thunderbird, Outlook mobile, Yahoo, Mutt", "English", "",
          ("wrote", "writes")),
    # Mutt's "* Ann <a@b> [2026-11-28 05:58 +0000]:"
    Shape("Mutt", "any", r"\* ", ("]",)),
    # Horde/IMP: "Quoting Ann <a@b>:"
    Shape("Horde", "English", r"quoting\b", ("",)),
    # "Le sam. 28 nov. 2026 à 05:45, Ann <a@b> a écrit :"
    Shape("Gmail, Apple Mail, Thunderbird", "French", "", ("a écrit",)),
    # "Am Sa., 28. Nov. 2026 um 05:45 Uhr schrieb Ann <a@b>:" (Gmail, Apple, Thunderbird)
    Shape("Gmail, Apple Mail, Thunderbird", "German", r"am\b", ("schrieb",), WORD),
    # Gmail on Android: "Ann <a@b> schrieb am Sa., 28. Nov. 2026, 05:58:"
    Shape("Gmail Android", "German", "", ("schrieb am",), WORD),
    # "Ann <a@b> hat am 28.11.2026 um 05:45 geschrieben:"
    Shape("GMX, web.de", "German", "", ("geschrieben",)),
    # "El sáb, 28 nov 2026 a las 5:45, Ann (<a@b>) escribió:"
    Shape("Gmail, Apple Mail, Thunderbird", "Spanish", "", ("escribió",)),
    # "Il giorno sab 28 nov 2026 alle ore 05:45 Ann <a@b> ha scritto:"
    Shape("Gmail, Apple Mail, Thunderbird", "Italian", "", ("ha scritto",)),
    # "Em sáb., 28 de nov. de 2026 às 05:45, Ann <a@b> escreveu:"
    Shape("Gmail, Apple Mail, Thunderbird", "Portuguese", "", ("escreveu",)),
    # "Op za 28 nov 2026 om 05:45 schreef Ann <a@b>:"; Android "Ann <a@b> schreef op ...:"
    Shape("Gmail, Thunderbird", "Dutch", r"op\b", ("schreef",), WORD),
    Shape("Gmail Android", "Dutch", "", ("schreef op",), WORD),
    # Apple Mail: "Op 28 nov. 2026 om 05:45 heeft Ann <a@b> het volgende geschreven:"
    Shape("Apple Mail", "Dutch", "", ("het volgende geschreven",)),
    # Gmail: "sob., 28 lis 2026 o 05:45 Ann <a@b> napisał(a):"; Thunderbird: "W dniu
    # 28.11.2026 o 05:45, Ann pisze:"; Apple Mail: "Wiadomość napisana przez Ann <a@b> w
    # dniu 28.11.2026, o godz. 05:45:"
    Shape("Gmail, Outlook mobile", "Polish", "", ("napisał(a)", "napisała", "napisał", "nadesłał")),
    Shape("Thunderbird", "Polish", "", ("pisze",)),
    Shape("Apple Mail", "Polish", r"wiadomość napisana przez\b", ("",)),
    # "Den lör 28 nov. 2026 kl 05:45 skrev Ann <a@b>:" (Gmail); "28 nov. 2026 kl. 05:45
    # skrev Ann <a@b>:" (Apple Mail)
    Shape("Gmail, Apple Mail, Thunderbird", "Swedish", "", ("skrev",), WORD),
    # Gmail: "2026年11月28日(土) 5:47 Ann <a@b>:"; Apple Mail: "2026/11/28 5:45、Ann
    # <a@b>のメール:"; Thunderbird: "2026/11/28 5:45 に Ann さんは書きました:"
    Shape("Gmail", "Japanese", r"\d{4}年 ?\d{1,2}月 ?\d{1,2}日", (ADDRESS,)),
    Shape("Apple Mail", "Japanese", "", ("のメール",)),
    Shape("Thunderbird", "Japanese", "", ("書きました",)),
    # Gmail: "Ann <a@b> 于2026年11月28日周六 05:45写道：" (in Taiwan "於 ... 寫道："); Apple
    # Mail: "2026年11月28日 05:45，Ann <a@b> 写道："; Thunderbird: "在 2026/11/28 05:45, Ann 写道:"
    Shape("Gmail, Apple Mail, Thunderbird", "Chinese", "", ("写道", "寫道")),
    # Gmail in Russian (and Korean, ...): "сб, 28 нояб. 2026 г. в 05:45, Ann <a@b>:" -- a
    # date, then the address: a line ending in an address and a colon is no one's sentence
    Shape("Gmail", "Russian, Korean and others", r"[^\s:]{1,12}\s?\d", (ADDRESS,)),
    # Thunderbird: "28.11.2026 05:45, Ann пишет:"; others: "Ann написал(а):"
    Shape("Thunderbird", "Russian", "", ("пишет",)),
    Shape("Outlook mobile, Yandex", "Russian", "", ("написал(а)", "написала", "написал")),
    # Gmail in Czech: "Dne so 28. 11. 2026 5:45 uživatel Ann <a@b> napsal:"; in Korean:
    # "2026년 11월 28일 (토) 오전 5:45, Ann <a@b>님이 작성:"
    Shape("Gmail", "Czech", "", ("napsal(a)", "napsala", "napsal")),
    Shape("Gmail", "Korean", "", ("님이 작성", "님이 작성하였습니다", "작성")),
)

# Outlook (desktop, on the web, on phones) writes no attribution: a block of the original's
# headers, "From: Ann <a@b>" then "Sent: Saturday, ..." (or "Date:"), To, Subject, and the
# original unquoted under it. Its labels in each language, lower-cased, without the colon.
HEADER_FROM = frozenset({
    "from",  # English
    "de",  # French, Spanish, Portuguese
    "von",  # German
    "da",  # Italian
    "van",  # Dutch
    "od",  # Polish
    "från",  # Swedish
    "差出人",  # Japanese
    "发件人", "寄件者", "寄件人",  # Chinese (simplified, traditional)
    "от",  # Russian
})
HEADER_SENT = frozenset({
    "sent", "date",  # English (Outlook for Mac and the new Outlook write Date)
    "envoyé", "date d'envoi",  # French
    "enviado", "enviado el", "enviada em", "enviado em", "fecha",  # Spanish, Portuguese
    "gesendet", "datum",  # German, Dutch, Swedish
    "inviato", "data",  # Italian, Polish, Portuguese
    "verzonden", "verzonden op",  # Dutch
    "wysłano", "wysłane",  # Polish
    "skickat", "skickades",  # Swedish
    "送信日時", "日付",  # Japanese
    "发送时间", "日期", "寄件日期", "傳送時間",  # Chinese
    "отправлено", "дата",  # Russian
})

_COLONS = (":", "\uff1a")  # and the full-width colon of Chinese and Japanese
_STARTS = {shape.start: re.compile(shape.start) for shape in SHAPES if shape.start}
_CJK_FIRST = 0x2E80  # a verb from here on (CJK) needs no word boundary before it
# a verb that may stand anywhere, as a word: a literal between two look-arounds of one
# character each (the engine tries each position once: linear)
_WORDS = {verb: re.compile((r"(?<!\w)" if ord(verb[0]) < _CJK_FIRST else "") + re.escape(verb) + r"(?!\w)")
          for shape in SHAPES if shape.at == WORD for verb in shape.verbs}


def said(text: str) -> str | None:
    """The words of a line before its final colon, lower-cased, spaces made one; None when
    it does not end in a colon (no attribution does not)."""
    if not text.rstrip().endswith(_COLONS):  # most lines: looked at no further
        return None
    text = " ".join(text.replace("\u00a0", " ").split()).lower()
    return text[:-1].rstrip()


def is_attribution(text: str) -> bool:
    """Whether ``text`` (one line, or a wrapped one joined) is a known attribution."""
    words = said(text)
    return words is not None and any(_fits(shape, words) for shape in SHAPES)


def _fits(shape: Shape, words: str) -> bool:
    rest = words
    if shape.start:
        begun = _STARTS[shape.start].match(words)
        if begun is None:
            return False
        rest = words[begun.end():]
    return any((_ends_with(rest, verb) if shape.at == END else _has_word(rest, verb))
               for verb in shape.verbs)


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _bounded_before(text: str, at: int, verb: str) -> bool:
    return at == 0 or ord(verb[0]) >= _CJK_FIRST or not _word_char(verb[0]) \
        or not _word_char(text[at - 1])


def _ends_with(text: str, verb: str) -> bool:
    if verb == ADDRESS:
        return ends_with_address(text)
    if not verb:
        return True
    return text.endswith(verb) and _bounded_before(text, len(text) - len(verb), verb)


def _has_word(text: str, verb: str) -> bool:
    return _WORDS[verb].search(text) is not None


def ends_with_address(text: str) -> bool:
    """Whether ``text`` ends in ``<local@domain>`` (a mail address, as programs write it)."""
    if not text.endswith(">"):
        return False
    opened = text.rfind("<")
    address = text[opened + 1:-1]
    return opened >= 0 and "@" in address and not any(ch.isspace() for ch in address) \
        and 3 <= len(address) <= 320


def header_label(line: str) -> str | None:
    """The label of a header line of Outlook's block ("From: Ann", "*Von:* Ann", "De : Ann",
    "差出人: Ann"), lower-cased; None when the line has no colon in its first 30 characters."""
    head = line.strip().replace("\u00a0", " ")[:32].lstrip("*").lower()
    cut = min((at for at in (head.find(c) for c in _COLONS) if at >= 0), default=-1)
    if cut < 0 or cut > 30:
        return None
    return " ".join(head[:cut].strip(" *").split())


def starts_header_block(line: str, following: list[str]) -> bool:
    """Whether ``line`` is the From line of Outlook's block: one of ``following`` (the next
    two lines) is its Sent (or Date) line."""
    if header_label(line) not in HEADER_FROM:
        return False
    return any(header_label(n) in HEADER_SENT for n in following)
