"""The OpenAPI document: valid, every route in it and nothing else, nothing of the contract
lost, and each request model in step with what its service reads."""

from __future__ import annotations

import json
import re
from dataclasses import fields as dataclass_fields
from pathlib import Path

import schemathesis

from referee.api.schemas import PlayerEdit, Stats
from referee.games.berserk.rules import Strike
from referee.games.berserk.rules.codec import ACTION_TYPES
from referee.games.berserk.schemas import BattleAction, StrikeIn
from referee.games.coup import game as coup_game
from referee.games.coup.rules import codec as coup_codec
from referee.games.coup.schemas import CoupSetup, CoupStep
from referee.games.underworld import service as castle_service
from referee.games.underworld.schemas import CastleAction, CastleSetup
from referee.players import service as player_service
from referee.rules.stats import COUNTERS

# What the hand-written document of v1 said: every operation, its statuses, parameters,
# request fields and answer fields (tests/api/openapi-v1-baseline.json).
BASELINE = json.loads((Path(__file__).parent / "openapi-v1-baseline.json").read_text())


def resolve(doc: dict, schema: dict) -> dict:
    while isinstance(schema, dict) and "$ref" in schema:
        kind, name = schema["$ref"].split("/")[-2:]
        schema = doc["components"][kind][name]
    return schema


def field_names(doc: dict, schema: dict | None) -> set[str]:
    """Every field a schema names, its choices' too; a list's items as "[].name"."""
    schema = resolve(doc, schema or {})
    out = set(schema.get("properties", {}))
    for part in schema.get("allOf", []) + schema.get("oneOf", []) + schema.get("anyOf", []):
        out |= field_names(doc, part)
    if schema.get("type") == "array":
        out |= {"[]." + name for name in field_names(doc, schema.get("items"))}
    return out


def summary(doc: dict) -> dict:
    """Per operation what a client relies on."""
    out = {}
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if method == "parameters":
                continue
            params = op.get("parameters", []) + ops.get("parameters", [])
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            answers = {code: sorted(field_names(doc, resolve(doc, answer).get("content", {})
                                                .get("application/json", {}).get("schema")))
                       for code, answer in op["responses"].items()}
            out[f"{method} {path}"] = {
                "statuses": sorted(op["responses"]),
                "parameters": sorted(f"{p['in']}:{p['name']}" for p in params),
                "request": sorted(field_names(doc, body.get("schema"))),
                "answers": answers,
            }
    return out


def test_the_document_is_valid_openapi_3_1(app):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    assert schema.raw_schema["openapi"] == "3.1.0"
    schema.validate()


def test_every_api_route_is_documented_and_every_documented_operation_is_routed(client, app):
    doc = client.get("/api/v1/openapi.json").get_json()
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops
                  if method != "parameters"}
    routed = {(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/v1")
              for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    assert documented == routed
    # v1's 45, the 6 /underworld paths of /castle, conflicts (2), pairing (1) and the
    # registered Berserk decks (5)
    assert len(documented) == 59


def test_nothing_the_v1_document_promised_is_lost(client):
    now = summary(client.get("/api/v1/openapi.json").get_json())
    for operation, before in BASELINE.items():
        assert operation in now, operation
        after = now[operation]
        for key in ("statuses", "parameters", "request"):
            assert set(before[key]) <= set(after[key]), (operation, key)
        for code, names in before["answers"].items():
            assert set(names) <= set(after["answers"][code]), (operation, code)


def test_request_models_name_what_their_services_read():
    assert set(CastleSetup.model_fields) == castle_service.REQUEST_KEYS
    assert set(CoupSetup.model_fields) == coup_game.SETUP_KEYS | {"title"}
    assert set(PlayerEdit.model_fields) == {*player_service.EDITABLE, "reason"}
    assert set(Stats.model_fields) == {*COUNTERS, "reason"}
    assert set(StrikeIn.model_fields) == {f.name for f in dataclass_fields(Strike)} | {"version"}


def test_action_bodies_offer_every_engine_action_with_its_fields():
    coup = {v.model_fields["type"].annotation.__args__[0]: set(v.model_fields) - {"version"}
            for v in CoupStep.variants}
    assert coup == {tag: {"type", *coup_codec._FIELD_TYPES[cls]}
                    for tag, cls in coup_codec._TAGS.items()}
    battle = {kind for v in BattleAction.variants
              for kind in v.model_fields["type"].annotation.__args__}
    assert battle == set(ACTION_TYPES)
    assert len(CastleAction.variants) == 20


# Every answer that shows a game, in a list or alone, after a write or stale (409).
GAME_ANSWER = re.compile(r"/api/v1/(duels|coup|castle|underworld|berserk/battles)"
                         r"(/\{\w+\}(/(rounds|extension|actions|modifications|strikes|undo))?)?")


def test_every_answer_that_shows_a_game_names_it(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    games = {op: shown for op, shown in summary(doc).items()
             if GAME_ANSWER.fullmatch(op.split(" ", 1)[1])}
    assert len(games) == 28  # 6 for duels, 5 each for Coup, /castle, /underworld; 7 battles
    for operation, shown in games.items():
        for code in {"200", "201", "409"} & set(shown["answers"]):
            assert {"name", "[].name"} & set(shown["answers"][code]), (operation, code)
    for model in ("Duel", "CoupTable", "CoupTableRow", "CastleGame", "CastleGameRow",
                  "BerserkBattle"):
        name = doc["components"]["schemas"][model]["properties"]["name"]
        assert name["type"] == "string" and "Accept-Language" in name["description"]
