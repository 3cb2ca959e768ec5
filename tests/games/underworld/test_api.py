"""Underworld games in the JSON API: setup, each action, the state, undo, quick fights."""

from __future__ import annotations

import pytest

from referee.store import players as rows
from tests.games.underworld.test_service import FILLER, FILLER_B, seat


@pytest.fixture
def ab(db):
    return seat(db, "Anna", 3), seat(db, "Boris", 2)


def setup_body(a, b, **extra) -> dict:
    return {"players": [a["id"], b["id"]],
            "starting": {str(a["id"]): ["I02", "I06", "M01", "M01"], str(b["id"]): FILLER_B},
            **extra}


def create(api, a, b, **extra) -> dict:
    response = api("post", "/api/v1/castle", json=setup_body(a, b, **extra))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def action(api, game: dict, **fields):
    return api("post", f"/api/v1/castle/{game['id']}/actions",
               json={"version": game["version"], **fields})


def test_U4_setup_by_api_returns_the_state_and_what_is_allowed(api, db, ab):
    a, b = ab
    game = create(api, a, b, title="Tavern", passport_levels=True)
    assert (game["version"], game["status"], game["title"]) == (0, "in_progress", "Tavern")
    assert [p["engine_id"] for p in game["players"]] == [str(a["id"]), str(b["id"])]
    assert game["setup"] == {"castle": "castle-sample", "classes": "classes-sample",
                             "passport_levels": True,
                             "starting": {str(a["id"]): ["I02", "I06", "M01", "M01"],
                                          str(b["id"]): FILLER_B},
                             "levels": {str(a["id"]): 3, str(b["id"]): 2}}
    assert game["awaiting"] == {"phase": "draw", "player": str(a["id"]), "step": 1,
                                "may_step_again": True, "fighters": [], "discard": 0,
                                "winner": None}
    assert {"action": "draw", "player": str(a["id"])} in game["allowed"]
    assert [p["level"] for p in game["state"]["players"]] == [3, 2]
    assert game["record"] == [] and game["winner"] is None


@pytest.mark.parametrize(("body", "rule", "needle"), [
    ({"players": []}, "U4", "Pick 2 to 6"),
    ({"starting": {}}, "U4", "exactly 4 starting cards"),
    ({"castle": "classes-sample"}, "U1", "no castle deck named classes-sample"),
    ({"color": "red"}, None, "Unknown field: color."),
])
def test_U4_bad_setups_are_422_with_the_rule(api, db, ab, body, rule, needle):
    a, b = ab
    response = api("post", "/api/v1/castle", json={**setup_body(a, b), **body})
    assert response.status_code == 422
    data = response.get_json()
    assert needle in data["error"] and data.get("rule") == rule
    assert db["games"].count == 0


def test_U7_U8_example1_through_the_api_with_passport_levels(api, db, ab):
    a, b = ab
    game = create(api, a, b, passport_levels=True)
    for fields in ({"kind": "play", "player": a["id"], "code": "I02"},
                   {"kind": "play", "player": str(a["id"]), "code": "I06"},
                   {"kind": "draw", "code": "M07"}):
        response = action(api, game, **fields)
        assert response.status_code == 200, response.get_json()
        game = response.get_json()
    breakdown = game["state"]["breakdown"]
    assert [(ln["source"], ln["value"]) for ln in breakdown["fighter"]["lines"]] == [
        ("level", 3), ("card", 2), ("card", 1)]
    assert (breakdown["fighter"]["total"], breakdown["opponent"]["total"],
            breakdown["outcome"]) == (6, 5, "win")
    game = action(api, game, kind="fight").get_json()
    assert game["state"]["players"][0]["level"] == 4 and rows.get(db, a["id"])["level"] == 4
    assert game["record"][0]["text"] == "Fight: Anna 6 against Gate Troll (M07) 5: won (U7)."
    assert game["record"][0]["levels"] == [{"name": "Anna", "before": 3, "after": 4}]
    assert [r["action"]["kind"] for r in game["actions"]] == ["play", "play", "draw", "fight"]


def test_U10_a_refused_action_is_422_with_error_and_rule(api, db, ab):
    a, b = ab
    game = create(api, a, b)
    response = action(api, game, kind="play", player=a["id"], code="M01")
    assert response.status_code == 422
    assert response.get_json()["rule"] == "U10"
    assert "Only items and skills are played" in response.get_json()["error"]
    response = action(api, game, kind="fly")
    assert response.status_code == 422 and response.get_json()["rule"] == "U5"
    response = api("post", f"/api/v1/castle/{game['id']}/actions", json=[1])
    assert response.status_code == 422
    response = action(api, game, kind=["draw"], code="M07")
    assert response.status_code == 422 and response.get_json()["rule"] == "U5"
    response = action(api, game, kind="discard", codes="M01")
    assert response.status_code == 422 and "list of card codes" in response.get_json()["error"]
    assert db["game_actions"].count == 0


