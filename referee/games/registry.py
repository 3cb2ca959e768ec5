"""Every game the app referees, named once: no kind registers itself on import.

Whatever imports this module (the app, the CLI, a test) knows all four kinds, so a
stored Coup table loads wherever it is read.
"""

from __future__ import annotations

from referee.games.berserk.game import KIND as BERSERK
from referee.games.coup.game import KIND as COUP
from referee.games.duel.game import KIND as DUEL
from referee.games.interface import GameKind
from referee.games.underworld.game import KIND as UNDERWORLD
from referee.rules import N_, RuleError

KINDS: dict[str, GameKind] = {k.name: k for k in (DUEL, COUP, UNDERWORLD, BERSERK)}

UNKNOWN = N_("Unknown game kind %(kind)s; it is one of %(kinds)s.")


def kind(name: str) -> GameKind:
    """The kind called ``name``; a RuleError for a name no game has."""
    found = KINDS.get(name)
    if found is None:
        raise RuleError(None, UNKNOWN, kind=str(name), kinds=", ".join(KINDS))
    return found
