"""Taps a phone kept out of reach, sent when a station answers:
each applied once, deltas adding up, a bound broken only on arrival held as a conflict,
bad entries refused with a sentence and nothing lost or doubled."""

from __future__ import annotations

import json
import time
import uuid

import pytest

from referee.accounts.service import set_active
from referee.players import pocket, service
from referee.store import conflicts
from tests.conftest import csrf_of, sign_in


def tap(player_id: int, values: dict, *, kind: str = "adjust", referee: int = 1,
        made: int | None = None, reason: str = "") -> dict:
    return {"id": str(uuid.uuid4()), "player": player_id, "kind": kind, "values": values,
            "reason": reason, "made": made if made is not None else int(time.time() * 1000),
            "referee": referee}


def send(client, taps: list, sent: int | None = None):
    """POST the kept taps as offline.js does (session cookie and CSRF header)."""
    return client.post("/offline/taps", json={"taps": taps, "sent": sent or int(
        time.time() * 1000)}, headers={"X-CSRF-Token": csrf_of(client)})


def row(db, player_id: int) -> dict:
    return dict(zip(("hp", "chance", "cartridges", "level", "version"), db.execute(
        "SELECT hp, chance, cartridges, level, version FROM players WHERE id = ?",
        [player_id]).fetchone(), strict=True))


def statuses(response) -> list[str]:
    assert response.status_code == 200, response.get_data(as_text=True)
    return [r["status"] for r in response.get_json()["results"]]


def test_kept_taps_are_applied_once_however_often_they_are_sent(referee, player, db):
    taps = [tap(player["id"], {"hp": -1}, reason="стрела"), tap(player["id"], {"chance": -1})]
    assert statuses(send(referee, taps)) == ["applied", "applied"]
    assert (row(db, player["id"])["hp"], row(db, player["id"])["chance"]) == (2, 1)
    again = send(referee, taps).get_json()["results"]  # the answer was lost: sent again
    assert [(r["status"], r["again"]) for r in again] == [("applied", True)] * 2
    assert (row(db, player["id"])["hp"], row(db, player["id"])["chance"]) == (2, 1)
    events = db.execute("SELECT referee_id, reason, tap FROM events WHERE tap IS NOT NULL "
                        "ORDER BY id").fetchall()
    assert events == [(1, "стрела", taps[0]["id"]), (1, "", taps[1]["id"])]


def test_kept_deltas_add_up_to_what_others_did_meanwhile(referee, player, db):
    kept = tap(player["id"], {"cartridges": -1})  # made when the phone showed 3
    service.adjust(db, 2, player["id"], {"cartridges": 2})  # org, at the station: 5
    assert statuses(send(referee, [kept])) == ["applied"]
    assert row(db, player["id"])["cartridges"] == 4


def test_kept_set_is_the_typed_value_again(referee, player, db):
    service.adjust(db, 2, player["id"], {"level": 2})
    assert statuses(send(referee, [tap(player["id"], {"level": 5}, kind="set")])) == \
        ["applied"]
    assert row(db, player["id"])["level"] == 5


def test_the_last_token_spent_twice_is_held_as_a_conflict_never_clamped(referee, player, db):
    service.adjust(db, 2, player["id"], {"chance": -1})  # one left
    online = tap(player["id"], {"chance": -1})
    offline = tap(player["id"], {"chance": -1})
    assert statuses(send(referee, [online])) == ["applied"]
    before = row(db, player["id"])
    answer = send(referee, [offline]).get_json()["results"][0]
    assert answer["status"] == "held" and "Chance" in answer["message"]
    assert row(db, player["id"]) == before  # nothing clamped, nothing dropped
    (held,) = conflicts.find(db, "held")
    assert held["player_id"] == player["id"] and held["change"]["tap"] == offline["id"]
    # Sent again, it is the same conflict, not a second one.
    assert statuses(send(referee, [offline])) == ["held"]
    assert len(conflicts.find(db, "held")) == 1
    # The Conflicts screen shows it; "apply anyway" clamps, as for stations.
    assert "Captain A" in referee.get("/conflicts").get_data(as_text=True)
    conflicts.settle(db, 1, held["id"], "apply")
    assert row(db, player["id"])["chance"] == 0


def test_a_tap_of_an_account_switched_off_meanwhile_is_held(client, db, player):
    from referee.accounts.service import add_referee

    made_by = add_referee(db, "vera", "vera-password", False, by=None)
    set_active(db, made_by["id"], False, 2)
    sign_in(client)  # "ref" now holds the phone
    answer = send(client, [tap(player["id"], {"hp": -1}, referee=made_by["id"])])
    (result,) = answer.get_json()["results"]
    assert result["status"] == "held" and "vera" in result["message"]
    assert row(db, player["id"])["hp"] == 3


def test_a_tap_another_account_made_on_the_phone_is_held(referee, db, player):
    result = send(referee, [tap(player["id"], {"hp": -1}, referee=2)]).get_json()["results"]
    assert result[0]["status"] == "held" and "org" in result[0]["message"]
    assert row(db, player["id"])["hp"] == 3


