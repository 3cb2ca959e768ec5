"""The Berserk-style battles' part of the OpenAPI document (merged by openapi.spec())."""

from __future__ import annotations

from referee.games.berserk.service import SETTING_GROUPS

ERROR = {"$ref": "#/components/responses/Error"}
SQUAD = {"$ref": "#/components/schemas/BerserkSquad"}
BATTLE = {"$ref": "#/components/schemas/BerserkBattle"}
SUMMARY = {"$ref": "#/components/schemas/BerserkSquadSummary"}
SETTINGS = {"$ref": "#/components/schemas/BerserkSettings"}
GAME_ID = [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}]
SQUAD_ID = [{"name": "squad_id", "in": "path", "required": True,
             "schema": {"type": "integer"}}]
PLAYER = [{"name": "player", "in": "query", "schema": {"type": "integer"},
           "description": "Only this player's"}]
VERSION = {"type": "integer", "description": "The version the client saw; another one gets "
                                             "409 with the fresh object. Optional."}
CREATURE = {"type": "string", "description": "A creature's id in the battle: a1, a2, … "
                                             "for side a, b1, … for side b"}
PICKS = {"type": "array", "description": "The squad's cards in order (their battle ids "
                                         "follow it)",
         "items": {"type": "object", "required": ["code"], "additionalProperties": False,
                   "properties": {"code": {"type": "string"},
                                  "x": {"type": "integer", "minimum": 0, "maximum": 99,
                                        "description": "B2: only for a card of cost X"}}}}
SEAT = {"enum": ["first", "second"], "default": "first",
        "description": "B12: whose crystals the squad is built with"}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _answers(description: str, schema: dict, code: str = "200", stale: bool = False) -> dict:
    out = {code: {"description": description, **_json(schema)},
           "401": ERROR, "404": ERROR, "422": ERROR}
    if stale:
        out["409"] = {"description": "A stale version: nothing applied; the fresh object "
                                     "with an error sentence",
                      **_json({"allOf": [schema, {"type": "object", "required": ["error"],
                                                  "properties": {"error": {"type": "string"}}}]})}
    return out


def _body(properties: dict, required: list[str] | None = None, extra: bool = False) -> dict:
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    if not extra:
        schema["additionalProperties"] = False
    return {"required": True, **_json(schema)}


MODIFICATION = {
    "type": "object", "required": ["op"],
    "description": "B6, B9. overwrite: any of cost, elite, lives, movement, strike [X,Y,Z]; "
                   "lives: amount (+/−); halve: props (cost, lives, movement, strike) and "
                   "round_up; gain / become / lose: element. source (optional, B7): what "
                   "made the effect, e.g. a creature id.",
    "properties": {
        "op": {"enum": ["overwrite", "lives", "halve", "gain", "become", "lose"]},
        "cost": {"type": "integer"}, "elite": {"type": "boolean"},
        "lives": {"type": "integer"}, "movement": {"type": "integer"},
        "strike": {"type": "array", "items": {"type": "integer"}, "minItems": 3,
                   "maxItems": 3},
        "amount": {"type": "integer"},
        "props": {"type": "array", "items": {"enum": ["cost", "lives", "movement",
                                                      "strike"]}},
        "round_up": {"type": "boolean", "default": True},
        "element": {"enum": ["steppe", "forest", "mountains", "swamps", "darkness", "fire"]},
        "source": {"type": "string", "maxLength": 60},
    },
}
STRIKE = {
    "attacker": CREATURE, "target": CREATURE,
    "attacker_die": {"type": "integer", "minimum": 1, "maximum": 6},
    "defender_die": {"type": ["integer", "null"], "minimum": 1, "maximum": 6,
                     "description": "null when the target does not roll (tapped, an "
                                    "artifact, or it cannot answer)"},
    "attacker_die_mod": {"type": "integer", "default": 0},
    "defender_die_mod": {"type": "integer", "default": 0},
    "strike_mod": {"type": "integer", "default": 0,
                   "description": "Added to the wounds of the attack"},
    "answer_mod": {"type": "integer", "default": 0,
                   "description": "Added to the wounds of the answer"},
}
OUTCOME = {
    "type": "object",
    "properties": {
        "attack_roll": {"type": "integer"}, "defence_roll": {"type": ["integer", "null"]},
        "strike": {"enum": ["none", "weak", "medium", "strong"]},
        "answer": {"enum": ["none", "weak", "medium", "strong"]},
        "wounds_to_target": {"type": "integer"}, "wounds_to_attacker": {"type": "integer"},
        "may_lower": {"enum": ["attacker", "target", None]}, "lowered": {"type": "boolean"},
    },
}

