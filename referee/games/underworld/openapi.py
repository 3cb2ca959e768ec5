"""Castle games' part of the OpenAPI document (merged into it by openapi.spec())."""

from __future__ import annotations

from dataclasses import MISSING, fields

from referee.games.underworld import rules as uw

ERROR = {"$ref": "#/components/responses/Error"}
GAME = {"$ref": "#/components/schemas/CastleGame"}
GAME_ID = [{"name": "game_id", "in": "path", "required": True,
            "schema": {"type": "integer"}}]
VERSION = {"type": "integer", "description": "The game version the client saw; another one "
                                             "gets 409 with the fresh game. Optional."}
_TYPES = {"str": {"type": "string"}, "int": {"type": "integer"},
          "bool": {"type": "boolean"}}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _answers(description: str, code: str = "200", stale: bool = False) -> dict:
    out = {code: {"description": description, **_json(GAME)},
           "401": ERROR, "404": ERROR, "422": ERROR}
    if stale:
        out["409"] = {"description": "A stale version: nothing applied; the fresh game "
                                     "with an error sentence",
                      **_json({"allOf": [GAME, {"type": "object", "required": ["error"],
                                                "properties": {"error": {"type": "string"}}}]})}
    return out


def _action_schema(cls: type) -> dict:
    """One engine action as JSON: ``kind`` plus the dataclass fields (U5–U17)."""
    props: dict = {"kind": {"const": cls.kind}, "version": VERSION}
    required = ["kind"]
    for f in fields(cls):
        props[f.name] = _TYPES.get(f.type, {"type": "array", "items": {"type": "string"}})
        if f.default is MISSING:
            required.append(f.name)
    return {"type": "object", "title": cls.kind, "description": f"{cls.rule}: "
            f"{(cls.__doc__ or '').strip()}", "required": required, "properties": props,
            "additionalProperties": False}


PATHS: dict = {
    "/api/v1/castle": {
        "get": {"summary": "Castle games (Underworld), newest first; ?player=<id> keeps "
                           "that player's",
                "parameters": [{"name": "player", "in": "query",
                                "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "Castle games", **_json({
                    "type": "array", "items": {"$ref": "#/components/schemas/CastleGameRow"}})},
                    "401": ERROR, "404": ERROR}},
        "post": {"summary": "Start a castle game (U4): 2–6 registry players in turn order, "
                            "a castle and a class deck from printables/decks, 4 starting "
                            "cards each by code or name, passport levels or not",
                 "requestBody": {"required": True, **_json(
                     {"$ref": "#/components/schemas/CastleSetup"})},
                 "responses": _answers("The new game", "201")},
    },
    "/api/v1/castle/{game_id}": {
        "parameters": GAME_ID,
        "get": {"summary": "One castle game: state, what is allowed now, the fight "
                           "breakdown and the record",
                "responses": _answers("The game")},
    },
    "/api/v1/castle/{game_id}/actions": {
        "parameters": GAME_ID,
        "post": {"summary": "Apply one action (U5–U17); refused with 422 and the rule id",
                 "requestBody": {"required": True, **_json(
                     {"$ref": "#/components/schemas/CastleAction"})},
                 "responses": _answers("The game after the action", stale=True)},
    },
    "/api/v1/castle/{game_id}/undo": {
        "parameters": GAME_ID,
        "post": {"summary": "Undo the latest action, with the passport levels it moved",
                 "requestBody": {"required": False, **_json({
                     "type": "object", "properties": {"version": VERSION},
                     "additionalProperties": False})},
                 "responses": _answers("The game after the undo", stale=True)},
    },
    "/api/v1/castle/quick-fight": {
        "post": {"summary": "A fight from numbers alone (U7–U8) on a registry player's "
                            "level, written as a normal level event",
                 "requestBody": {"required": True, **_json({
                     "type": "object", "required": ["player", "strength"],
                     "properties": {
                         "player": {"type": "integer"},
                         "bonuses": {"oneOf": [{"type": "integer"}, {"type": "string"},
                                               {"type": "array", "items": {"type": "integer"}}],
                                     "description": "3, \"2+1-1\" or [2, 1, -1]"},
                         "strength": {"type": "integer", "minimum": 0, "maximum": 99},
                         "version": {"type": "integer", "description": "The player's "
                                     "version the client saw; another one gets 409"}},
                     "additionalProperties": False})},
                 "responses": {"200": {"description": "The result and the player", **_json({
                     "type": "object",
                     "properties": {"outcome": {"enum": ["win", "loss", "draw"]},
                                    "score": {"type": "integer"},
                                    "strength": {"type": "integer"},
                                    "level_before": {"type": "integer"},
                                    "level": {"type": "integer"},
                                    "event_id": {"type": ["integer", "null"]},
                                    "player": {"$ref": "#/components/schemas/Player"}}})},
                     "401": ERROR, "404": ERROR, "409": ERROR, "422": ERROR}},
    },
}

