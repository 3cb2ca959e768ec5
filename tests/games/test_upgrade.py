"""A database made before duels moved into the one game store upgrades with nothing lost.

``tests/fixtures/legacy-v1.db`` was made by the code of commit 72bb881 (duels had tables
of their own) through its JSON API: six duels (finished, open, extended, one with an
undone round, one cancelled), a Coup table, a castle game, a battle and the demo; the
JSON file beside it is what that API showed. Upgraded, the API must show the same.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee import store
from referee.app import create_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EXPECTED = json.loads((FIXTURES / "legacy-v1.expected.json").read_text("utf-8"))
LEGEND = EXPECTED["_legend"]
# Fields the API has gained since the fixture was made (its contract only grows): every
# game's name. An answer may carry them; all else must be as it was.
ADDED = {"name", "rules"}


def as_before(answer, expected):
    """The answer without the fields added since, where the old answer had none."""
    if isinstance(answer, list) and isinstance(expected, list):
        return [as_before(a, e) for a, e in zip(answer, expected, strict=False)] \
            + answer[len(expected):]
    if isinstance(answer, dict) and isinstance(expected, dict):
        return {k: v for k, v in answer.items() if k in expected or k not in ADDED}
    return answer


def upgrade(folder: Path):
    """A copy of the legacy file, upgraded by starting the app on it."""
    path = folder / "legacy.db"
    shutil.copy(FIXTURES / "legacy-v1.db", path)
    app = create_app({"DATABASE": str(path), "TESTING": True})
    return app, path


@pytest.fixture
def upgraded(tmp_path):
    return upgrade(tmp_path)


def api_of(app):
    """The API as the fixture's referee demo, in English."""
    client = app.test_client()
    token = client.post("/api/v1/token", json={"name": "demo", "password": "demo"})
    headers = {"Authorization": f"Bearer {token.get_json()['token']}",
               "Accept-Language": "en"}

    def call(method: str, url: str, **kwargs):
        return getattr(client, method)(url, headers=headers, **kwargs)

    return call


@pytest.fixture
def demo_api(upgraded):
    return api_of(upgraded[0])


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    """One upgraded copy shared by the tests that only read it (a GET writes nothing)."""
    return api_of(upgrade(tmp_path_factory.mktemp("upgraded"))[0])


def test_the_duel_tables_are_gone_and_every_row_was_carried_over(upgraded):
    db = store.connect(upgraded[1])
    assert not {"duels", "duel_actions"} & set(db.table_names())
    duels = [dict(zip(("number", "status", "version"), r, strict=True)) for r in db.execute(
        "SELECT number, status, version FROM games WHERE kind = 'duel' ORDER BY number")]
    assert [d["number"] for d in duels] == [1, 2, 3, 4, 5, 6]
    assert {d["number"]: d["status"] for d in duels}[LEGEND["duels"]["cancelled"]] == \
        "cancelled"
    # Every duel step is a game step now; each names the player events it wrote.
    steps = db.execute("SELECT count(*), count(events) FROM game_actions a JOIN games g "
                       "ON g.id = a.game_id WHERE g.kind = 'duel'").fetchone()
    assert steps[0] == steps[1] == sum(d["version"] for d in duels)
    # The other games keep their ids as their numbers.
    for kind, ids in (("coup", LEGEND["games"]["coup"]),
                      ("underworld", LEGEND["games"]["castle"]),
                      ("berserk", LEGEND["games"]["berserk"])):
        assert [r[0] for r in db.execute("SELECT number FROM games WHERE kind = ? ORDER BY "
                                         "number", [kind])] == ids
    db.close()


@pytest.mark.parametrize("url", sorted(u for u in EXPECTED if u != "_legend"))
def test_the_api_shows_what_it_showed_before_the_upgrade(reader, url):
    response = reader("get", url)
    assert response.status_code == 200
    assert as_before(response.get_json(), EXPECTED[url]) == EXPECTED[url]


def test_the_open_duel_goes_on_and_its_latest_round_can_be_undone(demo_api):
    number = LEGEND["duels"]["open"]
    duel = demo_api("get", f"/api/v1/duels/{number}").get_json()
    assert (duel["version"], len(duel["rounds"])) == (LEGEND["open_duel_version"],
                                                       LEGEND["open_duel_rounds"])
    a_before = demo_api("get", f"/api/v1/players/{duel['a']}").get_json()
    undone = demo_api("post", f"/api/v1/duels/{number}/undo",
                      json={"version": duel["version"]}).get_json()
    assert (undone["version"], len(undone["rounds"])) == (duel["version"] + 1,
                                                           LEGEND["open_duel_rounds"] - 1)
    # Round 2's effects are compensated on the passports by duel_undo events.
    history = demo_api("get", f"/api/v1/players/{duel['a']}/events").get_json()
    assert history[0]["kind"] == "duel_undo" and history[0]["undoes"] is not None
    assert demo_api("get", f"/api/v1/players/{duel['a']}").get_json() != a_before
    # …and the duel goes on from round 2 again, as the next number of its kind.
    replayed = demo_api("post", f"/api/v1/duels/{number}/rounds", json={
        "a": {"table": "KH", "hand": None, "tokens": 0},
        "b": {"table": "6S", "hand": None, "tokens": 0}, "version": undone["version"]})
    assert replayed.status_code == 200, replayed.get_json()
    assert len(replayed.get_json()["rounds"]) == LEGEND["open_duel_rounds"]


def test_a_new_duel_takes_the_next_number_and_old_ones_stay_where_they_were(demo_api):
    players = [p for p in demo_api("get", "/api/v1/players").get_json()
               if p["status"] == "active" and p["cartridges"] > 0]
    made = demo_api("post", "/api/v1/duels", json={"a": players[0]["id"],
                                                   "b": players[1]["id"]})
    assert made.status_code == 201, made.get_json()
    assert (made.get_json()["id"], made.get_json()["name"]) == (7, "Duel 7")
    old = demo_api("get", "/api/v1/duels/1").get_json()
    assert as_before(old, EXPECTED["/api/v1/duels/1"]) == EXPECTED["/api/v1/duels/1"]
    assert old["name"] == "Duel 1"


def test_the_cancelled_duel_has_nothing_left_to_undo(demo_api):
    number = LEGEND["duels"]["cancelled"]
    response = demo_api("post", f"/api/v1/duels/{number}/undo", json={})
    assert response.status_code == 422
    assert "Nothing left to undo" in response.get_json()["error"]
