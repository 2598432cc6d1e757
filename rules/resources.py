"""Where the shipped data is: game definitions (``variants/``), fonts (``fonts/``).

In the source tree it is ``data/`` beside the packages; installed (``pip install .``, a
wheel, a container) it is the package ``fairypost_data``, which pyproject.toml builds from
that same folder. Code run from a source tree reads that tree's own ``data/``, so a
checkout never mixes its code with the data of another install.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from .errors import GameDefinitionError

PACKAGE = "fairypost_data"
_SOURCE_TREE = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def data_dir() -> Path:
    """The folder holding ``variants/`` and ``fonts/``; a loud error if there is none."""
    if (_SOURCE_TREE / "pyproject.toml").is_file() and (_SOURCE_TREE / "data" / "variants").is_dir():
        return _SOURCE_TREE / "data"
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise GameDefinitionError(
            f"fairypost's data (game definitions, fonts) is missing: no package {PACKAGE!r} "
            f"and no data/ folder beside {_SOURCE_TREE}; reinstall fairypost")
    return Path(next(iter(spec.submodule_search_locations)))


def data_path(*parts: str) -> Path:
    """A path inside the shipped data, e.g. ``data_path("variants", "chess.toml")``."""
    return data_dir().joinpath(*parts)
