"""The OpenAPI 3.1 document of /api/v1. Later games add their paths in PATHS."""

from __future__ import annotations

from referee import __version__

ERROR = {"$ref": "#/components/responses/Error"}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(description: str, schema: dict, code: str = "200") -> dict:
    return {code: {"description": description, **_json(schema)},
            "401": ERROR, "404": ERROR, "422": ERROR}


PLAYER = {"$ref": "#/components/schemas/Player"}
EVENT = {"$ref": "#/components/schemas/Event"}
STATS = {
    "type": "object",
    "properties": {
        "hp": {"type": "integer"},
        "chance": {"type": "integer"},
        "cartridges": {"type": "integer"},
        "level": {"type": "integer"},
        "reason": {"type": "string", "maxLength": 200},
    },
    "additionalProperties": False,
}
REASON = {"type": "object", "properties": {"reason": {"type": "string", "maxLength": 200}}}
PLAYER_ID = [{"name": "player_id", "in": "path", "required": True,
              "schema": {"type": "integer"}}]

PATHS: dict = {
    "/api/v1/token": {"post": {
        "summary": "Trade a referee's name and password for a bearer token",
        "security": [],
        "requestBody": {"required": True, **_json({
            "type": "object", "required": ["name", "password"],
            "properties": {"name": {"type": "string"}, "password": {"type": "string"}}})},
        "responses": {"200": {"description": "A token", **_json({
            "type": "object", "properties": {"token": {"type": "string"}}})},
            "400": ERROR, "401": ERROR},
    }},
    "/api/v1/players": {
        "get": {"summary": "List players, optionally searched by ?q=",
                "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}],
                "responses": _ok("Players", {"type": "array", "items": PLAYER})},
        "post": {"summary": "Register a player at full HP and chance",
                 "requestBody": {"required": True,
                                 **_json({"$ref": "#/components/schemas/NewPlayer"})},
                 "responses": _ok("The new player", PLAYER, "201")},
    },
    "/api/v1/players/{player_id}": {
        "parameters": PLAYER_ID,
        "get": {"summary": "One player", "responses": _ok("The player", PLAYER)},
        "patch": {"summary": "Edit names, maximums, suit or notes",
                  "requestBody": {"required": True, **_json({
                      "type": "object",
                      "properties": {k: {"type": t} for k, t in (
                          ("character", "string"), ("player", "string"),
                          ("hp_max", "integer"), ("chance_max", "integer"),
                          ("suit", "string"), ("notes", "string"), ("reason", "string"))}})},
                  "responses": _ok("The player", PLAYER)},
    },
    "/api/v1/players/{player_id}/adjust": {
        "parameters": PLAYER_ID,
        "post": {"summary": "Add deltas to stats; all apply or none (422)",
                 "requestBody": {"required": True, **_json(STATS)},
                 "responses": _ok("The player", PLAYER)},
    },
    "/api/v1/players/{player_id}/set": {
        "parameters": PLAYER_ID,
        "post": {"summary": "Set stats to exact values",
                 "requestBody": {"required": True, **_json(STATS)},
                 "responses": _ok("The player", PLAYER)},
    },
    "/api/v1/players/{player_id}/heal": {
        "parameters": PLAYER_ID,
        "post": {"summary": "Heal a heavily wounded player to 1 HP",
                 "requestBody": {"required": False, **_json(REASON)},
                 "responses": _ok("The player", PLAYER)},
    },
    "/api/v1/players/{player_id}/kill": {
        "parameters": PLAYER_ID,
        "post": {"summary": "Mark the character dead",
                 "requestBody": {"required": False, **_json(REASON)},
                 "responses": _ok("The player", PLAYER)},
    },
    "/api/v1/players/{player_id}/reissue": {
        "parameters": PLAYER_ID,
        "post": {"summary": "Issue a new passport token; the old URL answers 404",
                 "responses": _ok("The player", PLAYER)},
    },
    "/api/v1/players/{player_id}/events": {
        "parameters": PLAYER_ID,
        "get": {"summary": "The player's history, newest first",
                "responses": _ok("Events", {"type": "array", "items": EVENT})},
    },
    "/api/v1/events": {
        "get": {"summary": "Recent events, newest first",
                "parameters": [{"name": "before", "in": "query",
                                "schema": {"type": "integer"}}],
                "responses": _ok("Events", {"type": "array", "items": EVENT})},
    },
    "/api/v1/events/{event_id}/undo": {
        "parameters": [{"name": "event_id", "in": "path", "required": True,
                        "schema": {"type": "integer"}}],
        "post": {"summary": "Undo an event by appending its compensating event",
                 "requestBody": {"required": False, **_json(REASON)},
                 "responses": {**_ok("The player", PLAYER), "409": ERROR}},
    },
    "/api/v1/openapi.json": {"get": {
        "summary": "This document", "security": [],
        "responses": {"200": {"description": "OpenAPI 3.1", **_json({"type": "object"})}},
    }},
}

