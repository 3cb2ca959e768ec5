"""Coup tables in the JSON API: /api/v1/coup. How a body becomes a setup or a step and how
a table is shown; loading, 409 and undo are the generic layer's (referee.api.games)."""

from __future__ import annotations

from typing import Any

from referee.api import games
from referee.api.models import Undo
from referee.api.registry import ApiBlueprint
from referee.api.schemas import GamePage
from referee.games.coup import rules, service
from referee.games.coup.data import data
from referee.games.coup.schemas import CoupSetup, CoupStale, CoupStep, CoupTable, CoupTableRow
from referee.games.coup.words import STALE, translator
from referee.games.service import Game
from referee.web.context import get_db
from referee.web.once import idempotent

bp = ApiBlueprint("api_coup", __name__)

# Step fields naming a player: the registry id may be sent as a number or a string.
PLAYER_FIELDS = ("player", "target", "challenger", "blocker")


def table_json(game: Game) -> dict:
    """A table as the API shows it: the row, the seats' names and the engine's state."""
    table = data(get_db(), game)
    state: dict[str, Any] = rules.state_to_dict(table.state)  # plain JSON data: seats are dicts
    for seat in state["players"]:
        seat["player_id"] = int(seat["id"])
        seat["name"] = table.names[seat["id"]]
    return {
        "id": game.id,
        "version": game.version,
        "status": game.row["status"],
        "title": game.row["title"],
        "player_ids": game.row["player_ids"],
        "names": table.names,
        "record": [line for _, line in table.lines(translator())],
        "state": state,
        "created_at": game.row["created_at"],
        "updated_at": game.row["updated_at"],
    }


def summary_json(row: dict) -> dict:
    """A table in a list: its row only (GET /coup/<id> gives the whole state)."""
    return {k: row[k] for k in ("id", "version", "status", "title", "created_at",
                                "updated_at")}


TABLE = games.GameApi(kind=service.KIND, load=service.load, show=table_json, stale=STALE,
                      in_words=lambda err, game: data(get_db(), game).in_words(err))
WRITTEN = {200: CoupTable, 409: CoupStale}


@bp.operation("post", "/coup", {201: CoupTable}, body=CoupSetup)
@idempotent("coup", lambda made: games.replayed(TABLE, made))
def create_table(body: CoupSetup):
    """Seat 2–8 registry players in clockwise order and start the table (C1–C4)."""
    game = service.create(get_db(), games.referee_id(), body.players, variant=body.variant,
                          first=body.first, one_coin_start=body.one_coin_start,
                          title=body.title)
    return games.created(TABLE, game)


@bp.operation("get", "/coup", {200: list[CoupTableRow]}, query=GamePage)
def list_tables():
    """Coup tables, newest first; ?player=<id> keeps those where the player sits;
    ?limit= (200) and ?before=<id> page back."""
    return games.listed(service.KIND, summary_json)


@bp.operation("get", "/coup/<int:game_id>", {200: CoupTable})
def get_table(game_id: int):
    """One table: seats, coins, face-up cards, the question awaited and its options."""
    return games.show(TABLE, game_id)


@bp.operation("post", "/coup/<int:game_id>/actions", WRITTEN, body=CoupStep,
              load=service.load)
def act(game_id: int, body: CoupStep):
    """Record one step of the table's options; a refusal is 422 with its rule (C4–C9)."""
    action = body.sent("version")
    for key in PLAYER_FIELDS:
        if type(action.get(key)) is int:
            action[key] = str(action[key])
    return games.act(TABLE, game_id, action, body.version)


@bp.operation("post", "/coup/<int:game_id>/undo", WRITTEN, body=Undo, body_required=False,
              load=service.load)
def undo(game_id: int, body: Undo):
    """Undo the table's latest step (an undo row is appended)."""
    return games.undo(TABLE, game_id, body.version)
