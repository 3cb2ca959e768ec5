"""The conflicts of merged stations, under /api/v1: read them, settle them."""

from __future__ import annotations

from typing import ClassVar, Literal

from flask import g, jsonify, request
from flask_babel import gettext
from pydantic import BaseModel

from referee.api.models import SQLITE_MAX, Answer, Body, Error
from referee.api.registry import ApiBlueprint
from referee.rules import N_, RuleError
from referee.stations.current import runtime
from referee.store import conflicts
from referee.web.context import get_db
from referee.web.errors import error_response
from referee.web.i18n import rule_message

bp = ApiBlueprint("api_stations", __name__)


class ConflictQuery(BaseModel):
    """Which conflicts: ``held`` (waiting for a referee), ``applied`` or ``discarded``."""

    status: Literal["held", "applied", "discarded"] | None = None
    player: int | None = None


class ConflictOut(Answer):
    """A change the merged order of two stations' logs refused, held for a person."""

    id: str
    at: str
    station: str
    player_id: int | None
    kind: str | None
    rule: str | None
    message: str
    status: str
    change: dict
    resolved_at: str | None
    resolver_id: int | None


class PairRequest(Body):
    """What a new station sends the organizer's station to be paired."""

    malformed: ClassVar[str | None] = N_("Send a JSON object with code, station, name and "
                                         "device.")

    code: str
    station: str
    name: str
    device: str
    address: str = ""


class Paired(Answer):
    """The organizer's answer: the new station's number and how to reach the event."""

    number: int
    event: str
    event_key: str
    device: str
    address: str
    name: str
    folder: str


class Decision(Body):
    """``apply`` the held change anyway (within its bounds) or ``discard`` it."""

    decision: Literal["apply", "discard"]


def conflict_json(row: dict) -> dict:
    """A conflict as the API shows it, its refusal in the reader's language."""
    text = gettext(row["msg"], **row["params"]) if row["params"] else gettext(row["msg"])
    return {"id": row["id"], "at": row["at"], "station": row["station_name"] or row["station"],
            "player_id": row["player_id"], "kind": row["kind"], "rule": row["rule"],
            "message": f"{row['rule']}: {text}" if row["rule"] else text,
            "status": row["status"], "change": row["change"],
            "resolved_at": row["resolved_at"], "resolver_id": row["resolver_id"]}


def _find(db, conflict_id: str) -> dict | None:
    found = conflicts.find(db, conflict_id=conflict_id)
    return found[0] if found else None


@bp.operation("get", "/conflicts", {200: list[ConflictOut]}, query=ConflictQuery)
def list_conflicts():
    """Conflicts found while merging stations, newest first (?status=held for the open)."""
    status = request.args.get("status") or None
    if status not in (None, "held", "applied", "discarded"):
        return error_response(gettext("Unknown status."), 422)
    player = request.args.get("player", type=int)
    if player is not None and abs(player) > SQLITE_MAX:
        return jsonify([])  # no player has an id that large
    return jsonify([conflict_json(c) for c in conflicts.find(get_db(), status, player)])


@bp.operation("post", "/conflicts/<conflict_id>", {200: ConflictOut, 404: Error, 409: Error},
              body=Decision)
def settle(conflict_id: str, body: Decision):
    """Apply a held change anyway or discard it; every station learns the decision."""
    db = get_db()
    found = _find(db, conflict_id)
    if found is None:
        return error_response(gettext(conflicts.NO_CONFLICT), 404)
    if found["status"] != "held":
        return error_response(gettext(conflicts.SETTLED), 409)
    conflicts.settle(db, g.api_referee["id"], conflict_id, body.decision)
    return jsonify(conflict_json(_find(db, conflict_id) or found))


@bp.operation("post", "/stations/pair", {200: Paired, 403: Error, 404: Error},
              body=PairRequest, public=True, errors=(400, 422))
def pair(body: PairRequest):
    """A new station pairs with the organizer's by the one-time code it shows."""
    station = runtime()
    if station is None:
        return error_response(gettext("This server is not a station."), 404)
    try:
        return jsonify(station.accept(body.sent()))
    except RuleError as err:
        return error_response(rule_message(err), 403)
