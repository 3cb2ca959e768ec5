"""The JSON API contract under /api/v1."""

from __future__ import annotations

import re

import pytest

NEW = {"character": "B", "player": "Boris", "hp_max": 3, "chance_max": 1, "cartridges": 2,
       "suit": "C"}


def test_token_with_bad_credentials_is_401(client):
    response = client.post("/api/v1/token", json={"name": "ref", "password": "wrong"})
    assert response.status_code == 401
    assert response.get_json() == {"error": "Wrong name or password."}


@pytest.mark.parametrize("body", [None, [], {"name": "ref"}, {"name": 1, "password": "x"}])
def test_token_with_malformed_body_is_400(client, body):
    response = client.post("/api/v1/token", json=body)
    assert response.status_code == 400
    assert "error" in response.get_json()


@pytest.mark.parametrize("header", [None, "Bearer nope", "Basic cmVmOnJlZi1wYXNz", "Bearer"])
def test_calls_without_a_valid_bearer_token_are_401(client, header):
    headers = {"Authorization": header} if header else {}
    response = client.get("/api/v1/players", headers=headers)
    assert response.status_code == 401
    assert "error" in response.get_json()


def test_a_session_cookie_is_not_enough_for_the_api(referee):
    assert referee.get("/api/v1/players").status_code == 401