def test_a_stale_version_is_409_with_the_fresh_game(api, ab):
    a, b = ab
    game = create(api, a, b)
    assert action(api, game, kind="draw", code="I01").status_code == 200
    response = action(api, game, kind="draw", code="I03")
    assert response.status_code == 409
    data = response.get_json()
    assert data["version"] == 1 and "Someone else changed this game first" in data["error"]
    response = api("post", f"/api/v1/castle/{game['id']}/actions",
                   json={"kind": "end_turn", "version": "1"})
    assert response.status_code == 422


def test_undo_by_api_takes_the_level_back(api, db, ab):
    a, b = ab
    game = create(api, a, b, passport_levels=True)
    for fields in ({"kind": "play", "player": a["id"], "code": "I02"},
                   {"kind": "draw", "code": "M01"}, {"kind": "fight"}):
        game = action(api, game, **fields).get_json()
    assert rows.get(db, a["id"])["level"] == 4
    response = api("post", f"/api/v1/castle/{game['id']}/undo", json={"version": 0})
    assert response.status_code == 409
    response = api("post", f"/api/v1/castle/{game['id']}/undo",
                   json={"version": game["version"]})
    game = response.get_json()
    assert response.status_code == 200 and game["awaiting"]["phase"] == "fight"
    assert rows.get(db, a["id"])["level"] == 3
    assert game["record"][0]["undo"] and game["record"][1]["undone"]


def test_list_get_and_filter(api, db, ab):
    a, b = ab
    first = create(api, a, b)
    v = seat(db, "Vera")
    api("post", "/api/v1/castle", json={"players": [b["id"], v["id"]], "starting": {
        str(b["id"]): FILLER, str(v["id"]): FILLER_B}})
    listed = api("get", "/api/v1/castle").get_json()
    assert [g["id"] for g in listed] == [first["id"] + 1, first["id"]]
    assert listed[1]["players"] == [{"id": a["id"], "character": "Anna"},
                                    {"id": b["id"], "character": "Boris"}]
    mine = api("get", f"/api/v1/castle?player={a['id']}").get_json()
    assert [g["id"] for g in mine] == [first["id"]]
    assert api("get", "/api/v1/castle?player=999").status_code == 404
    assert api("get", f"/api/v1/castle/{first['id']}").get_json()["id"] == first["id"]
    assert api("get", "/api/v1/castle/999").status_code == 404


def test_the_api_needs_a_token(client, ab):
    assert client.get("/api/v1/castle").status_code == 401
    assert client.post("/api/v1/castle", json={}).status_code == 401
    assert client.post("/api/v1/castle/quick-fight", json={}).status_code == 401


def test_U7_U8_quick_fight_by_api(api, db, ab):
    a, _ = ab
    response = api("post", "/api/v1/castle/quick-fight",
                   json={"player": a["id"], "bonuses": [2, 1], "strength": 5})
    data = response.get_json()
    assert response.status_code == 200
    assert (data["outcome"], data["score"], data["level_before"], data["level"]) == \
        ("win", 6, 3, 4)
    assert data["player"]["level"] == 4 and data["event_id"]
    response = api("post", "/api/v1/castle/quick-fight",
                   json={"player": a["id"], "bonuses": "1", "strength": 9, "version": 1})
    assert response.status_code == 409 and response.get_json()["player"]["level"] == 4
    response = api("post", "/api/v1/castle/quick-fight",
                   json={"player": a["id"], "strength": "x"})
    assert response.status_code == 422 and response.get_json()["rule"] == "U7"
    assert api("post", "/api/v1/castle/quick-fight",
               json={"player": 999, "strength": 1}).status_code == 404


