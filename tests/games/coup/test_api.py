"""Coup tables through /api/v1/coup: coup.md's worked examples end to end, with the DB."""

from __future__ import annotations

from typing import get_args

import pytest

from referee.games.coup.rules import TOTAL_COINS
from referee.games.coup.rules.model import ACTIONS, CHARACTER_NAMES, CHARACTERS
from referee.games.coup.schemas import Character, Declared
from referee.players import service as player_service

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya"]


@pytest.fixture
def seats(db):
    """Eight registry players: A, B, C… of the worked examples are the first ones."""
    return [player_service.create(db, None, {
        "character": name, "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "H",
    })["id"] for name in NAMES]


def start(api, players, status=201, **setup) -> dict:
    response = api("post", "/api/v1/coup", json={"players": players, **setup})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def step(api, table: dict, status=200, **action) -> dict:
    response = api("post", f"/api/v1/coup/{table['id']}/actions", json=action)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def steps(api, table: dict, *actions: dict) -> dict:
    for action in actions:
        table = step(api, table, **action)
    return table


def declare(player, action, target=None) -> dict:
    return {"type": "declare", "player": player, "action": action, "target": target}


def challenge(player=None) -> dict:
    return {"type": "challenge", "challenger": player}


def block(player=None, character=None) -> dict:
    return {"type": "block", "blocker": player, "character": character}


def reveal(player, character, shown) -> dict:
    return {"type": "reveal", "player": player, "character": character, "shown": shown}


def lose(player, character) -> dict:
    return {"type": "lose_influence", "player": player, "character": character}


def coins(table: dict) -> list[int]:
    return [p["coins"] for p in table["state"]["players"]]


def influence(table: dict) -> list[int]:
    return [p["influence"] for p in table["state"]["players"]]


def stored(db) -> int:
    return db.execute("SELECT count(*) FROM game_actions").fetchone()[0]


def three(api, seats, **setup):
    a, b, c = seats[:3]
    return start(api, [a, b, c], **setup), a, b, c


# The worked examples of coup.md ------------------------------------------------------------


def test_C4_C8_example1_foreign_aid_blocked_by_duchess_gains_nothing(api, seats):
    table, a, b, _c = three(api, seats)
    table = steps(api, table, declare(a, "foreign_aid"), block(b, "duchess"), challenge())
    assert coins(table) == [2, 2, 2]
    assert table["state"]["supply"] == TOTAL_COINS - 6
    assert table["state"]["turn"] == str(b)
    assert table["record"][-1] == "The block stands: the action fails."


def test_C5_C7_C8_example2_countess_shown_blocks_assassination_challenger_loses(api, db,
                                                                               seats):
    table, a, b, c = three(api, seats)
    table = steps(api, table, declare(a, "tax"), challenge(), declare(b, "income"),
                  declare(c, "income"))
    assert coins(table)[0] == 5
    table = steps(api, table, declare(a, "assassinate", b), challenge(),
                  block(b, "countess"), challenge(a))
    assert table["state"]["awaiting"]["kind"] == "show_or_turn_up"
    table = step(api, table, **reveal(b, "countess", True))
    assert table["state"]["awaiting"]["players"] == [str(a)]  # A loses one influence
    table = step(api, table, **lose(a, "captain"))
    assert influence(table) == [1, 2, 2]
    assert table["state"]["players"][1]["face_up"] == []  # B's Countess went to the Court
    assert table["state"]["court"] == 9
    assert coins(table)[0] == 2  # the assassination is blocked; A keeps 2 coins
    assert "Boris shows the claimed card (Countess), shuffles it into the Court and draws " \
           "a new one." in table["record"]
    assert table["record"][-1] == "The block stands: the action fails."


def test_C5_C7_example3_assassin_shown_target_loses_two_influences_and_is_out(api, seats):
    table, a, b, c = three(api, seats)
    table = steps(api, table, declare(a, "tax"), challenge(), declare(b, "income"),
                  declare(c, "income"))
    table = steps(api, table, declare(a, "assassinate", b), challenge(b),
                  reveal(a, "assassin", True), lose(b, "duchess"))
    assert table["state"]["awaiting"]["kind"] == "block"  # B may still block
    table = steps(api, table, block(), lose(b, "captain"))
    boris = table["state"]["players"][1]
    assert (boris["influence"], boris["out"], boris["coins"]) == (0, True, 0)
    assert boris["face_up"] == ["duchess", "captain"]
    assert table["state"]["turn"] == str(c)


