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
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

_REPLY_PREFIX = re.compile(r"^\s*((re|fwd?|aw|wg|sv|antw|r|tr|rif|odp|vs)\s*(\[\d+\])?\s*:\s*)+",
                           re.IGNORECASE)
# a reply's attribution line, as mail programs write it in their users' languages: "On Tue,
# 3 Dec 2024, Ann <ann@x> wrote:", "Le ... a écrit :", "Am ... schrieb Ann <ann@x>:", "El
# ... escribió:", "Il ... ha scritto:", "Op ... schreef ...:", "Em ... escreveu:", "Den
# ... skrev ...:", "W dniu ... pisze:", "... написал(а):"
_ATTRIBUTION = re.compile(
    r"^(on\b.*\bwrote|le\b.*\ba écrit|am\b.*\bschrieb\b.*|el\b.*\bescribió|il\b.*\bha scritto"
    r"|op\b.*\bschreef\b.*|em\b.*\bescreveu|den\b.*\bskrev\b.*|w dniu\b.*\b(pisze|napisał\S*)"
    r"|.*\bнаписал\S*)\s*:\s*$", re.IGNORECASE)
# where an unquoted copy of the original begins
_ORIGINAL = re.compile(r"^(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|"
                       r"message d'origine|mensaje original|messaggio originale)|_{10,}\s*$)",
                       re.IGNORECASE)
# Outlook's block: "From: ..." then "Sent: ..." (or Date), in English, German, French, ...
_HEADER_FROM = re.compile(r"^\*?(from|von|de|da|van|från|od)\s*:\*?\s", re.IGNORECASE)
_HEADER_SENT = re.compile(r"^\*?(sent|date|gesendet|datum|envoyé|date d'envoi|enviado|fecha|inviato|"
                          r"verzonden|skickat|wysłano)\s*:", re.IGNORECASE)
# a phone's or webmail's signature line
_SIGNATURE = re.compile(r"^(sent from my\b|sent from (outlook|mail|yahoo)|get outlook for\b|"
                        r"envoyé de mon\b|von meinem\b.*gesendet|enviado desde mi\b|"
                        r"inviato da\b|sent with proton mail)", re.IGNORECASE)
# what autoresponders put in the subject when they set no header (old Exchange, some webmail)
_AUTO_SUBJECT = re.compile(r"^(auto(matic)? ?(reply|response|antwort)|out of (the )?office|"
                           r"abwesenheitsnotiz|réponse automatique|respuesta automática|"
                           r"risposta automatica|autosvar|vacation reply)\b", re.IGNORECASE)
_AUTO_PRECEDENCE = ("bulk", "junk", "list", "auto_reply")


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


def mail_key(raw: bytes) -> str:
    msg = message_from_bytes(raw, policy=policy.default)
    return _key(msg, raw)


def _key(msg, raw: bytes) -> str:
    mid = (msg.get("Message-ID") or "").strip()
    return mid if mid else "sha256:" + hashlib.sha256(raw).hexdigest()


def read_mail(raw: bytes) -> Incoming:
    msg: EmailMessage = message_from_bytes(raw, policy=policy.default)  # type: ignore[assignment]
    _name, sender = parseaddr(str(msg.get("From", "")))
    recipients = tuple(a.lower() for _n, a in getaddresses(
        [str(v) for h in ("To", "Cc", "Delivered-To", "X-Original-To") for v in msg.get_all(h, [])])
        if a)
    subject = _REPLY_PREFIX.sub("", str(msg.get("Subject", "")).strip()).strip()
    mid = (msg.get("Message-ID") or "").strip() or None
    refs = tuple(str(msg.get("References", "")).split())
    null_sender = any(str(v).strip() == "<>" for v in msg.get_all("Return-Path", []))
    return Incoming(key=_key(msg, raw), sender=sender.strip().lower(), recipients=recipients,
                    subject=subject, first_line=first_line(own_text(msg)), message_id=mid,
                    references=refs, bounce=_bounce(msg, null_sender),
                    automatic=automatic(msg, null_sender), null_sender=null_sender)


def automatic(msg, null_sender: bool = False) -> str | None:
    """Why a machine wrote this mail (None: a person did). RFC 3834's Auto-Submitted, and
    what autoresponders and lists send instead: X-Autoreply, X-Autorespond, Precedence,
    List-Id, the null sender, a delivery report, an out-of-office subject."""
    auto_submitted = str(msg.get("Auto-Submitted", "")).strip().lower()
    if auto_submitted and auto_submitted != "no":
        return f"Auto-Submitted: {auto_submitted}"
    for header in ("X-Autoreply", "X-Autorespond", "X-Autogenerated", "X-Auto-Reply"):
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
    if _AUTO_SUBJECT.match(str(msg.get("Subject", "")).strip()):
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
    """The first line the writer wrote: not blank, not quoted (``>``), not an attribution
    ("On ... wrote:", in several languages, also wrapped over two lines), and found before a
    signature (``-- ``, "Sent from my iPhone") or an unquoted copy of the original (Outlook's
    "-----Original Message-----" or From/Sent block; an attribution with no ``>`` lines
    after it)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    i = 0
    while i < len(lines):
        stripped = lines[i].strip().replace("\u00a0", " ")
        if not stripped or stripped.startswith(">"):
            i += 1
            continue
        if lines[i] == "--" or _ORIGINAL.match(stripped) or _SIGNATURE.match(stripped):
            return ""
        if _HEADER_FROM.match(stripped) and any(_HEADER_SENT.match(n.strip()) for n in lines[i + 1:i + 3]):
            return ""
        attribution = next((n for n in (1, 2, 3) if _is_attribution(lines[i:i + n])), None)
        if attribution:
            i += attribution
            after = next((x.strip() for x in lines[i:] if x.strip()), "")
            if not after.startswith(">"):
                return ""  # the original follows unquoted: nothing more of the writer's
            continue
        return " ".join(stripped.split())
    return ""


def _is_attribution(lines: list[str]) -> bool:
    """Whether these lines are one attribution (a long one is wrapped: "On ... <bot@" /
    "example.org> wrote:"); a blank or quoted line is never part of one."""
    if any(not x.strip() or x.lstrip().startswith(">") for x in lines):
        return False
    return bool(_ATTRIBUTION.match(" ".join(x.strip() for x in lines)))


class _HTMLText(HTMLParser):
    _BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "pre"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0  # inside <style>, <script>, <head>, or a quoted <blockquote>

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script", "head", "blockquote"):
            self._skip += 1
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head", "blockquote"):
            self._skip = max(0, self._skip - 1)
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    """Readable text of an HTML body (quoted blockquotes left out)."""
    parser = _HTMLText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


_FAILURE_SUBJECT = re.compile(r"(undeliver|undelivered|delivery (status notification \(failure\)|"
                              r"failure|has failed)|failure notice|returned mail|mail delivery "
                              r"failed|non remis|unzustellbar|nicht zustellbar)", re.IGNORECASE)


def _bounce(msg, null_sender: bool = False) -> Bounce | None:
    """A delivery status notification (RFC 3464) about a failed recipient; or, from the null
    sender, a plain-text failure notice (an MTA that writes no report: a permanent failure,
    of an unnamed recipient); else None."""
    if msg.get_content_type() != "multipart/report" \
            or str(msg.get_param("report-type", "")).lower() != "delivery-status":
        if null_sender and _FAILURE_SUBJECT.search(str(msg.get("Subject", ""))):
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
    m = re.search(rf"^{name}\s*:\s*(.+)$", text, re.IGNORECASE | re.MULTILINE)
    return m.group(1).strip() if m else None
