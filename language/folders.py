"""Where the catalogs are: a folder per language under ``locales/``, each one ``.po`` file
(and the ``.mo`` the build compiles from it)."""

from __future__ import annotations

from pathlib import Path

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "fairypost"


def catalog_path(code: str, suffix: str = ".po") -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def _codes() -> tuple[str, ...]:
    found = sorted(p.name for p in LOCALES.iterdir() if catalog_path(p.name).is_file()) if LOCALES.is_dir() else []
    return ("en", *(c for c in found if c != "en"))


#: Every language a player may choose: English, then a code per folder under locales/.
LANGUAGES: tuple[str, ...] = _codes()
