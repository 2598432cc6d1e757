"""``python -m language``: the catalogs' upkeep, from a source checkout.

    extract        write locales/fairypost.pot: every message id in the code and the data
    update         bring every language's .po up to the code: new ids added untranslated,
                   ids gone from the code removed
    compile        write each .po's .mo beside it (the build does this too: setup.py)
    check          say what is missing, stale, fuzzy or inconsistent; exit 1 if anything is
    new CODE       start a language: locales/CODE/LC_MESSAGES/fairypost.po from the template
    fill CODE FILE...   copy the translations of .po files (a part of the messages, as a
                   translator hands them in) into CODE's catalog, where the catalog has the id
"""

from __future__ import annotations

import argparse
import sys

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from .checks import languages, problems, read_catalog, template
from .folders import DOMAIN, LOCALES, catalog_path

TEMPLATE = LOCALES / f"{DOMAIN}.pot"


def _write(catalog: Catalog, path, *, locations: bool = False) -> None:
    """A catalog in sorted order and without line numbers, so that a change to the code
    changes a language's file only where its messages changed; the template keeps them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=True, omit_header=False, include_previous=False,
                 no_location=not locations)


def extract() -> Catalog:
    catalog = template()
    _write(catalog, TEMPLATE, locations=True)
    return catalog


def update(codes: list[str]) -> None:
    tmpl = template()
    for code in codes:
        catalog = read_catalog(code)
        catalog.update(tmpl, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _write(catalog, catalog_path(code))


def compile_all(codes: list[str]) -> None:
    for code in codes:
        with catalog_path(code, ".mo").open("wb") as f:
            write_mo(f, read_catalog(code), use_fuzzy=False)


def new(code: str) -> None:
    Locale.parse(code)  # refuses what Babel does not know
    path = catalog_path(code)
    if path.exists():
        raise SystemExit(f"{path} exists already")
    catalog = Catalog(locale=code, domain=DOMAIN, project="fairypost", charset="utf-8")
    catalog.update(template(), no_fuzzy_matching=True)
    catalog.fuzzy = False
    _write(catalog, path)
    print(f"wrote {path}: translate its entries, then `python -m language check`")


def fill(code: str, files: list[str]) -> tuple[int, list[str]]:
    """Copies each translated entry of ``files`` into ``code``'s catalog; returns how many
    were copied and the ids the catalog does not have (extract and update first)."""
    from babel.messages.pofile import read_po
    catalog = read_catalog(code)
    copied, unknown = 0, []
    for name in files:
        with open(name, "rb") as f:
            part = read_po(f, locale=code)
        for message in part:
            if not message.id or not message.string or message.fuzzy:
                continue
            target = catalog.get(message.id, message.context)
            if target is None:
                unknown.append(message.id if isinstance(message.id, str) else message.id[0])
                continue
            target.string = message.string
            target.flags.discard("fuzzy")
            copied += 1
    _write(catalog, catalog_path(code))
    return copied, unknown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m language", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract")
    sub.add_parser("update")
    sub.add_parser("compile")
    sub.add_parser("check")
    new_parser = sub.add_parser("new")
    new_parser.add_argument("code")
    fill_parser = sub.add_parser("fill")
    fill_parser.add_argument("code")
    fill_parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "extract":
        catalog = extract()
        print(f"{TEMPLATE}: {len(catalog)} messages")
    elif args.command == "update":
        update(languages())
    elif args.command == "compile":
        compile_all(languages())
    elif args.command == "new":
        new(args.code)
    elif args.command == "fill":
        copied, unknown = fill(args.code, args.files)
        for key in unknown:
            print(f"not in the catalog (run extract and update first?): {key!r}")
        print(f"{copied} translations copied into {catalog_path(args.code)}")
        return 1 if unknown else 0
    else:
        found = [p for code in languages() for p in problems(code)]
        for p in found:
            print(p)
        print(f"{len(found)} problems in {', '.join(languages())}")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
