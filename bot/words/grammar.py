"""The one text command grammar: a typed line (the terminal, a message in a Discord game
thread, an email's body) becomes a :class:`Command`, or a :class:`GrammarError` that says
what was wrong and the command's usage.

Each command is registered once by its usage, written as the help shows it::

    GRAMMAR.add("challenge GAME OPPONENT [days N]", "challenge someone to a game")

A lower-case word is a keyword, an UPPER-CASE word a value (its kind in ``KINDS``),
``a|b`` either, ``[...]`` an optional part. A value is stored in ``Command.args`` under
its name in lower case (``GAME`` -> ``game``), under the keyword before it in its
optional part (``[days N]`` -> ``days``), or as ``names=`` says; a choice of keywords
alone is stored as ``answer``. In a game's context a line that starts with no command
word is a move: ``Command("move", {"move": line})``; the engine judges it.

Adapters run the commands (bot/commands/run.py runs the shared ones against the
service); the terminal extends this grammar with its own (``GRAMMAR.extended()``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import rules
from language import LANGUAGES, T, Text, supported

SHOWN_CHARS = 40
# the longest line read (a Discord message's own limit): a longer one is refused before any
# word of it is matched. No pattern here repeats over text it has not cut to a word first.
MAX_LINE_CHARS = 2000


class GrammarError(ValueError):
    """A line that is no command: ``str()`` says what was wrong, then the usage (English).
    ``text`` is what was wrong for its reader (a ``Text``: ``m.say(e.text)``), ``problem``
    its English; ``said(m)`` the whole in the reader's language and markup."""

    def __init__(self, problem: Text | str, usage: str | None = None):
        self.text = problem
        self.problem = str(problem)
        self.usage = usage
        super().__init__(f"{self.problem} (usage: {usage})" if usage else self.problem)

    def said(self, m) -> str:
        """What was wrong and the usage, for the reader of the markup ``m`` (the usage's
        words are typed: not translated)."""
        if not self.usage:
            return m.say(self.text)
        return m.tr("{problem} (usage: {usage})", problem=m.say(self.text), usage=m.code(self.usage))


def problem_of(e: Exception) -> Text | str:
    """What a ``ValueError`` of a kind of value said: its Text, else its English."""
    return e.args[0] if e.args and isinstance(e.args[0], Text) else str(e)


@dataclass(frozen=True)
class Command:
    """A parsed line: the command's name (its first name, never an alias), its values by
    name (an optional value left out is absent: ``cmd["days"]`` is then None), the line."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    line: str = ""

    def __getitem__(self, key: str) -> Any:
        return self.args.get(key)


def shown(text: str) -> str:
    """A user's word quoted back in an error: control characters escaped, cut short."""
    cut = text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "\u2026"
    return "'" + "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in cut) + "'"


# --- the kinds of values -----------------------------------------------------------------

_SQUARE = re.compile(r"[a-z][0-9]{1,2}")


def _square(word: str) -> str:
    if not _SQUARE.fullmatch(word.lower()):
        raise ValueError(T("{word} is not a square name. A square is a file letter and a rank: e4, j10",
                           word=shown(word)))
    return word.lower()


def _count(word: str) -> int:
    if not word.isascii() or not word.isdigit() or not 1 <= int(word) <= 365:
        raise ValueError(T("{word} is not a number of days (1 to 365)", word=shown(word)))
    return int(word)


def _number(word: str) -> int:
    digits = word.removeprefix("#")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 12:
        raise ValueError(T("{word} is not a number (like 12 or #12)", word=shown(word)))
    return int(digits)


def resolve_game(text: str) -> str:
    """A game id from its id, its name or the start of either (a word or two of it)."""
    t = text.strip().lower().replace(" ", "")
    ids = rules.variants()
    if t in ids:
        return t
    names = {g: rules.game(g).name.lower().replace(" ", "") for g in ids}
    hits = [g for g in ids if t and (g.startswith(t) or names[g].startswith(t))]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise ValueError(T("there is no game {word}; the games are: {games}", word=shown(text.strip()),
                           games=", ".join(ids)))
    raise ValueError(T("{word} could be {games}: which one?", word=shown(text.strip()), games=", ".join(hits)))


def _word(word: str) -> str:
    return word


def _language(word: str) -> str:
    """A language's code ("fr", "fr-FR", "de_DE"), as one of ``LANGUAGES``; or ``default``."""
    if word.lower() == "default":
        return "default"
    code = supported(word)
    if code is None:
        raise ValueError(T("{word} is not a language here; the languages are: {codes}, or {default} "
                           "for the one where you type", word=shown(word), codes=", ".join(LANGUAGES),
                           default="default"))
    return code


