"""What every declared API call does the same way: whole numbers too large for SQLite."""

from __future__ import annotations

import pytest

HUGE = 2**70  # beyond SQLite's INTEGER (found by the fuzz: each one was a 500)


@pytest.mark.parametrize("url", [
    f"/api/v1/players/{HUGE}", f"/api/v1/players/{HUGE}/events", f"/api/v1/duels/{HUGE}",
    f"/api/v1/coup/{HUGE}", f"/api/v1/castle/{HUGE}", f"/api/v1/berserk/squads/{HUGE}",
    f"/api/v1/berserk/battles/{HUGE}", f"/api/v1/duels?player={HUGE}",
    f"/api/v1/coup?player={HUGE}", f"/api/v1/castle?player={HUGE}",
    f"/api/v1/berserk/squads?player={HUGE}", f"/api/v1/berserk/battles?player={HUGE}",
])
def test_an_id_too_large_for_sqlite_names_nothing(api, url):
    response = api("get", url)
    assert response.status_code == 404
    assert response.get_json()["error"]


@pytest.mark.parametrize(("url", "body"), [
    (f"/api/v1/players/{HUGE}/adjust", {"hp": 1}),
    (f"/api/v1/events/{HUGE}/undo", None),
    (f"/api/v1/duels/{HUGE}/undo", {}),
    (f"/api/v1/castle/{HUGE}/actions", {"kind": "end_turn"}),
])
def test_a_write_to_an_id_too_large_is_404(api, url, body):
    assert api("post", url, json=body).status_code == 404


def test_paging_before_a_huge_id_shows_everything_and_below_a_huge_negative_nothing(api,
                                                                                     player):
    everything = api("get", "/api/v1/events").get_json()
    assert api("get", f"/api/v1/events?before={HUGE}").get_json() == everything
    assert api("get", f"/api/v1/events?before=-{HUGE}").get_json() == []


@pytest.mark.parametrize(("url", "body", "field"), [
    ("/api/v1/duels", {"a": 1, "b": HUGE}, "b"),
    ("/api/v1/coup", {"players": [1, HUGE]}, "players"),
    ("/api/v1/castle", {"players": [HUGE, 1], "starting": {}}, "players"),
    ("/api/v1/castle/quick-fight", {"player": HUGE, "strength": 3}, "Player"),
    ("/api/v1/berserk/squads", {"player": HUGE, "deck": "berserk-sample",
                                "cards": [{"code": "B01"}]}, "Player"),
])
def test_a_number_too_large_in_a_body_is_422_naming_the_field(api, db, player, url, body,
                                                             field):
    # (a field with a label is named by it: "player" reads "Player")
    response = api("post", url, json=body)
    assert response.status_code == 422
    assert response.get_json() == {"error": f"{field} must be between {-2**63} and "
                                            f"{2**63 - 1}."}


def test_a_large_number_the_rules_read_keeps_their_refusal(api, player):
    other = api("post", "/api/v1/players", json={"character": "B", "hp_max": 3,
                                                 "chance_max": 1, "cartridges": 2,
                                                 "suit": "C"}).get_json()["id"]
    duel = api("post", "/api/v1/duels", json={"a": player["id"], "b": other}).get_json()
    response = api("post", f"/api/v1/duels/{duel['id']}/rounds", json={
        "a": {"table": "6S", "tokens": HUGE}, "b": {"table": "7H"}})
    assert response.status_code == 422 and response.get_json()["rule"] == "D8"
