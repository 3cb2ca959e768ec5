"""The coin game's screens: its list (with the filter its manifest names) and one game."""

from __future__ import annotations

from flask import Blueprint, render_template_string, request

from referee.games import service as games
from referee.store import games as store
from referee.store import players
from referee.web import screens
from referee.web.context import found_or_404, get_db
from referee.web.security import referee_required

bp = Blueprint("coin", __name__, url_prefix="/coin")

LIST = """<h1>Coin tosses</h1>
{% for g in listed %}<p class="game">{{ game_name("coin", g.id) }}</p>{% endfor %}
{% for p in offered %}<p class="filter">{{ p.character }}</p>{% endfor %}"""


@bp.get("")
@referee_required
def index():
    db = get_db()
    offered = players.filterable(db, screens._filter(request.blueprint))
    return render_template_string(LIST, listed=store.listing(db, "coin"), offered=offered)


@bp.get("/<int:game_id>")
@referee_required
def show(game_id: int):
    game = found_or_404(lambda db, n: games.load(db, "coin", n), game_id)
    return render_template_string("<h1>{{ game_name('coin', n) }}</h1>{{ lives }}",
                                  n=game.id, lives=game.state.lives)
