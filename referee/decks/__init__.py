"""Deck files: the cards that are printed and that referees pick on the phone.

One TOML file per deck, ``printables/decks/<name>.toml`` (the format is documented in
``printables/README.md``)::

    [deck]
    name = "coup"            # equals the file name without .toml
    kind = "coup"            # playing | castle | class | coup | berserk
    title_en = "Coup"
    title_ru = "Переворот"
    [deck.back]              # optional
    colour = "#5a2a2a"
    text = "Переворот · Coup"

    [[cards]]
    code = "DU"
    copies = 4
    ...                      # the fields of the deck's kind

Organizers add their own files in another folder (``REFEREE_DECKS``, several joined
with the path separator, or the ``folders`` argument); a file there replaces a shipped
deck of the same name. A file that is wrong is refused with a ``DeckError`` naming the
file, the line and what to fix.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import assets
from referee.decks import kinds
from referee.decks.kinds import CoupCard, PlayingCard, Problem
from referee.decks.source import DeckError, Locator, read, read_bytes
from referee.games import registry
from referee.games.manifest import resolve
from referee.rules import N_, RuleError

DECKS_DIR = assets.folder("printables") / "decks"
ENV = "REFEREE_DECKS"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")  # fullmatch, as _COLOUR
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_DECK_KEYS = {"name", "kind", "title_en", "title_ru", "back"}
_BACK_KEYS = {"colour", "text"}
DEFAULT_BACK = "#2b3a55"

__all__ = [
    "DECKS_DIR", "ENV", "Back", "CoupCard", "Deck", "DeckCard", "DeckError",
    "PlayingCard", "UnknownDeck", "deck_names", "deck_paths", "load_all", "load_deck",
    "load_file",
]


class UnknownDeck(LookupError):
    """No deck file has that name; ``part`` says so (an ``N_`` sentence and its params),
    ``str()`` in English."""

    def __init__(self, message: str, **params: object) -> None:
        self.part = RuleError(None, message, **params)
        super().__init__(self.part.text)

    def describe(self, say: Callable[[RuleError], str] = str) -> str:
        """The complaint put into words by ``say`` (the web passes ``rule_message``)."""
        return say(self.part)


@dataclass(frozen=True)
class Back:
    """The back printed behind every card of the deck."""

    colour: str
    text: str


@dataclass(frozen=True)
class DeckCard:
    """One card entry: its code, how many copies to print, and the rules' card object."""

    code: str
    copies: int
    card: Any  # PlayingCard, an Underworld card, a Berserk Card or a CoupCard
    line: int

    @property
    def name_en(self) -> str:
        return self.card.name_en

    @property
    def name_ru(self) -> str:
        return self.card.name_ru


