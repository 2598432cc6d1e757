"""The build compiles the languages' catalogs (language/locales/*/LC_MESSAGES/fairypost.po)
into the .mo files the installed package reads: `pip install .` and a wheel carry them.
Everything else about the package is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self):
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
        for po in sorted(Path("language/locales").glob("*/LC_MESSAGES/fairypost.po")):
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as f:
                catalog = read_po(f, locale=po.parts[-3], domain="fairypost")
            with target.open("wb") as f:
                write_mo(f, catalog, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogs})
