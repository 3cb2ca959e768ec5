"""The Games hub, and each game's doors on the web: its list, its screen, its sheet panel.

Each game's manifest (games.registry) says where it lives on the web; this serves every
game alike from there: the hub, the running list and a player's sheet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, g, render_template, url_for
from flask_babel import gettext
from sqlite_utils import Database

from referee.games import names, registry
from referee.games.manifest import Manifest, resolve
from referee.store import games
from referee.web.context import get_db
from referee.web.security import referee_required

bp = Blueprint("games", __name__)


@dataclass(frozen=True)
class Door:
    """Where one kind lives on the web."""

    index: str  # the endpoint of its list
    screen: Callable[[int], str]  # the address of game number n
    blurb: str  # N_ msgid: one line on what it settles


def _door(game: Manifest) -> Door:
    endpoint, argument = game.screen

    def screen(n: int) -> str:
        values: dict[str, Any] = {argument: n}  # url_for's keywords: the route's values
        return url_for(endpoint, **values)

    return Door(game.index, screen, game.blurb)


def door(kind: str) -> Door | None:
    """Where the kind called ``kind`` lives on the web; None for no game's."""
    game = registry.manifests().get(kind)
    return _door(game) if game else None


def player_panels(db: Database, player_id: int) -> dict[str, object]:
    """Each game's panel of one player, by kind, for their sheet (its template is
    ``<kind>/_player.html``)."""
    return {game.key: resolve(game.panel)(db, player_id) for game in registry.GAMES
            if game.panel is not None}


@bp.get("/games")
@referee_required
def index():
    """The games the app referees, with those in progress."""
    available = [(game.index, gettext(game.kind.title), gettext(game.blurb))
                 for game in registry.GAMES]
    doors = {game.key: _door(game) for game in registry.GAMES}
    running = [game for game in games.running(get_db()) if game["kind"] in doors]
    for game in running:
        game["url"] = doors[game["kind"]].screen(game["id"])
    return render_template("games/index.html", games=available, running=running)


# Games named by kind and number: one name on every screen.
@bp.app_template_global()
def game_name(kind: str, number: int) -> str:
    """What a referee calls the game: "Coup table 2", "Battle 4 (station Tavern)"."""
    if "station_names" not in g:
        g.station_names = names.station_names(get_db())
    return names.name(kind, number, g.station_names, gettext)