@dataclass(frozen=True)
class Deck:
    """A validated deck file."""

    name: str
    kind: str
    title_en: str
    title_ru: str
    back: Back
    cards: tuple[DeckCard, ...]
    path: Path | None = None

    def card(self, code: str) -> DeckCard:
        """The entry with this code (KeyError if the deck has none)."""
        for entry in self.cards:
            if entry.code == code:
                return entry
        raise KeyError(code)

    def printed(self) -> tuple[DeckCard, ...]:
        """Every card to print, copies repeated, in file order."""
        return tuple(entry for entry in self.cards for _ in range(entry.copies))

    @property
    def size(self) -> int:
        return sum(entry.copies for entry in self.cards)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly summary for the API and the card picker."""
        return {
            "name": self.name, "kind": self.kind, "title_en": self.title_en,
            "title_ru": self.title_ru, "size": self.size,
            "cards": [{"code": e.code, "copies": e.copies, "name_en": e.name_en,
                       "name_ru": e.name_ru} for e in self.cards],
        }


def _deck_table(data: dict, path: Path, where: Locator) -> dict:
    deck = data.get("deck")
    if not isinstance(deck, dict):
        raise DeckError(path, 1, N_("the [deck] table is missing; start the file with [deck] "
                                    "and its name, kind, title_en and title_ru"))
    for key in data:
        if key not in ("deck", "cards"):
            raise DeckError(path, where.top_key(key),
                            N_("unknown top-level key %(value)s; only [deck] and [[cards]] "
                               "belong here"), value=repr(key))
    for key in deck:
        if key not in _DECK_KEYS:
            raise DeckError(path, where.deck_key(key),
                            N_("[deck]: unknown key %(value)s; use %(allowed)s"),
                            value=repr(key), allowed=", ".join(sorted(_DECK_KEYS)))
    for key in ("name", "kind", "title_en", "title_ru"):
        if key not in deck:
            raise DeckError(path, where.deck, N_("[deck]: %(key)s is missing; add it"), key=key)
        if not isinstance(deck[key], str) or not deck[key].strip():
            raise DeckError(path, where.deck_key(key),
                            N_("[deck]: %(key)s must be non-empty text"), key=key)
    if deck["name"] != path.stem:
        raise DeckError(path, where.deck_key("name"),
                        N_("[deck]: name %(value)s must equal the file name %(file)s "
                           "(rename the file or the deck)"),
                        value=repr(deck["name"]), file=repr(path.stem))
    if not _NAME.fullmatch(path.stem):
        raise DeckError(path, where.deck_key("name"),
                        N_("[deck]: name %(value)s must be lowercase letters, digits, - or _"),
                        value=repr(path.stem))
    known = registry.deck_kinds()  # each game's manifest says its own
    if deck["kind"] not in known:
        raise DeckError(path, where.deck_key("kind"),
                        N_("[deck]: kind %(value)s is not known; use %(kinds)s"),
                        value=repr(deck["kind"]), kinds=", ".join(known))
    return deck


def _back(deck: dict, path: Path, where: Locator) -> Back:
    back = deck.get("back", {})
    if not isinstance(back, dict):
        raise DeckError(path, where.deck_key("back"),
                        N_("[deck]: back must be a table: [deck.back] with colour and text"))
    for key in back:
        if key not in _BACK_KEYS:
            raise DeckError(path, where.deck_key(f"back.{key}"),
                            N_("[deck.back]: unknown key %(value)s; use colour and text"),
                            value=repr(key))
    colour = back.get("colour", DEFAULT_BACK)
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        raise DeckError(path, where.deck_key("back.colour"),
                        N_("[deck.back]: colour must be written like \"#2b3a55\", not "
                           "%(value)s"), value=repr(colour))
    text = back.get("text", f"{deck['title_ru']}\n{deck['title_en']}")
    if not isinstance(text, str):
        raise DeckError(path, where.deck_key("back.text"),
                        N_("[deck.back]: text must be text"))
    return Back(colour.lower(), text)


# The decks read lately, by file and content: a game started, a card looked up or a
# deck printed reads its file again (a fast hash of a few kilobytes), and parses and checks
# it only when its bytes changed. Decks are frozen, so one object serves every caller.
_LOADED: OrderedDict[tuple[str, bytes], Deck] = OrderedDict()
_LOADED_MAX = 64
_LOADED_LOCK = threading.Lock()


def load_file(path: Path | str) -> Deck:
    """Read and check one deck file; DeckError says where and what is wrong."""
    path = Path(path)
    raw = read_bytes(path)
    key = (str(path), hashlib.blake2b(raw, digest_size=16).digest())
    with _LOADED_LOCK:
        deck = _LOADED.get(key)
        if deck is not None:
            _LOADED.move_to_end(key)
            return deck
    deck = _check_file(path, raw)
    with _LOADED_LOCK:
        _LOADED[key] = deck
        while len(_LOADED) > _LOADED_MAX:
            _LOADED.popitem(last=False)
    return deck


def _check_file(path: Path, content: bytes) -> Deck:
    data, where = read(path, content)
    deck = _deck_table(data, path, where)
    kind = deck["kind"]
    read_card = resolve(registry.deck_kinds()[kind].card)
    back = _back(deck, path, where)
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise DeckError(path, where.deck, N_("the deck has no cards; add [[cards]] tables"))
    entries: list[DeckCard] = []
    lines: dict[str, int] = {}
    for index, raw in enumerate(raw_cards):
        try:
            code = kinds.check_code(index, raw)
            if code in lines:
                raise Problem(N_("card %(code)s: the code %(code)s is already used by the "
                                 "card on line %(line)s; give each card its own code "
                                 "(use copies = N for repeats)"), "code",
                              code=code, line=lines[code])
            copies = kinds.check_copies(code, raw)
            fields = {k: v for k, v in raw.items() if k != "copies"}
            card = read_card(code, fields)
        except Problem as problem:
            raise DeckError(path, where.card(index, problem.key), *problem.parts) from None
        lines[code] = where.card(index)
        entries.append(DeckCard(code, copies, card, where.card(index)))
    check = registry.deck_kinds()[kind].problems
    problems = resolve(check)([(e.card, e.copies) for e in entries]) if check else []
    if problems:
        first = problems[0]
        line = where.card(first.index, first.key) if first.index is not None else where.deck
        raise DeckError(path, line, *first.parts)
    return Deck(deck["name"], kind, deck["title_en"].strip(), deck["title_ru"].strip(), back,
                tuple(entries), path)


def folders_to_read(folders: Iterable[Path | str] | None = None) -> list[Path]:
    """The shipped folder, then ``REFEREE_DECKS``, then the given folders (later wins)."""
    found = [DECKS_DIR]
    found += [Path(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p.strip()]
    found += [Path(p) for p in folders or ()]
    return found


def deck_paths(folders: Iterable[Path | str] | None = None) -> dict[str, Path]:
    """Deck name → file, without reading the files."""
    paths: dict[str, Path] = {}
    for folder in folders_to_read(folders):
        if folder.is_dir():
            for path in sorted(folder.glob("*.toml")):
                paths[path.stem] = path
    return dict(sorted(paths.items()))


def deck_names(folders: Iterable[Path | str] | None = None) -> list[str]:
    """The names of every deck file, sorted."""
    return list(deck_paths(folders))


def load_deck(name: str, folders: Iterable[Path | str] | None = None) -> Deck:
    """One deck by name; UnknownDeck lists the names there are."""
    paths = deck_paths(folders)
    if name not in paths:
        if not paths:
            raise UnknownDeck(N_("no deck named %(name)s; decks: none"), name=repr(name))
        raise UnknownDeck(N_("no deck named %(name)s; decks: %(decks)s"),
                          name=repr(name), decks=", ".join(paths))
    return load_file(paths[name])


def load_all(folders: Iterable[Path | str] | None = None,
             errors: list[DeckError] | None = None) -> dict[str, Deck]:
    """Every deck by name. A bad file raises, unless ``errors`` collects it (then it is
    skipped and the others still load)."""
    decks: dict[str, Deck] = {}
    for name, path in deck_paths(folders).items():
        try:
            decks[name] = load_file(path)
        except DeckError as err:
            if errors is None:
                raise
            errors.append(err)
    return decks
