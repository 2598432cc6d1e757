import os
import stat

from bot.identity import page_tokens as tokens


def test_sign_and_verify():
    t = tokens.sign(b"k", 7)
    assert tokens.verify(b"k", 7, t)
    assert not tokens.verify(b"k", 8, t)           # another game
    assert not tokens.verify(b"other", 7, t)       # another secret
    assert not tokens.verify(b"k", 7, t[:-1] + ("A" if t[-1] != "A" else "B"))  # altered
    assert not tokens.verify(b"k", 7, "")
    assert len(t) == tokens.TOKEN_CHARS


def test_secret_made_once_beside_the_database(tmp_path):
    db = str(tmp_path / "games.db")
    first = tokens.load_secret(None, db)
    again = tokens.load_secret(None, db)
    assert first == again and len(first) >= 32
    f = tokens.secret_file(db)
    assert f.parent == tmp_path
    if os.name != "nt":
        assert stat.S_IMODE(f.stat().st_mode) == 0o600
    assert tokens.load_secret("configured", db) == b"configured"
    assert tokens.game_url("https://x.org/", b"k", 3) == f"https://x.org/g/3/{tokens.sign(b'k', 3)}"


def test_an_empty_secret_file_is_said_plainly(tmp_path):
    import pytest
    db = str(tmp_path / "games.db")
    tokens.secret_file(db).write_text("")
    with pytest.raises(ValueError, match="empty"):
        tokens.load_secret(None, db)
