"""Coup tables' part of the OpenAPI document (merged into it by openapi.spec())."""

from __future__ import annotations

ERROR = {"$ref": "#/components/responses/Error"}
TABLE = {"$ref": "#/components/schemas/CoupTable"}
GAME_ID = [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}]
VERSION = {"type": "integer", "description": "The table version the client saw; another one "
                                             "gets 409 with the fresh table. Optional."}
PLAYER_REF = {"type": ["string", "integer"],
              "description": "A seated player's registry id (the engine's player id)"}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _answers(description: str, code: str = "200", stale: bool = False) -> dict:
    out = {code: {"description": description, **_json(TABLE)},
           "401": ERROR, "404": ERROR, "422": ERROR}
    if stale:
        out["409"] = {"description": "A stale version: nothing applied; the fresh table "
                                     "with an error sentence",
                      **_json({"allOf": [TABLE, {"type": "object", "required": ["error"],
                                                 "properties": {"error": {"type": "string"}}}]})}
    return out


# One step of the table: exactly the objects listed in state.options (C4–C9).
STEP = {
    "oneOf": [
        {"type": "object", "title": "declare", "required": ["type", "player", "action"],
         "properties": {
             "type": {"const": "declare"}, "player": PLAYER_REF,
             "action": {"enum": ["income", "foreign_aid", "coup", "tax", "assassinate",
                                 "steal", "exchange", "inquisitor_exchange", "examine"]},
             "target": {"oneOf": [PLAYER_REF, {"type": "null"}]},
             "version": VERSION}},
        {"type": "object", "title": "challenge", "required": ["type"],
         "properties": {"type": {"const": "challenge"},
                        "challenger": {"oneOf": [PLAYER_REF, {"type": "null"}],
                                       "description": "null: nobody challenges"},
                        "version": VERSION}},
        {"type": "object", "title": "reveal", "required": ["type", "player", "character",
                                                           "shown"],
         "properties": {"type": {"const": "reveal"}, "player": PLAYER_REF,
                        "character": {"type": "string"},
                        "shown": {"type": "boolean", "description": "true: the claimed card "
                                  "was shown; false: `character` was turned face up"},
                        "version": VERSION}},
        {"type": "object", "title": "block", "required": ["type"],
         "properties": {"type": {"const": "block"},
                        "blocker": {"oneOf": [PLAYER_REF, {"type": "null"}],
                                    "description": "null: nobody blocks"},
                        "character": {"type": ["string", "null"]}, "version": VERSION}},
        {"type": "object", "title": "lose_influence", "required": ["type", "player",
                                                                   "character"],
         "properties": {"type": {"const": "lose_influence"}, "player": PLAYER_REF,
                        "character": {"type": "string"}, "version": VERSION}},
        {"type": "object", "title": "examine_verdict", "required": ["type", "player", "swap"],
         "properties": {"type": {"const": "examine_verdict"}, "player": PLAYER_REF,
                        "swap": {"type": "boolean"}, "version": VERSION}},
    ],
}

PATHS: dict = {
    "/api/v1/coup": {
        "get": {"summary": "Coup tables, newest first; ?player=<id> keeps those where the "
                           "player sits",
                "parameters": [{"name": "player", "in": "query",
                                "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "Tables (rows only)", **_json({
                    "type": "array", "items": {"type": "object", "properties": {
                        "id": {"type": "integer"}, "version": {"type": "integer"},
                        "status": {"enum": ["in_progress", "finished"]},
                        "title": {"type": "string"},
                        "created_at": {"type": "string"},
                        "updated_at": {"type": "string"}}}})},
                    "401": ERROR, "404": ERROR}},
        "post": {"summary": "Seat 2–8 registry players in clockwise order and start (C1–C4)",
                 "requestBody": {"required": True, **_json({
                     "type": "object", "required": ["players"],
                     "properties": {
                         "players": {"type": "array", "minItems": 2, "maxItems": 8,
                                     "items": {"type": "integer"},
                                     "description": "Registry player ids in seating order"},
                         "variant": {"enum": ["ambassador", "inquisitor"],
                                     "default": "ambassador"},
                         "first": {"type": ["integer", "null"],
                                   "description": "Who starts (default: the first seat)"},
                         "one_coin_start": {"type": "boolean", "default": False,
                                            "description": "C3: 2 players only, the "
                                                           "starting player takes 1 coin"},
                         "title": {"type": "string", "maxLength": 120}},
                     "additionalProperties": False})},
                 "responses": _answers("The new table", "201")},
    },
    "/api/v1/coup/{game_id}": {
        "parameters": GAME_ID,
        "get": {"summary": "One table: seats, coins, face-up cards, the question awaited, "
                           "its legal options, the log",
                "responses": _answers("The table")},
    },
    "/api/v1/coup/{game_id}/actions": {
        "parameters": GAME_ID,
        "post": {"summary": "Record one step (declare, challenge, reveal, block, "
                            "lose_influence, examine_verdict); refused → 422 {error, rule}",
                 "requestBody": {"required": True, **_json(STEP)},
                 "responses": _answers("The table after the step", stale=True)},
    },
    "/api/v1/coup/{game_id}/undo": {
        "parameters": GAME_ID,
        "post": {"summary": "Undo the table's latest step (an undo row is appended)",
                 "requestBody": {"required": False, **_json({
                     "type": "object", "properties": {"version": VERSION},
                     "additionalProperties": False})},
                 "responses": _answers("The table after the undo", stale=True)},
    },
}

SCHEMAS: dict = {
    "CoupTable": {
        "type": "object",
        "required": ["id", "version", "status", "title", "player_ids", "names", "record",
                     "state"],
        "properties": {
            "id": {"type": "integer"},
            "version": {"type": "integer", "description": "Counts the stored steps and undos"},
            "status": {"enum": ["in_progress", "finished"]},
            "title": {"type": "string"},
            "player_ids": {"type": "array", "items": {"type": "integer"},
                           "description": "Seats in clockwise order"},
            "names": {"type": "object", "additionalProperties": {"type": "string"},
                      "description": "Engine player id → the character's name"},
            "record": {"type": "array", "items": {"type": "string"},
                       "description": "The log of the table in the request's language"},
            "state": {
                "type": "object",
                "description": "The engine's table (coup_json.state_to_dict): players with "
                               "coins, face_up, influence, out; supply, court, turn, step, "
                               "awaiting, options (every legal step now), winner, log",
                "properties": {
                    "players": {"type": "array", "items": {"type": "object", "properties": {
                        "id": {"type": "string"}, "player_id": {"type": "integer"},
                        "name": {"type": "string"}, "coins": {"type": "integer"},
                        "face_up": {"type": "array", "items": {"type": "string"}},
                        "influence": {"type": "integer", "minimum": 0, "maximum": 2},
                        "out": {"type": "boolean"}}}},
                    "supply": {"type": "integer"},
                    "court": {"type": "integer"},
                    "turn": {"type": "string"},
                    "must_coup": {"type": "boolean"},
                    "step": {"type": "string"},
                    "awaiting": {"type": "object"},
                    "options": {"type": "array", "items": {"type": "object"}},
                    "winner": {"type": ["string", "null"]},
                },
            },
            "created_at": {"type": "string"},
            "updated_at": {"type": "string"},
        },
    },
}
