"""Berserk-style battles in the JSON API: decks, squads, battles, modifications,
strikes and undo under /api/v1/berserk, with the bearer check of api.py."""

from __future__ import annotations

from flask import Blueprint, abort, g, jsonify, request
from flask_babel import gettext

from referee.api.core import body, check_fields, require_token, version_of
from referee.games import service as games
from referee.games.berserk import rules as berserk
from referee.games.berserk import service, squads
from referee.games.berserk.squads_web import STALE as SQUAD_STALE
from referee.games.berserk.view import localized
from referee.games.berserk.web import STALE
from referee.rules import RuleError
from referee.store import players as player_rows
from referee.web.context import found_or_404, get_db

bp = Blueprint("api_berserk", __name__, url_prefix="/api/v1/berserk")
bp.before_request(require_token)

SQUAD_FIELDS = {"player", "name", "deck", "seat", "cards", "settings"}
STRIKE_FIELDS = {"attacker", "target", "attacker_die", "defender_die", "attacker_die_mod",
                 "defender_die_mod", "strike_mod", "answer_mod"}


def problems_json(problems) -> list[dict]:
    """Refusals as the API shows errors: the rule and a sentence."""
    return [{"rule": p.rule, "error": localized(p)} for p in problems]


def summary_json(sm: berserk.SquadSummary) -> dict:
    """Live counts of a squad (B12–B14)."""
    return {
        "cards": sm.cards, "gold": sm.gold, "silver": sm.silver,
        "elite_cost": sm.elite_cost, "ordinary_cost": sm.ordinary_cost,
        "elements": [str(e) for e in sm.elements], "element_penalty": sm.element_penalty,
        "gold_used": sm.gold_used, "silver_used": sm.silver_used,
        "gold_left": sm.gold_left, "silver_left": sm.silver_left,
        "flyer_cost": sm.flyer_cost, "flyer_limit": sm.flyer_limit,
        "copies": [{"code": code, "count": n} for code, n in sm.copies],
        "problems": problems_json(sm.problems), "ok": sm.ok,
    }


def squad_json(row: dict) -> dict:
    """A saved squad with its counts as they are now."""
    out = {k: row[k] for k in ("id", "name", "deck", "seat", "cards", "settings", "version",
                               "created_at", "updated_at")}
    out.update(player=row["player_id"], character=row["character"],
               created_by=row["created_by_name"], updated_by=row["updated_by_name"])
    try:
        settings = service.read_settings(row["settings"])
        out["summary"] = summary_json(squads.summary(service.deck(row["deck"]),
                                                     squads.picks(row), settings, row["seat"]))
    except RuleError as err:
        out["summary"] = None
        out["problems"] = problems_json([err])
    return out


def battle_json(game: games.Game) -> dict:
    """A battle: its creatures with their current properties, and its record."""
    rec = service.record(game)
    setup = game.row["setup"]
    return {
        "id": game.id, "version": game.version, "status": game.row["status"],
        "title": game.row["title"],
        "players": dict(zip(service.SIDES, game.row["player_ids"])),
        "squads": {s: {k: setup[s].get(k) for k in ("squad", "squad_version", "name", "deck")}
                   for s in service.SIDES},
        "state": berserk.state_to_dict(rec.state),
        "log": [{"seq": e.row["seq"], "at": e.row["at"], "referee": e.row["referee"],
                 "action": e.row["action"], "undone": e.undone_by is not None,
                 "outcome": berserk.outcome_to_dict(e.outcome) if e.outcome else None,
                 "deaths": list(e.deaths)} for e in rec.entries],
        "created_at": game.row["created_at"], "updated_at": game.row["updated_at"],
    }


def _squad_or_404(squad_id: int) -> dict:
    row = squads.get(get_db(), squad_id)
    if row is None:
        abort(404)
    return row


def _player_filter() -> int | None:
    raw = request.args.get("player")
    if raw is None:
        return None
    if not raw.isdigit() or player_rows.get(get_db(), int(raw)) is None:
        abort(404)
    return int(raw)


# Decks and squads -------------------------------------------------------------------


@bp.get("/decks")
def list_decks():
    """The decks of Berserk-style cards, every card with its printed properties."""
    return jsonify([{"name": d.name, "title_en": d.title_en, "title_ru": d.title_ru,
                     "cards": [{**berserk.card_to_dict(e.card), "copies": e.copies}
                               for e in d.cards]}
                    for d in service.decks().values()])


@bp.post("/squads/check")
def check_squad():
    """Count a squad without saving it: crystals, penalty, flyers, copies, problems."""
    data = body()
    check_fields(data, SQUAD_FIELDS - {"player", "name"})
    settings = service.read_settings(data.get("settings") or {})
    seat = data.get("seat", "first")
    if seat not in squads.SEATS:
        raise RuleError("B12", squads.BAD_SEAT, value=str(seat)[:20])
    sm = squads.summary(service.deck(data.get("deck")), squads.picks_from_json(
        data.get("cards", [])), settings, seat)
    return jsonify(summary_json(sm))


@bp.get("/squads")
def list_squads():
    """Saved squads, newest first; ?player=<id> keeps that player's."""
    return jsonify([squad_json(r) for r in squads.listing(get_db(), _player_filter())])


