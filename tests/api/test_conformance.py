"""Every documented operation, called with a known-good request (the happy paths of the
API tests) and with a refusal or two, answers what the OpenAPI document says: the status
is documented, the body matches its schema, and it has no field the schema leaves out."""

from __future__ import annotations

from dataclasses import dataclass, field

import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.conftest import SAMPLE_DECK

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
B = "/api/v1/berserk"


def resolve(doc: dict, schema: dict) -> dict:
    while "$ref" in schema:
        kind, name = schema["$ref"].split("/")[-2:]
        schema = doc["components"][kind][name]
    return schema


def declared(doc: dict, path: str, method: str, status: int) -> dict:
    """The schema the document gives the answer."""
    answer = resolve(doc, doc["paths"][path][method]["responses"][str(status)])
    return resolve(doc, answer["content"]["application/json"]["schema"])


@dataclass
class Walk:
    """Calls through schemathesis, so each answer is checked against the document."""

    world: object
    schema: object
    doc: dict
    walked: set = field(default_factory=set)

    def __call__(self, method: str, path: str, status: int, params: dict | None = None,
                 **request):
        case = self.schema[path][method].Case(path_parameters=params or {}, **request)
        response = case.call(headers=self.world.headers)
        assert response.status_code == status, (method, path, response.text)
        case.validate_response(response, checks=CHECKS)
        self.walked.add((method, path))
        body = response.json()
        if path != "/api/v1/openapi.json":
            self.only_declared(body, declared(self.doc, path, method, status), path)
        return body

    def only_declared(self, body, schema: dict, where: str) -> None:
        """Top-level fields the schema does not name would be undocumented."""
        if schema.get("type") == "array":
            for item in body:
                self.only_declared(item, resolve(self.doc, schema["items"]), where)
            return
        extra = set(body) - set(schema.get("properties", {}))
        assert not extra, (where, extra)


def walk_players(w: Walk, ids: dict) -> None:
    w("post", "/api/v1/token", 200, body={"name": "ref", "password": "ref-password"})
    w("post", "/api/v1/token", 401, body={"name": "ref", "password": "wrong"})
    w("post", "/api/v1/token", 400, body={"name": "ref"})
    w("get", "/api/v1/openapi.json", 200)
    w("get", "/api/v1/players", 200, query={"q": "Ann"})
    new = {"character": "Egor", "player": "E", "hp_max": 3, "chance_max": 1, "cartridges": 2,
           "suit": "C", "notes": "n", "reason": "joined"}
    egor = {"player_id": w("post", "/api/v1/players", 201, body=new)["id"]}
    w("post", "/api/v1/players", 422, body={**new, "colour": "red"})
    w("get", "/api/v1/players/{player_id}", 200, egor)
    w("get", "/api/v1/players/{player_id}", 404, {"player_id": 99999})
    w("patch", "/api/v1/players/{player_id}", 200, egor, body={"notes": "x", "reason": "r"})
    w("post", "/api/v1/players/{player_id}/adjust", 200, egor,
      body={"hp": -1, "cartridges": 1, "reason": "ambush"})
    w("post", "/api/v1/players/{player_id}/adjust", 422, egor, body={"chance": 1})
    event = {"event_id": w("get", "/api/v1/players/{player_id}/events", 200, egor)[0]["id"]}
    w("post", "/api/v1/events/{event_id}/undo", 200, event, body={"reason": "oops"})
    w("post", "/api/v1/events/{event_id}/undo", 409, event)
    w("post", "/api/v1/players/{player_id}/set", 200, egor, body={"hp": 0})
    w("post", "/api/v1/players/{player_id}/heal", 200, egor)
    w("post", "/api/v1/players/{player_id}/kill", 200, egor, body={"reason": "x"})
    w("post", "/api/v1/players/{player_id}/reissue", 200, egor)
    w("get", "/api/v1/events", 200, query={"before": 1000})


