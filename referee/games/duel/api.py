"""The card duel in the JSON API: /api/v1/duels, with the bearer check of api.py."""

from __future__ import annotations

from flask import Blueprint, abort, g, jsonify, request
from flask_babel import gettext

from referee.api.core import body, check_fields, require_token, version_of
from referee.games.duel import rules as duel
from referee.games.duel import service
from referee.games.duel.rules.codec import round_to_dict
from referee.games.duel.web import STALE_OTHER, STALE_ROUND
from referee.store import players as rows
from referee.web.context import found_or_404, get_db

bp = Blueprint("api_duels", __name__, url_prefix="/api/v1")
bp.before_request(require_token)

PLAY_FIELDS = {"table", "hand", "tokens"}


def duel_json(view: service.DuelView) -> dict:
    """A duel as the API shows it: the issue's contract plus the D14 record's details."""
    state = view.state
    record = duel.record_to_dict(state) if state else None
    return {
        "id": view.id,
        "version": view.version,
        "a": view.row["a"],
        "b": view.row["b"],
        "status": view.status,
        "rounds": [round_to_dict(r) for r in state.rounds] if state else [],
        "result": record["result"] if record else None,
        "awaiting": duel.awaiting(state) if state else None,
        "extensions": record["extensions"] if record else [],
        "duelists": record["duelists"] if record else None,
        "created_at": view.row["created_at"],
        "updated_at": view.row["updated_at"],
    }


def _stale(err: service.Stale, message: str):
    return jsonify({**duel_json(err.view), "error": gettext(message)}), 409


@bp.post("/duels")
def create_duel():
    """Start a duel between players a and b; both pay their cartridge (D4)."""
    data = body()
    check_fields(data, {"a", "b"})
    view = service.start(get_db(), g.api_referee["id"], data.get("a"), data.get("b"))
    return jsonify(duel_json(view)), 201


@bp.get("/duels")
def list_duels():
    """Duels, newest first; ?player=<id> keeps that player's."""
    db = get_db()
    player_id = request.args.get("player")
    if player_id is None:
        return jsonify([duel_json(v) for v in service.recent(db, 500)])
    if not player_id.isdigit() or rows.get(db, int(player_id)) is None:
        abort(404)
    return jsonify([duel_json(v) for v in service.for_player(db, int(player_id))])


@bp.get("/duels/<int:duel_id>")
def get_duel(duel_id: int):
    """One duel with its rounds and result."""
    return jsonify(duel_json(found_or_404(service.load, duel_id)))


@bp.post("/duels/<int:duel_id>/rounds")
def play_round(duel_id: int):
    """Record a round: each side's table card, optional hand card and chance tokens."""
    found_or_404(service.load, duel_id)
    data = body()
    check_fields(data, {"a", "b", "version"})
    for side in duel.SIDES:
        if isinstance(data.get(side), dict):
            check_fields(data[side], PLAY_FIELDS)
    action = duel.action_from_dict({"type": "round", "a": data.get("a"), "b": data.get("b")})
    try:
        view = service.record(get_db(), g.api_referee["id"], duel_id, action,
                              version_of(data))
    except service.Stale as err:
        return _stale(err, STALE_ROUND)
    return jsonify(duel_json(view))


@bp.post("/duels/<int:duel_id>/extension")
def decide_extension(duel_id: int):
    """Record the D12 decision: true continues and pays a cartridge, false refuses."""
    found_or_404(service.load, duel_id)
    data = body()
    check_fields(data, {"a", "b", "version"})
    action = duel.action_from_dict({"type": "extension", "a": data.get("a"),
                                    "b": data.get("b")})
    try:
        view = service.record(get_db(), g.api_referee["id"], duel_id, action,
                              version_of(data))
    except service.Stale as err:
        return _stale(err, STALE_OTHER)
    return jsonify(duel_json(view))


@bp.post("/duels/<int:duel_id>/undo")
def undo_duel(duel_id: int):
    """Take back the duel's latest action and all its effects on the players."""
    found_or_404(service.load, duel_id)
    data = request.get_json(silent=True)
    data = data if isinstance(data, dict) else {}
    check_fields(data, {"version"})
    try:
        view = service.undo(get_db(), g.api_referee["id"], duel_id, version_of(data))
    except service.Stale as err:
        return _stale(err, STALE_OTHER)
    return jsonify(duel_json(view))