#: what ``tournament ACT ...`` may say (bot/commands/run.py and bot/tournaments/acts.py do them)
TOURNAMENT_ACTS = ("join", "leave", "show", "withdraw", "start", "pause", "resume", "close", "remove",
                   "result", "replace", "extend", "director")


def _tournament_act(word: str) -> str:
    if word.lower() not in TOURNAMENT_ACTS:
        raise ValueError(T("{word} is not something to do in a tournament: {acts}", word=shown(word),
                           acts=", ".join(TOURNAMENT_ACTS)))
    return word.lower()


@dataclass(frozen=True)
class Kind:
    """What an UPPER-CASE word in a usage stands for: how to read it; ``rest``: it takes
    the rest of the line (a move may hold spaces)."""

    read: Callable[[str], Any]
    says: Text | str
    rest: bool = False


KINDS: dict[str, Kind] = {
    "SQUARE": Kind(_square, T("a square (like e4)")),
    "GAME": Kind(resolve_game, T("a game")),
    "OPPONENT": Kind(_word, T("an opponent")),  # the adapter names players: a mention, an address, a name
    "N": Kind(_count, T("a number of days")),
    "ID": Kind(_number, T("a number")),
    "MOVE": Kind(_word, T("a move"), rest=True),
    "LINES": Kind(_word, T("conditional lines (their move, your answer, ...)"), rest=True),
    "CODE": Kind(_word, T("a piece's letter")),
    "NAME": Kind(_word, T("a piece's name")),
    "COMMAND": Kind(lambda w: w.lower(), T("a command")),
    "PLAYER": Kind(_word, T("a player")),  # as the adapter names players (see OPPONENT)
    "ACT": Kind(_tournament_act, T("a tournament act")),
    "LANG": Kind(_language, T("a language's code (like fr)")),
    # a tournament act's own words (bot/tournaments/acts.py reads them)
    "DETAILS": Kind(_word, T("the act's details"), rest=True),
}


# --- usages --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Slot:
    """One word of a usage: its keywords and kinds of value, and the name it is stored as
    (None: a keyword that only introduces what follows)."""

    keywords: tuple[str, ...]
    kinds: tuple[str, ...]
    name: str | None
    shows: str

    def read(self, word: str) -> Any:
        if word.lower() in self.keywords:
            return word.lower()
        problems = []
        for kind in self.kinds:
            try:
                return KINDS[kind].read(word)
            except ValueError as e:
                problems.append(problem_of(e))
        if problems and not self.keywords:
            raise ValueError(problems[0])
        raise ValueError(T("{word} is not {what}", word=shown(word), what=_either(self)))

    @property
    def rest(self) -> bool:
        return any(KINDS[k].rest for k in self.kinds)


def _either(slot: Slot) -> Text | str:
    """What a slot takes: "a square (like e4) or cancel" (its keywords are typed: as they are)."""
    said: list[Text | str] = [*(KINDS[k].says for k in slot.kinds), *slot.keywords]
    either = said[0]
    for other in said[1:]:
        either = T("{one} or {other}", one=either, other=other)
    return either


