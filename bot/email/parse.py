"""Reading a mail: who sent it, to which of the bot's addresses, its first line (quoted text,
signatures and HTML taken away), its threading headers, whether it is a bounce, and whether
a machine wrote it (never answered: RFC 3834's ``Auto-Submitted``, and what real
autoresponders and lists send instead).

The writer's own first line, as people write replies: above the quote (top-posting), below
it (bottom-posting: an attribution such as "On ... wrote:" and quoted ``>`` lines first) or
between quoted lines (inline). What starts an unquoted copy of the original (Outlook's
"-----Original Message-----" or its From/Sent block, a line of underscores, an attribution
not followed by ``>`` lines) and signatures (``-- ``, "Sent from my iPhone") end the search."""

from __future__ import annotations

import hashlib
import html as html_lib
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.policy import EmailPolicy

from language import from_content_language

from .attributions import is_attribution, said, starts_header_block

# What a pattern here may see (text from outside, so bounded before it is matched; every
# pattern is anchored, and none has two unbounded repeats that can match the same text, so
# each runs in time linear in what it sees):
MAX_LINE_CHARS = 998  # one line of a body (RFC 5322's line limit); a longer one is cut there
MAX_TEXT_CHARS = 256_000  # the body's text searched for the writer's line (plain or HTML)
MAX_ATTRIBUTIONS = 20  # unquoted attributions, each before its quote, read before giving up
MAX_HEADER_CHARS = 8000  # one header as written (folded): a To with a hundred addresses fits
MAX_BLANK_LINES = 20  # blank lines looked through between an attribution and its quote

# one reply prefix ("Re:", "AW: ", "Fwd[2]:"), matched again after each one it took
_REPLY_PREFIX = re.compile(r"(?:re|fwd?|aw|wg|sv|antw|r|tr|rif|odp|vs)[ \t]{0,8}(?:\[\d{1,9}\])?"
                           r"[ \t]{0,8}:\s*", re.IGNORECASE)
# where an unquoted copy of the original begins
_ORIGINAL = re.compile(r"^(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|"
                       r"message d'origine|mensaje original|messaggio originale|mensagem original|"
                       r"oorspronkelijk bericht|oryginalna wiadomość|originalmeddelande|"
                       r"ursprungligt meddelande|weitergeleitete nachricht|message transféré|"
                       r"mensaje reenviado|messaggio inoltrato|原始邮件|原始郵件|元のメッセージ)|_{10,}\s*$)",
                       re.IGNORECASE)
# a phone's or webmail's signature line
_SIGNATURE = re.compile(r"^(sent from my\b|sent from (outlook|mail|yahoo)|get outlook for\b|"
                        r"envoyé de mon\b|von meinem\b.*gesendet|enviado desde mi\b|"
                        r"inviato da\b|sent with proton mail|wysłano z\b|skickat från min\b|"
                        r"verzonden (vanaf|met) mijn\b|verstuurd vanaf mijn\b|enviado do meu\b|"
                        r"iphoneから送信|从我的|發自我的|寄件者為我的)", re.IGNORECASE)
# what autoresponders put in the subject when they set no header (old Exchange, some webmail)
_AUTO_SUBJECT = re.compile(r"^(auto(matic)? ?(reply|response|antwort)|automatische antwort|"
                           r"out of (the )?office|"
                           r"abwesenheitsnotiz|réponse automatique|respuesta automática|"
                           r"risposta automatica|autosvar|vacation reply)\b", re.IGNORECASE)
_AUTO_PRECEDENCE = ("bulk", "junk", "list", "auto_reply")


# the headers holding addresses or parameters, whose comments, "(...)", are taken out
_STRUCTURED = {"from", "to", "cc", "bcc", "sender", "reply-to", "delivered-to", "x-original-to",
               "return-path", "content-type", "content-disposition", "content-transfer-encoding",
               "mime-version", "message-id", "references", "in-reply-to"}


_RAW_BYTES = re.compile("[\udc80-\udcff]")  # how the parser keeps a header's 8-bit bytes


