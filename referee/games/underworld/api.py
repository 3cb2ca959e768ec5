"""Underworld games in the JSON API: /api/v1/underworld (and /castle, its old name). How a
body becomes a setup or an action and how a game is shown; loading, 409 and undo are the
generic layer's (referee.api.games)."""

from __future__ import annotations

from flask import abort, jsonify

from referee.api import games
from referee.api.core import player_json
from referee.api.models import Undo
from referee.api.registry import ApiBlueprint
from referee.api.schemas import GamePage
from referee.errors import Conflict
from referee.games.service import Game
from referee.games.underworld import rules, service
from referee.games.underworld.schemas import (
    PLAYER_FIELDS,
    CastleAction,
    CastleGame,
    CastleGameRow,
    CastleSetup,
    CastleStale,
    QuickFight,
    QuickFightIn,
    QuickFightStale,
)
from referee.games.underworld.view import data
from referee.games.underworld.words import STALE, STALE_LEVEL
from referee.notes import note
from referee.store import players
from referee.web.context import get_db
from referee.web.once import idempotent

bp = ApiBlueprint("api_underworld", __name__)


def game_json(game: Game) -> dict:
    """An underworld game as the API shows it: row, seats, setup, state, what is allowed now,
    the pending fight's breakdown (in ``state``) and the record."""
    view = data(get_db(), game)
    table, state, names = view.table, view.state, view.names
    setup = game.row["setup"]
    aw = view.awaiting
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
                    for o in rules.allowed(state)],
        "winner": rules.winner(state),
        "state": rules.state_to_dict(state),
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


UNDERWORLD = games.GameApi(kind=service.KIND, load=service.load, show=game_json, stale=STALE)
WRITTEN = {200: CastleGame, 409: CastleStale}


@bp.operation("get", "/underworld", {200: list[CastleGameRow]}, query=GamePage, old="/castle")
def list_games():
    """Castle games (Underworld), newest first; ?player=<id> keeps that player's;
    ?limit= (200) and ?before=<id> page back."""
    return games.listed(service.KIND, summary_json)


@bp.operation("post", "/underworld", {201: CastleGame}, body=CastleSetup, old="/castle")
@idempotent("underworld", lambda made: games.replayed(UNDERWORLD, made))
def create_game(body: CastleSetup):
    """Start a castle game (U4): players, decks, 4 starting cards each, passport levels."""
    return games.created(UNDERWORLD, service.create(get_db(), games.referee_id(),
                                                   body.sent()))


@bp.operation("get", "/underworld/<int:game_id>", {200: CastleGame}, old="/castle/<int:game_id>")
def get_game(game_id: int):
    """One castle game: state, what is allowed now, the fight breakdown and the record."""
    return games.show(UNDERWORLD, game_id)


@bp.operation("post", "/underworld/<int:game_id>/actions", WRITTEN, body=CastleAction,
              load=service.load, old="/castle/<int:game_id>/actions")
def act(game_id: int, body: CastleAction):
    """Apply one action (U5–U17): ``kind`` and its fields; a refusal is 422 with its rule."""
    action = body.sent("version")
    if not isinstance(action.get("kind"), str):  # the engine looks the kind up by name
        action["kind"] = str(action.get("kind"))
    for name in PLAYER_FIELDS:  # registry ids may come as numbers
        if type(action.get(name)) is int:
            action[name] = str(action[name])
    return games.act(UNDERWORLD, game_id, action, body.version)


@bp.operation("post", "/underworld/<int:game_id>/undo", WRITTEN, body=Undo, body_required=False,
              load=service.load, old="/castle/<int:game_id>/undo")
def undo(game_id: int, body: Undo):
    """Undo the latest action, with the passport levels it moved."""
    return games.undo(UNDERWORLD, game_id, body.version)


@bp.operation("post", "/underworld/quick-fight", {200: QuickFight, 409: QuickFightStale},
              body=QuickFightIn, old="/castle/quick-fight")
def quick_fight(body: QuickFightIn):
    """U7–U8 from numbers alone on a registry player's level (a normal level event)."""
    db = get_db()
    if type(body.player) is not int or players.get(db, body.player) is None:
        abort(404)
    bonuses = body.sent().get("bonuses", 0)
    reason = note(service.QUICK_REASON, bonuses=str(bonuses), strength=str(body.strength))
    try:
        done = service.quick_fight(db, games.referee_id(), body.player, bonuses,
                                   body.strength, body.version, reason)
    except Conflict as err:
        fresh = err.fresh
        assert isinstance(fresh, dict)  # quick_fight's conflicts carry the player's row
        return games.stale_answer({"player": player_json(fresh)}, STALE_LEVEL,
                                  player=fresh["character"])
    r = done.fight
    return jsonify({"outcome": r.outcome, "score": r.player_score, "strength": r.monster_score,
                    "level_before": r.level_before, "level": r.level,
                    "event_id": done.event_id, "player": player_json(done.row)})
