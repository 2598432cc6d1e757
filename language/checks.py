"""The catalogs' upkeep, shared by ``python -m language`` and the tests: the template made
from the code, and what is wrong with a language's catalog (missing, stale or fuzzy entries,
placeholders that differ from the original, markup a translation brought in, plural forms)."""

from __future__ import annotations

import contextlib
import io
import re
import sys
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from .folders import DOMAIN, LANGUAGES, catalog_path

ROOT = Path(__file__).resolve().parents[1]
MAPPING = Path(__file__).resolve().parent / "babel.cfg"
#: the functions whose first argument (and second, for plurals) is a message id
KEYWORDS = {"T": None, "Tn": (1, 2), "tr": None, "trn": (1, 2), "locale_str": None}
_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)?[^{}]*\}(?!\})")
#: characters that mean something in one of the markups (Discord's, HTML): a translation
#: may use one only where its original does
MARKUP_CHARS = set("<>&*_`|~[]#")
#: a game's or a challenge's number, "#{id}": what players type back, the same in every language
_NUMBERED = re.compile(r"#\{(\w+)\}")


def _method_map_and_options():
    from babel.messages.frontend import parse_mapping_cfg
    with MAPPING.open() as f:
        return parse_mapping_cfg(f)


@cache
def template() -> Catalog:
    """Every message id in the code and the data, as Babel extracts them."""
    method_map, options_map = _method_map_and_options()
    catalog = Catalog(domain=DOMAIN, project="fairypost", charset="utf-8")
    said = io.StringIO()
    with contextlib.redirect_stderr(said):  # Babel warns of f-strings given as *values*: not ids
        found = list(extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS,
                                      comment_tags=("Translators:",), strip_comment_tags=True))
    for line in said.getvalue().splitlines():
        if "Skipping f-string" not in line:
            print(line, file=sys.stderr)
    for filename, lineno, message, comments, context in found:
        if isinstance(message, tuple) and not message[0]:
            continue
        if not message:
            continue
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read_catalog(code: str) -> Catalog:
    with catalog_path(code).open("rb") as f:
        return read_po(f, locale=code, domain=DOMAIN)


def placeholders(text: str) -> set[str]:
    return {m.group(1) or "" for m in _PLACEHOLDER.finditer(text)}


def problems(code: str, template_catalog: Catalog | None = None, catalog: Catalog | None = None) -> list[str]:
    """What is wrong with a language's catalog (``catalog``, else its file); nothing means
    complete and current."""
    template_catalog = template_catalog or template()
    catalog = catalog if catalog is not None else read_catalog(code)
    found: list[str] = []
    wanted = {m.id if isinstance(m.id, str) else m.id[0]: m for m in template_catalog if m.id}
    have = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    for key, message in wanted.items():
        entry = have.get(key)
        if entry is None:
            found.append(f"{code}: missing: {key!r}")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy or not all(strings):
            found.append(f"{code}: not translated{' (fuzzy)' if entry.fuzzy else ''}: {key!r}")
            continue
        if isinstance(message.id, tuple) != isinstance(entry.id, tuple):
            found.append(f"{code}: plural forms differ from the code's: {key!r}")
            continue
        originals = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = set().union(*(placeholders(o) for o in originals))
        for s in strings:
            got = placeholders(s)
            if got - expected or (expected - got) - {"n"} or (len(strings) == 1 and expected - got):
                found.append(f"{code}: placeholders {sorted(got)} differ from the original's {sorted(expected)}: "
                             f"{key!r} -> {s!r}")
            numbered = {m.group(1) for o in originals for m in _NUMBERED.finditer(o)}
            if numbered - {m.group(1) for m in _NUMBERED.finditer(s)}:
                found.append(f"{code}: a number written #{{...}} in the original must be so in the translation "
                             f"(players type it so): {key!r} -> {s!r}")
            brought = (set(s) & MARKUP_CHARS) - set("".join(originals))
            if brought:
                found.append(f"{code}: markup characters {''.join(sorted(brought))!r} not in the original: {key!r}")
        if isinstance(entry.id, tuple) and len(strings) != catalog.num_plurals:
            found.append(f"{code}: {len(strings)} plural forms, the language has {catalog.num_plurals}: {key!r}")
    for key in have:
        if key not in wanted:
            found.append(f"{code}: stale (no longer in the code): {key!r}")
    return found


def languages() -> list[str]:
    return [c for c in LANGUAGES if c != "en"]
