"""Berserk-style battles through /api/v1/berserk: squads, battles, modifications, strikes
and undo, with what the database holds (B2, B6, B9–B14)."""

from __future__ import annotations

import pytest

from referee.games.berserk import squads
from tests.games.berserk.test_web import install_test_deck, new_player, save_squad, start_battle

B = "/api/v1/berserk"


@pytest.fixture
def deck_dir(tmp_path, monkeypatch):
    return install_test_deck(tmp_path, monkeypatch)


@pytest.fixture
def anna(db):
    return new_player(db, "Anna")


@pytest.fixture
def boris(db):
    return new_player(db, "Boris")


@pytest.fixture
def battle(db, deck_dir, anna, boris):
    return start_battle(db, anna, boris)


def snapshot(db) -> tuple:
    """Everything a refused call must leave alone."""
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("berserk_squads", "berserk_squad_edits", "games", "game_actions"))


def creature(body: dict, cid: str) -> dict:
    return next(c for c in body["state"]["creatures"] if c["id"] == cid)


def test_decks_list_the_cards_with_their_printed_properties(api, deck_dir):
    decks = {d["name"]: d for d in api("get", f"{B}/decks").get_json()}
    assert "berserk-sample" in decks and "berserk-test" in decks
    cards = {c["code"]: c for c in decks["berserk-test"]["cards"]}
    assert cards["F7"]["elite"] is True and cards["F7"]["elements"] == ["forest"]
    assert cards["XC"]["cost"] == "X" and cards["FL6"]["movement"] == "flying"


def test_B12_B13_example_4_counts_without_saving(api, db, deck_dir):
    body = {"deck": "berserk-test", "cards": [{"code": "F7"}, {"code": "M5"}, {"code": "N3"}]}
    sm = api("post", f"{B}/squads/check", json=body).get_json()
    assert (sm["gold_left"], sm["silver_left"], sm["element_penalty"]) == (16, 14, 1)
    assert sm["elements"] == ["forest", "mountains"] and sm["ok"] is True
    second = api("post", f"{B}/squads/check", json={**body, "seat": "second"}).get_json()
    assert (second["gold"], second["silver"]) == (25, 23)
    assert snapshot(db) == (0, 0, 0, 0)


def test_B14_example_5_check_lists_the_flyer_problem(api, deck_dir):
    sm = api("post", f"{B}/squads/check", json={
        "deck": "berserk-test", "cards": [{"code": "FL10"}, {"code": "FL6"}]}).get_json()
    assert sm["ok"] is False and sm["flyer_cost"] == 16
    assert sm["problems"] == [{"rule": "B14", "error": "B14: Flying creatures in the squad "
                               "cost 16 crystals, more than 15; drop a flyer."}]


def test_saving_a_squad_and_its_refusals(api, db, deck_dir, anna):
    response = api("post", f"{B}/squads", json={
        "player": anna["id"], "name": "Greens", "deck": "berserk-test",
        "cards": [{"code": "F7"}, {"code": "XC", "x": 3}]})
    assert response.status_code == 201, response.get_json()
    squad = response.get_json()
    assert (squad["player"], squad["version"], squad["summary"]["gold_left"]) == (
        anna["id"], 1, 16)
    assert squads.get(db, squad["id"])["cards"] == [{"code": "F7"}, {"code": "XC", "x": 3}]
    before = snapshot(db)
    for body, rule, text in [
        ({"cards": [{"code": "F7"}, {"code": "E20"}]}, "B12", "paid with gold only"),
        ({"cards": [{"code": "U1"}, {"code": "U1"}]}, "B14", "U1 is unique"),
        ({"cards": [{"code": "F7", "x": 2}]}, "B2", "only a card with cost X takes a value"),
        ({"cards": [{"code": "ZZ"}]}, None, "Card ZZ is not in the deck berserk-test"),
        ({"cards": []}, "B12", "The squad has no cards"),
        ({"cards": [{"code": "F7"}], "settings": {"first_gold": 5}}, "B12", "there are 5 gold"),
        ({"cards": [{"code": "F7"}], "settings": {"first_gold": -1}}, "B12",
         "first_gold must be a whole number from 0 to 99"),
        ({"cards": [{"code": "F7"}], "seat": "third"}, "B12", "not third"),
        ({"cards": "F7"}, None, "a list of picks"),
    ]:
        response = api("post", f"{B}/squads", json={"player": anna["id"],
                                                      "deck": "berserk-test", **body})
        assert response.status_code == 422, body
        assert response.get_json().get("rule") == rule and text in response.get_json()["error"]
    assert snapshot(db) == before
    assert api("post", f"{B}/squads", json={"player": 999, "deck": "berserk-test",
                                            "cards": [{"code": "F7"}]}).status_code == 422


