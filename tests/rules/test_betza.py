"""Betza parsing and the move tables it compiles to."""
import pytest

from rules import betza
from rules.errors import GameDefinitionError
from rules.geometry import Geometry
from rules.tables import compile_square

GEO = Geometry("abcdefghijkl", 12)


def targets(text, square="f6", color=0, on_initial=True, geo=GEO):
    sm = compile_square(betza.parse(text), geo, color, geo.parse_square(square), on_initial, None)
    out = set()
    for _prefix, ray, *_ in sm.entries:
        out |= {geo.names[t] for t in ray}
    for ray, *_ in sm.hops:
        out |= {geo.names[t] for t in ray}
    return out


def test_leapers():
    assert targets("N") == {"e8", "g8", "h7", "h5", "g4", "e4", "d5", "d7"}
    assert targets("C", "a1") == {"b4", "d2"}
    assert targets("Z", "a1") == {"c4", "d3"}
    assert targets("G", "a1") == {"d4"}
    assert targets("H", "a1") == {"a4", "d1"}


def test_riders_and_ranges():
    assert targets("R", "a1") == {f"a{r}" for r in range(2, 13)} | {f"{f}1" for f in "bcdefghijkl"}
    assert targets("NN", "a1") == {"b3", "c5", "d7", "e9", "f11", "c2", "e3", "g4", "i5", "k6"}
    assert targets("AA2", "a1") == {"c3", "e5"}
    assert targets("DD", "a1") == {"a3", "a5", "a7", "a9", "a11", "c1", "e1", "g1", "i1", "k1"}


def test_directions_are_relative_to_the_owner():
    assert targets("fW") == {"f7"}
    assert targets("fW", color=1) == {"f5"}
    assert targets("frB", "f6") == {"g7", "h8", "i9", "j10", "k11", "l12"}
    assert targets("frB", "f6", color=1) == {"e5", "d4", "c3", "b2", "a1"}
    assert targets("vW") == {"f7", "f5"}
    assert targets("sW") == {"e6", "g6"}
    assert targets("fN") == {"e8", "g8", "h7", "d7"}


def test_modes():
    comps = betza.parse("fmWfcF")
    assert [(c.move, c.capture) for c in comps] == [(True, False), (False, True)]
    cannon = betza.parse("mRcpR")
    assert cannon[0].move and not cannon[0].capture and not cannon[0].hop
    assert cannon[1].hop and cannon[1].capture and not cannon[1].move


def test_initial_only():
    assert targets("ifmnD", on_initial=True) == {"f8"}
    assert targets("ifmnD", on_initial=False) == set()


def test_lame_leaper_prefix():
    sm = compile_square(betza.parse("nN"), GEO, 0, GEO.parse_square("f6"), True, None)
    blocks = {GEO.names[ray[0]]: GEO.names[prefix[0]] for prefix, ray, *_ in sm.entries}
    assert blocks["g8"] == "f7" and blocks["h7"] == "g6" and blocks["d5"] == "e6"


def test_bent_griffon():
    got = targets("FyafsF", "a1")
    assert got == {"b2"} | {f"b{r}" for r in range(3, 13)} | {f"{f}2" for f in "cdefghijkl"}


def test_shorthands_expand():
    assert targets("K") == targets("WF")
    assert targets("Q") == targets("RB")


@pytest.mark.parametrize("bad", ["X", "fmq", "yafsN", "fsB", "nC", "aaaW"])
def test_unsupported_forms_are_refused_clearly(bad):
    with pytest.raises(GameDefinitionError):
        comps = betza.parse(bad)
        compile_square(comps, GEO, 0, 0, True, None)