@pytest.mark.parametrize(("damage", "field"), [
    ({"id": "short"}, "id"), ({"player": "1"}, "player"), ({"kind": "heal"}, "kind"),
    ({"values": {"hp": "x"}}, "values"), ({"values": {"gold": 1}}, "values"),
    ({"values": {}}, "values"), ({"made": -5}, "made"), ({"reason": "x" * 201}, "reason"),
    ({"referee": None}, "referee")])
def test_a_damaged_entry_is_refused_with_a_sentence_and_changes_nothing(referee, player, db,
                                                                       damage, field):
    good = tap(player["id"], {"hp": -1})
    answer = send(referee, [{**tap(player["id"], {"hp": -1}), **damage}, good])
    damaged, fine = answer.get_json()["results"]
    assert damaged["status"] == "refused" and f"({field})" in damaged["message"]
    assert fine["status"] == "applied"  # one bad entry loses none of the others
    assert row(db, player["id"])["hp"] == 2


def test_a_change_for_a_player_not_here_stays_on_the_phone(referee, db):
    (result,) = send(referee, [tap(99999, {"hp": -1})]).get_json()["results"]
    assert result["status"] == "refused" and "99999" in result["message"]


def test_refusals_are_in_the_referees_language(referee, player):
    answer = referee.post("/offline/taps", json={"taps": [{"id": "x"}], "sent": 0},
                          headers={"X-CSRF-Token": csrf_of(referee),
                                   "Accept-Language": "ru"})
    assert "повреждено" in answer.get_json()["results"][0]["message"]


def test_a_phone_clock_hours_off_is_put_right_by_its_time_at_sending(referee, player, db):
    now_ms = int(time.time() * 1000)
    hours = 5 * 3600 * 1000
    # The phone's clock is 5 hours behind: made "ten minutes before sending" by it.
    kept = tap(player["id"], {"hp": -1}, made=now_ms - hours - 600_000)
    assert statuses(send(referee, [kept], sent=now_ms - hours)) == ["applied"]
    at = db.execute("SELECT at FROM events WHERE tap = ?", [kept["id"]]).fetchone()[0]
    from datetime import UTC, datetime

    ago = datetime.now(UTC) - datetime.fromisoformat(at)
    assert 590 <= ago.total_seconds() <= 660
    # A clock ahead never puts a change in the future.
    ahead = tap(player["id"], {"hp": 1}, made=now_ms + hours)
    assert statuses(send(referee, [ahead], sent=now_ms)) == ["applied"]
    at = db.execute("SELECT at FROM events WHERE tap = ?", [ahead["id"]]).fetchone()[0]
    assert datetime.fromisoformat(at) <= datetime.now(UTC)


def test_sending_needs_a_signed_in_referee_and_the_csrf_token(client, referee, player, db):
    anonymous = client.application.test_client()
    csrf_of(anonymous)
    assert send(anonymous, [tap(player["id"], {"hp": -1})]).status_code == 401
    no_token = referee.post("/offline/taps", json={"taps": [tap(player["id"], {"hp": -1})]})
    assert no_token.status_code == 400
    assert send(referee, "not a list").get_json()["results"][0]["status"] == "refused"
    assert referee.post("/offline/taps", data="{", content_type="application/json",
                        headers={"X-CSRF-Token": csrf_of(referee)}).status_code == 400
    assert row(db, player["id"])["hp"] == 3


def test_the_copy_holds_every_player_and_answers_304_while_nothing_changed(referee, player,
                                                                          db):
    service.adjust(db, 1, player["id"], {"hp": -1}, "first")
    first = referee.get("/offline/data.json")
    copy = first.get_json()
    (kept,) = [dict(zip(copy["fields"], p, strict=True)) for p in copy["players"]]
    assert (kept["character"], kept["hp"], kept["hp_max"]) == ("Captain A", 2, 3)
    assert kept["history"][0][2] == "adjust" and ["hp", 3, 2] in kept["history"][0][3]
    assert copy["referee"]["name"] == "ref"
    etag = first.headers["ETag"]
    assert referee.get("/offline/data.json", headers={"If-None-Match": etag}).status_code == 304
    service.adjust(db, 2, player["id"], {"hp": -1})
    assert referee.get("/offline/data.json", headers={"If-None-Match": etag}).status_code == 200
    assert client_anonymous_gets_401(referee)


def client_anonymous_gets_401(referee) -> bool:
    return referee.application.test_client().get("/offline/data.json").status_code == 401


def test_the_service_worker_is_served_from_the_root_with_its_shell(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    code = response.get_data(as_text=True)
    shell = json.loads(code.split("const SHELL = ", 1)[1].split(";", 1)[0])
    assert shell[0] == "/offline" and all("?v=" in u for u in shell[1:])
    assert "__VERSION__" not in code


def test_receive_is_pure_of_flask_and_keeps_order(db, player):
    sender = {"id": 1, "name": "ref"}
    taps = [tap(player["id"], {"hp": -1}), tap(player["id"], {"hp": -1}),
            tap(player["id"], {"hp": -1})]
    outcomes = pocket.receive(db, sender, taps, int(time.time() * 1000))
    assert [o.status for o in outcomes] == ["applied", "applied", "applied"]
    assert row(db, player["id"])["hp"] == 0  # the third took the last HP: heavy wound
    assert db.execute("SELECT status FROM players WHERE id = ?",
                      [player["id"]]).fetchone()[0] == "heavy_wound"