def test_C5_C7_example4_assassin_bluff_refunds_and_target_loses_nothing(api, seats):
    table, a, b, c = three(api, seats)
    table = steps(api, table, declare(a, "tax"), challenge(), declare(b, "income"),
                  declare(c, "income"), declare(a, "assassinate", b), challenge(b))
    assert coins(table)[0] == 2
    table = step(api, table, **reveal(a, "duchess", False))
    assert influence(table) == [1, 2, 2] and coins(table)[0] == 5
    assert table["record"][-1] == "The action fails; Anna gets back 3 coins."


def test_C6_example5_ten_coins_only_coup_and_ends_with_three(api, db, seats):
    table, a, b, c = three(api, seats)
    table = steps(api, table,
                  declare(a, "tax"), challenge(), declare(b, "income"), declare(c, "income"),
                  declare(a, "tax"), challenge(), declare(b, "income"), declare(c, "income"),
                  declare(a, "foreign_aid"), block(), declare(b, "income"),
                  declare(c, "income"))
    assert coins(table)[0] == 10 and table["state"]["must_coup"] is True
    assert {o["action"] for o in table["state"]["options"]} == {"coup"}
    before = stored(db)
    refusal = step(api, table, status=422, **declare(a, "tax"))
    assert refusal["rule"] == "C6" and "Anna starts the turn with 10 coins" in refusal["error"]
    assert stored(db) == before
    table = steps(api, table, declare(a, "coup", c), lose(c, "countess"))
    assert coins(table)[0] == 3 and influence(table) == [2, 2, 1]


def test_C5_example6_captain_steals_the_only_coin(api, seats):
    a, b = seats[:2]
    table = start(api, [a, b], first=b, one_coin_start=True)
    assert coins(table) == [2, 1]
    table = steps(api, table, declare(b, "exchange"), challenge(),
                  declare(a, "steal", b), challenge(), block())
    assert coins(table) == [3, 0]


def test_C1_C8_example7_ambassador_block_refused_in_inquisitor_game(api, db, seats):
    table, a, b, _c = three(api, seats, variant="inquisitor")
    table = steps(api, table, declare(a, "steal", b), challenge())
    before = stored(db)
    refusal = step(api, table, status=422, **block(b, "ambassador"))
    assert refusal == {"error": "C1: The Ambassador is not in this game (it uses the "
                                "Inquisitor); choose a character that is in play.",
                       "rule": "C1"}
    assert stored(db) == before
    assert {"type": "block", "blocker": str(b), "character": "inquisitor"} in \
        table["state"]["options"]


def test_C1_C2_example8_eight_players_twenty_cards_court_four(api, seats):
    table = start(api, seats)
    state = table["state"]
    assert state["copies"] == 4 and len(state["characters"]) == 5
    assert state["court"] == 4 and state["out_of_game"] == 0
    assert state["supply"] == TOTAL_COINS - 16


# The API's contract -------------------------------------------------------------------------


def test_C2_state_names_seats_and_lists_the_legal_options(api, seats):
    table, a, b, c = three(api, seats)
    assert table["player_ids"] == [a, b, c] and table["version"] == 0
    assert table["names"] == {str(a): "Anna", str(b): "Boris", str(c): "Vera"}
    assert [(p["player_id"], p["name"]) for p in table["state"]["players"]] == \
        [(a, "Anna"), (b, "Boris"), (c, "Vera")]
    options = {(o["action"], o["target"]) for o in table["state"]["options"]}
    assert ("coup", str(b)) not in options and ("assassinate", str(b)) not in options
    assert ("steal", str(b)) in options and ("income", None) in options
    again = api("get", f"/api/v1/coup/{table['id']}").get_json()
    assert again == table


def test_C7_refusals_name_players_by_character(api, seats):
    table, a, b, _c = three(api, seats)
    refusal = step(api, table, status=422, **declare(b, "income"))
    assert refusal == {"error": "C4: It is the turn of Anna, not of Boris.", "rule": "C4"}
    table = step(api, table, **declare(a, "tax"))
    refusal = step(api, table, status=422, **challenge(a))
    assert refusal["rule"] == "C7" and "Anna cannot challenge their own claim" in \
        refusal["error"]