def test_updating_a_squad_keeps_every_save_and_refuses_a_stale_version(api, db, deck_dir,
                                                                     anna):
    squad = save_squad(db, anna, ["F7"], name="One")
    response = api("put", f"{B}/squads/{squad['id']}", json={
        "version": 1, "name": "Two", "cards": [{"code": "F7"}, {"code": "N3"}]})
    assert response.status_code == 200 and response.get_json()["version"] == 2
    stale = api("put", f"{B}/squads/{squad['id']}", json={"version": 1, "name": "Three"})
    assert stale.status_code == 409
    assert stale.get_json()["name"] == "Two" and "Someone else saved" in stale.get_json()["error"]
    full = api("get", f"{B}/squads/{squad['id']}").get_json()
    assert [e["version"] for e in full["edits"]] == [2, 1]
    assert full["edits"][0]["referee"] == "ref"
    listed = api("get", f"{B}/squads?player={anna['id']}").get_json()
    assert [s["id"] for s in listed] == [squad["id"]]
    assert api("get", f"{B}/squads?player=999").status_code == 404


def test_a_battle_from_two_squads_and_its_refusals(api, db, deck_dir, anna, boris):
    a = save_squad(db, anna, ["S234", "F7"])
    b = save_squad(db, boris, ["S123"], seat="second")
    bad = api("post", f"{B}/battles", json={"a": a["id"], "b": b["id"],
                                             "settings": {"first_gold": 3}})
    assert bad.status_code == 422 and bad.get_json()["rule"] == "B12"
    assert api("post", f"{B}/battles", json={"a": a["id"], "b": a["id"]}).status_code == 422
    assert api("post", f"{B}/battles", json={"a": a["id"], "b": 99}).status_code == 422
    assert snapshot(db)[2] == 0
    response = api("post", f"{B}/battles", json={"a": a["id"], "b": b["id"]})
    assert response.status_code == 201
    body = response.get_json()
    assert body["players"] == {"a": anna["id"], "b": boris["id"]}
    assert [c["id"] for c in body["state"]["creatures"]] == ["a1", "a2", "b1"]
    assert body["version"] == 0 and body["status"] == "in_progress"
    assert api("get", f"{B}/battles?player={boris['id']}").get_json()[0]["id"] == body["id"]


def test_B11_example_1_preview_then_strike_with_the_exchange_lowered(api, db, battle):
    url = f"{B}/battles/{battle.id}/strikes"
    strike = {"attacker": "a1", "target": "b1", "attacker_die": 5, "defender_die": 1}
    outcomes = api("post", url + "/preview", json=strike).get_json()["outcomes"]
    assert [(o["strike"], o["wounds_to_target"], o["answer"], o["wounds_to_attacker"])
            for o in outcomes] == [("strong", 4, "weak", 1), ("medium", 3, "none", 0)]
    assert outcomes[0]["may_lower"] == "attacker"
    assert snapshot(db)[3] == 0
    body = api("post", url, json={**strike, "lower": True, "version": 0}).get_json()
    assert creature(body, "b1")["wounds"] == 3 and creature(body, "a1")["wounds"] == 0
    assert body["log"][0]["outcome"]["lowered"] is True and body["version"] == 1


@pytest.mark.parametrize(("die", "wounds"), [(4, 3), (6, 4), (3, 2)])
def test_B11_example_2_strikes_on_a_tapped_target(api, battle, die, wounds):
    api("post", f"{B}/battles/{battle.id}/actions", json={"type": "tap", "creature": "b1"})
    body = api("post", f"{B}/battles/{battle.id}/strikes", json={
        "attacker": "a1", "target": "b1", "attacker_die": die}).get_json()
    assert creature(body, "b1")["wounds"] == wounds


