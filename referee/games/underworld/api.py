"""Castle games in the JSON API: /api/v1/castle, with the bearer check of api.py."""

from __future__ import annotations

from flask import Blueprint, abort, g, jsonify, request
from flask_babel import gettext

from referee.api.core import body, player_json, require_token, version_of
from referee.games import service as games
from referee.games.underworld import rules as uw
from referee.games.underworld import service
from referee.games.underworld.view import Screen
from referee.games.underworld.web import STALE, STALE_LEVEL
from referee.notes import note
from referee.rules import N_, RuleError
from referee.store import players as rows
from referee.web.context import found_or_404, get_db

bp = Blueprint("api_underworld", __name__, url_prefix="/api/v1")
bp.before_request(require_token)

# Action fields naming a player: the registry id may be sent as a number or as text.
PLAYER_FIELDS = ("player", "helper", "fighter", "challenger", "defender", "partner", "giver",
                 "receiver")


def game_json(game: games.Game) -> dict:
    """A castle game as the API shows it: row, seats, setup, state, what is allowed now,
    the pending fight's breakdown (in ``state``) and the record."""
    table: service.Table = game.state
    state = table.state
    names = service.names(get_db(), table.seats)
    setup = game.row["setup"]
    aw = uw.awaiting(state)
    view = Screen(game, names)
    return {
        "id": game.id,
        "version": game.version,
        "status": game.row["status"],
        "title": game.row["title"],
        "players": [{"id": pid, "engine_id": str(pid), "character": names[str(pid)],
                     "seat": seat} for seat, pid in enumerate(table.seats)],
        "setup": {"castle": setup["castle"]["name"], "classes": setup["classes"]["name"],
                  "passport_levels": setup["passport_levels"],
                  "starting": setup["starting"], "levels": setup.get("levels")},
        "awaiting": {"phase": aw.phase, "player": aw.player, "step": aw.step,
                     "may_step_again": aw.may_step_again, "fighters": list(aw.fighters),
                     "discard": aw.discard, "winner": aw.winner or None},
        "allowed": [{"action": o.action, "player": o.player or None}
                    for o in uw.allowed(state)],
        "winner": uw.winner(state),
        "state": uw.state_to_dict(state),
        "record": [{k: r[k] for k in ("seq", "at", "referee", "text", "levels", "turn",
                                      "winner", "undone", "undo")} for r in view.record()],
        "actions": [{"seq": r["seq"], "action": r["action"]} for r in game.actions],
        "created_at": game.row["created_at"],
        "updated_at": game.row["updated_at"],
    }


def summary_json(row: dict) -> dict:
    """A game in a list: its row and seats (GET /castle/<id> gives the whole state)."""
    out = {k: row[k] for k in ("id", "version", "status", "title", "created_at",
                                "updated_at")}
    out["players"] = [{"id": s["player_id"], "character": s["character"]}
                      for s in row.get("seated", [])]
    return out


def _stale(err: games.Conflict):
    return jsonify({**game_json(err.game), "error": gettext(STALE)}), 409


@bp.get("/castle")
def list_games():
    """Castle games, newest first; ?player=<id> keeps that player's."""
    db = get_db()
    player_id = request.args.get("player")
    if player_id is not None and (not player_id.isdigit()
                                  or rows.get(db, int(player_id)) is None):
        abort(404)
    found = service.listing(db, int(player_id) if player_id else None)
    return jsonify([summary_json(r) for r in found])


@bp.post("/castle")
def create_game():
    """Start a castle game (U4): players, decks, 4 starting cards each, passport levels."""
    data = body()
    unknown = sorted(set(data) - service.REQUEST_KEYS)
    if unknown:
        raise RuleError(None, N_("Unknown field: %(field)s."), field=", ".join(unknown))
    game = service.create(get_db(), g.api_referee["id"], data)
    return jsonify(game_json(game)), 201


@bp.get("/castle/<int:game_id>")
def get_game(game_id: int):
    """One castle game with its state, what is allowed now and its record."""
    return jsonify(game_json(found_or_404(service.load, game_id)))


@bp.post("/castle/<int:game_id>/actions")
def act(game_id: int):
    """Apply one action (``kind`` and its fields, optional ``version``)."""
    found_or_404(service.load, game_id)
    data = dict(body())
    version = version_of(data)
    data.pop("version", None)
    if not isinstance(data.get("kind"), str):  # the engine looks the kind up by name
        data["kind"] = str(data.get("kind"))
    for name in PLAYER_FIELDS:  # registry ids may come as numbers
        if type(data.get(name)) is int:
            data[name] = str(data[name])
    try:
        game = games.act(get_db(), g.api_referee["id"], service.KIND, game_id, data, version)
    except games.Conflict as err:
        return _stale(err)
    return jsonify(game_json(game))


@bp.post("/castle/<int:game_id>/undo")
def undo(game_id: int):
    """Undo the latest action (and the passport levels it moved)."""
    found_or_404(service.load, game_id)
    data = request.get_json(silent=True)
    data = data if isinstance(data, dict) else {}
    unknown = sorted(set(data) - {"version"})
    if unknown:
        raise RuleError(None, N_("Unknown field: %(field)s."), field=", ".join(unknown))
    try:
        game = games.undo(get_db(), g.api_referee["id"], service.KIND, game_id, version_of(data))
    except games.Conflict as err:
        return _stale(err)
    return jsonify(game_json(game))


@bp.post("/castle/quick-fight")
def quick_fight():
    """U7–U8 from numbers alone on a registry player's level (a normal level event)."""
    data = body()
    unknown = sorted(set(data) - {"player", "bonuses", "strength", "version"})
    if unknown:
        raise RuleError(None, N_("Unknown field: %(field)s."), field=", ".join(unknown))
    db = get_db()
    if type(data.get("player")) is not int or rows.get(db, data["player"]) is None:
        abort(404)
    reason = note(service.QUICK_REASON, bonuses=str(data.get("bonuses", 0)),
                  strength=str(data.get("strength")))
    try:
        done = service.quick_fight(db, g.api_referee["id"], data["player"],
                                   data.get("bonuses", 0), data.get("strength"),
                                   version_of(data), reason)
    except service.PlayerStale as err:
        return jsonify({"error": gettext(STALE_LEVEL, player=err.row["character"]),
                        "player": player_json(err.row)}), 409
    r = done.fight
    return jsonify({"outcome": r.outcome, "score": r.player_score, "strength": r.monster_score,
                    "level_before": r.level_before, "level": r.level,
                    "event_id": done.event_id, "player": player_json(done.row)})