SCHEMAS: dict = {
    "CastleSetup": {
        "type": "object", "required": ["players", "starting"],
        "properties": {
            "players": {"type": "array", "items": {"type": "integer"}, "minItems": 2,
                        "maxItems": 6, "description": "Registry player ids in turn order"},
            "castle": {"type": "string", "default": "castle-sample",
                       "description": "A castle deck file name"},
            "classes": {"type": "string", "default": "classes-sample",
                        "description": "A class deck file name"},
            "starting": {"type": "object", "description": "Player id → 4 castle cards, each "
                         "a code (M07) or an unambiguous part of a name",
                         "additionalProperties": {"type": "array", "items": {"type": "string"},
                                                  "minItems": 4, "maxItems": 4}},
            "passport_levels": {"type": "boolean", "default": False,
                                "description": "Start at the passport levels (1–9) and write "
                                               "every level change back to the players"},
            "title": {"type": "string", "maxLength": 80},
        },
        "additionalProperties": False,
    },
    "CastleAction": {
        "description": "An engine action; player fields are registry ids (number or text)",
        "oneOf": [_action_schema(cls) for cls in uw.ACTIONS.values()],
    },
    "CastleGameRow": {
        "type": "object", "required": ["id", "version", "status"],
        "properties": {"id": {"type": "integer"}, "version": {"type": "integer"},
                       "status": {"enum": ["in_progress", "finished"]},
                       "title": {"type": "string"},
                       "players": {"type": "array", "items": {"type": "object"}},
                       "created_at": {"type": "string"}, "updated_at": {"type": "string"}},
    },
    "CastleGame": {
        "type": "object",
        "required": ["id", "version", "status", "players", "state", "awaiting", "allowed",
                     "record"],
        "properties": {
            "id": {"type": "integer"},
            "version": {"type": "integer", "description": "Counts the action rows"},
            "status": {"enum": ["in_progress", "finished"]},
            "title": {"type": "string"},
            "players": {"type": "array", "description": "Seats in turn order; engine_id is "
                        "the id used in the state and in actions",
                        "items": {"type": "object", "properties": {
                            "id": {"type": "integer"}, "engine_id": {"type": "string"},
                            "character": {"type": "string"}, "seat": {"type": "integer"}}}},
            "setup": {"type": "object"},
            "awaiting": {"type": "object", "description": "phase (draw, playoff, fight, "
                         "event, challenge, step_over, class_change, cleanup, over), whose "
                         "turn, the step (1 or 2), may_step_again, fighters, discard, winner"},
            "allowed": {"type": "array", "description": "The kinds of action allowed now and "
                        "who takes them (null: the referee)",
                        "items": {"type": "object", "properties": {
                            "action": {"type": "string"},
                            "player": {"type": ["string", "null"]}}}},
            "winner": {"type": ["string", "null"]},
            "state": {"type": "object", "description": "The engine state: levels, classes, "
                      "inventories, play areas, the encounter and its breakdown"},
            "record": {"type": "array", "description": "Every action row, newest first, as "
                       "a sentence with the levels it moved",
                       "items": {"type": "object"}},
            "actions": {"type": "array", "description": "The live actions as stored",
                        "items": {"type": "object"}},
            "created_at": {"type": "string"}, "updated_at": {"type": "string"},
        },
    },
}
