"""Every game the app referees, listed once: one manifest a game (games.manifest).

Adding a game is its folder (``referee/games/<game>/``, with its ``manifest.py``) and
one line in ``GAMES``. The app factory, the hub, the names, the lists, the decks, the
printers and the store read the games from here, when they need them: nothing
registers itself on import, and a test may put a game of its own in ``GAMES``.
"""

from __future__ import annotations

import referee.games.berserk.manifest
import referee.games.coup.manifest
import referee.games.duel.manifest
import referee.games.underworld.manifest
from referee.games.interface import GameKind
from referee.games.manifest import DeckKind, Manifest
from referee.rules import N_, RuleError

# In this order the hub lists them and the app registers their blueprints (the order of
# the OpenAPI document's paths).
GAMES: tuple[Manifest, ...] = (
    referee.games.duel.manifest.GAME,
    referee.games.coup.manifest.GAME,
    referee.games.underworld.manifest.GAME,
    referee.games.berserk.manifest.GAME,
)

UNKNOWN = N_("Unknown game kind %(kind)s; it is one of %(kinds)s.")


def manifests() -> dict[str, Manifest]:
    """Every game's manifest, by its kind's name."""
    return {m.key: m for m in GAMES}


def kinds() -> dict[str, GameKind]:
    """Every game kind, by name."""
    return {m.key: m.kind for m in GAMES}


def kind(name: str) -> GameKind:
    """The kind called ``name``; a RuleError for a name no game has."""
    for m in GAMES:
        if m.kind.name == name:
            return m.kind
    raise RuleError(None, UNKNOWN, kind=str(name), kinds=", ".join(m.key for m in GAMES))


def deck_kinds() -> dict[str, DeckKind]:
    """Every deck kind a game declares, by the name deck files give it."""
    return {d.name: d for m in GAMES for d in m.decks}