class _BoundedPolicy(EmailPolicy):
    """``email.policy.default`` (an ``EmailMessage``: its parts, get_body, get_content), but
    each header (of the mail and of its parts) read as its plain text, cut at
    ``MAX_HEADER_CHARS`` (Content-Type and -Disposition at ``MAX_LINE_CHARS``), a structured
    one without its comments: Python's own header parser takes time quadratic in a
    header's quoted strings or comments (8 KB of ``"``: 2.7 s), and raises on some
    (IndexError, RecursionError). Addresses are read by ``addresses``, parameters by
    Message.get_param, encoded words by ``decoded``."""

    def header_fetch_parse(self, name, value):
        value = value[:MAX_HEADER_CHARS].replace("\r", "").replace("\n", "")
        if _RAW_BYTES.search(value):  # 8-bit bytes in a header: UTF-8, else replaced
            value = value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
        if name.lower() in _STRUCTURED and "(" in value:
            value = without_comments(value)
        if name.lower() in ("content-type", "content-disposition"):
            return _Parameters(_readable_parameters(value[:MAX_LINE_CHARS]))
        return value


class _Parameters(str):
    """A Content-Type or Content-Disposition as its text, and what EmailMessage.is_attachment
    asks of the parsed header it expects."""

    @property
    def content_disposition(self) -> str:
        return self.split(";", 1)[0].strip().lower()


def _readable_parameters(value: str) -> str:
    """The value, or its first word alone when Python cannot read its parameters (RFC 2231's
    ``name*0=`` beside ``name*=`` raises TypeError in email.utils.decode_params)."""
    probe = Message()
    probe["Content-Type"] = value
    try:
        probe.get_params()
    except (TypeError, ValueError, IndexError, LookupError, UnicodeError):
        return value.split(";", 1)[0]
    return value


def addresses(value: str) -> list[str]:
    """The addresses of an address header (its comments taken out), in order: each
    ``<angle-addr>``, else each item's word with an ``@`` ("ann@x", "Ann <ann@x>", a group
    "Friends: a@x, b@x;"); quoted display names are skipped. One pass over the text
    (email.utils recurses once per ``:`` and raises RecursionError at a few hundred)."""
    found: list[str] = []
    item: list[str] = []  # the current item's text outside quotes and angle brackets
    angle: list[str] | None = None  # inside <...>
    quoted = escaped = False
    took = False  # the item had an angle address

    def end_item() -> None:
        nonlocal took
        words = "".join(item).split()
        if not took and words and "@" in words[-1]:
            found.append(words[-1])
        item.clear()
        took = False

    for ch in value:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif quoted:
            quoted = ch != '"'
        elif angle is not None:
            if ch == ">":
                found.append("".join(angle).strip())
                angle, took = None, True
            else:
                angle.append(ch)
        elif ch == '"':
            quoted = True
        elif ch == "<":
            angle = []
        elif ch in ",;:":
            end_item()
        else:
            item.append(ch)
    end_item()
    return [a for a in found if a]


def decoded(value: str) -> str:
    """A header's text with its encoded words (``=?utf-8?q?...?=``) decoded."""
    if "=?" not in value:
        return value
    try:
        return str(make_header(decode_header(value[:MAX_LINE_CHARS])))
    except (LookupError, UnicodeError, ValueError, HeaderParseError):
        return value


def without_comments(value: str) -> str:
    """A structured header's value without its comments (RFC 5322's "(...)", nested, with
    ``\\`` escapes; a quoted string's "(" is no comment); an unclosed one runs to the end."""
    out: list[str] = []
    depth, quoted, at = 0, False, 0
    while at < len(value):
        ch = value[at]
        if ch == "\\":
            if not depth:
                out.append(value[at:at + 2])
            at += 2
            continue
        if depth:
            depth += 1 if ch == "(" else -1 if ch == ")" else 0
            if not depth:
                out.append(" ")
        elif quoted or ch != "(":
            quoted = quoted != (ch == '"')
            out.append(ch)
        else:
            depth = 1
        at += 1
    return "".join(out)


