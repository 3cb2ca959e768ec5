"""The card duel through /api/v1/duels: duel.md's worked examples end to end, with the DB."""

from __future__ import annotations

import pytest

from referee.players import service
from referee.store import players as rows


@pytest.fixture
def b(db):
    """Player B of duel.md's worked examples: HP 3/3, chance 1/1, 2 cartridges, ♣."""
    return service.create(db, None, {"character": "Brigadier B", "player": "Boris",
                                      "hp_max": 3, "chance_max": 1, "cartridges": 2,
                                      "suit": "C"})


def sheet(db, player_id: int) -> dict:
    """The stats a duel changes, as stored."""
    row = rows.get(db, player_id)
    return {k: row[k] for k in ("hp", "chance", "cartridges", "status", "duel_deck")}


def snapshot(db) -> tuple:
    """Everything a refused request must leave alone."""
    return (list(db.execute("SELECT * FROM players").fetchall()),
            db.execute("SELECT count(*) FROM events").fetchone()[0],
            list(db.execute("SELECT * FROM games").fetchall()),
            db.execute("SELECT count(*) FROM game_actions").fetchone()[0])


def start(api, a, b) -> dict:
    response = api("post", "/api/v1/duels", json={"a": a["id"], "b": b["id"]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play(api, duel: dict, a: str, b: str, *, a_hand=None, b_hand=None, a_tokens=0,
         b_tokens=0, status: int = 200) -> dict:
    body = {"a": {"table": a, "hand": a_hand, "tokens": a_tokens},
            "b": {"table": b, "hand": b_hand, "tokens": b_tokens}}
    response = api("post", f"/api/v1/duels/{duel['id']}/rounds", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def decide(api, duel: dict, a: bool, b: bool, status: int = 200) -> dict:
    response = api("post", f"/api/v1/duels/{duel['id']}/extension", json={"a": a, "b": b})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def tied_after_three(api, duel: dict) -> dict:
    """R1 A wins, R2 B wins, R3 tied: 1–1, the extension is offered (example 5)."""
    play(api, duel, "10S", "7H")
    play(api, duel, "6D", "QC")
    return play(api, duel, "9D", "9S")


# Worked examples ---------------------------------------------------------------------


def test_D4_D9_D11_D13_example_1_a_wins_two_to_one(api, db, player, b):
    duel = start(api, player, b)
    assert (duel["a"], duel["b"], duel["status"], duel["version"]) == \
        (player["id"], b["id"], "in_progress", 1)
    assert sheet(db, player["id"])["cartridges"] == 2 and sheet(db, b["id"])["cartridges"] == 1

    duel = play(api, duel, "10S", "7H", a_tokens=1)
    assert duel["rounds"][0] == {"n": 1, "a": {"table": "10S", "hand": None, "tokens": 1,
                                               "total": 11},
                                 "b": {"table": "7H", "hand": None, "tokens": 0, "total": 7},
                                 "winner": "a"}
    assert sheet(db, b["id"])["hp"] == 2 and sheet(db, player["id"])["chance"] == 1
    duel = play(api, duel, "6D", "QC")
    assert duel["rounds"][1]["winner"] == "b" and sheet(db, player["id"])["hp"] == 2
    duel = play(api, duel, "KH", "9S")

    assert duel["status"] == "finished" and duel["version"] == 4
    assert duel["result"] == {"winner": "a", "reason": "rounds"}
    assert sheet(db, player["id"]) == {"hp": 2, "chance": 2, "cartridges": 2,
                                       "status": "active",
                                       "duel_deck": "6H,7H,8H,9H,10H,JH,QH,KH,AH"}
    assert sheet(db, b["id"]) == {"hp": 1, "chance": 1, "cartridges": 1, "status": "active",
                                  "duel_deck": "6C,7C,8C,9C,10C,JC,QC,KC,AC"}
    # Every effect is an event on the player, with the duel and round as its reason.
    kinds = db.execute("SELECT kind, reason FROM events WHERE player_id = ? AND kind = 'duel'"
                       " ORDER BY id", [player["id"]]).fetchall()
    assert [r for _k, r in kinds] == ["Duel 1, start", "Duel 1, round 1", "Duel 1, round 2",
                                      "Duel 1, round 3"]
    assert api("get", f"/api/v1/duels/{duel['id']}").get_json() == duel


def test_D8_D9_example_2_tokens_make_a_tied_round(api, db, player, b):
    duel = play(api, start(api, player, b), "9C", "JD", a_tokens=2)
    assert (duel["rounds"][0]["a"]["total"], duel["rounds"][0]["b"]["total"]) == (11, 11)
    assert duel["rounds"][0]["winner"] is None
    assert sheet(db, player["id"])["chance"] == 0
    assert sheet(db, player["id"])["hp"] == 3 and sheet(db, b["id"])["hp"] == 3


def test_D7_D1_example_3_hand_card_counts_and_is_surrendered(api, db, player, b):
    duel = play(api, start(api, player, b), "6S", "KC", a_hand="AH")
    assert duel["rounds"][0]["a"] == {"table": "6S", "hand": "AH", "tokens": 0, "total": 14}
    assert duel["rounds"][0]["winner"] == "a"
    assert "AH" not in sheet(db, player["id"])["duel_deck"].split(",")
    assert duel["duelists"]["a"]["surrendered"] == ["AH"]
    before = snapshot(db)
    refused = play(api, duel, "7S", "8C", a_hand="AH", status=422)
    assert refused["rule"] == "D7" and "AH" in refused["error"]
    assert snapshot(db) == before


def test_D10_example_4_zero_hp_is_a_heavy_wound_and_ends_the_duel(api, db, player, b):
    service.set_exact(db, None, b["id"], {"hp": 1})
    duel = play(api, start(api, player, b), "KS", "6S")
    assert duel["status"] == "finished"
    assert duel["result"] == {"winner": "a", "reason": "heavy_wound"}
    row = rows.get(db, b["id"])
    assert (row["hp"], row["status"]) == (0, "heavy_wound") and row["wounded_at"]
    assert sheet(db, player["id"])["chance"] == 2  # D13 (A had not spent any)
    before = snapshot(db)
    refused = play(api, duel, "7S", "8C", status=422)
    assert refused["rule"] == "D10"
    assert snapshot(db) == before


def test_D12_example_5_a_continues_and_pays_b_refuses_a_wins(api, db, player, b):
    duel = tied_after_three(api, start(api, player, b))
    assert (duel["status"], duel["result"]) == ("extension", None)
    service.adjust(db, None, player["id"], {"chance": -2})  # so D13's restore shows
    duel = decide(api, duel, True, False)
    assert duel["result"] == {"winner": "a", "reason": "extension"}
    assert duel["extensions"] == [{"a": True, "b": False}]
    assert sheet(db, player["id"])["cartridges"] == 1  # 3 − start − extension
    assert sheet(db, b["id"])["cartridges"] == 1
    assert sheet(db, player["id"])["chance"] == 2


def test_D12_example_5_both_continue_each_pays_and_r4_is_played(api, db, player, b):
    duel = decide(api, tied_after_three(api, start(api, player, b)), True, True)
    assert duel["status"] == "in_progress"
    assert sheet(db, player["id"])["cartridges"] == 1 and sheet(db, b["id"])["cartridges"] == 0
    duel = play(api, duel, "AS", "8S")
    assert duel["rounds"][3]["n"] == 4
    assert duel["result"] == {"winner": "a", "reason": "rounds"}


def test_D12_D13_example_5_both_refuse_is_a_draw_restoring_nothing(api, db, player, b):
    duel = start(api, player, b)
    play(api, duel, "10S", "7H", a_tokens=1)
    play(api, duel, "6D", "QC", b_tokens=1)
    duel = decide(api, play(api, duel, "9D", "9S"), False, False)
    assert duel["result"] == {"winner": None, "reason": "draw"}
    assert sheet(db, player["id"])["chance"] == 1 and sheet(db, b["id"])["chance"] == 0


def test_D12_a_duelist_without_a_cartridge_cannot_continue_but_may_refuse(api, db, player, b):
    service.set_exact(db, None, b["id"], {"cartridges": 1})  # paid at the start: none left
    duel = tied_after_three(api, start(api, player, b))
    before = snapshot(db)
    refused = decide(api, duel, True, True, status=422)
    assert refused["rule"] == "D12" and "Brigadier B has no cartridge left" in refused["error"]
    assert snapshot(db) == before
    assert decide(api, duel, True, False)["result"] == {"winner": "a", "reason": "extension"}


def test_D4_example_6_no_cartridge_no_duel_and_nothing_changes(api, db, player, b):
    service.set_exact(db, None, b["id"], {"cartridges": 0})
    before = snapshot(db)
    response = api("post", "/api/v1/duels", json={"a": player["id"], "b": b["id"]})
    assert response.status_code == 422
    assert response.get_json()["rule"] == "D4"
    assert "Brigadier B has no cartridge" in response.get_json()["error"]
    assert snapshot(db) == before


@pytest.mark.parametrize("hand", ["AS", "A♠", "туз пик"])
def test_D7_example_7_a_foreign_hand_card_is_refused(api, db, player, b, hand):
    duel = start(api, player, b)
    before = snapshot(db)
    refused = play(api, duel, "6S", "7S", a_hand=hand, status=422)
    assert refused["rule"] == "D7" and "AS" in refused["error"]
    assert snapshot(db) == before


def test_D6_example_8_a_table_card_cannot_turn_up_twice(api, db, player, b):
    duel = play(api, start(api, player, b), "QS", "7H")
    before = snapshot(db)
    assert play(api, duel, "QS", "8H", status=422)["rule"] == "D6"
    assert snapshot(db) == before


def test_D8_example_9_more_tokens_than_held_refused(api, db, player, b):
    duel = start(api, player, b)
    before = snapshot(db)
    refused = play(api, duel, "6S", "7S", a_tokens=3, status=422)
    assert refused["rule"] == "D8" and "2" in refused["error"]
    assert snapshot(db) == before


def test_D5_example_10_a_fourth_hand_card_refused(api, db, player, b):
    duel = start(api, player, b)
    play(api, duel, "6S", "7C", a_hand="AH")
    play(api, duel, "6D", "QC", a_hand="6H")
    play(api, duel, "7D", "7S", a_hand="7H")
    duel = decide(api, duel, True, True)
    before = snapshot(db)
    assert play(api, duel, "8D", "9S", a_hand="8H", status=422)["rule"] == "D5"
    assert snapshot(db) == before
    assert sheet(db, player["id"])["duel_deck"] == "8H,9H,10H,JH,QH,KH"


# Input and output ---------------------------------------------------------------------


def test_D7_D14_a_round_the_screen_recorded_unread_reads_back_with_a_null_table(
        api, db, player, b):
    from referee.games.duel import service as duels
    from referee.games.duel.rules import Play, Round

    duel = start(api, player, b)
    duels.record(db, None, duel["id"], Round(a=Play(None, "AH"), b=Play("KC")), 1)
    body = api("get", f"/api/v1/duels/{duel['id']}").get_json()
    assert body["rounds"][0]["a"] == {"table": None, "hand": "AH", "tokens": 0, "total": 14}
    assert body["duelists"]["a"]["table_cards"] == [] and body["version"] == 2
    # the next round through the API may then turn up any card from A's table deck (D6)
    after = play(api, body, "6H", "7H")
    assert after["rounds"][1]["a"]["table"] == "6H"


def test_D3_cards_in_any_notation_come_back_canonical(api, player, b):
    duel = play(api, start(api, player, b), "Д♠", "10 червей", a_tokens=1)
    assert duel["rounds"][0]["a"]["table"] == "QS"
    assert duel["rounds"][0]["b"]["table"] == "10H"


@pytest.mark.parametrize(("body", "rule"), [
    ({"a": {"table": "ZZ"}, "b": {"table": "7H"}}, "D3"),
    ({"a": {"table": "6S", "tokens": "2"}, "b": {"table": "7H"}}, "D8"),
    ({"a": {"table": "6S", "tokens": -1}, "b": {"table": "7H"}}, "D8"),
    ({"a": {"table": "6S"}}, "D6"),
    # the API keeps the table card required, even under a hand card (only the screen may
    # leave a covered one unread, D7)
    ({"a": {"hand": "AH"}, "b": {"table": "7H"}}, "D6"),
    ({"a": {"table": "", "hand": "AH"}, "b": {"table": "7H"}}, "D6"),
    ({"a": {"table": None, "hand": "AH"}, "b": {"table": "7H"}}, "D6"),
    ({"a": {"table": "6S", "colour": "red"}, "b": {"table": "7H"}}, None),
    ({"a": {"table": "6S"}, "b": {"table": "7H"}, "version": "1"}, None),
])
def test_D3_D6_D8_malformed_rounds_are_422_and_change_nothing(api, db, player, b, body, rule):
    duel = start(api, player, b)
    before = snapshot(db)
    response = api("post", f"/api/v1/duels/{duel['id']}/rounds", json=body)
    assert response.status_code == 422
    assert response.get_json().get("rule") == rule
    assert snapshot(db) == before


@pytest.mark.parametrize("body", [{"a": 1}, {"a": 1, "b": "2"}, {"a": True, "b": 2},
                                  {"a": 1, "b": 1}, {"a": 1, "b": 999}])
def test_D4_a_duel_needs_two_real_different_players(api, db, player, b, body):
    before = snapshot(db)
    response = api("post", "/api/v1/duels", json=body)
    assert response.status_code == 422
    assert snapshot(db) == before


def test_D12_extension_needs_booleans(api, db, player, b):
    duel = tied_after_three(api, start(api, player, b))
    before = snapshot(db)
    response = api("post", f"/api/v1/duels/{duel['id']}/extension", json={"a": 1, "b": 0})
    assert response.status_code == 422 and response.get_json()["rule"] == "D12"
    assert snapshot(db) == before


def test_unknown_duel_is_404(api):
    assert api("get", "/api/v1/duels/99").status_code == 404
    response = api("post", "/api/v1/duels/99/rounds", json={"a": {"table": "6S"},
                                                            "b": {"table": "7S"}})
    assert response.status_code == 404


# Concurrency and undo -----------------------------------------------------------------


def test_D14_a_stale_version_is_409_with_the_fresh_duel_and_nothing_twice(api, db, player, b):
    duel = start(api, player, b)
    body = {"a": {"table": "10S"}, "b": {"table": "7H"}, "version": duel["version"]}
    first = api("post", f"/api/v1/duels/{duel['id']}/rounds", json=body)
    assert first.status_code == 200
    before = snapshot(db)
    second = api("post", f"/api/v1/duels/{duel['id']}/rounds", json=body)
    assert second.status_code == 409
    fresh = second.get_json()
    assert fresh["version"] == 2 and len(fresh["rounds"]) == 1
    assert "already recorded this round" in fresh["error"]
    assert snapshot(db) == before
    assert sheet(db, b["id"])["hp"] == 2  # lost once, not twice


def test_D1_D10_D13_undo_reverses_every_effect_with_events(api, db, player, b):
    service.set_exact(db, None, b["id"], {"hp": 1})
    original = {p: sheet(db, p) for p in (player["id"], b["id"])}
    duel = start(api, player, b)
    # A lays AH and spends both tokens, B is wounded: every kind of effect at once.
    duel = play(api, duel, "6S", "KC", a_hand="AH", a_tokens=2)
    assert sheet(db, b["id"])["status"] == "heavy_wound"
    assert sheet(db, player["id"])["chance"] == 2  # spent 2, restored by D13
    events_before = db.execute("SELECT count(*) FROM events").fetchone()[0]

    undone = api("post", f"/api/v1/duels/{duel['id']}/undo",
                 json={"version": duel["version"]}).get_json()
    assert (undone["status"], undone["rounds"], undone["version"]) == ("in_progress", [], 3)
    assert sheet(db, b["id"]) == {**original[b["id"]], "cartridges": 1}
    assert rows.get(db, b["id"])["wounded_at"] is None
    assert sheet(db, player["id"]) == {**original[player["id"]], "cartridges": 2}
    undo_events = db.execute("SELECT kind, undoes FROM events WHERE id > ?",
                             [events_before]).fetchall()
    assert [k for k, _u in undo_events] == ["duel_undo", "duel_undo"]
    assert all(u for _k, u in undo_events)

    cancelled = api("post", f"/api/v1/duels/{duel['id']}/undo").get_json()
    assert cancelled["status"] == "cancelled" and cancelled["result"] is None
    assert {p: sheet(db, p) for p in original} == original
    assert api("post", f"/api/v1/duels/{duel['id']}/undo").status_code == 422


def test_undo_with_a_stale_version_is_409(api, db, player, b):
    duel = play(api, start(api, player, b), "10S", "7H")
    before = snapshot(db)
    response = api("post", f"/api/v1/duels/{duel['id']}/undo", json={"version": 1})
    assert response.status_code == 409 and response.get_json()["version"] == 2
    assert snapshot(db) == before


def test_duel_list_filters_by_player(api, db, player, b):
    c = service.create(db, None, {"character": "C", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 3, "suit": "S"})
    first = start(api, player, b)
    second = start(api, b, c)
    everyone = api("get", "/api/v1/duels").get_json()
    assert [d["id"] for d in everyone] == [second["id"], first["id"]]
    only_a = api("get", f"/api/v1/duels?player={player['id']}").get_json()
    assert [d["id"] for d in only_a] == [first["id"]]
    only_c = api("get", f"/api/v1/duels?player={c['id']}").get_json()
    assert [(d["a"], d["b"]) for d in only_c] == [(b["id"], c["id"])]
    assert api("get", "/api/v1/duels?player=999").status_code == 404


def test_duel_api_needs_a_bearer_token(client, player, b):
    assert client.get("/api/v1/duels").status_code == 401
    response = client.post("/api/v1/duels", json={"a": player["id"], "b": b["id"]})
    assert response.status_code == 401


def test_openapi_documents_the_duel_contract(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert {"get", "post"} <= set(doc["paths"]["/api/v1/duels"])
    assert "409" in doc["paths"]["/api/v1/duels/{duel_id}/rounds"]["post"]["responses"]
    duel = doc["components"]["schemas"]["Duel"]
    assert set(duel["required"]) == {"id", "name", "version", "a", "b", "status", "rounds",
                                     "result"}