def test_create_player_contract(api, db):
    response = api("post", "/api/v1/players", json=NEW)
    assert response.status_code == 201
    body = response.get_json()
    assert {k: body[k] for k in ("character", "player", "hp", "hp_max", "chance",
                                 "chance_max", "cartridges", "level", "status", "suit")} == {
        "character": "B", "player": "Boris", "hp": 3, "hp_max": 3, "chance": 1,
        "chance_max": 1, "cartridges": 2, "level": 1, "status": "active", "suit": "C"}
    assert body["duel_deck"] == ["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]
    assert body["passport_url"].startswith("http://localhost/p/")
    token = db["players"].get(body["id"])["passport_token"]
    assert body["passport_url"] == f"http://localhost/p/{token}"
    assert len(token) >= 22  # at least 128 random bits, never the row id


@pytest.mark.parametrize(("patch", "status"), [
    ({"hp_max": 0}, 422), ({"hp_max": "3"}, 422), ({"cartridges": True}, 422),
    ({"suit": "X"}, 422), ({"level": 11}, 422), ({"character": None}, 422),
    ({"colour": "red"}, 422),
])
def test_create_player_refuses_bad_input(api, db, patch, status):
    response = api("post", "/api/v1/players", json={**NEW, **patch})
    assert response.status_code == status
    assert isinstance(response.get_json()["error"], str)
    assert db["players"].count == 0


def test_malformed_json_is_refused_not_a_crash(api):
    response = api("post", "/api/v1/players", data="{nope",
                   headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.get_json()["error"] == "Send a JSON object in the request body."


def test_list_and_get(api, player):
    listed = api("get", "/api/v1/players").get_json()
    assert [p["id"] for p in listed] == [player["id"]]
    assert api("get", f"/api/v1/players/{player['id']}").get_json()["hp"] == 3
    assert api("get", "/api/v1/players/999").status_code == 404
    assert api("get", "/api/v1/players?q=capt").get_json()[0]["character"] == "Captain A"


def test_adjust_and_events(api, player):
    response = api("post", f"/api/v1/players/{player['id']}/adjust",
                   json={"hp": -1, "cartridges": 1, "reason": "ambush"})
    assert response.status_code == 200
    assert (response.get_json()["hp"], response.get_json()["cartridges"]) == (2, 4)
    events = api("get", f"/api/v1/players/{player['id']}/events").get_json()
    newest = events[0]
    assert newest["referee"] == "ref"
    assert newest["kind"] == "adjust"
    assert newest["changes"] == {"hp": {"before": 3, "after": 2},
                                 "cartridges": {"before": 3, "after": 4}}
    assert newest["reason"] == "ambush"
    assert set(newest) >= {"id", "at", "referee", "kind", "changes", "reason"}


@pytest.mark.parametrize("body", [{"hp": -4}, {"hp": -1, "chance": 5}, {"level": -1},
                                  {"cartridges": -4}])
def test_adjust_out_of_bounds_is_422_and_nothing_applies(api, db, player, body):
    response = api("post", f"/api/v1/players/{player['id']}/adjust", json=body)
    assert response.status_code == 422
    assert response.get_json()["error"]
    row = db["players"].get(player["id"])
    assert (row["hp"], row["chance"], row["level"], row["cartridges"]) == (3, 2, 1, 3)


@pytest.mark.parametrize("body", [{}, {"hp": "1"}, {"hp": 1.5}, {"hp": True}, {"mana": 1},
                                  [1, 2], "hp"])
def test_adjust_malformed_is_4xx_with_a_sentence(api, db, player, body):
    response = api("post", f"/api/v1/players/{player['id']}/adjust", json=body)
    assert 400 <= response.status_code < 500
    assert response.get_json()["error"].endswith(".")
    assert db.execute("SELECT count(*) FROM events WHERE player_id = ?",
                      [player["id"]]).fetchone()[0] == 1  # only the create


def test_rule_refusal_carries_the_rule_id(api, player):
    response = api("post", f"/api/v1/players/{player['id']}/adjust", json={"chance": 1})
    assert response.get_json()["rule"] == "D8"


def test_undo_and_second_undo(api, db, player):
    api("post", f"/api/v1/players/{player['id']}/adjust", json={"hp": -1})
    event_id = api("get", f"/api/v1/players/{player['id']}/events").get_json()[0]["id"]
    response = api("post", f"/api/v1/events/{event_id}/undo")
    assert response.status_code == 200
    assert response.get_json()["hp"] == 3
    second = api("post", f"/api/v1/events/{event_id}/undo")
    assert second.status_code == 409
    assert second.get_json()["error"] == "This change was already undone."
    assert db["players"].get(player["id"])["hp"] == 3
    assert api("post", "/api/v1/events/9999/undo").status_code == 404


def test_set_heal_kill_reissue_edit(api, player):
    pid = player["id"]
    assert api("post", f"/api/v1/players/{pid}/set", json={"hp": 0}).get_json()["status"] == \
        "heavy_wound"
    assert api("post", f"/api/v1/players/{pid}/heal").get_json()["hp"] == 1
    assert api("post", f"/api/v1/players/{pid}/kill", json={"reason": "x"}).get_json()[
        "status"] == "dead"
    old = player["passport_token"]
    assert old not in api("post", f"/api/v1/players/{pid}/reissue").get_json()["passport_url"]
    edited = api("patch", f"/api/v1/players/{pid}", json={"character": "Z", "notes": "n"})
    assert edited.get_json()["character"] == "Z"
    assert api("patch", f"/api/v1/players/{pid}", json={"hp": 3}).status_code == 422


def test_feed(api, player):
    api("post", f"/api/v1/players/{player['id']}/adjust", json={"level": 1})
    feed = api("get", "/api/v1/events").get_json()
    assert feed[0]["changes"] == {"level": {"before": 1, "after": 2}}


def test_openapi_document_lists_every_api_route(client, app):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops
                  if method != "parameters"}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert (path, method.lower()) in documented, (path, method)


def test_app_made_reasons_follow_accept_language(api, db, player):
    other = api("post", "/api/v1/players", json={"character": "B", "hp_max": 3,
                                                 "chance_max": 1, "cartridges": 2,
                                                 "suit": "C"}).get_json()["id"]
    assert api("post", "/api/v1/duels", json={"a": player["id"], "b": other}).status_code == 201
    url = f"/api/v1/players/{player['id']}/events"
    assert api("get", url).get_json()[0]["reason"] == "Duel 1, start"
    russian = api("get", url, headers={"Accept-Language": "ru"}).get_json()
    assert russian[0]["reason"] == "Дуэль №1, начало"
