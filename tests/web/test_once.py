"""One-time keys: a create form sent twice makes one object, and the
repeat is answered with a 303 to it and a notice; the API's Idempotency-Key likewise."""

from __future__ import annotations

import io
import re
import threading

import pytest

from referee import store
from referee.games.coup import service as coup
from referee.players import service as player_service
from referee.store import once
from tests.conftest import post
from tests.games.berserk.test_registered import DECK, form_of
from tests.games.berserk.test_web import install_test_deck, save_squad


def person(db, name: str) -> dict:
    return player_service.create(db, None, {
        "character": name, "player": "", "hp_max": 3, "chance_max": 2, "cartridges": 3,
        "suit": "H"})


def key_of(html: str) -> str:
    """The form's one-time key as the page drew it."""
    return re.search(r'<input type="hidden" name="once" value="([^"]+)"', html)[1]


def count(db, table: str) -> int:
    return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def _coup(db, players):
    ids = [p["id"] for p in players[:3]]
    return "/coup/new?" + "&".join(f"seat={i}" for i in ids), "/coup", {"seat": ids}


def _duel(db, players):
    a, b = players[0]["id"], players[1]["id"]
    return f"/duels/new?a={a}&b={b}", "/duels", {"a": a, "b": b}


def _underworld(db, players):
    ids = [p["id"] for p in players[:2]]
    cards = {f"start_{ids[0]}": ["M07", "gate troll", "I01", "heavy blow"],
             f"start_{ids[1]}": ["rat", "M03", "M03", "палаш"]}
    return ("/underworld/new?" + "&".join(f"p={i}" for i in ids), "/underworld",
            {"p": ids, **cards})


def _berserk(db, players):
    a = save_squad(db, players[0], ["S234", "F7"])
    b = save_squad(db, players[1], ["S123"], seat="second")
    return (f"/berserk/new?a={a['id']}&b={b['id']}", "/berserk",
            {"a": a["id"], "b": b["id"]})


def _player(db, players):
    return "/players/new", "/players/new", {
        "character": "Vera", "hp_max": "3", "chance_max": "1", "cartridges": "2",
        "suit": "S", "level": "1"}


def _squad(db, players):
    return (f"/berserk/squads/new?player={players[0]['id']}", "/berserk/squads",
            {"player": players[0]["id"], "name": "Greens", "deck": "berserk-test",
             "card": ["F7", "M5"]})


def _deck(db, players):
    return (f"/berserk/registered-decks/new?player={players[0]['id']}",
            "/berserk/registered-decks", form_of(DECK, player=players[0]["id"], name="Main"))


CASES = [
    # (form, arrange, table counted, where the answer points, notice)
    ("coup", _coup, "games", r"/coup/\d+$", "This table was already started"),
    ("duel", _duel, "games", r"/duels/\d+$", "This duel was already started"),
    ("underworld", _underworld, "games", r"/underworld/\d+$",
     "This castle game was already started"),
    ("berserk", _berserk, "games", r"/berserk/\d+$", "This battle was already started"),
    ("player", _player, "players", r"/players/\d+$", "This player was already registered"),
    ("squad", _squad, "berserk_squads", r"/berserk/squads/\d+$",
     "This squad was already saved"),
    ("deck", _deck, "berserk_decks", r"/berserk/registered-decks/\d+$",
     "This deck was already registered"),
]


@pytest.fixture
def players(db, tmp_path, monkeypatch):
    install_test_deck(tmp_path, monkeypatch)
    return [person(db, name) for name in ("Anna", "Boris", "Vera")]