def test_C4_stale_version_is_409_with_the_fresh_table(api, db, seats):
    table, a, b, _c = three(api, seats)
    step(api, table, version=0, **declare(a, "income"))
    response = api("post", f"/api/v1/coup/{table['id']}/actions",
                   json={"version": 0, **declare(b, "income")})
    assert response.status_code == 409
    body = response.get_json()
    assert body["version"] == 1 and "first" in body["error"] and coins(body) == [3, 2, 2]
    assert stored(db) == 1


def test_undo_appends_and_returns_the_table(api, db, seats):
    table, a, _b, _c = three(api, seats)
    table = step(api, table, **declare(a, "income"))
    response = api("post", f"/api/v1/coup/{table['id']}/undo", json={"version": 1})
    assert response.status_code == 200
    undone = response.get_json()
    assert coins(undone) == [2, 2, 2] and undone["version"] == 2
    assert db.execute("SELECT count(*) FROM game_actions WHERE undoes IS NOT NULL"
                      ).fetchone()[0] == 1
    again = api("post", f"/api/v1/coup/{table['id']}/undo")
    assert again.status_code == 422 and "Nothing to undo" in again.get_json()["error"]
    stale = api("post", f"/api/v1/coup/{table['id']}/undo", json={"version": 0})
    assert stale.status_code == 409


@pytest.mark.parametrize(("body", "status"), [
    ({"players": [1]}, 422),
    ({"players": [1, 2], "colour": "red"}, 422),
    ({"players": ["1", "2"]}, 422),
    ({"players": [1, 2, 3], "one_coin_start": True}, 422),
    ({"players": [1, 2], "variant": "both"}, 422),
    ([], 422),
])
def test_C1_C3_bad_setups_are_refused(api, db, seats, body, status):
    response = api("post", "/api/v1/coup", json=body)
    assert response.status_code == status and response.get_json()["error"]
    assert db["games"].count == 0


@pytest.mark.parametrize("action", [
    {"type": "fly"}, {"type": "declare", "player": "1"}, {"type": "challenge", "who": "x"},
    {"type": "reveal", "player": "1", "character": "duchess", "shown": "yes"},
])
def test_malformed_steps_are_422_and_store_nothing(api, db, seats, action):
    table, *_ = three(api, seats)
    response = api("post", f"/api/v1/coup/{table['id']}/actions", json=action)
    assert response.status_code == 422 and response.get_json()["rule"] == "C4"
    assert stored(db) == 0


def test_list_and_filter_by_player(api, seats):
    first = start(api, seats[:3])
    second = start(api, seats[3:5])
    listed = api("get", "/api/v1/coup").get_json()
    assert [t["id"] for t in listed] == [second["id"], first["id"]]
    mine = api("get", f"/api/v1/coup?player={seats[4]}").get_json()
    assert [t["id"] for t in mine] == [second["id"]]
    assert api("get", "/api/v1/coup?player=999").status_code == 404
    assert api("get", "/api/v1/coup/999").status_code == 404


def test_calls_need_the_bearer_token(client, seats):
    assert client.get("/api/v1/coup").status_code == 401
    assert client.post("/api/v1/coup", json={"players": seats[:2]}).status_code == 401


def test_openapi_documents_the_coup_routes(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert {"/api/v1/coup", "/api/v1/coup/{game_id}", "/api/v1/coup/{game_id}/actions",
            "/api/v1/coup/{game_id}/undo"} <= set(doc["paths"])
    assert "CoupTable" in doc["components"]["schemas"]


def test_russian_record_and_refusals(api, seats):
    table, a, b, _c = three(api, seats)
    headers = {"Accept-Language": "ru"}
    response = api("post", f"/api/v1/coup/{table['id']}/actions", headers=headers,
                   json=declare(b, "income"))
    assert response.get_json()["error"] == "C4: Сейчас ходит Anna, а не Boris."
    response = api("post", f"/api/v1/coup/{table['id']}/actions", headers=headers,
                   json=declare(a, "income"))
    assert response.get_json()["record"][-1] == "Anna получает монеты: 1."


def test_C4_C7_the_bodies_name_the_engines_characters_and_actions():
    """The API's enums are written out for the type checker: they stay the engine's own
    lists, in its order (a new character or action reaches the OpenAPI document)."""
    assert get_args(Character) == CHARACTERS == tuple(CHARACTER_NAMES)
    assert get_args(Declared) == ACTIONS
