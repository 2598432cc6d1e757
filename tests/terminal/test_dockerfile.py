"""The Dockerfile, checked without a Docker engine: what it copies exists, what it runs
is declared, and it keeps to the deployment's rules (non-root, volume, no token)."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path

from bot import cli

ROOT = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out, pending = [], ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def of(kind: str) -> list[str]:
    return [args for word, args in instructions() if word == kind]


def exec_form(args: str) -> list[str]:
    assert args.startswith("["), f"use the exec form (a JSON list): {args}"
    return json.loads(args)


def scripts() -> dict[str, str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data["project"]["scripts"]


def test_every_copy_source_exists_and_is_not_ignored():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    copies = of("COPY")
    assert copies
    for args in copies:
        parts = shlex.split(args)
        assert not any(p.startswith("--from") for p in parts)
        sources = parts[:-1]
        for src in sources:
            assert (ROOT / src).exists(), f"COPY {src}: no such file in the project"
            assert src not in ignored, f"COPY {src}: .dockerignore leaves it out"
    copied = {s.rstrip("/") for args in copies for s in shlex.split(args)[:-1]}
    # what the installed program reads at run time
    assert {"pyproject.toml", "README.md", "data", "rules", "render", "bot"} <= copied
    assert (ROOT / "data" / "variants" / "grandducal.toml").exists()


def test_the_build_context_leaves_out_secrets_and_bulk():
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    for must in (".git", ".venv", "*.sqlite3", ".env"):
        assert must in ignored


def test_it_runs_the_declared_console_script_and_a_real_health_check():
    (cmd,) = of("CMD")
    argv = exec_form(cmd)
    assert argv == ["fairypost", "run"]
    assert scripts()["fairypost"] == "bot.cli:main"
    (health,) = of("HEALTHCHECK")
    assert "CMD " in health
    check = exec_form(health.split("CMD ", 1)[1].strip())
    assert check[0] == "fairypost"
    # the subcommands exist in the program the script runs
    sub = next(a for a in cli._parser()._actions if a.dest == "command")
    assert check[1] in sub.choices and "run" in sub.choices
    assert callable(cli.health)


def test_slim_python_non_root_volume_and_token_from_the_environment():
    (base,) = of("FROM")
    assert base.startswith("python:3.11") and "slim" in base
    users = of("USER")
    assert users and users[-1] not in ("root", "0")
    assert of("VOLUME") == ["/data"]
    env = " ".join(of("ENV"))
    assert "FAIRYPOST_DB=/data/" in env
    text = (ROOT / "Dockerfile").read_text()
    assert "DISCORD_TOKEN=" not in "".join(of("ENV")) and "ARG DISCORD_TOKEN" not in text
    # installed as a user's install is (the data goes in as the package fairypost_data),
    # and every game loads from it once the sources are gone
    runs = of("RUN")
    assert any(re.search(r"pip install \.(\s|$)", args) for args in runs)
    assert not any("pip install -e" in args or "--editable" in args for args in runs)
    assert any("rm -rf /src" in args and "rules.variants()" in args for args in runs)
    # the non-root user owns the volume's mount point
    assert any("chown" in args and "/data" in args for args in of("RUN"))


def test_the_image_copies_every_package_and_the_build_script():
    """`pip install .` in the image builds from what was copied: every top package of
    pyproject's list (data/ is fairypost_data), and setup.py, which compiles the languages'
    catalogs (language/): without them the image would have no language but English."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    tops = {data.get("package-dir", {}).get(p, p) for p in data["packages"] if "." not in p}
    copied = {Path(src).name for args in of("COPY") for src in shlex.split(args)[:-1]}
    assert tops | {"setup.py", "pyproject.toml"} <= copied, tops - copied
