"""What was recorded stays readable, whatever the rules do later (DESIGN: a stored step is
never re-judged by a later version of the rules).

``readings-v1.db`` was made by the code of d77a5fe, before the castle's U9/U13 reading
changed; ``readings-now.db`` by today's code (tests/fixtures/make_readings_db.py). Each
holds duels, a Coup table, a battle and castle games with challenges at events; the
JSON beside it is what the API showed then. Upgraded, every answer must be the same.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.app import create_app
from referee.games import registry
from tests.conftest import kept_sign_in, with_cookies
from tests.games.test_upgrade import as_before

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MADE = ("readings-v1", "readings-now")


def expected(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.expected.json").read_text("utf-8"))


class Upgraded:
    """A copy of a fixture upgraded by starting today's app on it, and its API and its
    screens as the demo referee."""

    def __init__(self, tmp_path: Path, name: str, master: Master) -> None:
        self.path = tmp_path / f"{name}.db"
        shutil.copy(master.path, self.path)
        self.app = create_app({"DATABASE": str(self.path), "TESTING": True})
        self.client = self.app.test_client()
        with_cookies(self.client, master.cookies)
        self.headers = {"Authorization": f"Bearer {master.token}", "Accept-Language": "en"}

    def get(self, url: str, lang: str = "en"):
        return self.client.get(url, headers={**self.headers, "Accept-Language": lang})

    def post(self, url: str, body: dict):
        return self.client.post(url, json=body, headers=self.headers)

    def sql(self, query: str, params=()) -> list:
        conn = sqlite3.connect(self.path)
        try:
            rows = conn.execute(query, params).fetchall()
            conn.commit()
            return rows
        finally:
            conn.close()

    def screen(self, url: str, lang: str = "en") -> str:
        """A game's screen as a signed-in referee sees it."""
        return self.client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)


@dataclass(frozen=True)
class Master:
    """A fixture upgraded once, with the demo referee's token and signed-in cookies in
    it: each test works on a copy of it (the demo's password is hashed with scrypt,
    ~70 ms a check, and the upgrade replays every game)."""

    path: Path
    token: str
    cookies: dict[str, str]


@pytest.fixture(scope="module")
def masters(tmp_path_factory) -> dict[str, Master]:
    made = {}
    for name in MADE:
        path = tmp_path_factory.mktemp("readings") / f"{name}.db"
        shutil.copy(FIXTURES / f"{name}.db", path)
        app = create_app({"DATABASE": str(path), "TESTING": True})
        token = app.test_client().post("/api/v1/token",
                                       json={"name": "demo", "password": "demo"})
        cookies = kept_sign_in(app, "demo", "demo")  # writes the token's row to the file too
        made[name] = Master(path, token.get_json()["token"], cookies)
    return made


@pytest.fixture
def upgraded(tmp_path, masters):
    """``upgraded(name)``: a fresh copy of that fixture, upgraded."""
    return lambda name: Upgraded(tmp_path, name, masters[name])


@pytest.fixture
def v1(upgraded):
    return upgraded("readings-v1")


@pytest.fixture
def now(upgraded):
    return upgraded("readings-now")


def underworld_ids(name: str) -> dict[str, int]:
    return expected(name)["_legend"]["castle_readings"]


@pytest.mark.parametrize("name", MADE)
def test_every_answer_of_the_api_is_what_it_was_before_the_upgrade(name, upgraded):
    copy, shown = upgraded(name), expected(name)
    differ = []
    for url in sorted(u for u in shown if u != "_legend"):
        response = copy.get(url)
        if response.status_code != 200 or \
                as_before(response.get_json(), shown[url]) != shown[url]:
            differ.append((url, response.status_code))
    assert differ == []


def test_U9_U13_the_reported_castle_game_reads_as_recorded_and_is_marked(v1):
    number = underworld_ids("readings-v1")["event_ended_after_a_challenge_won"]
    game = v1.get(f"/api/v1/castle/{number}").get_json()
    assert game["rules"] == {"reading": 1, "today": 2, "earlier": True, "unread": []}
    # The "event done" today's reading would refuse (U5) is in the record, as recorded.
    assert [a["action"]["kind"] for a in game["actions"]][-5:] == [
        "fight", "event_done", "end_turn", "draw", "fight"]
    page = v1.screen(f"/underworld/{number}")
    assert "Recorded under earlier rules." in page
    assert "Записано по прежним правилам." in v1.screen(f"/underworld/{number}", "ru")


def test_U9_U13_a_game_both_readings_replay_but_show_otherwise_is_read_as_recorded(v1):
    number = underworld_ids("readings-v1")["left_after_a_challenge_won"]
    game = v1.get(f"/api/v1/castle/{number}").get_json()
    # Today's reading would offer the class card after the challenge won; the game was
    # recorded when the event was still followed after it.
    assert game["state"]["phase"] == "event"
    assert game["rules"]["reading"] == 1 and game["rules"]["earlier"]


def test_U9_U13_a_game_both_readings_show_alike_is_not_marked(v1):
    number = underworld_ids("readings-v1")["challenge_lost"]
    game = v1.get(f"/api/v1/castle/{number}").get_json()
    assert game["rules"] == {"reading": 2, "today": 2, "earlier": False, "unread": []}
    assert "Recorded under earlier rules." not in v1.screen(f"/underworld/{number}")