BOUNDED = _BoundedPolicy()


@dataclass(frozen=True)
class Bounce:
    recipient: str  # the address that could not be reached (as the report says; "": unsaid)
    permanent: bool  # a 5.x.x status: a hard bounce
    original: str = ""  # the address as first given (Original-Recipient), if said


@dataclass(frozen=True)
class Incoming:
    key: str  # the Message-ID, else a hash of the mail: what "the same mail" means
    sender: str  # the From address, lower case
    recipients: tuple[str, ...]  # To, Cc, Delivered-To, X-Original-To
    subject: str  # without Re:/Fwd:
    first_line: str  # the body's first line of text that is the writer's own ("" if none)
    message_id: str | None
    references: tuple[str, ...]
    bounce: Bounce | None
    automatic: str | None  # why a machine wrote it (an auto-reply, a list): never answered
    null_sender: bool = False  # Return-Path: <> (bounces and auto-replies come so)
    content_language: str | None = None  # the language the mail says it is in (a supported code)

    @property
    def read_line(self) -> str:
        """The line the bot reads as the mail's move or command: the body's first line of
        the writer's own, else the subject, unless the subject is the bot's own (an empty
        reply's "Re: fairypost game 1: ..." is nothing of the writer's: "")."""
        if self.first_line:
            return self.first_line
        return "" if self.subject.lower().startswith(BOT_SUBJECT_PREFIX) else self.subject


BOT_SUBJECT_PREFIX = "fairypost"  # how every subject the bot writes begins (compose, notices)


def mail_key(raw: bytes) -> str:
    msg = message_from_bytes(raw, policy=BOUNDED)
    return _key(msg, raw)


def _key(msg, raw: bytes) -> str:
    mid = (msg.get("Message-ID") or "").strip()
    return mid if mid else "sha256:" + hashlib.sha256(raw).hexdigest()


def read_mail(raw: bytes) -> Incoming:
    msg: EmailMessage = message_from_bytes(raw, policy=BOUNDED)  # type: ignore[assignment]
    sender = next(iter(addresses(str(msg.get("From", "")))), "")
    recipients = tuple(a.lower() for h in ("To", "Cc", "Delivered-To", "X-Original-To")
                       for v in msg.get_all(h, []) for a in addresses(str(v)))
    subject = without_reply_prefixes(decoded(str(msg.get("Subject", ""))))
    mid = (msg.get("Message-ID") or "").strip() or None
    refs = tuple(str(msg.get("References", "")).split())
    null_sender = any(str(v).strip() == "<>" for v in msg.get_all("Return-Path", []))
    return Incoming(key=_key(msg, raw), sender=sender.strip().lower(), recipients=recipients,
                    subject=subject, first_line=first_line(own_text(msg)), message_id=mid,
                    references=refs, bounce=_bounce(msg, null_sender),
                    automatic=automatic(msg, null_sender), null_sender=null_sender,
                    content_language=content_language(msg))


def content_language(msg) -> str | None:
    """The supported language a mail says it is written in: its Content-Language, else
    that of its text part (where Thunderbird and others put it); None if neither says one
    we have."""
    said = str(msg.get("Content-Language", "") or "")
    if not said.strip():
        part = msg.get_body(preferencelist=("plain", "html"))
        said = str(part.get("Content-Language", "") or "") if part is not None else ""
    return from_content_language(said[:MAX_LINE_CHARS]) if said.strip() else None


def without_reply_prefixes(subject: str) -> str:
    """A subject without its "Re:", "AW:", "Fwd:" (however many)."""
    text, at = subject[:MAX_LINE_CHARS].strip(), 0
    while (prefix := _REPLY_PREFIX.match(text, at)) is not None:
        at = prefix.end()
    return text[at:].strip()