def test_B10_example_3_a_modification_of_lives_kills_at_once(api, battle):
    url = f"{B}/battles/{battle.id}"
    api("post", url + "/actions", json={"type": "wound", "creature": "b1", "amount": 5})
    body = api("post", url + "/modifications", json={
        "creature": "b1", "modification": {"op": "lives", "amount": -3}}).get_json()
    b1 = creature(body, "b1")
    assert (b1["effective"]["lives"], b1["wounds"], b1["dead"]) == (5, 5, True)
    assert body["log"][-1]["deaths"] == ["b1"]


def test_B6_B9_modifications_through_the_api(api, battle):
    url = f"{B}/battles/{battle.id}/modifications"
    # B6 seed: "1 , 1 и 1-1-1" is lives 1, movement 1, strike 1-1-1, the cost untouched
    api("post", url, json={"creature": "b2", "modification": {
        "op": "overwrite", "lives": 1, "movement": 1, "strike": [1, 1, 1], "source": "a2"}})
    body = api("post", url, json={"creature": "b2", "modification": {
        "op": "become", "element": "fire"}}).get_json()
    b2 = creature(body, "b2")["effective"]
    assert (b2["cost"], b2["lives"], b2["movement"], b2["strike"], b2["elements"]) == (
        5, 1, 1, [1, 1, 1], ["fire"])
    bad = api("post", url, json={"creature": "b2", "modification": {"op": "explode"}})
    assert bad.status_code == 422 and "cannot be read" in bad.get_json()["error"]
    unknown = api("post", url, json={"creature": "zz", "modification": {"op": "lives",
                                                                         "amount": 1}})
    assert unknown.status_code == 422 and unknown.get_json()["rule"] == "B7"


def test_refusals_stale_versions_and_undo(api, db, battle):
    url = f"{B}/battles/{battle.id}"
    tapped = api("post", url + "/strikes", json={"attacker": "a1", "target": "b1",
                                                 "attacker_die": 9, "defender_die": 1})
    assert tapped.status_code == 422 and tapped.get_json()["rule"] == "B11"
    api("post", url + "/actions", json={"type": "tap", "creature": "a3"})
    stale = api("post", url + "/actions", json={"type": "tap", "creature": "a2",
                                                "version": 0})
    assert stale.status_code == 409 and stale.get_json()["version"] == 1
    assert "Someone else changed this battle first" in stale.get_json()["error"]
    body = api("post", url + "/undo", json={"version": 1}).get_json()
    assert creature(body, "a3")["tapped"] is False
    assert [e["undone"] for e in body["log"]] == [True]
    assert api("post", url + "/undo", json={}).status_code == 422
    assert api("post", url + "/undo", json={"bogus": 1}).status_code == 422
    assert api("get", f"{B}/battles/999").status_code == 404
    assert snapshot(db)[3] == 2  # the tap and its undo row


def test_the_api_needs_a_token(client, battle):
    assert client.get(f"{B}/battles/{battle.id}").status_code == 401
    assert client.post(f"{B}/squads/check", json={}).status_code == 401


def test_openapi_documents_the_berserk_routes(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for path in ("/api/v1/berserk/squads", "/api/v1/berserk/battles/{game_id}/strikes",
                 "/api/v1/berserk/battles/{game_id}/modifications",
                 "/api/v1/berserk/battles/{game_id}/undo"):
        assert path in paths


# Registered decks (B14) -----------------------------------------------------------------

DECK = [{"code": c, "count": n} for c, n in (
    ("F7", 2), ("M5", 3), ("N3", 3), ("FL10", 3), ("FL6", 3), ("E20", 3), ("U1", 1),
    ("S234", 3), ("S123", 3), ("XC", 3), ("ART", 3))]  # 30 cards, two Forest Lords


def decks_stored(db) -> tuple:
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("berserk_decks", "berserk_deck_edits"))


