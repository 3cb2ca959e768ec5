"""The JSON API under /api/v1: what the screens offer, with bearer tokens."""

from __future__ import annotations

import re

from flask import abort, current_app, g, jsonify, request, url_for
from flask_babel import gettext

from referee.accounts.service import authenticate
from referee.api import paging
from referee.api.models import Error
from referee.api.openapi import document
from referee.api.registry import ApiBlueprint
from referee.api.schemas import (
    Event,
    NewPlayer,
    Page,
    Player,
    PlayerEdit,
    Search,
    Stats,
    Token,
    TokenRequest,
    WithReason,
)
from referee.players import service
from referee.rules import N_, RuleError
from referee.rules.stats import COUNTERS
from referee.store import events, players, referees
from referee.web.context import found_or_404, get_db, public_base
from referee.web.errors import error_response
from referee.web.i18n import event_reason, rule_message
from referee.web.once import idempotent

bp = ApiBlueprint("api", __name__)


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
        "duel_deck": players.deck_cards(row),
        "notes": row["notes"] or "",
        "wounded_at": row["wounded_at"],
        "version": row["version"],
        "passport_url": public_base() + _passport_path(row["passport_token"]),
    }


_URL_SAFE = re.compile(r"[A-Za-z0-9_-]+")


def _passport_path(token: str) -> str:
    """``url_for("passport.sheet", token=token)``, built once per script root (a
    twentieth of a tap): a token as made (URL-safe) is only appended."""
    if not _URL_SAFE.fullmatch(token):
        return url_for("passport.sheet", token=token)
    known = current_app.extensions.setdefault("referee.passport_paths", {})
    root = request.script_root
    prefix = known.get(root)
    if prefix is None:
        prefix = known[root] = url_for("passport.sheet", token="T")[:-1]
    return prefix + token


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


def _reason(body) -> str:
    return (body.reason or "").strip()


def _stats(body: Stats) -> dict:
    sent = body.sent()
    values = {k: sent[k] for k in COUNTERS if k in sent}
    if not values:
        raise RuleError(None, N_("Say which stat to change."))
    return values


@bp.operation("post", "/token", {200: Token}, body=TokenRequest, public=True,
              errors=(400, 401, 429))
def token(body: TokenRequest):
    """Trade a referee's name and password for a bearer token."""
    row = authenticate(get_db(), body.name, body.password)
    if row is None:
        return error_response(gettext("Wrong name or password."), 401)
    return jsonify({"token": referees.issue_token(get_db(), row["id"])})


@bp.operation("get", "/openapi.json", {200: dict}, public=True, errors=())
def openapi():
    """The OpenAPI 3.1 description of this API."""
    made = current_app.extensions
    if "referee.openapi" not in made:
        made["referee.openapi"] = document(
            op for blueprint in current_app.blueprints.values()
            if isinstance(blueprint, ApiBlueprint) for op in blueprint.operations)
    return jsonify(made["referee.openapi"])


@bp.operation("get", "/players", {200: list[Player]}, query=Search)
def list_players():
    """Every player, or those matching ?q= by character or player name, in name order, a
    page at a time (?limit=, ?after=)."""
    limit, q = paging.limit(500), request.args.get("q", "")
    found, total = players.page(get_db(), q, limit, paging.id_arg("after"))
    return paging.paged(found, limit, total, "after", player_json)


def _made_player(made) -> tuple[dict, int]:
    """A create repeated with its Idempotency-Key: 201 with the player it made, as the
    player stands now."""
    row = players.get(get_db(), made.ref) if made.ref is not None else None
    if row is None:
        abort(404)
    return player_json(row), 201


@bp.operation("post", "/players", {201: Player}, body=NewPlayer)
@idempotent("players", _made_player)
def create_player(body: NewPlayer):
    """Register a player; HP and chance start at their maximums."""
    row = service.create(get_db(), g.api_referee["id"], body.sent(), _reason(body))
    return jsonify(player_json(row)), 201


@bp.operation("get", "/players/<int:player_id>", {200: Player})
def get_player(player_id: int):
    """One player."""
    return jsonify(player_json(found_or_404(players.get, player_id)))


@bp.operation("patch", "/players/<int:player_id>", {200: Player}, body=PlayerEdit,
              load=players.get)
def edit_player(player_id: int, body: PlayerEdit):
    """Change names, maximums, suit or notes."""
    row = service.edit(get_db(), g.api_referee["id"], player_id, body.sent(), _reason(body))
    return jsonify(player_json(row))


@bp.operation("post", "/players/<int:player_id>/adjust", {200: Player}, body=Stats,
              load=players.get, load_late=True)
def adjust(player_id: int, body: Stats):
    """Add deltas to stats; if any result leaves its bounds, nothing is applied (422)."""
    row = service.adjust(get_db(), g.api_referee["id"], player_id, _stats(body), _reason(body))
    return jsonify(player_json(row))


@bp.operation("post", "/players/<int:player_id>/set", {200: Player}, body=Stats,
              load=players.get, load_late=True)
def set_exact(player_id: int, body: Stats):
    """Set stats to exact values."""
    row = service.set_exact(get_db(), g.api_referee["id"], player_id, _stats(body),
                            _reason(body))
    return jsonify(player_json(row))


def _status_change(player_id: int, body: WithReason, action):
    return jsonify(player_json(action(get_db(), g.api_referee["id"], player_id,
                                      _reason(body))))


@bp.operation("post", "/players/<int:player_id>/heal", {200: Player}, body=WithReason,
              body_required=False, load=players.get, load_late=True)
def heal(player_id: int, body: WithReason):
    """Heal a heavily wounded player to 1 HP."""
    return _status_change(player_id, body, service.heal)


@bp.operation("post", "/players/<int:player_id>/kill", {200: Player}, body=WithReason,
              body_required=False, load=players.get, load_late=True)
def kill(player_id: int, body: WithReason):
    """Mark the character dead."""
    return _status_change(player_id, body, service.kill)


@bp.operation("post", "/players/<int:player_id>/reissue", {200: Player}, load=players.get)
def reissue(player_id: int):
    """Issue a new passport token; the old passport URL answers 404 from now on."""
    return jsonify(player_json(service.reissue(get_db(), g.api_referee["id"], player_id)))


@bp.operation("get", "/players/<int:player_id>/events", {200: list[Event]}, load=players.get)
def player_events(player_id: int):
    """The player's history, newest first (?limit=, ?before=<id> pages back)."""
    limit = paging.limit(1000)
    found = events.for_player(get_db(), player_id, limit + 1, paging.id_arg("before"))
    return paging.paged(found, limit, events.total(get_db(), player_id), "before",
                        event_json)


@bp.operation("get", "/events", {200: list[Event]}, query=Page)
def recent_events():
    """Recent events of every referee, newest first (?limit=, ?before=<id> pages back)."""
    limit = paging.limit(100)
    found = events.recent(get_db(), limit + 1, paging.id_arg("before"))
    return paging.paged(found, limit, events.total(get_db()), "before", event_json)


@bp.operation("post", "/events/<int:event_id>/undo", {200: Player, 409: Error},
              body=WithReason, body_required=False, load=events.get)
def undo(event_id: int, body: WithReason):
    """Undo an event by appending its compensating event; a second undo is 409."""
    try:
        row = service.undo(get_db(), g.api_referee["id"], event_id, _reason(body))
    except service.AlreadyUndone as err:
        # checked inside the write, so two racing undos get one 200 and one 409
        return error_response(rule_message(err), 409)
    return jsonify(player_json(row))