def automatic(msg, null_sender: bool = False) -> str | None:
    """Why a machine wrote this mail (None: a person did). RFC 3834's Auto-Submitted, and
    what autoresponders and lists send instead: X-Autoreply, X-Autorespond, Exchange's
    X-Auto-Response-Suppress and X-MS-Exchange-Inbox-Rules-Loop, X-Loop, Precedence,
    List-Id, the null sender, a delivery report, an auto-reply's subject ("Automatic reply",
    "Automatische Antwort", "Réponse automatique", "Out of office", ...)."""
    auto_submitted = str(msg.get("Auto-Submitted", "")).strip().lower()
    if auto_submitted and auto_submitted != "no":
        return f"Auto-Submitted: {auto_submitted}"
    # Exchange's out-of-office marks its replies with the first two (and no Auto-Submitted);
    # procmail's and other filters' replies carry X-Loop
    for header in ("X-Autoreply", "X-Autorespond", "X-Autogenerated", "X-Auto-Reply",
                   "X-Auto-Response-Suppress", "X-MS-Exchange-Inbox-Rules-Loop", "X-Loop"):
        if msg.get(header) is not None:
            return header
    precedence = str(msg.get("Precedence", "")).strip().lower()
    if precedence in _AUTO_PRECEDENCE:
        return f"Precedence: {precedence}"
    for header in ("List-Id", "List-Unsubscribe", "List-Post"):
        if msg.get(header) is not None:
            return header
    if null_sender:
        return "the null sender (Return-Path: <>)"
    if msg.get_content_type() == "multipart/report":
        return "a delivery or read report"
    if _AUTO_SUBJECT.match(decoded(str(msg.get("Subject", ""))).strip()):
        return "an auto-reply's subject"
    return None


def own_text(msg) -> str:
    """The body as text: the plain part, else the HTML part's text."""
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        text = part.get_content()
    except (LookupError, UnicodeError, AssertionError):
        text = part.get_payload(decode=True).decode("utf-8", "replace")
    if part.get_content_type() == "text/html":
        text = html_text(text)
    return text


def first_line(text: str) -> str:
    """The first line the writer wrote: not blank, not quoted (``>``), not an attribution (a
    known client's, bot/email/attributions.py, also wrapped over two or three lines; or any
    line ending in a colon right above a quoted block), and found before a signature
    (``-- ``, "Sent from my iPhone") or an unquoted copy of the original (Outlook's
    "-----Original Message-----" or From/Sent block; an attribution with no ``>`` lines
    after it)."""
    text = text[:MAX_TEXT_CHARS]
    lines = [line[:MAX_LINE_CHARS].rstrip()
             for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    i = attributions = 0
    while i < len(lines):
        stripped = lines[i].strip().replace("\u00a0", " ")
        if not stripped or stripped.startswith(">"):
            i += 1
            continue
        if lines[i] == "--" or _ORIGINAL.match(stripped) or _SIGNATURE.match(stripped):
            return ""
        if starts_header_block(stripped, lines[i + 1:i + 3]):
            return ""
        span = _attribution_span(lines, i)
        if span:
            attributions += 1
            if attributions > MAX_ATTRIBUTIONS:  # no mail program writes these: no reply
                return ""
            i += span
            if not _quote_follows(lines, i):
                return ""  # the original follows unquoted: nothing more of the writer's
            continue
        return " ".join(stripped.split())
    return ""


def _quote_follows(lines: list[str], at: int) -> bool:
    """Whether the first line from ``at`` on that is not blank is quoted (``>``)."""
    return next((line.strip() for line in lines[at:at + MAX_BLANK_LINES] if line.strip()),
                "").startswith(">")


def _attribution_span(lines: list[str], at: int) -> int:
    """How many lines from ``at`` on are an attribution (0: none): a known client's, on one
    line or wrapped over two or three; else a line ending in a colon right above a quoted
    block (an attribution the table does not know), or such a line wrapped inside an
    address ("... Ann <ann@" / "example.org>:")."""
    window: list[str] = []
    for line in lines[at:at + 3]:
        if not line.strip() or line.lstrip().startswith(">"):
            break  # a blank or quoted line is never part of one
        window.append(line.strip())
        if is_attribution(" ".join(window)):
            return len(window)
    for n in range(1, len(window) + 1):
        if said(window[n - 1]) is None or not _quote_follows(lines, at + n):
            continue
        if n == 1 or all(w.count("<") > w.count(">") for w in window[:n - 1]):
            return n
    return 0


# where markup starts: a tag ("<p", "</div"), a comment or declaration ("<!", "<?"); a "<"
# before anything else is text ("a < b")
_MARKUP = re.compile(r"<(?:(/?)([a-zA-Z][a-zA-Z0-9]{0,15})|[!?])")
_SKIPPED = {"style", "script", "head"}  # their text is no one's
_BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "hr"}


