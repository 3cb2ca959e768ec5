"""The JSON API under /api/v1: what the screens offer, with bearer tokens."""

from __future__ import annotations

from flask import Blueprint, abort, g, jsonify, request, url_for
from flask_babel import gettext

from referee.accounts import service as accounts
from referee.api.openapi import spec
from referee.players import service
from referee.rules import N_, RuleError
from referee.rules.stats import COUNTERS
from referee.store import events, referees
from referee.store import players as rows
from referee.web.context import get_db, public_base
from referee.web.errors import error_response
from referee.web.i18n import event_reason, rule_message

bp = Blueprint("api", __name__, url_prefix="/api/v1")

# Calls that need no bearer token: getting one, and reading the API's own description.
OPEN_ENDPOINTS = {"api.token", "api.openapi"}


@bp.before_request
def require_token():
    """Every call but the open ones needs `Authorization: Bearer <token>`."""
    if request.endpoint in OPEN_ENDPOINTS:
        return
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    referee = referees.by_token(get_db(), token.strip()) if scheme.lower() == "bearer" else None
    if referee is None:
        abort(401)
    g.api_referee = referee
    return


def body() -> dict:
    """The JSON object sent, or a 400 with a sentence."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RuleError(None, N_("Send a JSON object in the request body."))
    return data


def check_fields(data: dict, allowed: set[str] | frozenset[str]) -> None:
    """Refuse a body that carries fields the call does not know (a typo changes nothing)."""
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise RuleError(None, N_("Unknown field: %(field)s."), field=", ".join(unknown))


def version_of(data: dict) -> int | None:
    """The game version a write was made against, if the caller sent one (for 409)."""
    value = data.get("version")
    if value is None:
        return None
    if type(value) is not int:
        raise RuleError(None, N_("%(field)s must be a whole number."), field="version")
    return value


def player_json(row: dict) -> dict:
    """A player as the API shows it."""
    return {
        "id": row["id"],
        "character": row["character"],
        "player": row["player"] or "",
        "hp": row["hp"],
        "hp_max": row["hp_max"],
        "chance": row["chance"],
        "chance_max": row["chance_max"],
        "cartridges": row["cartridges"],
        "level": row["level"],
        "status": row["status"],
        "suit": row["suit"],
        "duel_deck": rows.deck_cards(row),
        "notes": row["notes"] or "",
        "wounded_at": row["wounded_at"],
        "version": row["version"],
        "passport_url": public_base() + url_for("passport.sheet", token=row["passport_token"]),
    }


def event_json(event: dict) -> dict:
    """An event as the API shows it."""
    return {
        "id": event["id"],
        "at": event["at"],
        "referee": event["referee"],
        "player_id": event["player_id"],
        "kind": event["kind"],
        "changes": event["changes"],
        "reason": event_reason(event) or "",
        "undoes": event["undoes"],
        "undone_by": event["undone_by"],
    }


def _player_or_404(player_id: int) -> dict:
    row = rows.get(get_db(), player_id)
    if row is None:
        abort(404)
    return row


def _reason(data: dict) -> str:
    value = data.get("reason", "")
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > 200:
        raise RuleError(None, N_("%(field)s must be text of at most 200 characters."),
                        field="reason")
    return value.strip()


def _stat_body(allowed: tuple[str, ...]) -> tuple[dict, str]:
    data = body()
    unknown = sorted(set(data) - set(allowed) - {"reason"})
    if unknown:
        raise RuleError(None, N_("Unknown stat: %(field)s."), field=", ".join(unknown))
    values = {k: data[k] for k in allowed if k in data}
    if not values:
        raise RuleError(None, N_("Say which stat to change."))
    return values, _reason(data)


@bp.post("/token")
def token():
    """Trade a referee's name and password for a bearer token."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) \
            or not isinstance(data.get("password"), str):
        return error_response(gettext("Send a JSON object with name and password."), 400)
    row = accounts.authenticate(get_db(), data["name"], data["password"])
    if row is None:
        return error_response(gettext("Wrong name or password."), 401)
    return jsonify({"token": referees.issue_token(get_db(), row["id"])})


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3.1 description of this API."""
    return jsonify(spec())


@bp.get("/players")
def list_players():
    """Every player, or those matching ?q= by character or player name."""
    return jsonify([player_json(r) for r in rows.search(get_db(), request.args.get("q", ""))])


@bp.post("/players")
def create_player():
    """Register a player; HP and chance start at their maximums."""
    data = body()
    allowed = {"character", "player", "hp_max", "chance_max", "cartridges", "suit", "level",
               "notes", "reason"}
    check_fields(data, allowed)
    for name in ("hp_max", "chance_max", "cartridges", "level"):
        # JSON numbers only: "3" or true are mistakes here, unlike in a form or CSV.
        if name in data and (isinstance(data[name], bool) or not isinstance(data[name], int)):
            raise RuleError(None, N_("%(field)s must be a whole number."), field=name)
    row = service.create(get_db(), g.api_referee["id"], data, _reason(data))
    return jsonify(player_json(row)), 201


@bp.get("/players/<int:player_id>")
def get_player(player_id: int):
    """One player."""
    return jsonify(player_json(_player_or_404(player_id)))


@bp.patch("/players/<int:player_id>")
def edit_player(player_id: int):
    """Change names, maximums, suit or notes."""
    _player_or_404(player_id)
    data = body()
    check_fields(data, {*service.EDITABLE, "reason"})
    row = service.edit(get_db(), g.api_referee["id"], player_id, data, _reason(data))
    return jsonify(player_json(row))


@bp.post("/players/<int:player_id>/adjust")
def adjust(player_id: int):
    """Add deltas to stats; if any result leaves its bounds, nothing is applied."""
    _player_or_404(player_id)
    deltas, reason = _stat_body(COUNTERS)
    row = service.adjust(get_db(), g.api_referee["id"], player_id, deltas, reason)
    return jsonify(player_json(row))


@bp.post("/players/<int:player_id>/set")
def set_exact(player_id: int):
    """Set stats to exact values."""
    _player_or_404(player_id)
    values, reason = _stat_body(COUNTERS)
    row = service.set_exact(get_db(), g.api_referee["id"], player_id, values, reason)
    return jsonify(player_json(row))


def _status_change(player_id: int, action):
    _player_or_404(player_id)
    data = request.get_json(silent=True)
    reason = _reason(data) if isinstance(data, dict) else ""
    return jsonify(player_json(action(get_db(), g.api_referee["id"], player_id, reason)))


@bp.post("/players/<int:player_id>/heal")
def heal(player_id: int):
    """Heal a heavily wounded player to 1 HP."""
    return _status_change(player_id, service.heal)


@bp.post("/players/<int:player_id>/kill")
def kill(player_id: int):
    """Mark the character dead."""
    return _status_change(player_id, service.kill)


@bp.post("/players/<int:player_id>/reissue")
def reissue(player_id: int):
    """A new passport token; the old passport URL answers 404 from now on."""
    _player_or_404(player_id)
    return jsonify(player_json(service.reissue(get_db(), g.api_referee["id"], player_id)))


@bp.get("/players/<int:player_id>/events")
def player_events(player_id: int):
    """The player's history, newest first."""
    _player_or_404(player_id)
    return jsonify([event_json(e) for e in events.for_player(get_db(), player_id, limit=1000)])


@bp.get("/events")
def recent_events():
    """Recent events of every referee, newest first (?before=<id> pages back)."""
    before = request.args.get("before", type=int)
    return jsonify([event_json(e) for e in events.recent(get_db(), 100, before)])


@bp.post("/events/<int:event_id>/undo")
def undo(event_id: int):
    """Undo an event by appending its compensating event; a second undo is 409."""
    db = get_db()
    event = events.get(db, event_id)
    if event is None:
        abort(404)
    data = request.get_json(silent=True)
    reason = _reason(data) if isinstance(data, dict) else ""
    try:
        row = service.undo(db, g.api_referee["id"], event_id, reason)
    except service.AlreadyUndone as err:
        # checked inside the write, so two racing undos get one 200 and one 409
        return error_response(rule_message(err), 409)
    return jsonify(player_json(row))
