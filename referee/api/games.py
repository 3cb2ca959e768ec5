"""What the API of every game shares, written once.

A game's api.py declares one ``GameApi``: how its stored game is loaded and shown, how a
write and an undo run, and the sentence a stale version gets. This module then answers
for all of them: an unknown id is 404, a write made against an old version is 409 with
the fresh game and that sentence, a refusal of the rules is 422 with its rule id (in the
game's own words where it names players by id), ``?player=`` filters a list, and every
answer carries the game's ``name`` ("Duel 3") in the request's language. What stays in
each game is its own: how a JSON body becomes a setup or an action, and how its state is
shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort, g, jsonify, request
from flask_babel import gettext

from referee.api import paging
from referee.api.models import SQLITE_MAX
from referee.errors import Conflict
from referee.games import names, service
from referee.rules import RuleError, whole
from referee.store import games, players
from referee.web.context import found_or_404, get_db
from referee.web.errors import error_response
from referee.web.i18n import rule_message


@dataclass(frozen=True)
class GameApi:
    """One game as the API serves it."""

    kind: str                                   # the game kind in the registry
    load: Callable[[Any, int], Any]             # (db, id) → the game, or None
    show: Callable[[Any], dict]                 # the game as the API shows it
    stale: str                                  # msgid: the sentence of a 409
    # How a write and an undo run: the one game service unless the game wraps it.
    act: Callable[..., Any] | None = None       # (db, referee, id, action, version)
    undo: Callable[..., Any] | None = None      # (db, referee, id, version)
    # A refusal rewritten in the game's words (Coup names players, not ids).
    in_words: Callable[[RuleError, Any], RuleError] | None = None

    def answer(self, game: Any) -> dict:
        """The game as the API shows it, with its name and the rules it is read under."""
        return {**named(self.kind, self.show(game)), "rules": rules_json(game)}

    def run_act(self, db: Any, referee: int, game_id: int, action: object,
                version: int | None) -> Any:
        if self.act is not None:
            return self.act(db, referee, game_id, action, version)
        return service.act(db, referee, self.kind, game_id, action, version)

    def run_undo(self, db: Any, referee: int, game_id: int, version: int | None) -> Any:
        if self.undo is not None:
            return self.undo(db, referee, game_id, version)
        return service.undo(db, referee, self.kind, game_id, version)


def name_of(kind: str, number: int) -> str:
    """The game's name in the request's language, as the screens say it ("Coup table 2",
    "Battle 4 (station Tavern)"). The stations' names are read only for a number from
    another station's block, and then once a request (a list of 500 reads them once)."""
    stations: dict[int, str] = {}
    if names.spoken(number)[1] is not None:
        if "station_names" not in g:
            g.station_names = names.station_names(get_db())
        stations = g.station_names
    return names.name(kind, number, stations, gettext)


def named(kind: str, shown: dict) -> dict:
    """A game's answer (its ``id`` is its number in its kind) with its ``name`` added."""
    return {**shown, "name": name_of(kind, shown["id"])}


def rules_json(shown: Any) -> dict:
    """Under which reading of its kind's rules a game is read and played: ``earlier`` when
    it was recorded under an earlier one (its screen says so too), and the steps today's
    rules cannot replay, as recorded (games.service.Replay)."""
    game: service.Game = getattr(shown, "game", shown)
    return {"reading": game.reading, "today": game.kind.reading, "earlier": game.earlier,
            "unread": [{"seq": r["seq"], "action": r["action"], "at": r["at"],
                        "referee": r.get("referee")} for r in game.unread]}


def referee_id() -> int:
    """The referee whose bearer token made this call."""
    return g.api_referee["id"]


def player_filter() -> int | None:
    """?player=<id>: a registry player's id, None when not asked; 404 for no such player."""
    raw = request.args.get("player")
    if raw is None:
        return None
    number = whole(raw)
    if number is None or number > SQLITE_MAX or players.get(get_db(), number) is None:
        abort(404)
    return number


def listed(kind: str, to_json: Callable[[dict], dict], default: int = 200):
    """A list of a kind's games, newest first, a page at a time: ?player= keeps one
    player's, ?limit= (``default`` if not given) and ?before=<id> page back, with the
    total and a Link to the next page."""
    player_id = player_filter()
    limit = paging.limit(default)
    found = games.listing(get_db(), kind, player_id, limit + 1, paging.id_arg("before"))
    return paging.paged(found, limit, games.count(get_db(), kind, player_id), "before",
                        lambda row: named(kind, to_json(row)))


def stale_answer(shown: dict, message: str, **params: object):
    """409: nothing was applied; the fresh object with a sentence saying so."""
    return jsonify({**shown, "error": gettext(message, **params)}), 409


def show(api: GameApi, game_id: int):
    """One game, or 404."""
    return jsonify(api.answer(found_or_404(api.load, game_id)))


def created(api: GameApi, game: Any):
    """201 with the new game."""
    return jsonify(api.answer(game)), 201


def replayed(api: GameApi, made) -> tuple[dict, int]:
    """A create call repeated with its Idempotency-Key: 201 with the game it made, as
    it stands now (web.once)."""
    number = games.number_of(get_db(), made.ref)
    if number is None:
        abort(404)
    return api.answer(found_or_404(api.load, number)), 201


def write(api: GameApi, game_id: int, run: Callable[[], Any], stale: str | None = None):
    """Run one write: stale → 409 with the fresh game, refusal → 422, else the game."""
    try:
        game = run()
    except Conflict as err:
        return stale_answer(api.answer(err.fresh), stale or api.stale)
    except RuleError as err:
        if api.in_words is None:
            raise
        worded = api.in_words(err, found_or_404(api.load, game_id))
        return error_response(rule_message(worded), 422, err.rule)
    return jsonify(api.answer(game))


def act(api: GameApi, game_id: int, action: object, version: int | None,
        stale: str | None = None):
    """Apply one action made against ``version``."""
    return write(api, game_id, lambda: api.run_act(get_db(), referee_id(), game_id, action,
                                                   version), stale)


def undo(api: GameApi, game_id: int, version: int | None, stale: str | None = None):
    """Take back the latest step made against ``version``."""
    return write(api, game_id, lambda: api.run_undo(get_db(), referee_id(), game_id, version),
                 stale)