def test_B14_a_deck_is_checked_registered_listed_and_changed(api, db, deck_dir, anna):
    sm = api("post", f"{B}/registered-decks/check", json={
        "deck": "berserk-test", "cards": DECK[:2]}).get_json()
    assert (sm["cards"], sm["ok"], sm["deck_min"], sm["deck_max"]) == (5, False, 30, 50)
    assert sm["problems"] == [{"rule": "B14", "error": "B14: The deck has 5 cards; a deck "
                               "needs 30 to 50 cards: add 25 more."}]
    assert decks_stored(db) == (0, 0)
    response = api("post", f"{B}/registered-decks", json={
        "player": anna["id"], "name": "Main", "deck": "berserk-test", "cards": DECK})
    assert response.status_code == 201, response.get_json()
    deck = response.get_json()
    assert (deck["player"], deck["version"], deck["summary"]["cards"], deck["summary"]["ok"]) \
        == (anna["id"], 1, 30, True)
    assert deck["cards"] == DECK and decks_stored(db) == (1, 1)
    listed = api("get", f"{B}/registered-decks?player={anna['id']}").get_json()
    assert [d["id"] for d in listed] == [deck["id"]]
    changed = api("put", f"{B}/registered-decks/{deck['id']}", json={
        "version": 1, "cards": [{**c, "count": 3} if c["code"] == "F7" else c for c in DECK]})
    assert changed.status_code == 200 and changed.get_json()["summary"]["cards"] == 31
    stale = api("put", f"{B}/registered-decks/{deck['id']}", json={"version": 1, "name": "X"})
    assert stale.status_code == 409 and "Someone else saved this deck" in stale.get_json()[
        "error"]
    full = api("get", f"{B}/registered-decks/{deck['id']}").get_json()
    assert [e["version"] for e in full["edits"]] == [2, 1] and full["squads"] == []
    assert full["edits"][0]["referee"] == "ref"
    assert api("get", f"{B}/registered-decks/999").status_code == 404


@pytest.mark.parametrize(("cards", "rule", "text"), [
    (DECK[:3], "B14", "The deck has 8 cards; a deck needs 30 to 50 cards: add 22 more."),
    ([*DECK[1:], {"code": "F7", "count": 4}], "B14", "F7 appears 4 times; keep at most 3"),
    ([*DECK[:6], {"code": "U1", "count": 2}, *DECK[7:]], "B14", "U1 is unique"),
    ([*DECK, {"code": "ZZ", "count": 1}], None, "Card ZZ is not in the deck berserk-test"),
    ([*DECK, {"code": "F7", "count": 1}], None, "each card once"),
    ([{"code": "F7", "count": -1}], "B14", "The count of F7 must be a whole number"),
    ("F7", None, "a list like"),
])
def test_B14_a_deck_breaking_B14_is_422_with_the_rule_and_nothing_is_stored(
        api, db, deck_dir, anna, cards, rule, text):
    response = api("post", f"{B}/registered-decks", json={
        "player": anna["id"], "deck": "berserk-test", "cards": cards})
    assert response.status_code == 422
    assert response.get_json().get("rule") == rule and text in response.get_json()["error"]
    assert decks_stored(db) == (0, 0)


def test_B14_squads_are_hired_from_the_registered_deck_through_the_api(api, db, deck_dir,
                                                                       anna, boris):
    unchecked = save_squad(db, anna, ["F7", "F7", "F7"])
    shown = api("get", f"{B}/squads/{unchecked['id']}").get_json()
    assert shown["registered_deck"] is None and shown["summary"]["ok"] is True
    deck = api("post", f"{B}/registered-decks", json={
        "player": anna["id"], "deck": "berserk-test", "cards": DECK}).get_json()
    shown = api("get", f"{B}/squads/{unchecked['id']}").get_json()
    assert shown["registered_deck"] == deck["id"] and shown["summary"]["ok"] is False
    assert shown["summary"]["problems"][-1]["rule"] == "B14"
    three = [{"code": "F7"}] * 3
    refused = api("post", f"{B}/squads", json={"player": anna["id"], "deck": "berserk-test",
                                                 "cards": three})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "B14"
    assert "holds 2; take out 1" in refused.get_json()["error"]
    checked = api("post", f"{B}/squads/check", json={"deck": "berserk-test", "cards": three,
                                                     "player": anna["id"]}).get_json()
    assert checked["ok"] is False and "holds 2" in checked["problems"][-1]["error"]
    plain = api("post", f"{B}/squads/check", json={"deck": "berserk-test", "cards": three})
    assert plain.get_json()["ok"] is True  # an old client's check: no player, no deck
    assert api("post", f"{B}/squads/check", json={
        "deck": "berserk-test", "cards": three, "player": 999}).status_code == 422
    made = api("post", f"{B}/squads", json={"player": boris["id"], "deck": "berserk-test",
                                             "cards": three})
    assert made.status_code == 201 and made.get_json()["registered_deck"] is None
