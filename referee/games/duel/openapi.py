"""The card duel's part of the OpenAPI document (merged into it by openapi.spec())."""

from __future__ import annotations

ERROR = {"$ref": "#/components/responses/Error"}
DUEL = {"$ref": "#/components/schemas/Duel"}
DUEL_ID = [{"name": "duel_id", "in": "path", "required": True, "schema": {"type": "integer"}}]
VERSION = {"type": "integer", "description": "The duel version the client saw; another one "
                                             "gets 409 with the fresh duel. Optional."}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _answers(description: str, code: str = "200", stale: bool = False) -> dict:
    out = {code: {"description": description, **_json(DUEL)},
           "401": ERROR, "404": ERROR, "422": ERROR}
    if stale:
        out["409"] = {"description": "A stale version: nothing applied; the fresh duel "
                                     "with an error sentence",
                      **_json({"allOf": [DUEL, {"type": "object", "required": ["error"],
                                                "properties": {"error": {"type": "string"}}}]})}
    return out


PLAY_IN = {
    "type": "object",
    "required": ["table"],
    "properties": {
        "table": {"type": "string", "description": "The table card, any D3 notation "
                                                   "(10S, Д♠, дама пик)"},
        "hand": {"type": ["string", "null"], "description": "A duel-deck card laid over it "
                                                           "(D7), or null"},
        "tokens": {"type": "integer", "minimum": 0, "default": 0,
                   "description": "Chance tokens spent (D8)"},
    },
    "additionalProperties": False,
}
PLAY_OUT = {
    "type": "object",
    "required": ["table", "hand", "tokens", "total"],
    "properties": {"table": {"type": "string"}, "hand": {"type": ["string", "null"]},
                   "tokens": {"type": "integer"}, "total": {"type": "integer"}},
}

PATHS: dict = {
    "/api/v1/duels": {
        "get": {"summary": "Duels, newest first; ?player=<id> keeps that player's",
                "parameters": [{"name": "player", "in": "query",
                                "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "Duels",
                                      **_json({"type": "array", "items": DUEL})},
                              "401": ERROR, "404": ERROR}},
        "post": {"summary": "Start a duel (D4): both pay one cartridge",
                 "requestBody": {"required": True, **_json({
                     "type": "object", "required": ["a", "b"],
                     "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                     "additionalProperties": False})},
                 "responses": _answers("The new duel", "201")},
    },
    "/api/v1/duels/{duel_id}": {
        "parameters": DUEL_ID,
        "get": {"summary": "One duel with its rounds and result",
                "responses": _answers("The duel")},
    },
    "/api/v1/duels/{duel_id}/rounds": {
        "parameters": DUEL_ID,
        "post": {"summary": "Record a round (D6–D11); cards in any notation, returned "
                            "canonical",
                 "requestBody": {"required": True, **_json({
                     "type": "object", "required": ["a", "b"],
                     "properties": {"a": PLAY_IN, "b": PLAY_IN, "version": VERSION},
                     "additionalProperties": False})},
                 "responses": _answers("The duel after the round", stale=True)},
    },
    "/api/v1/duels/{duel_id}/extension": {
        "parameters": DUEL_ID,
        "post": {"summary": "Record the D12 decision: true continues (pays a cartridge)",
                 "requestBody": {"required": True, **_json({
                     "type": "object", "required": ["a", "b"],
                     "properties": {"a": {"type": "boolean"}, "b": {"type": "boolean"},
                                    "version": VERSION},
                     "additionalProperties": False})},
                 "responses": _answers("The duel after the decision", stale=True)},
    },
    "/api/v1/duels/{duel_id}/undo": {
        "parameters": DUEL_ID,
        "post": {"summary": "Undo the duel's latest action and all its effects on the "
                            "players (undoing the start cancels the duel)",
                 "requestBody": {"required": False, **_json({
                     "type": "object", "properties": {"version": VERSION},
                     "additionalProperties": False})},
                 "responses": _answers("The duel after the undo", stale=True)},
    },
}

SCHEMAS: dict = {
    "Duel": {
        "type": "object",
        "required": ["id", "version", "a", "b", "status", "rounds", "result"],
        "properties": {
            "id": {"type": "integer"},
            "version": {"type": "integer", "description": "Counts the duel's log entries"},
            "a": {"type": "integer", "description": "Player id of duelist a"},
            "b": {"type": "integer", "description": "Player id of duelist b"},
            "status": {"enum": ["in_progress", "extension", "finished", "cancelled"],
                       "description": "cancelled: the start was undone"},
            "rounds": {"type": "array", "items": {
                "type": "object", "required": ["n", "a", "b", "winner"],
                "properties": {"n": {"type": "integer"}, "a": PLAY_OUT, "b": PLAY_OUT,
                               "winner": {"enum": ["a", "b", None]}}}},
            "result": {"oneOf": [{"type": "null"}, {
                "type": "object", "required": ["winner", "reason"],
                "properties": {
                    "winner": {"enum": ["a", "b", None]},
                    "reason": {"enum": ["rounds", "heavy_wound", "extension", "draw"]}}}]},
            "awaiting": {"enum": ["round", "extension", None],
                         "description": "What is entered next"},
            "extensions": {"type": "array", "description": "D12 decisions in order",
                           "items": {"type": "object",
                                     "properties": {"a": {"type": "boolean"},
                                                    "b": {"type": "boolean"}}}},
            "duelists": {"type": ["object", "null"],
                         "description": "D14: per side hp/chance before and after, "
                                        "cartridges paid, table cards, surrendered cards, "
                                        "heavy wound"},
            "created_at": {"type": "string", "format": "date-time"},
            "updated_at": {"type": "string", "format": "date-time"},
        },
    },
}