def test_openapi_describes_every_castle_action(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    assert {"/api/v1/castle", "/api/v1/castle/{game_id}", "/api/v1/castle/{game_id}/actions",
            "/api/v1/castle/{game_id}/undo", "/api/v1/castle/quick-fight"} <= set(spec["paths"])
    kinds = [s["properties"]["kind"]["const"]
             for s in spec["components"]["schemas"]["CastleAction"]["oneOf"]]
    assert "draw" in kinds and "power_up" in kinds and len(kinds) == 20
    schemas = {s["properties"]["kind"]["const"]: s
               for s in spec["components"]["schemas"]["CastleAction"]["oneOf"]}
    give = schemas["event_give"]
    assert give["required"] == ["kind", "giver", "receiver", "code"]
    assert give["properties"]["in_play"] == {"type": "boolean"}
    assert set(schemas["event_discard"]["required"]) == {"kind", "player", "code"}
    assert schemas["event_draw"]["required"] == ["kind", "code"]
    assert schemas["event_no_second_step"]["description"].startswith("U6:")


def test_U5_U6_event_effects_by_api_move_cards_and_end_the_steps(api, db, ab):
    a, b = ab
    game = create(api, a, b)  # Anna: I02 I06 M01 M01; Boris: M06 M06 M08 M08
    game = action(api, game, kind="play", player=a["id"], code="I06").get_json()
    game = action(api, game, kind="draw", code="E04").get_json()
    assert {"action": "event_discard", "player": None} in game["allowed"]
    assert {"action": "event_draw", "player": str(a["id"])} in game["allowed"]
    steps = [
        ({"kind": "event_discard", "player": a["id"], "code": "I06", "in_play": True},
         "Event: Anna discards Leather Jerkin (I06) from play."),
        ({"kind": "event_give", "giver": b["id"], "receiver": str(a["id"]), "code": "M08"},
         "Event: Boris gives Crypt Spider (M08) to Anna."),
        ({"kind": "event_draw", "code": "M07"},
         "Event: Anna draws one more card, Gate Troll (M07), into the inventory."),
        ({"kind": "event_no_second_step"},
         "Event: Anna takes no second step this turn (U6)."),
    ]
    for fields, text in steps:
        response = action(api, game, **fields)
        assert response.status_code == 200, response.get_json()
        game = response.get_json()
        assert game["record"][0]["text"] == text
    anna, boris = game["state"]["players"]
    assert anna["play_area"] == [] and anna["inventory"] == ["I02", "M01", "M01", "M08", "M07"]
    assert boris["inventory"] == ["M06", "M06", "M08"]
    assert game["state"]["discard"] == ["I06"] and game["state"]["may_step"] is False
    assert game["awaiting"]["phase"] == "event" and game["awaiting"]["may_step_again"] is False
    assert [r["action"] for r in game["actions"]][-4:] == [
        {"kind": "event_discard", "player": str(a["id"]), "code": "I06", "in_play": True},
        {"kind": "event_give", "giver": str(b["id"]), "receiver": str(a["id"]),
         "code": "M08", "in_play": False},
        {"kind": "event_draw", "code": "M07"}, {"kind": "event_no_second_step"}]
    game = action(api, game, kind="event_done").get_json()
    response = action(api, game, kind="draw", code="M01")
    assert response.status_code == 422 and response.get_json()["rule"] == "U6"


@pytest.mark.parametrize("fields", [
    {"kind": "event_discard", "player": "A", "code": "M01"},
    {"kind": "event_give", "giver": "A", "receiver": "B", "code": "M01"},
    {"kind": "event_draw", "code": "M07"},
    {"kind": "event_no_second_step"},
])
def test_U5_event_effects_outside_an_event_are_422_with_the_rule(api, db, ab, fields):
    a, b = ab
    game = create(api, a, b)
    ids = {"A": a["id"], "B": b["id"]}
    fields = {k: ids.get(v, v) for k, v in fields.items()}
    response = action(api, game, **fields)
    assert response.status_code == 422
    data = response.get_json()
    assert data["rule"] == "U5" and "only while it is being followed" in data["error"]
    assert db["game_actions"].count == 0
    game = action(api, game, kind="draw", code="M07").get_json()  # a fight, not an event
    response = action(api, game, **fields)
    assert response.status_code == 422 and response.get_json()["rule"] == "U5"
    assert db["game_actions"].count == 1


def test_U2_a_broken_castle_deck_file_is_named_in_the_readers_language(api, db, ab, tmp_path,
                                                                       monkeypatch):
    (tmp_path / "broken.toml").write_text(
        '[deck]\nname = "broken"\nkind = "castle"\ntitle_en = "B"\ntitle_ru = "Б"\n\n'
        '[[cards]]\ncode = "M07"\nkind = "monster"\nname_en = "T"\nname_ru = "Т"\n'
        'strength = "seven"\n', encoding="utf-8")
    monkeypatch.setenv("REFEREE_DECKS", str(tmp_path))
    a, b = ab
    body = {**setup_body(a, b), "castle": "broken"}
    english = api("post", "/api/v1/castle", json=body).get_json()
    assert english["rule"] == "U2"
    assert "broken.toml:12: U3: Card M07: strength must be a whole number" in english["error"]
    russian = api("post", "/api/v1/castle", json=body, headers={"Accept-Language": "ru"})
    assert russian.status_code == 422
    assert "broken.toml:12: U3: Карта M07:" in russian.get_json()["error"]
    assert "must be" not in russian.get_json()["error"]
    assert db["games"].count == 0


def test_the_underworld_paths_and_the_old_castle_paths_are_the_same_calls(api, db, ab):
    a, b = ab
    game = create(api, a, b)
    new = api("get", f"/api/v1/underworld/{game['id']}").get_json()
    assert new == api("get", f"/api/v1/castle/{game['id']}").get_json()
    listed = api("get", "/api/v1/underworld").get_json()
    assert listed == api("get", "/api/v1/castle").get_json() and listed[0]["id"] == game["id"]
    step = api("post", f"/api/v1/underworld/{game['id']}/actions",
               json={"version": game["version"], "kind": "draw", "code": "I01"})
    assert step.status_code == 200 and step.get_json()["version"] == game["version"] + 1
    doc = api("get", "/api/v1/openapi.json").get_json()
    assert doc["paths"]["/api/v1/castle/{game_id}"]["get"]["deprecated"] is True
    assert "deprecated" not in doc["paths"]["/api/v1/underworld/{game_id}"]["get"]