@dataclass(frozen=True)
class Spec:
    """A registered command."""

    name: str
    aliases: tuple[str, ...]
    usage: str
    help: str  # English, a message id: ``help_said(spec, lang)`` says it
    parts: tuple[tuple[Slot, ...] | Slot, ...]  # a tuple of slots: an optional part
    needs_game: bool

    @property
    def words(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def _slots(usage: str, names: Mapping[str, str]) -> tuple[str, tuple]:
    words = usage.replace("[", " [ ").replace("]", " ] ").split()
    if not words or not words[0].islower():
        raise ValueError(f"a usage starts with the command's name: {usage!r}")
    parts: list = []
    group: list | None = None
    for word in words[1:]:
        if word == "[":
            group = []
            continue
        if word == "]":
            parts.append(tuple(group))
            group = None
            continue
        options = word.split("|")
        kinds = tuple(o for o in options if o.isupper())
        for k in kinds:
            if k not in KINDS:
                raise ValueError(f"no kind of value {k} (usage {usage!r}); add it to KINDS")
        keywords = tuple(o for o in options if not o.isupper())
        before = group[-1] if group else None
        if word in names:
            name = names[word]
        elif kinds and before is not None and before.name is None and len(before.keywords) == 1:
            name = before.keywords[0]
        elif kinds:
            name = kinds[0].lower()
        elif len(keywords) > 1:
            name = "answer"
        else:
            name = None
        slot = Slot(keywords, kinds, name, word)
        (group if group is not None else parts).append(slot)
    return words[0], tuple(parts)


class Grammar:
    """The registry of commands; ``parse`` reads a line with it."""

    def __init__(self, specs: Iterator[Spec] = ()):
        self.specs: dict[str, Spec] = {}
        for s in specs:
            self._put(s)

    def add(self, usage: str, help: Text | str, *, aliases: tuple[str, ...] = (),
            names: Mapping[str, str] | None = None, needs_game: bool = True) -> Spec:
        """Register a command by its usage (see the module's doc); a name already there
        is replaced (an adapter's own meaning of a word)."""
        name, parts = _slots(usage, names or {})
        spec = Spec(name, tuple(a.lower() for a in aliases), usage, str(help), parts, needs_game)
        self._put(spec)
        return spec

    def _put(self, spec: Spec) -> None:
        taken = {w for s in self.specs.values() if s.name != spec.name for w in s.words}
        clash = taken.intersection(spec.words)
        if clash:
            raise ValueError(f"the command word {min(clash)!r} is taken")
        self.specs[spec.name] = spec  # a replaced command keeps its place in the help

    def remove(self, name: str) -> None:
        del self.specs[name]

    def extended(self) -> Grammar:
        """A copy to add an adapter's own commands to."""
        return Grammar(iter(self.specs.values()))

    def find(self, word: str) -> Spec | None:
        w = word.lower()
        for s in self.specs.values():
            if w in s.words:
                return s
        return None

    def __iter__(self) -> Iterator[Spec]:
        return iter(self.specs.values())

    def parse(self, line: str, *, in_game: bool = True) -> Command:
        """The command a line says. In a game's context (``in_game``) a line that starts
        with no command word is a move; elsewhere it is refused, naming the commands."""
        text = line.strip()
        if len(text) > MAX_LINE_CHARS:
            raise GrammarError(T("a line of {n} characters: a move or a command is at most {most}",
                                 n=format(len(text), ","), most=format(MAX_LINE_CHARS, ",")))
        if not text:
            raise GrammarError(T("an empty line: type a move or a command (help lists them)"))
        word, _, rest = text.partition(" ")
        spec = self.find(word)
        if spec is None:
            said = self._spelled(text)
            if said is not None:
                text = said
                word, _, rest = text.partition(" ")
                spec = self.find(word)
        if spec is None:
            if in_game:
                return Command("move", {"move": text}, text)
            raise GrammarError(T("there is no command {word}; the commands are: {commands}",
                                 word=shown(word), commands=", ".join(self.specs)))
        if spec.name == "move" and not rest.strip():  # 'M' alone: the word for move, no move
            example = f"{word} Nf3"
            said = (T("{word} what? Write the move after it, as in {example}, or the move alone: {move}",
                      word=word, example=example, move="Nf3") if word.lower() == spec.name
                    else T("{word} what? {shown} is short for move: write the move after it, as in "
                           "{example}, or the move alone: {move}", word=word, shown=shown(word),
                           example=example, move="Nf3"))
            raise GrammarError(said, spec.usage)
        if not any(isinstance(p, Slot) and p.rest for p in spec.parts):
            rest = rest.rstrip(_LINE_TAIL)  # "accept 12." (a move keeps its own: the engine reads it)
        return Command(spec.name, _match(spec, rest.split()), text)

    def _spelled(self, text: str) -> str | None:
        """A command as people write it, as typed plainly: ``Accept.``, ``accept!``, ``Yes,
        accept``, ``*accept*`` -> ``accept``; None when the line starts with no command word
        that way either (then it is a move, which rules.spelling reads the same way)."""
        t = text.strip(_WRAPPING).strip()
        polite = _POLITE.match(t)
        if polite is not None and polite.end() < len(t):
            t = t[polite.end():]
        t = t.rstrip(_LINE_TAIL)
        word, _, rest = t.partition(" ")
        word = word.rstrip(_PUNCTUATION)
        if not word or self.find(word) is None:
            return None
        return f"{word} {rest}".strip()


# what people write around a command (``Yes, accept.``): quotes and Markdown marks round it,
# a yes first, punctuation after it (stripped, not matched: linear time on any line)
_WRAPPING = "*_~`'\"\u2018\u2019\u201c\u201d"
_PUNCTUATION = ".,;:!"
_POLITE = re.compile(r"(?:yes|yeah|yep|ok|okay|sure|please)\b[ ,.!:;]*", re.IGNORECASE)
_LINE_TAIL = " .,;:!"


def _match(spec: Spec, words: list[str]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    i = 0
    skipped = None  # why the last optional part left out did not fit its word

    def take(slot: Slot) -> None:
        nonlocal i
        if slot.rest:
            value = slot.read(" ".join(words[i:]))
            i = len(words)
        else:
            value = slot.read(words[i])
            i += 1
        if slot.name is not None:
            args[slot.name] = value

    for part in spec.parts:
        if isinstance(part, Slot):
            if i >= len(words):
                raise GrammarError(T("{command} needs {what}", command=spec.name, what=_either(part)),
                                   spec.usage)
            try:
                take(part)
            except ValueError as e:
                raise GrammarError(problem_of(e), spec.usage) from None
            continue
        if i >= len(words):
            continue
        try:
            take(part[0])
        except ValueError as e:
            if part[0].kinds or len(part[0].keywords) > 1:  # not a lone keyword: say what it takes
                skipped = skipped or problem_of(e)
            continue
        for slot in part[1:]:
            if i >= len(words):
                raise GrammarError(T("{command}: {word} needs {what} after it", command=spec.name,
                                     word=part[0].shows, what=_either(slot)), spec.usage)
            try:
                take(slot)
            except ValueError as e:
                raise GrammarError(problem_of(e), spec.usage) from None
    if i < len(words):
        extra = " ".join(words[i:])
        raise GrammarError(skipped or T("{command}: unexpected {words}", command=spec.name, words=shown(extra)),
                           spec.usage)
    return args


# --- the commands every adapter shares --------------------------------------------------

GRAMMAR = Grammar()
GRAMMAR.add("move MOVE", T("play a move (or type the move alone)"),
            aliases=("m", "play"))
GRAMMAR.add("board [SQUARE]", T("show the board again (with a square: that piece's moves)"),
            aliases=("show",))
GRAMMAR.add("moves [SQUARE]", T("the legal moves of the piece on a square, or all legal moves"))
GRAMMAR.add("draw [accept|decline]", T("offer a draw, or answer the other player's offer"))
GRAMMAR.add("takeback [accept|decline]", T("ask to take back your last move, or answer the "
            "other player's request"), aliases=("undo",))
GRAMMAR.add("resign", T("give up the game"))
GRAMMAR.add("abort", T("call the game off (only before both sides have moved)"))
GRAMMAR.add("record", T("the game record as PGN (moves in SAN)"), aliases=("pgn",))
GRAMMAR.add("games", T("your games, and the open challenges"), needs_game=False)
GRAMMAR.add("challenge GAME OPPONENT [days N] [casual]", T("challenge someone to a game (N days "
            "per move; rated unless casual)"), names={"casual": "casual"}, needs_game=False)
GRAMMAR.add("challenges", T("open challenges"), needs_game=False)
GRAMMAR.add("accept [ID]", T("accept a challenge (the only one open to you, or challenge ID)"),
            needs_game=False)
GRAMMAR.add("decline [ID]", T("decline a challenge (the only one open to you, or challenge ID)"),
            needs_game=False)
GRAMMAR.add("vacation [N|end]", T("your vacation days; take N days off (your games' clocks stop), "
            "or end it"), names={"N|end": "days"}, needs_game=False)
GRAMMAR.add("premove [cancel|LINES]", T("while the other side is to move: answers left in advance, "
            "like premove e5 Nf3; c5 Nc3 (their move, yours, ...); alone: show them; cancel: drop them"),
            names={"cancel|LINES": "lines"})
GRAMMAR.add("next", T("go on with your most urgent game where it is your move"), needs_game=False)
GRAMMAR.add("confirm on|off", T("ask \"play Nf3?\" before each typed move is played"), needs_game=False)
GRAMMAR.add("hint", T("the move the computer would play (only in games against the computer)"))
GRAMMAR.add("review", T("after the game: each move's score swing, blunders (??), mistakes (?)"))
GRAMMAR.add("rules [GAME]", T("what the game is and its pieces"), needs_game=False)
GRAMMAR.add("ratings [GAME]", T("a game's leaderboard (default: this game's) and your own ratings"),
            needs_game=False)
GRAMMAR.add("block PLAYER", T("no more challenges from this player (games under way go on)"),
            needs_game=False)
GRAMMAR.add("unblock PLAYER", T("take a block back"), needs_game=False)
GRAMMAR.add("piece CODE|NAME", T("what a piece does"), names={"CODE|NAME": "piece"})
GRAMMAR.add("tournaments", T("the tournaments open, under way and just over"), needs_game=False)
GRAMMAR.add("tournament ACT [ID] [DETAILS]", T("a tournament: join, leave, show, withdraw; directors: "
            "start, pause, resume, close, remove, result, replace, extend, director"), needs_game=False)
GRAMMAR.add("language [LANG]", T("show or choose your language (default: the one where you type)"),
            names={"LANG": "language"}, needs_game=False)
GRAMMAR.add("help [COMMAND]", T("the commands, or what one of them does"), aliases=("?",),
            needs_game=False)


def parse(line: str, *, in_game: bool = True) -> Command:
    """``GRAMMAR.parse``: the shared commands."""
    return GRAMMAR.parse(line, in_game=in_game)



def help_said(spec: Spec, lang) -> str:
    """What a command does (its ``help``, a message id) in the reader's ``lang``."""
    return lang.tr(spec.help)
