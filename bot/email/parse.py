"""Reading a mail: who sent it, to which of the bot's addresses, its first line (quoted text,
signatures and HTML taken away), its threading headers, and whether it is a bounce."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

_REPLY_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv|antw)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
# a reply's attribution line: "On Tue, 3 Dec 2024, Ann <ann@x> wrote:", "Le ... a écrit :"
_ATTRIBUTION = re.compile(r"^(on\b.*\bwrote|le\b.*\ba écrit|am\b.*\bschrieb)\s*:?\s*$", re.IGNORECASE)
_ORIGINAL = re.compile(r"^-{2,}\s*(original message|forwarded message)", re.IGNORECASE)


@dataclass(frozen=True)
class Bounce:
    recipient: str  # the address that could not be reached
    permanent: bool  # a 5.x.x status: a hard bounce


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
    automatic: bool  # an auto-reply or a list's mail: never answered


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
    auto = (str(msg.get("Auto-Submitted", "no")).strip().lower() not in ("", "no")
            or str(msg.get("Precedence", "")).strip().lower() in ("bulk", "list", "junk")
            or msg.get("List-Id") is not None)
    return Incoming(key=_key(msg, raw), sender=sender.strip().lower(), recipients=recipients,
                    subject=subject, first_line=first_line(own_text(msg)), message_id=mid,
                    references=refs, bounce=_bounce(msg), automatic=auto)


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
    """The first line the writer wrote: not quoted (``>``), not above a signature (``-- ``)
    or an attribution ("On ... wrote:"), not blank."""
    for line in text.replace("\r\n", "\n").split("\n"):
        stripped = line.strip()
        if line.rstrip() == "--" or _ATTRIBUTION.match(stripped) or _ORIGINAL.match(stripped):
            return ""
        if not stripped or stripped.startswith(">"):
            continue
        return " ".join(stripped.split())
    return ""


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


def _bounce(msg) -> Bounce | None:
    """A delivery status notification (RFC 3464) about a failed recipient, or None."""
    if msg.get_content_type() != "multipart/report":
        return None
    if str(msg.get_param("report-type", "")).lower() != "delivery-status":
        return None
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        text = _status_text(part)
        recipient = _field(text, "Final-Recipient") or _field(text, "Original-Recipient")
        status = _field(text, "Status") or ""
        if recipient:
            addr = recipient.split(";", 1)[-1].strip().strip("<>").lower()
            return Bounce(addr, status.strip().startswith("5"))
    return None


def _status_text(part) -> str:
    payload = part.get_payload()
    if isinstance(payload, list):  # parsed as a list of header blocks
        return "\n".join(str(p) for p in payload)
    return str(payload)


def _field(text: str, name: str) -> str | None:
    m = re.search(rf"^{name}\s*:\s*(.+)$", text, re.IGNORECASE | re.MULTILINE)
    return m.group(1).strip() if m else None