SCHEMAS = {
    "Player": {
        "type": "object",
        "required": ["id", "character", "player", "hp", "hp_max", "chance", "chance_max",
                     "cartridges", "level", "status", "suit", "duel_deck", "passport_url"],
        "properties": {
            "id": {"type": "integer"},
            "character": {"type": "string"},
            "player": {"type": "string"},
            "hp": {"type": "integer", "minimum": 0},
            "hp_max": {"type": "integer", "minimum": 1},
            "chance": {"type": "integer", "minimum": 0},
            "chance_max": {"type": "integer", "minimum": 0},
            "cartridges": {"type": "integer", "minimum": 0},
            "level": {"type": "integer", "minimum": 1, "maximum": 10},
            "status": {"enum": ["active", "heavy_wound", "dead"]},
            "suit": {"enum": ["S", "H", "D", "C"]},
            "duel_deck": {"type": "array", "items": {"type": "string"},
                          "description": "Duel-deck cards still held (D1), canonical codes"},
            "notes": {"type": "string"},
            "wounded_at": {"type": ["string", "null"]},
            "version": {"type": "integer"},
            "passport_url": {"type": "string"},
        },
    },
    "NewPlayer": {
        "type": "object",
        "required": ["character", "hp_max", "chance_max", "cartridges", "suit"],
        "properties": {
            "character": {"type": "string", "minLength": 1, "maxLength": 80},
            "player": {"type": "string", "maxLength": 80},
            "hp_max": {"type": "integer", "minimum": 1, "maximum": 99},
            "chance_max": {"type": "integer", "minimum": 0, "maximum": 99},
            "cartridges": {"type": "integer", "minimum": 0, "maximum": 999},
            "suit": {"type": "string", "description": "S H D C, ♠ ♥ ♦ ♣ or a Russian suit name"},
            "level": {"type": "integer", "minimum": 1, "maximum": 10},
            "notes": {"type": "string", "maxLength": 2000},
            "reason": {"type": "string", "maxLength": 200},
        },
        "additionalProperties": False,
    },
    "Event": {
        "type": "object",
        "required": ["id", "at", "referee", "kind", "changes", "reason"],
        "properties": {
            "id": {"type": "integer"},
            "at": {"type": "string", "format": "date-time"},
            "referee": {"type": ["string", "null"]},
            "player_id": {"type": ["integer", "null"]},
            "kind": {"type": "string"},
            "changes": {"type": "object", "additionalProperties": {
                "type": "object", "properties": {"before": {}, "after": {}}}},
            "reason": {"type": "string", "description":
                       "The referee's words as written; a reason the app wrote (a duel "
                       "round, a game step) in the language of Accept-Language."},
            "undoes": {"type": ["integer", "null"]},
            "undone_by": {"type": ["integer", "null"]},
        },
    },
    "Error": {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "string"},
                       "rule": {"type": "string", "description": "Rule id, e.g. D7"}},
    },
}


def spec() -> dict:
    """The whole document."""
    from referee.games.berserk import openapi as openapi_berserk
    from referee.games.coup import openapi as openapi_coup
    from referee.games.duel import openapi as openapi_duels
    from referee.games.underworld import openapi as openapi_underworld

    return {
        "openapi": "3.1.0",
        "info": {"title": "Referee API", "version": __version__},
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "paths": {**PATHS, **openapi_duels.PATHS, **openapi_coup.PATHS,
                  **openapi_underworld.PATHS, **openapi_berserk.PATHS},
        "components": {
            "schemas": {**SCHEMAS, **openapi_duels.SCHEMAS, **openapi_coup.SCHEMAS,
                        **openapi_underworld.SCHEMAS, **openapi_berserk.SCHEMAS},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "responses": {"Error": {"description": "A refusal with a sentence",
                                    **_json({"$ref": "#/components/schemas/Error"})}},
        },
    }
