"""The project as a user installs it: a wheel built from the sources, installed (not
editable) into a fresh virtualenv, run from another folder. Everything the program reads
(game definitions, fonts) must come from the installed packages.

No network: the wheel is built with the build backend already installed
(``--no-build-isolation``), and the new virtualenv borrows this environment's third-party
packages through a ``.pth`` line instead of downloading them.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "language", "rules", "ai", "render", "bot", "data")
CODE_PACKAGES = ("language", "rules", "ai", "render", "bot")


def run(argv, cwd, env=None, stdin=None, check=True):
    r = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=300,
                       # the installed wheel alone: a source tree on PYTHONPATH would be the one
                       # read (and this test's damage done to its data files)
                       env={**os.environ, "PYTHONPATH": "", **(env or {})})
    if check and r.returncode != 0:
        raise AssertionError(f"{argv} exited {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}")
    return r


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            # no compiled catalog from this checkout: the build must make its own
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo"))
        else:
            shutil.copy2(path, src / name)
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "-q", "-w", str(out), str(src)], cwd=src)
    (whl,) = out.glob("fairypost-*.whl")
    return whl


def install(wheel: Path, where: Path) -> Path:
    """A fresh virtualenv with the wheel installed; returns its bin folder."""
    venv.create(where, with_pip=False)
    bin_dir = where / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    inner = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                cwd=where).stdout.strip()
    outer = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    # third-party packages from this environment; its .pth files (an editable install of
    # the project among them) are not processed from a directory added this way
    Path(inner, "borrowed-deps.pth").write_text("\n".join(sorted(outer)) + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
         "--no-index", str(wheel)], cwd=where)
    return bin_dir


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    return install(wheel, tmp_path_factory.mktemp("venv"))


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    """A working folder with no project files in it."""
    d = tmp_path / "elsewhere"
    d.mkdir()
    return d


def test_the_wheel_holds_the_code_and_every_data_file_and_no_benchmarks(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert top == {"language", "rules", "ai", "render", "bot", "fairypost_data"}, top
    # every language's catalog, compiled by the build (setup.py), beside its source
    for po in (ROOT / "language" / "locales").glob("*/LC_MESSAGES/fairypost.po"):
        stem = po.relative_to(ROOT).with_suffix("").as_posix()
        assert f"{stem}.po" in names and f"{stem}.mo" in names, stem
    for toml in (ROOT / "data" / "variants").glob("*.toml"):
        assert f"fairypost_data/variants/{toml.name}" in names
    for font in (ROOT / "data" / "fonts").iterdir():
        if font.suffix in (".ttf", ".txt"):
            assert f"fairypost_data/fonts/{font.name}" in names
    for package in ("rules/hooks", "bot/discord_bot", "bot/terminal"):
        assert f"{package}/__init__.py" in names


def test_the_listed_packages_are_every_package_of_the_sources():
    """pyproject.toml lists the packages (data/ is mapped, bench/ left out): a package
    added to the sources and not to the list would be missing from every install."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(init.parent.relative_to(ROOT).parts)
               for top in CODE_PACKAGES for init in (ROOT / top).rglob("__init__.py")}
    data = {"fairypost_data"} | {f"fairypost_data.{d.name}" for d in (ROOT / "data").iterdir()
                                 if d.is_dir() and d.name != "__pycache__"}
    assert listed == on_disk | data


def test_a_game_to_mate_from_another_folder(installed, elsewhere):
    env = {"FAIRYPOST_DB": str(elsewhere / "games.sqlite3"), "PYTHONPATH": ""}
    r = run([str(installed / "fairypost"), "play", "chess", "--no-images"], cwd=elsewhere,
            env=env, stdin="f3\ne5\ng4\nQh4\n")
    assert "Game over: 0-1, Black wins (checkmate)." in r.stdout
    r = run([str(installed / "fairypost"), "games"], cwd=elsewhere, env=env)
    assert "0-1" in r.stdout
    where = run([str(installed / "python"), "-c",
                 "import rules, render, bot; from rules.resources import data_dir; "
                 "print(rules.__file__); print(data_dir()); print(rules.variants())"],
                cwd=elsewhere, env=env).stdout.splitlines()
    site = str(installed.parent)
    assert where[0].startswith(site) and where[1].startswith(site), where
    assert where[1].endswith("fairypost_data")
    assert eval(where[2]) == sorted(p.stem for p in (ROOT / "data" / "variants").glob("*.toml"))


def test_images_and_the_gallery_from_the_install(installed, elsewhere):
    run([str(installed / "python"), "-m", "render", "gallery", "out", "--games", "kingqueen"],
        cwd=elsewhere, env={"PYTHONPATH": ""})
    pictures = list((elsewhere / "out").rglob("*.png"))
    assert len(pictures) > 5
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)
    assert (elsewhere / "out" / "index.html").exists()


def test_health_passes_then_fails_loudly_without_game_definitions(wheel, tmp_path, elsewhere):
    bin_dir = install(wheel, tmp_path / "venv")
    env = {"FAIRYPOST_DB": str(elsewhere / "games.sqlite3"), "PYTHONPATH": ""}
    ok = run([str(bin_dir / "fairypost"), "health"], cwd=elsewhere, env=env)
    assert ok.stdout.startswith("ok: database") and "grandducal" in ok.stdout
    python = str(bin_dir / "python")
    variants = Path(run([python, "-c", "from rules.resources import data_path; "
                                        "print(data_path('variants'))"], cwd=elsewhere).stdout.strip())

    # one unreadable definition: that game is named, and the check fails
    (variants / "grandducal.toml").write_bytes(b"\xff\xfe not a definition")
    bad = run([str(bin_dir / "fairypost"), "health"], cwd=elsewhere, env=env, check=False)
    assert bad.returncode == 1
    assert "unhealthy: game grandducal" in bad.stderr and "grandducal.toml" in bad.stderr

    # none at all: an error, never an empty list of games
    for toml in variants.glob("*.toml"):
        toml.unlink()
    none = run([str(bin_dir / "fairypost"), "health"], cwd=elsewhere, env=env, check=False)
    assert none.returncode == 1 and "no game definitions" in none.stderr
    listed = run([python, "-c", "import rules; print(rules.variants())"], cwd=elsewhere, env=env,
                 check=False)
    assert listed.returncode != 0 and "GameDefinitionError" in listed.stderr
    play = run([str(bin_dir / "fairypost"), "play", "chess", "--no-images"], cwd=elsewhere,
               env=env, stdin="", check=False)
    assert play.returncode != 0 and "no game definitions" in play.stdout + play.stderr
    assert "Traceback" not in play.stdout + play.stderr
    engine = run([python, "-m", "rules", "moves", "chess"], cwd=elsewhere, check=False)
    assert engine.returncode == 2 and "no game definitions" in engine.stderr
    assert "Traceback" not in engine.stderr