@pytest.mark.parametrize(("form", "arrange", "table", "where", "notice"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_create_form_sent_twice_makes_one(referee, db, players, form, arrange, table,
                                            where, notice):
    page, url, data = arrange(db, players)
    html = referee.get(page).get_data(as_text=True)
    key = key_of(html)
    assert 'data-once' in html  # drawn by GET: app.js puts it into the address
    before = count(db, table)
    first = post(referee, url, {**data, "once": key})
    assert first.status_code == 303 and re.search(where, first.headers["Location"])
    assert count(db, table) == before + 1
    # Back brings the page again with the key in its address: the same key is drawn
    # (a player's deck page sends them to the deck they have now, with no form).
    back = referee.get(f"{page}{'&' if '?' in page else '?'}once={key}")
    assert back.status_code == 302 or key_of(back.get_data(as_text=True)) == key
    again = post(referee, url, {**data, "once": key})
    assert again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert count(db, table) == before + 1
    shown = referee.get(again.headers["Location"]).get_data(as_text=True)
    assert notice in shown
    # Said once: a reload of the same page does not say it again.
    assert notice not in referee.get(again.headers["Location"]).get_data(as_text=True)
    # A fresh form (no key in the address) has a key of its own.
    fresh = referee.get(page)
    assert fresh.status_code == 302 or key_of(fresh.get_data(as_text=True)) != key


def test_a_used_key_is_kept_a_week_and_then_dropped(referee, db, players):
    from datetime import UTC, datetime, timedelta

    def aged(days: float) -> str:
        return (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")

    _page, url, data = _duel(db, players)
    old, recent = "o" * 22, "r" * 22
    first = post(referee, url, {**data, "once": recent})
    assert first.status_code == 303 and count(db, "games") == 1
    with db.conn:
        db.conn.execute("UPDATE once_keys SET at = ?", [aged(6.9)])
        db.conn.execute("INSERT INTO once_keys (key, tbl, ref, at) VALUES (?, 'games', 1, ?)",
                        [f"coup:{old}", aged(7.1)])
    # a new creation drops the key older than a week, and only that one
    post(referee, "/players/new", {**_player(db, players)[2], "once": "n" * 22})
    keys = {k for (k,) in db.execute("SELECT key FROM once_keys")}
    assert keys == {f"duel:{recent}", f"players:{'n' * 22}"}
    # the six-day-old key still stops a resent form
    again = post(referee, url, {**data, "once": recent})
    assert again.headers["Location"] == first.headers["Location"]
    assert count(db, "games") == 1
    plan = " ".join(str(r) for r in db.execute(
        "EXPLAIN QUERY PLAN DELETE FROM once_keys WHERE at < '2026'").fetchall())
    assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, plan


def test_without_a_key_a_form_works_as_before(referee, db, players):
    ids = [p["id"] for p in players[:2]]
    post(referee, "/coup", {"seat": ids})
    post(referee, "/coup", {"seat": ids})
    assert count(db, "games") == 2


def test_a_refused_creation_does_not_spend_its_key(referee, db, players):
    """The rules refuse the first try (U4: a card the castle deck has no copy of left);
    the form comes back with the same key, which starts the game once it is fixed."""
    page, url, data = _underworld(db, players)
    key = key_of(referee.get(page).get_data(as_text=True))
    wrong = {**data, f"start_{players[0]['id']}": ["M07", "M07", "M07", "M07"]}
    refused = post(referee, url, {**wrong, "once": key})
    assert refused.status_code == 422 and key_of(refused.get_data(as_text=True)) == key
    assert "data-once" not in refused.get_data(as_text=True)  # a POST's page: no address
    assert count(db, "games") == 0 and count(db, "once_keys") == 0
    ok = post(referee, url, {**data, "once": key})
    assert ok.status_code == 303 and count(db, "games") == 1


def test_a_key_is_known_only_to_its_own_form(referee, db, players):
    key = key_of(referee.get("/players/new").get_data(as_text=True))
    post(referee, "/players/new", {"character": "Vera", "hp_max": "3", "chance_max": "1",
                                   "cartridges": "2", "suit": "S", "once": key})
    ids = [p["id"] for p in players[:2]]
    assert post(referee, "/coup", {"seat": ids, "once": key}).status_code == 303
    assert count(db, "games") == 1


def test_importing_the_same_file_twice_imports_it_once(organizer, db):
    csv = (b"character,player,hp_max,chance_max,cartridges,suit,level,notes\r\n"
           b"Vera,Anna,3,2,3,H,1,\r\nGleb,Ivan,4,1,2,C,2,medic\r\n")
    key = key_of(organizer.get("/players/import").get_data(as_text=True))

    def send():
        return post(organizer, "/players/import",
                    {"file": (io.BytesIO(csv), "p.csv"), "once": key},
                    content_type="multipart/form-data")

    assert send().status_code == 200 and count(db, "players") == 2
    again = send()
    assert again.status_code == 303 and again.headers["Location"] == "/"
    assert count(db, "players") == 2
    assert "This file was already imported" in organizer.get(
        again.headers["Location"]).get_data(as_text=True)


def test_adding_a_referee_twice_adds_one(organizer, db):
    key = key_of(organizer.get("/referees").get_data(as_text=True))
    data = {"action": "add", "name": "vera", "password": "long enough password",
            "once": key}
    assert post(organizer, "/referees", data).status_code == 200
    again = post(organizer, "/referees", data)
    assert again.status_code == 303 and count(db, "referees") == 3
    page = organizer.get(again.headers["Location"]).get_data(as_text=True)
    assert "This referee was already added" in page and "already taken" not in page


def test_two_submissions_at_once_make_one(app, db, players):
    """Two threads claim the same key: BEGIN IMMEDIATE lets one in first, and the
    other finds the key spent and writes nothing."""
    ids = [p["id"] for p in players[:2]]
    made, repeated = [], []

    def start():
        conn = store.connect(app.config["DATABASE"])
        try:
            with once.claiming(conn, "k" * 24, "coup"):
                made.append(coup.create(conn, 1, ids).id)
        except once.Repeated as err:
            repeated.append(err.made)
        finally:
            conn.close()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1 and len(repeated) == 1
    assert repeated[0].table == "games" and count(db, "games") == 1


# The API ------------------------------------------------------------------------------


def test_the_api_answers_a_repeated_idempotency_key_with_what_it_made(api, db):
    body = {"character": "Vera", "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "S"}
    headers = {"Idempotency-Key": "5b0c6c52-0d3e-4a39-9bd0-3f2f3ad1b6c1"}
    first = api("post", "/api/v1/players", json=body, headers=headers)
    assert first.status_code == 201
    again = api("post", "/api/v1/players", json=body, headers=headers)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["id"] == first.get_json()["id"] and count(db, "players") == 1
    # Without the header, the call is as it always was: a second player.
    assert api("post", "/api/v1/players", json=body).status_code == 201
    assert count(db, "players") == 2
    bad = api("post", "/api/v1/players", json=body, headers={"Idempotency-Key": "a b"})
    assert bad.status_code == 422 and "Idempotency-Key" in bad.get_json()["error"]


def test_the_api_game_calls_take_an_idempotency_key(api, db):
    ids = [person(db, n)["id"] for n in ("Anna", "Boris")]
    headers = {"Idempotency-Key": "table-1"}
    first = api("post", "/api/v1/coup", json={"players": ids}, headers=headers)
    again = api("post", "/api/v1/coup", json={"players": ids}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json()["id"] == first.get_json()["id"] and count(db, "games") == 1
    duel = api("post", "/api/v1/duels", json={"a": ids[0], "b": ids[1]}, headers=headers)
    assert duel.status_code == 201 and count(db, "games") == 2  # another call's key
