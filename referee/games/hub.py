"""The Games hub: every table game the app referees, and the ones in progress."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for
from flask_babel import lazy_gettext

from referee.store import games as games_store
from referee.web.context import get_db
from referee.web.security import referee_required

bp = Blueprint("games", __name__)

# (endpoint of the game's list, title, one line on what it settles). A game shows up
# here as soon as its blueprint is registered.
GAMES = [
    ("duels.index", lazy_gettext("Duels"),
     lazy_gettext("Card duels from the table cards: rounds, hand cards, chance, extension.")),
    ("coup.index", lazy_gettext("Coup tables"),
     lazy_gettext("Claims, challenges and blocks; coins and influence.")),
    ("underworld.index", lazy_gettext("Castle games"),
     lazy_gettext("Underworld: levels, monsters, items, classes, help and challenges.")),
    ("berserk.index", lazy_gettext("Battles"),
     lazy_gettext("Berserk-style creatures: squads, properties, strikes from dice.")),
]


@bp.get("/games")
@referee_required
def index():
    """The games the app referees, with those in progress."""
    endpoints = set(current_app.view_functions)
    available = [(endpoint, title, text) for endpoint, title, text in GAMES
                 if endpoint in endpoints]
    running = games_store.running(get_db(), limit=20)
    for game in running:
        # Each game blueprint names its screen `<kind>.show` with a `game_id`.
        endpoint = f"{game['kind']}.show"
        game["url"] = url_for(endpoint, game_id=game["id"]) if endpoint in endpoints else None
    return render_template("games/index.html", games=available, running=running)
