"""The tables that travel between stations, listed once: the core ones here, then each
game's own (its manifest's ``tables``, games.registry).

fold writes rows of these tables by their key, a founding snapshot (ledger.genesis)
copies those marked ``snapshot`` parents first, and a one-time key (store.once) names
the first row of those marked ``made`` a creation writes.
"""

from __future__ import annotations

import functools

from referee.games import registry
from referee.games.manifest import Manifest, Table

# Parents first: the order a founding snapshot copies them in.
CORE = (Table("referees", made=True), Table("settings", ("key",)),
        Table("players", made=True), Table("events"), Table("games", made=True),
        Table("game_players", ("game_id", "seat")), Table("game_actions"),
        Table("retired_passports"),
        Table("conflicts", snapshot=False), Table("stations", snapshot=False))


def replicated() -> tuple[Table, ...]:
    """Every replicated table: the core ones, then each game's."""
    return _of(registry.GAMES)


@functools.lru_cache(maxsize=4)
def _of(games: tuple[Manifest, ...]) -> tuple[Table, ...]:
    # cached by the list of games itself (a manifest hashes by identity): a test that
    # adds a game gets its tables, and a write does not rebuild the list
    return CORE + tuple(t for m in games for t in m.tables)


def games_own() -> set[str]:
    """The names of the games' own tables."""
    return {t.name for m in registry.GAMES for t in m.tables}


def keys() -> dict[str, tuple[str, ...]]:
    """Each replicated table's key columns, by name."""
    return _keys(registry.GAMES)


@functools.lru_cache(maxsize=4)
def _keys(games: tuple[Manifest, ...]) -> dict[str, tuple[str, ...]]:
    return {t.name: t.key for t in _of(games)}


def snapshot() -> list[tuple[str, str]]:
    """The tables a founding snapshot copies, parents first, with the columns that
    order them."""
    return [(t.name, ", ".join(t.key)) for t in replicated() if t.snapshot]


def made() -> frozenset[str]:
    """The tables whose first row a creation's one-time key names."""
    return _made(registry.GAMES)


@functools.lru_cache(maxsize=4)
def _made(games: tuple[Manifest, ...]) -> frozenset[str]:
    return frozenset(t.name for t in _of(games) if t.made)