def walk_duels(w: Walk, ids: dict) -> None:
    w("get", "/api/v1/duels", 200, query={"player": ids["Anna"]})
    duel = {"duel_id": w("post", "/api/v1/duels", 201,
                         body={"a": ids["Vera"], "b": ids["Gleb"]})["id"]}
    w("get", "/api/v1/duels/{duel_id}", 200, duel)
    rounds = "/api/v1/duels/{duel_id}/rounds"
    first = {"a": {"table": "10S", "hand": None, "tokens": 1}, "b": {"table": "7H"},
             "version": 1}
    w("post", rounds, 200, duel, body=first)
    assert w("post", rounds, 409, duel, body=first)["version"] == 2
    w("post", rounds, 200, duel, body={"a": {"table": "6D"}, "b": {"table": "QC"}})
    w("post", rounds, 422, duel, body={"a": {"table": "ZZ"}, "b": {"table": "8C"}})
    w("post", rounds, 200, duel, body={"a": {"table": "9D"}, "b": {"table": "9S"}})
    w("post", "/api/v1/duels/{duel_id}/extension", 200, duel, body={"a": False, "b": False})
    w("post", "/api/v1/duels/{duel_id}/undo", 200, duel, body={"version": 5})
    w("post", "/api/v1/duels/{duel_id}/undo", 409, duel, body={"version": 1})


def walk_coup(w: Walk, ids: dict) -> None:
    w("get", "/api/v1/coup", 200, query={"player": ids["Anna"]})
    w("post", "/api/v1/coup", 201, body={"players": [ids["Anna"], ids["Boris"]],
                                         "variant": "inquisitor", "title": "Two"})
    table = {"game_id": ids["coup"]}
    w("get", "/api/v1/coup/{game_id}", 200, table)
    income = {"type": "declare", "player": ids["Anna"], "action": "income", "target": None}
    actions = "/api/v1/coup/{game_id}/actions"
    w("post", actions, 200, table, body={**income, "version": 0})
    w("post", actions, 409, table, body={**income, "version": 0})
    w("post", actions, 422, table, body=income)  # C4: it is Boris's turn now
    w("post", "/api/v1/coup/{game_id}/undo", 200, table)


def walk_castle(w: Walk, ids: dict) -> None:
    vera, gleb = ids["Vera"], ids["Gleb"]
    w("get", "/api/v1/castle", 200)
    w("post", "/api/v1/castle", 201, body={"players": [vera, gleb], "title": "Tavern",
                                           "starting": {str(vera): ["I02", "I06", "M01", "M01"],
                                                        str(gleb): ["M06", "M06", "M08", "M08"]}})
    game = {"game_id": ids["castle"]}
    w("get", "/api/v1/castle/{game_id}", 200, game)
    actions = "/api/v1/castle/{game_id}/actions"
    fight = w("post", actions, 200, game, body={"kind": "draw", "code": "M07", "version": 0})
    assert fight["state"]["breakdown"]
    w("post", actions, 409, game, body={"kind": "fight", "version": 0})
    w("post", actions, 422, game, body={"kind": "fly"})
    w("post", actions, 200, game, body={"kind": "fight"})
    w("post", "/api/v1/castle/{game_id}/undo", 200, game, body={"version": 2})
    quick = "/api/v1/castle/quick-fight"
    w("post", quick, 200, body={"player": gleb, "bonuses": [2, 1], "strength": 2})
    w("post", quick, 409, body={"player": gleb, "bonuses": "1", "strength": 9, "version": 1})
    w("post", quick, 404, body={"player": 99999, "strength": 1})


def walk_underworld(w: Walk, ids: dict) -> None:
    """The same calls under the game's own name (/castle is their old path)."""
    vera, gleb = ids["Vera"], ids["Gleb"]
    w("get", "/api/v1/underworld", 200)
    made = w("post", "/api/v1/underworld", 201, body={
        "players": [vera, gleb], "starting": {str(vera): ["I02", "I06", "M01", "M01"],
                                              str(gleb): ["M06", "M06", "M08", "M08"]}})
    game = {"game_id": made["id"]}
    w("get", "/api/v1/underworld/{game_id}", 200, game)
    w("post", "/api/v1/underworld/{game_id}/actions", 422, game, body={"kind": "fly"})
    w("post", "/api/v1/underworld/{game_id}/undo", 422, game, body={})
    w("post", "/api/v1/underworld/quick-fight", 404, body={"player": 99999, "strength": 1})


