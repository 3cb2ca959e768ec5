"""The coin game in the JSON API: /api/v1/coin, through the generic game layer."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from referee.api import games as game_api
from referee.api.models import Answer, Body, GameName, GameRules, Versioned
from referee.api.registry import ApiBlueprint
from referee.api.schemas import GamePage
from referee.games import service as games
from referee.web.context import get_db

bp = ApiBlueprint("api_coin", __name__)


class CoinStart(Body):
    """The two sides, registry player ids."""

    a: int
    b: int
    lives: int = 2


class CoinStep(Versioned):
    """A call (T1) or the toss (T2)."""

    type: Literal["call", "toss"]
    face: str


class CoinRow(Answer):
    """A coin game in a list."""

    id: int
    name: GameName
    version: int
    status: str
    created_at: datetime


class CoinGame(CoinRow):
    """A coin game with its lives."""

    state: dict
    rules: GameRules


def load(db, number: int):
    return games.load(db, "coin", number)


def game_json(game: games.Game) -> dict:
    return {**row_json(game.row), "version": game.version,
            "state": game.kind.read(game.state)}


def row_json(row: dict) -> dict:
    return {k: row[k] for k in ("id", "version", "status", "created_at")}


COIN = game_api.GameApi(kind="coin", load=load, show=game_json, stale="Someone was first.")


@bp.operation("post", "/coin", {201: CoinGame}, body=CoinStart)
def create(body: CoinStart):
    """Start a coin game between two players."""
    game = games.create(get_db(), game_api.referee_id(), "coin", {"lives": body.lives},
                        [body.a, body.b])
    return game_api.created(COIN, game)


@bp.operation("get", "/coin", {200: list[CoinRow]}, query=GamePage)
def list_games():
    """Coin games, newest first."""
    return game_api.listed("coin", row_json)


@bp.operation("get", "/coin/<int:game_id>", {200: CoinGame})
def get(game_id: int):
    """One coin game."""
    return game_api.show(COIN, game_id)


@bp.operation("post", "/coin/<int:game_id>/actions", {200: CoinGame}, body=CoinStep,
              load=load)
def act(game_id: int, body: CoinStep):
    """A call or the toss; a refusal is 422 with its rule (T1–T3)."""
    return game_api.act(COIN, game_id, body.sent("version"), body.version)
