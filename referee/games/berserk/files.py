"""The deck files of Berserk-style cards (printables/decks), each read once per version."""

from __future__ import annotations

import functools

from referee.decks import Deck, DeckError, deck_paths, load_file
from referee.games.berserk.game import NAME
from referee.rules import N_, RuleError


@functools.lru_cache(maxsize=32)
def _deck_file(path: str, mtime_ns: int, size: int) -> Deck | None:
    """A deck file read once per version of it (reading every deck takes ~60 ms)."""
    try:
        return load_file(path)
    except DeckError:
        return None  # the Print page reports broken files; here they are just left out


def decks() -> dict[str, Deck]:
    """Every readable deck of Berserk-style cards, by name."""
    found = {}
    for name, path in deck_paths().items():
        try:
            stat = path.stat()
        except OSError:
            continue
        deck = _deck_file(str(path), stat.st_mtime_ns, stat.st_size)
        if deck is not None and deck.kind == NAME:
            found[name] = deck
    return found


def deck(name: object) -> Deck:
    """One Berserk deck; RuleError naming the decks there are."""
    found = decks()
    if not isinstance(name, str) or name not in found:
        raise RuleError(None, N_("There is no Berserk deck named %(deck)s; choose one of "
                                 "%(decks)s."), deck=str(name)[:40], decks=", ".join(found) or "-")
    return found[name]