def test_U9_U13_a_game_recorded_under_the_earlier_reading_goes_on_under_it(v1):
    number = underworld_ids("readings-v1")["left_after_a_challenge_won"]
    game = v1.get(f"/api/v1/castle/{number}").get_json()
    assert v1.sql("SELECT reading FROM games WHERE kind = 'underworld' AND number = ?",
                  [number]) == [(None,)]
    # The step today's reading would refuse here (it waits for the class card, U9).
    done = v1.post(f"/api/v1/castle/{number}/actions",
                   {"kind": "event_done", "version": game["version"]})
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["state"]["phase"] == "step_over"
    # From its first step after the upgrade the game keeps the reading it was read under.
    assert v1.sql("SELECT reading FROM games WHERE kind = 'underworld' AND number = ?",
                  [number]) == [(1,)]
    assert v1.get(f"/api/v1/castle/{number}").get_json()["rules"]["reading"] == 1


def test_games_made_by_todays_code_are_read_under_todays_rules(now):
    shown = expected("readings-now")
    kinds = {"duels": "duel", "coup": "coup", "castle": "underworld",
             "berserk/battles": "berserk"}
    for url in (u for u in shown if u != "_legend"):
        parts = url.split("/")
        kind = kinds.get("/".join(parts[3:-1]))
        if kind is None or not parts[-1].isdigit():
            continue
        rules = now.get(url).get_json()["rules"]
        assert rules == {"reading": registry.kind(kind).reading,
                         "today": registry.kind(kind).reading, "earlier": False,
                         "unread": []}, url
    assert now.sql("SELECT count(*) FROM games WHERE reading IS NULL") == [(0,)]


def test_a_step_no_reading_replays_is_shown_as_recorded_and_blocks_only_going_on(now):
    """A step that every reading the code knows refuses (a later rules change, or a
    damaged row) never makes the game unreadable: the state is that of the steps before
    it, the step is listed as recorded, going on is refused until it is undone."""
    number = underworld_ids("readings-now")["challenge_lost"]
    before = now.get(f"/api/v1/castle/{number}").get_json()
    (key,) = now.sql("SELECT id FROM games WHERE kind = 'underworld' AND number = ?",
                     [number])[0]
    now.sql("INSERT INTO game_actions (game_id, seq, action, at, referee_id, events) "
            "SELECT ?, max(seq) + 1, ?, '2026-12-01T10:00:00+00:00', 1, '[]' "
            "FROM game_actions WHERE game_id = ?",
            [key, json.dumps({"kind": "event_done"}), key])
    now.sql("UPDATE games SET version = version + 1 WHERE id = ?", [key])

    shown = now.get(f"/api/v1/castle/{number}")
    assert shown.status_code == 200
    game = shown.get_json()
    assert game["state"] == before["state"]
    assert game["rules"]["earlier"] is True
    assert [(u["seq"], u["action"]) for u in game["rules"]["unread"]] == [
        (before["actions"][-1]["seq"] + 1, {"kind": "event_done"})]
    page = now.screen(f"/underworld/{number}")
    assert "Today's rules cannot replay its latest step" in page
    assert "event_done" in page

    steps = now.sql("SELECT count(*) FROM game_actions WHERE game_id = ?", [key])
    refused = now.post(f"/api/v1/castle/{number}/actions",
                       {"kind": "draw", "code": "M05", "version": game["version"]})
    assert refused.status_code == 422
    assert "recorded under earlier rules" in refused.get_json()["error"]
    assert now.sql("SELECT count(*) FROM game_actions WHERE game_id = ?", [key]) == steps

    undone = now.post(f"/api/v1/castle/{number}/undo", {"version": game["version"]})
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["rules"]["unread"] == []
    assert undone.get_json()["rules"]["earlier"] is False
    assert undone.get_json()["state"] == before["state"]


@pytest.mark.parametrize(("kind", "api", "screen"), [
    ("duel", "/api/v1/duels/{n}", "/duels/{n}"), ("coup", "/api/v1/coup/{n}", "/coup/{n}"),
    ("berserk", "/api/v1/berserk/battles/{n}", "/berserk/{n}"),
    ("underworld", "/api/v1/castle/{n}", "/underworld/{n}")])
def test_every_game_shows_a_step_no_reading_replays_as_recorded(now, kind, api, screen):
    number = {"duel": expected("readings-now")["_legend"]["duels"]["open"]}.get(kind) or \
        expected("readings-now")["_legend"]["games"][
            {"coup": "coup", "berserk": "berserk", "underworld": "castle"}[kind]][0]
    (key,) = now.sql("SELECT id FROM games WHERE kind = ? AND number = ?", [kind, number])[0]
    now.sql("INSERT INTO game_actions (game_id, seq, action, at, referee_id, events) "
            "SELECT ?, max(seq) + 1, ?, '2026-12-01T10:00:00+00:00', 1, '[]' "
            "FROM game_actions WHERE game_id = ?",
            [key, json.dumps({"type": "a step of rules to come", "kind": "later"}), key])
    now.sql("UPDATE games SET version = version + 1 WHERE id = ?", [key])
    answer = now.get(api.format(n=number))
    assert answer.status_code == 200
    assert answer.get_json()["rules"]["earlier"] is True
    assert len(answer.get_json()["rules"]["unread"]) == 1
    page = now.screen(screen.format(n=number), "ru")
    assert "Записано по прежним правилам." in page
    assert "a step of rules to come" in page