def walk_berserk(w: Walk, ids: dict) -> None:
    w("get", B + "/decks", 200)
    picks = [{"code": "B01"}, {"code": "B03"}]
    w("post", B + "/squads/check", 200, body={"deck": "berserk-sample", "cards": picks,
                                             "seat": "second", "settings": {"first_gold": 20}})
    w("get", B + "/squads", 200, query={"player": ids["Anna"]})
    new = w("post", B + "/squads", 201, body={"player": ids["Vera"], "name": "Greens",
                                             "deck": "berserk-sample", "cards": picks})
    squad = {"squad_id": new["id"]}
    w("get", B + "/squads/{squad_id}", 200, squad)
    w("put", B + "/squads/{squad_id}", 200, squad, body={"version": 1, "name": "Two"})
    w("put", B + "/squads/{squad_id}", 409, squad, body={"version": 1, "name": "Three"})
    w("get", B + "/battles", 200, query={"player": ids["Boris"]})
    w("post", B + "/battles", 201, body={"a": new["id"], "b": ids["squad_b"]})
    battle = {"game_id": ids["battle"]}
    w("get", B + "/battles/{game_id}", 200, battle)
    w("post", B + "/battles/{game_id}/modifications", 200, battle, body={
        "creature": "b1", "modification": {"op": "lives", "amount": 1, "source": "a1"}})
    rolled = {"attacker": "a1", "target": "b1", "attacker_die": 5, "defender_die": 2}
    w("post", B + "/battles/{game_id}/strikes/preview", 200, battle, body=rolled)
    w("post", B + "/battles/{game_id}/strikes", 200, battle, body={**rolled, "lower": False})
    w("post", B + "/battles/{game_id}/strikes", 422, battle, body={**rolled, "attacker": "zz"})
    tap = {"type": "tap", "creature": "a2"}
    w("post", B + "/battles/{game_id}/actions", 200, battle, body=tap)
    w("post", B + "/battles/{game_id}/actions", 409, battle, body={**tap, "version": 0})
    w("post", B + "/battles/{game_id}/undo", 200, battle, body={})
    cards = SAMPLE_DECK
    w("post", B + "/registered-decks/check", 200, body={"deck": "berserk-sample",
                                                       "cards": cards[:2]})
    w("get", B + "/registered-decks", 200, query={"player": ids["Gleb"]})
    w("post", B + "/registered-decks", 422, body={"player": ids["Gleb"],
                                                 "deck": "berserk-sample", "cards": cards})
    made = w("post", B + "/registered-decks", 201, body={"player": ids["Vera"],
                                                        "deck": "berserk-sample",
                                                        "cards": cards})
    deck = {"deck_id": made["id"]}
    w("get", B + "/registered-decks/{deck_id}", 200, deck)
    w("put", B + "/registered-decks/{deck_id}", 200, deck, body={"version": 1, "name": "Two"})
    w("put", B + "/registered-decks/{deck_id}", 409, deck, body={"version": 1, "name": "X"})


def walk_stations(w: Walk, ids: dict) -> None:
    """A single database (no station): no conflicts, and pairing is not served."""
    assert w("get", "/api/v1/conflicts", 200, query={"status": "held"}) == []
    w("post", "/api/v1/conflicts/{conflict_id}", 404, {"conflict_id": "x-1-0"},
      body={"decision": "discard"})
    w("post", "/api/v1/stations/pair", 404, body={
        "code": "ABCD2345", "station": "0123456789", "name": "tavern", "device": "X"})


def test_every_operation_answers_as_documented(world):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", world.app)
    doc = world.app.test_client().get("/api/v1/openapi.json").get_json()
    walk = Walk(world, schema, doc)
    for area in (walk_players, walk_duels, walk_coup, walk_castle, walk_underworld,
                 walk_berserk, walk_stations):
        area(walk, world.ids)
    documented = {(method, path) for path, ops in doc["paths"].items() for method in ops
                  if method != "parameters"}
    assert walk.walked == documented