PATHS: dict = {
    "/api/v1/berserk/decks": {
        "get": {"summary": "Decks of Berserk-style cards with every card's printed "
                           "properties (B1–B5, B8)",
                "responses": _answers("Decks", {"type": "array", "items": {"type": "object"}})},
    },
    "/api/v1/berserk/squads/check": {
        "post": {"summary": "Count a squad without saving it: gold, silver, element penalty, "
                            "flyers, copies and every problem (B12–B14)",
                 "requestBody": _body({"deck": {"type": "string"}, "seat": SEAT,
                                       "cards": PICKS, "settings": SETTINGS}, ["deck", "cards"]),
                 "responses": _answers("The counts", SUMMARY)},
    },
    "/api/v1/berserk/squads": {
        "get": {"summary": "Saved squads, newest first", "parameters": PLAYER,
                "responses": _answers("Squads", {"type": "array", "items": SQUAD})},
        "post": {"summary": "Save a squad for a player; refused unless it keeps B12–B14",
                 "requestBody": _body({"player": {"type": "integer"},
                                       "name": {"type": "string", "maxLength": 60},
                                       "deck": {"type": "string"}, "seat": SEAT,
                                       "cards": PICKS, "settings": SETTINGS},
                                      ["player", "deck", "cards"]),
                 "responses": _answers("The new squad", SQUAD, "201")},
    },
    "/api/v1/berserk/squads/{squad_id}": {
        "parameters": SQUAD_ID,
        "get": {"summary": "One squad with its counts and every save (who and when)",
                "responses": _answers("The squad", SQUAD)},
        "put": {"summary": "Change a squad; fields left out keep their value",
                "requestBody": _body({"player": {"type": "integer"},
                                      "name": {"type": "string", "maxLength": 60},
                                      "deck": {"type": "string"}, "seat": SEAT,
                                      "cards": PICKS, "settings": SETTINGS,
                                      "version": VERSION}),
                "responses": _answers("The squad", SQUAD, stale=True)},
    },
    "/api/v1/berserk/battles": {
        "get": {"summary": "Battles, newest first", "parameters": PLAYER,
                "responses": _answers("Battles", {"type": "array", "items": BATTLE})},
        "post": {"summary": "Put two saved squads of two players in play (a moves first); "
                            "settings default to squad a's",
                 "requestBody": _body({"a": {"type": "integer"}, "b": {"type": "integer"},
                                       "settings": SETTINGS}, ["a", "b"]),
                 "responses": _answers("The new battle", BATTLE, "201")},
    },
    "/api/v1/berserk/battles/{game_id}": {
        "parameters": GAME_ID,
        "get": {"summary": "One battle: creatures with current properties, the record",
                "responses": _answers("The battle", BATTLE)},
    },
    "/api/v1/berserk/battles/{game_id}/modifications": {
        "parameters": GAME_ID,
        "post": {"summary": "Change a creature's properties or elements (B6, B9); lowering "
                            "lives may kill at once (B10)",
                 "requestBody": _body({"creature": CREATURE, "modification": MODIFICATION,
                                       "version": VERSION}, ["creature", "modification"]),
                 "responses": _answers("The battle after the change", BATTLE, stale=True)},
    },
    "/api/v1/berserk/battles/{game_id}/strikes": {
        "parameters": GAME_ID,
        "post": {"summary": "Settle a simple strike from the dice (B11); wounds both ways "
                            "and deaths at once (B10)",
                 "requestBody": _body({**STRIKE, "lower": {
                     "type": "boolean", "default": False,
                     "description": "Where both strike, the stronger side lowers both one "
                                    "step"}, "version": VERSION},
                     ["attacker", "target", "attacker_die"]),
                 "responses": _answers("The battle after the strike", BATTLE, stale=True)},
    },
    "/api/v1/berserk/battles/{game_id}/strikes/preview": {
        "parameters": GAME_ID,
        "post": {"summary": "What a strike would do, as rolled and (in an exchange) "
                            "lowered; nothing is stored",
                 "requestBody": _body({**STRIKE, "version": VERSION},
                                      ["attacker", "target", "attacker_die"]),
                 "responses": _answers("One or two outcomes", {
                     "type": "object", "properties": {
                         "version": {"type": "integer"},
                         "outcomes": {"type": "array", "items": OUTCOME}}})},
    },
    "/api/v1/berserk/battles/{game_id}/actions": {
        "parameters": GAME_ID,
        "post": {"summary": "Any battle action: {type: wound, creature, amount}, {type: tap "
                            "| untap, creature}, {type: end_effects, creature, source} (also "
                            "modify and strike)",
                 "requestBody": _body({"type": {"enum": ["wound", "tap", "untap",
                                                         "end_effects", "modify", "strike"]},
                                       "version": VERSION}, ["type"], extra=True),
                 "responses": _answers("The battle after the action", BATTLE, stale=True)},
    },
    "/api/v1/berserk/battles/{game_id}/undo": {
        "parameters": GAME_ID,
        "post": {"summary": "Undo the latest action that counts (an undo row is appended)",
                 "requestBody": {"required": False, **_json({
                     "type": "object", "properties": {"version": VERSION},
                     "additionalProperties": False})},
                 "responses": _answers("The battle after the undo", BATTLE, stale=True)},
    },
}

