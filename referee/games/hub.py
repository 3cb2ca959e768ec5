"""The Games hub, and each game's doors on the web: its list, its screen, its sheet panel.

The kinds themselves are in :mod:`referee.games.registry`; this is their web side, one
entry a kind, so the hub, the running list and a player's sheet serve every game alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Blueprint, g, render_template, url_for
from flask_babel import gettext
from sqlite_utils import Database

from referee.games import names, registry
from referee.games.berserk.view import player_panel as berserk_panel
from referee.games.coup.web import player_panel as coup_panel
from referee.games.duel.web import player_panel as duel_panel
from referee.games.underworld.web import player_panel as underworld_panel
from referee.rules import N_
from referee.store import games as store
from referee.web.context import get_db
from referee.web.security import referee_required

bp = Blueprint("games", __name__)


@dataclass(frozen=True)
class Door:
    """Where one kind lives on the web."""

    index: str  # the endpoint of its list
    screen: Callable[[int], str]  # the address of game number n
    blurb: str  # N_ msgid: one line on what it settles
    panel: Callable[[Database, int], object]  # what a player's sheet shows of it


DOORS: dict[str, Door] = {
    "duel": Door("duels.index", lambda n: url_for("duels.show", duel_id=n),
                 N_("Card duels from the table cards: rounds, hand cards, chance, extension."),
                 duel_panel),
    "coup": Door("coup.index", lambda n: url_for("coup.show", game_id=n),
                 N_("Claims, challenges and blocks; coins and influence."), coup_panel),
    "underworld": Door("underworld.index", lambda n: url_for("underworld.show", game_id=n),
                       N_("Underworld: levels, monsters, items, classes, help and "
                          "challenges."), underworld_panel),
    "berserk": Door("berserk.index", lambda n: url_for("berserk.show", game_id=n),
                    N_("Berserk-style creatures: squads, properties, strikes from dice."),
                    berserk_panel),
}
assert DOORS.keys() == registry.KINDS.keys(), "every kind needs its door on the web"


def player_panels(db: Database, player_id: int) -> dict[str, object]:
    """Each game's panel of one player, by kind, for their sheet."""
    return {name: door.panel(db, player_id) for name, door in DOORS.items()}


@bp.get("/games")
@referee_required
def index():
    """The games the app referees, with those in progress."""
    available = [(door.index, gettext(registry.kind(name).title), gettext(door.blurb))
                 for name, door in DOORS.items()]
    running = store.running(get_db())
    for game in running:
        game["url"] = DOORS[game["kind"]].screen(game["id"])
    return render_template("games/index.html", games=available, running=running)


# Games named by kind and number (issue 11, point 9): one name on every screen.
@bp.app_template_global()
def game_name(kind: str, number: int) -> str:
    """What a referee calls the game: "Coup table 2", "Battle 4 (station Tavern)"."""
    if "station_names" not in g:
        g.station_names = names.station_names(get_db())
    return names.name(kind, number, g.station_names, gettext)
