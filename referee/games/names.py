"""What a referee calls a game: its kind and its number within that kind ("Coup table 2",
"Duel 3", "Castle game 1", "Battle 4"), the same on every screen, in the feed and in the
API.

Each game gets its number within its kind when it is created (store.games.create), and
that stored number never changes: URLs and the API's ids are made of it. A station hands
out numbers from its own block (store.ledger.block) so that two stations that create
games at the same moment never collide; the organizer's station (and a database that is
no station) numbers 1, 2, 3..., and station k from k × 1,000,000. So a number is said as
it is in the organizer's block, and otherwise as its place in its station's block with
the station's name: "Coup table 2 (station Tavern)". The name follows from the stored
number alone, so it is the same on every station, before and after their logs merge,
and a hand-over (which changes who plays the game) does not rename it.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from referee.games import registry
from referee.games.interface import REASON_STEP
from referee.notes import Note, note, render
from referee.rules import N_
from referee.store.ledger import BLOCK, FOUNDER

ELSEWHERE = N_("%(n)s (station %(station)s)")


def spoken(number: int) -> tuple[int, int | None]:
    """The number as said and the station whose block it is from (None: the
    organizer's, whose numbers are said as they are)."""
    station = number // BLOCK
    if station <= FOUNDER:
        return number, None
    return number - station * BLOCK + 1, station


def station_names(db: Database) -> dict[int, str]:
    """Every station's name by its number."""
    return dict(db.execute("SELECT number, name FROM stations").fetchall())


def number_note(number: int, stations: dict[int, str] | Database) -> int | Note:
    """The number as said, as a value of a note: the plain number, or a note naming the
    station it comes from (``stations`` by number, or the database to read them from:
    read only for a number from another station's block)."""
    n, station = spoken(number)
    if station is None:
        return n
    if isinstance(stations, Database):
        stations = station_names(stations)
    return note(ELSEWHERE, n=n, station=stations.get(station, str(station)))


def name_note(kind: str, number: int | Note) -> Note:
    """The game's name as a note ("Castle game 2"), rendered in each reader's language;
    ``number`` as :func:`number_note` says it."""
    game = registry.manifests().get(kind)
    if game is None:  # a kind the registry does not name (a test's): "game #5"
        return note(REASON_STEP, id=number)
    return note(game.name, n=number)


def name(kind: str, number: int, stations: dict[int, str],
         translate: Callable[[str], str] = lambda s: s) -> str:
    """The game's name in the reader's language: "Coup table 2"."""
    return render(name_note(kind, number_note(number, stations)), translate)