SCHEMAS: dict = {
    "BerserkSettings": {
        "type": "object", "additionalProperties": False,
        "description": "The published rules' numbers an event may change (left out = "
                       "published value)",
        "properties": {key: ({"type": "boolean"} if key == "strike_taps_attacker" else
                             {"type": "integer", "minimum": 0, "maximum": 99,
                              "description": rule})
                       for rule, keys in SETTING_GROUPS for key in keys},
    },
    "BerserkSquadSummary": {
        "type": "object",
        "properties": {
            **{k: {"type": "integer"} for k in (
                "cards", "gold", "silver", "elite_cost", "ordinary_cost", "element_penalty",
                "gold_used", "silver_used", "gold_left", "silver_left", "flyer_cost",
                "flyer_limit")},
            "elements": {"type": "array", "items": {"type": "string"}},
            "copies": {"type": "array", "items": {"type": "object", "properties": {
                "code": {"type": "string"}, "count": {"type": "integer"}}}},
            "problems": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}},
            "ok": {"type": "boolean"},
        },
    },
    "BerserkSquad": {
        "type": "object",
        "required": ["id", "player", "name", "deck", "seat", "cards", "settings", "version"],
        "properties": {
            "id": {"type": "integer"}, "player": {"type": "integer"},
            "character": {"type": "string"}, "name": {"type": "string"},
            "deck": {"type": "string"}, "seat": SEAT, "cards": PICKS, "settings": SETTINGS,
            "version": {"type": "integer", "description": "Counts the saves"},
            "summary": {"oneOf": [SUMMARY, {"type": "null"}]},
            "created_at": {"type": "string"}, "created_by": {"type": ["string", "null"]},
            "updated_at": {"type": "string"}, "updated_by": {"type": ["string", "null"]},
            "edits": {"type": "array", "items": {"type": "object"}},
        },
    },
    "BerserkBattle": {
        "type": "object",
        "required": ["id", "version", "status", "players", "state", "log"],
        "properties": {
            "id": {"type": "integer"}, "version": {"type": "integer"},
            "status": {"enum": ["in_progress", "finished"]}, "title": {"type": "string"},
            "players": {"type": "object", "description": "Player ids of sides a and b"},
            "squads": {"type": "object"},
            "state": {"type": "object", "description": "settings, creatures (card, mods, "
                                                       "wounds, tapped, dead, effective, "
                                                       "lives_left), living, winner, "
                                                       "allowed, last_strike"},
            "log": {"type": "array", "items": {"type": "object", "properties": {
                "seq": {"type": "integer"}, "at": {"type": "string"},
                "referee": {"type": ["string", "null"]}, "action": {"type": "object"},
                "undone": {"type": "boolean"}, "outcome": {"oneOf": [OUTCOME,
                                                                     {"type": "null"}]},
                "deaths": {"type": "array", "items": {"type": "string"}}}}},
            "created_at": {"type": "string"}, "updated_at": {"type": "string"},
        },
    },
}
