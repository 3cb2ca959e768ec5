"""The card duel in the JSON API: /api/v1/duels. How a body becomes a duel action and
how a duel is shown; loading, 409 and undo are the generic layer's (referee.api.games)."""

from __future__ import annotations

from referee.api import games
from referee.api.models import Undo
from referee.api.registry import ApiBlueprint
from referee.api.schemas import GamePage
from referee.games.duel import rules, service
from referee.games.duel.rules import model
from referee.games.duel.rules.codec import round_to_dict
from referee.games.duel.schemas import Duel, DuelDecisionIn, DuelRoundIn, DuelStale, DuelStart
from referee.games.duel.words import STALE_OTHER, STALE_ROUND
from referee.rules import RuleError
from referee.web.context import get_db
from referee.web.once import idempotent

bp = ApiBlueprint("api_duels", __name__)


def duel_json(view: service.DuelView) -> dict:
    """A duel as the API shows it: the issue's contract plus the D14 record's details."""
    state = view.state
    record = rules.record_to_dict(state) if state else None
    return {
        "id": view.id,
        "version": view.version,
        "a": view.row["a"],
        "b": view.row["b"],
        "status": view.status,
        "rounds": [round_to_dict(r) for r in state.rounds] if state else [],
        "result": record["result"] if record else None,
        "awaiting": rules.awaiting(state) if state else None,
        "extensions": record["extensions"] if record else [],
        "duelists": record["duelists"] if record else None,
        "created_at": view.row["created_at"],
        "updated_at": view.row["updated_at"],
    }


DUEL = games.GameApi(kind=service.KIND, load=service.load, show=duel_json,
                     stale=STALE_OTHER, act=service.record, undo=service.undo)
WRITTEN = {200: Duel, 409: DuelStale}


@bp.operation("post", "/duels", {201: Duel}, body=DuelStart)
@idempotent("duels", lambda made: games.replayed(DUEL, made))
def create_duel(body: DuelStart):
    """Start a duel between players a and b; both pay one cartridge (D4)."""
    return games.created(DUEL, service.start(get_db(), games.referee_id(), body.a,
                                             body.b))


@bp.operation("get", "/duels", {200: list[Duel]}, query=GamePage)
def list_duels():
    """Duels, newest first; ?player=<id> keeps that player's; ?limit= (500) and
    ?before=<id> page back."""
    db = get_db()
    return games.listed(service.KIND, lambda row: duel_json(service.views(db, [row])[0]),
                        default=500)


@bp.operation("get", "/duels/<int:duel_id>", {200: Duel})
def get_duel(duel_id: int):
    """One duel with its rounds and result."""
    return games.show(DUEL, duel_id)


@bp.operation("post", "/duels/<int:duel_id>/rounds", WRITTEN, body=DuelRoundIn,
              load=service.load)
def play_round(duel_id: int, body: DuelRoundIn):
    """Record a round (D6–D11): table cards, hand cards, chance tokens; cards canonical."""
    for play in (body.a, body.b):
        # The API's contract keeps the table card required; only the screen may leave a
        # covered one unread (D7), and such a round reads back with "table": null.
        if isinstance(play, dict) and model.is_blank(play.get("table")):
            raise RuleError("D6", model.ROUND_SHAPE)
    action = rules.action_from_dict({"type": "round", "a": body.a, "b": body.b})
    return games.act(DUEL, duel_id, action, body.version, stale=STALE_ROUND)


@bp.operation("post", "/duels/<int:duel_id>/extension", WRITTEN, body=DuelDecisionIn,
              load=service.load)
def decide_extension(duel_id: int, body: DuelDecisionIn):
    """Record the D12 decision: true continues and pays a cartridge, false refuses."""
    action = rules.action_from_dict({"type": "extension", "a": body.a, "b": body.b})
    return games.act(DUEL, duel_id, action, body.version)


@bp.operation("post", "/duels/<int:duel_id>/undo", WRITTEN, body=Undo, body_required=False,
              load=service.load)
def undo_duel(duel_id: int, body: Undo):
    """Undo the duel's latest action and its effects; undoing the start cancels it."""
    return games.undo(DUEL, duel_id, body.version)