def html_text(html: str) -> str:
    """Readable text of an HTML body, a quoted ``<blockquote>``'s lines marked ``>`` as in
    plain text (so a reply written under the quote is found as in plain text). Each
    character is looked at once (html.parser rescans an unclosed tag at each "<":
    quadratic, 40 s for 100 KB)."""
    html = html[:MAX_TEXT_CHARS]
    parts: list[str] = []
    skip = quoted = 0  # inside <style>, <script>, <head>; inside <blockquote>s

    def text(chunk: str) -> None:
        if not skip:
            chunk = html_lib.unescape(chunk)
            parts.append(chunk.replace("\n", "\n> ") if quoted else chunk)

    at = 0
    while (markup := _MARKUP.search(html, at)) is not None:
        text(html[at:markup.start()])
        closing = "-->" if html.startswith("<!--", markup.start()) else ">"
        end = html.find(closing, markup.end())
        if end < 0:  # never closed: the rest is inside it
            at = len(html)
            break
        at = end + len(closing)
        name = (markup.group(2) or "").lower()
        if name in _SKIPPED:
            skip = max(0, skip - 1) if markup.group(1) else skip + 1
        elif name == "blockquote":
            quoted = max(0, quoted - 1) if markup.group(1) else quoted + 1
            text("\n")
        elif name in _BLOCKS:
            text("\n")
    text(html[at:])
    return "".join(parts)


_FAILURE_SUBJECT = re.compile(r"(undeliver|undelivered|delivery (status notification \(failure\)|"
                              r"failure|has failed)|failure notice|returned mail|mail delivery "
                              r"failed|non remis|unzustellbar|nicht zustellbar)", re.IGNORECASE)


def _bounce(msg, null_sender: bool = False) -> Bounce | None:
    """A delivery status notification (RFC 3464) about a failed recipient; or, from the null
    sender, a plain-text failure notice (an MTA that writes no report: a permanent failure,
    of an unnamed recipient); else None."""
    if msg.get_content_type() != "multipart/report" \
            or str(msg.get_param("report-type", "")).lower() != "delivery-status":
        if null_sender and _FAILURE_SUBJECT.search(decoded(str(msg.get("Subject", "")))[:MAX_LINE_CHARS]):
            return Bounce("", True)
        return None
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        text = _status_text(part)
        final, original = (_address(_field(text, f)) for f in ("Final-Recipient", "Original-Recipient"))
        status = _field(text, "Status") or ""
        if final or original:
            return Bounce(final or original, status.strip().startswith("5"), original)
    return None


def _address(field: str | None) -> str:
    """``rfc822; Ann@X.test`` -> ``ann@x.test``."""
    return field.split(";", 1)[-1].strip().strip("<>").lower() if field else ""


def _status_text(part) -> str:
    payload = part.get_payload()
    if isinstance(payload, list):  # parsed as a list of header blocks
        return "\n".join(str(p) for p in payload)
    return str(payload)


def _field(text: str, name: str) -> str | None:
    """A field of a delivery status report ("Status: 5.1.1"), its first line of that name."""
    for line in text[:MAX_TEXT_CHARS].splitlines():
        key, colon, value = line[:MAX_LINE_CHARS].partition(":")
        if colon and key.rstrip().lower() == name.lower() and value.strip():
            return value.strip()
    return None