@bp.post("/squads")
def create_squad():
    """Save a new squad for a player; refused (422) unless it keeps B12–B14."""
    data = body()
    check_fields(data, SQUAD_FIELDS)
    row = squads.save(get_db(), g.api_referee["id"], None, player_id=data.get("player"),
                      name=data.get("name", ""), deck=data.get("deck"),
                      seat=data.get("seat", "first"),
                      chosen=squads.picks_from_json(data.get("cards")),
                      settings=service.read_settings(data.get("settings") or {}))
    return jsonify(squad_json(row)), 201


@bp.get("/squads/<int:squad_id>")
def get_squad(squad_id: int):
    """One squad with its counts and every save (who and when)."""
    row = _squad_or_404(squad_id)
    return jsonify({**squad_json(row), "edits": [
        {"version": e["seq"], "at": e["at"], "referee": e["referee"], "squad": e["squad"]}
        for e in squads.edits(get_db(), squad_id)]})


@bp.put("/squads/<int:squad_id>")
def update_squad(squad_id: int):
    """Change a squad; fields left out keep their value. A stale version is 409."""
    row = _squad_or_404(squad_id)
    data = body()
    check_fields(data, SQUAD_FIELDS | {"version"})
    version = version_of(data)
    chosen = squads.picks_from_json(data["cards"]) if "cards" in data else squads.picks(row)
    settings = service.read_settings(data["settings"] if "settings" in data
                                     else row["settings"])
    try:
        row = squads.save(get_db(), g.api_referee["id"], squad_id,
                          player_id=data.get("player", row["player_id"]),
                          name=data.get("name", row["name"]), deck=data.get("deck", row["deck"]),
                          seat=data.get("seat", row["seat"]), chosen=chosen, settings=settings,
                          version=version)
    except squads.Stale as err:
        return jsonify({**squad_json(err.fresh), "error": gettext(SQUAD_STALE)}), 409
    return jsonify(squad_json(row))


# Battles ----------------------------------------------------------------------------


@bp.get("/battles")
def list_battles():
    """Battles, newest first; ?player=<id> keeps that player's."""
    db = get_db()
    found = service.listing(db, _player_filter())
    return jsonify([battle_json(service.load(db, row["id"])) for row in found])


@bp.post("/battles")
def create_battle():
    """Put two saved squads in play (a is the first player); settings default to a's."""
    data = body()
    check_fields(data, {"a", "b", "settings"})
    db = get_db()
    base = None
    if type(data.get("a")) is int and (row := squads.get(db, data["a"])) is not None:
        base = service.read_settings(row["settings"])
    settings = service.read_settings(data.get("settings") or {},
                                     base=base or berserk.PUBLISHED)
    game = service.create(db, g.api_referee["id"], data.get("a"), data.get("b"), settings)
    return jsonify(battle_json(game)), 201


@bp.get("/battles/<int:game_id>")
def get_battle(game_id: int):
    """One battle: creatures, current properties, and the record."""
    return jsonify(battle_json(found_or_404(service.load, game_id)))


def _act(game_id: int, action: dict, version: int | None):
    found_or_404(service.load, game_id)
    try:
        game = games.act(get_db(), g.api_referee["id"], service.KIND, game_id, action, version)
    except games.Conflict as err:
        return jsonify({**battle_json(err.game), "error": gettext(STALE)}), 409
    return jsonify(battle_json(game))


@bp.post("/battles/<int:game_id>/modifications")
def modify(game_id: int):
    """Change a creature's properties or elements (B6, B9); lives may kill at once (B10)."""
    data = body()
    check_fields(data, {"creature", "modification", "version"})
    return _act(game_id, {"type": "modify", "creature": data.get("creature"),
                          "modification": data.get("modification")}, version_of(data))


@bp.post("/battles/<int:game_id>/strikes")
def strike(game_id: int):
    """Settle a simple strike from the dice (B11): wounds both ways, deaths at once."""
    data = body()
    check_fields(data, STRIKE_FIELDS | {"lower", "version"})
    action = {"type": "strike", **{k: v for k, v in data.items() if k != "version"}}
    return _act(game_id, action, version_of(data))


@bp.post("/battles/<int:game_id>/strikes/preview")
def preview_strike(game_id: int):
    """What a strike would do, as rolled and (in an exchange) lowered; nothing stored."""
    game = found_or_404(service.load, game_id)
    data = body()
    check_fields(data, STRIKE_FIELDS | {"version"})
    strike = service.read_action({"type": "strike", **{k: v for k, v in data.items()
                                                       if k != "version"}})
    return jsonify({"version": game.version, "outcomes": [
        berserk.outcome_to_dict(o) for o in service.outcomes(game.state, strike)]})


@bp.post("/battles/<int:game_id>/actions")
def other_action(game_id: int):
    """Any engine action: wound, tap, untap, end_effects (also modify and strike)."""
    data = body()
    version = version_of(data)
    return _act(game_id, {k: v for k, v in data.items() if k != "version"}, version)


@bp.post("/battles/<int:game_id>/undo")
def undo(game_id: int):
    """Take back the latest action that counts; an undo row is appended."""
    found_or_404(service.load, game_id)
    data = request.get_json(silent=True)
    data = data if isinstance(data, dict) else {}
    check_fields(data, {"version"})
    try:
        game = games.undo(get_db(), g.api_referee["id"], service.KIND, game_id, version_of(data))
    except games.Conflict as err:
        return jsonify({**battle_json(err.game), "error": gettext(STALE)}), 409
    return jsonify(battle_json(game))
