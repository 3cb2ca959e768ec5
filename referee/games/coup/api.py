"""Coup tables in the JSON API: /api/v1/coup, with the bearer check of api.py."""

from __future__ import annotations

from flask import Blueprint, abort, g, jsonify, request
from flask_babel import gettext

from referee.api.core import body, require_token, version_of
from referee.games import service as games
from referee.games.coup import rules as coup
from referee.games.coup import service
from referee.games.coup.web import STALE, translator
from referee.rules import N_, RuleError
from referee.store import players as rows
from referee.web.context import found_or_404, get_db
from referee.web.errors import error_response
from referee.web.i18n import rule_message

bp = Blueprint("api_coup", __name__, url_prefix="/api/v1")
bp.before_request(require_token)

SETUP_FIELDS = {"players", "variant", "first", "one_coin_start", "title"}
# Action fields naming a player: the registry id may be sent as a number or a string.
PLAYER_FIELDS = ("player", "target", "challenger", "blocker")


def table_json(game: games.Game) -> dict:
    """A table as the API shows it: the row, the seats' names and the engine's state."""
    names = service.names(get_db(), game)
    tr = translator()
    state = coup.state_to_dict(game.state)
    for seat in state["players"]:
        seat["player_id"] = int(seat["id"])
        seat["name"] = names[seat["id"]]
    return {
        "id": game.id,
        "version": game.version,
        "status": game.row["status"],
        "title": game.row["title"],
        "player_ids": game.row["player_ids"],
        "names": names,
        "record": [service.log_line(e, names, tr) for e in game.state.log],
        "state": state,
        "created_at": game.row["created_at"],
        "updated_at": game.row["updated_at"],
    }


def summary_json(row: dict) -> dict:
    """A table in a list: its row only (GET /coup/<id> gives the whole state)."""
    return {k: row[k] for k in ("id", "version", "status", "title", "created_at",
                                "updated_at")}


def _step(game_id: int, run):
    """Run one write: stale → 409 with the fresh table, refusal → 422 naming players."""
    try:
        game = run()
    except games.Conflict as err:
        return jsonify({**table_json(err.game), "error": gettext(STALE)}), 409
    except RuleError as err:
        game = found_or_404(service.load, game_id)
        named = service.named_error(err, service.names(get_db(), game))
        return error_response(rule_message(named), 422, err.rule)
    return jsonify(table_json(game))


@bp.post("/coup")
def create_table():
    """Seat registry players in order and start the table (C1–C4)."""
    data = body()
    unknown = sorted(set(data) - SETUP_FIELDS)
    if unknown:
        raise RuleError(None, N_("Unknown field: %(field)s."), field=", ".join(unknown))
    game = service.create(get_db(), g.api_referee["id"], data.get("players"),
                          variant=data.get("variant", "ambassador"), first=data.get("first"),
                          one_coin_start=data.get("one_coin_start", False),
                          title=data.get("title", ""))
    return jsonify(table_json(game)), 201


@bp.get("/coup")
def list_tables():
    """Tables, newest first; ?player=<id> keeps those where the player sits."""
    db = get_db()
    player_id = request.args.get("player")
    if player_id is not None and (not player_id.isdigit() or
                                  rows.get(db, int(player_id)) is None):
        abort(404)
    listed = service.listing(db, int(player_id) if player_id else None)
    return jsonify([summary_json(row) for row in listed])


@bp.get("/coup/<int:game_id>")
def get_table(game_id: int):
    """One table: seats, coins, face-up cards, the question awaited and its options."""
    return jsonify(table_json(found_or_404(service.load, game_id)))


@bp.post("/coup/<int:game_id>/actions")
def act(game_id: int):
    """Record one step: an action of the engine (one of the table's ``options``)."""
    found_or_404(service.load, game_id)
    data = body()
    version = version_of(data)
    action = {k: v for k, v in data.items() if k != "version"}
    for key in PLAYER_FIELDS:
        if type(action.get(key)) is int:
            action[key] = str(action[key])
    return _step(game_id, lambda: games.act(get_db(), g.api_referee["id"], service.KIND, game_id, action,
                                            version))


@bp.post("/coup/<int:game_id>/undo")
def undo(game_id: int):
    """Take back the table's latest step."""
    found_or_404(service.load, game_id)
    data = request.get_json(silent=True)
    data = data if isinstance(data, dict) else {}
    unknown = sorted(set(data) - {"version"})
    if unknown:
        raise RuleError(None, N_("Unknown field: %(field)s."), field=", ".join(unknown))
    version = version_of(data)
    return _step(game_id, lambda: games.undo(get_db(), g.api_referee["id"], service.KIND, game_id,
                                             version))
