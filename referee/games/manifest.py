"""One game, declared once: everything the rest of the app needs of it.

Each game's folder exports one :class:`Manifest` (``referee/games/<game>/manifest.py:
GAME``) and :mod:`referee.games.registry` lists them. The app factory registers the
blueprints it names, the hub shows its entry, games.names says its games' names, the
lists offer its filters, decks/ reads its deck kinds, printing/ draws its card faces and
store/ replicates its tables, all from here; nothing registers itself on import. A game
laid out as the app's own are (a ``web`` and an ``api`` module, its list's and screen's
endpoints named alike) states only what is its own through :meth:`Manifest.laid_out`.

A manifest is plain data, below the web layer: the store and the printers read it. What
it names of the web (blueprints, the player's panel) or of the printers (card faces) is
a reference, ``"package.module:name"``, imported only by whoever uses it (the app
factory, the hub, the sheets), so reading a manifest loads neither Flask nor fpdf. A
reference may also be the object itself (a game defined in a test passes its own).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.games.interface import GameKind

Ref = Any  # "package.module:name", or the object itself


def resolve(ref: Ref) -> Any:
    """The object a reference names (an object is its own reference)."""
    if not isinstance(ref, str):
        return ref
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Table:
    """A table of the game's own that travels between stations like the core ones.

    ``key``: the columns naming a row; ``made``: a creation's first row, which a one-time
    key remembers (store.once); ``snapshot``: copied into a founding snapshot."""

    name: str
    key: tuple[str, ...] = ("id",)
    made: bool = False
    snapshot: bool = True


@dataclass(frozen=True)
class DeckKind:
    """A ``kind`` of deck file (printables/decks) and how its cards are read and drawn.

    ``card(code, fields)`` → the card, or ``decks.kinds.Problem``; ``problems(kind,
    [(card, copies)])`` → the whole deck's ``Problem`` list; ``face(pdf, card, x, y,
    lang)`` draws one card on a sheet."""

    name: str
    card: Ref
    face: Ref
    problems: Ref | None = None


@dataclass(frozen=True, eq=False)
class Manifest:
    """One game as the app knows it.

    ``kind``: the pure game (games.interface). ``name``: an N_ msgid saying one game
    ("Duel %(n)s"); ``blurb``: the hub's line on what it settles. ``index``: the endpoint
    of its list; ``screen``: the endpoint of one game and the argument naming it.
    ``blueprints``: its web and API blueprints, in the order they are registered.
    ``lists``: by blueprint name, whose games a list's filter offers: the players seated
    in a game of the kind (the kind's name) or owning a row of a table (its name).
    ``panel(db, player_id)``: what a player's sheet shows of it (template
    ``<kind>/_player.html``), None for none. ``decks``: its deck kinds; ``tables``: its
    replicated tables, parents first.
    """

    kind: GameKind
    name: str
    blurb: str
    index: str
    screen: tuple[str, str]
    blueprints: tuple[Ref, ...]
    lists: Mapping[str, str] = field(default_factory=dict)
    panel: Ref | None = None
    decks: tuple[DeckKind, ...] = ()
    tables: tuple[Table, ...] = ()

    @classmethod
    def laid_out(cls, module: str, kind: GameKind, *, web: str, name: str, blurb: str,
                 arg: str = "game_id", more: tuple[str, ...] = (),
                 lists: Mapping[str, str] | None = None, panel: str | None = "web:player_panel",
                 decks: tuple[DeckKind, ...] = (), tables: tuple[Table, ...] = ()) -> Manifest:
        """A game laid out as the app's own are, in the package of ``module`` (its
        manifest's ``__name__``): the blueprint ``web`` (``<package>.web:bp``) lists the
        games at ``<web>.index`` and shows one at ``<web>.show`` by ``arg``, and its list
        filters by the kind; ``<package>.api:bp`` is the API; ``more`` are blueprints
        registered between the two and ``panel`` the player's panel, each
        ``"module:name"`` within the package; ``lists``: filters of other lists."""
        package = module.rpartition(".")[0]
        return cls(kind=kind, name=name, blurb=blurb, index=f"{web}.index",
                   screen=(f"{web}.show", arg),
                   blueprints=tuple(f"{package}.{ref}" for ref in ("web:bp", *more, "api:bp")),
                   lists={web: kind.name, **(lists or {})},
                   panel=None if panel is None else f"{package}.{panel}",
                   decks=decks, tables=tables)

    @property
    def key(self) -> str:
        """The kind's name: what games.kind, URLs of the hub and the store call it."""
        return self.kind.name
