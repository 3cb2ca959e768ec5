"""Every game's API answer carries its name as the screens say it, in
the request's language: in a list and alone, after a write, in a 409 and in a replay."""

from __future__ import annotations

import pytest

from referee import store
from referee.games import names
from referee.players import service as player_service
from referee.store import fold
from referee.store.ledger import BLOCK
from tests.games.samples import every

EN = {"Accept-Language": "en"}
RU = {"Accept-Language": "ru"}
# kind, its list, the name in English and in Russian (keys.po) of its game number 1: each
# game of the registry, from its sample (tests/games/samples)
KINDS = [(name, sample.LISTING, *sample.NAMES) for name, sample in every()]
SAMPLES = dict(every())


def made(api, db, kind: str, headers: dict | None = None) -> dict:
    """Game number 1 of ``kind`` between two new players, made through the API."""
    a, b = (player_service.create(db, None, {"character": n, "hp_max": 3, "chance_max": 1,
                                             "cartridges": 5, "suit": "H"})["id"]
            for n in ("Anna", "Boris"))
    call = SAMPLES[kind].created(api, a, b)
    response = api("post", call[0], json=call[1], headers={**EN, **(headers or {})})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.mark.parametrize(("kind", "listing", "english", "russian"), KINDS)
def test_a_game_is_named_in_the_language_of_the_request(api, db, kind, listing, english,
                                                        russian):
    game = made(api, db, kind)
    assert game["name"] == english
    one = f"{listing}/{game['id']}"
    for headers, said in ((EN, english), (RU, russian)):
        assert api("get", one, headers=headers).get_json()["name"] == said
        assert [g["name"] for g in api("get", listing, headers=headers).get_json()] == [said]


def step(kind: str, game: dict) -> tuple[str, dict]:
    """A step the new game takes: its path under the game and its body."""
    return SAMPLES[kind].step(game)


@pytest.mark.parametrize(("kind", "listing", "english", "russian"), KINDS)
def test_writes_stale_answers_and_replays_carry_the_name(api, db, kind, listing, english,
                                                         russian):
    key = {"Idempotency-Key": f"names-{kind}"}
    game = made(api, db, kind, key)
    path, body = step(kind, game)
    url = f"{listing}/{game['id']}/{path}"
    done = api("post", url, json={**body, "version": game["version"]}, headers=EN)
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["name"] == english
    stale = api("post", url, json={**body, "version": game["version"]}, headers=RU)
    assert stale.status_code == 409 and stale.get_json()["name"] == russian
    undone = api("post", f"{listing}/{game['id']}/undo", json={}, headers=RU)
    assert undone.status_code == 200 and undone.get_json()["name"] == russian
    again = made(api, db, kind, key)  # the same key: what the first call made
    assert (again["id"], again["name"]) == (game["id"], english)


def from_the_tavern(db, kind: str) -> int:
    """Move the kind's game 1 into station 2's block, as if the station Tavern made it."""
    with store.write(db):
        fold.row(db, "stations", {"id": "tav", "name": "Tavern", "number": 2, "device": "",
                                  "address": "", "admitted_at": "", "admitted_by": None})
    with db.conn:
        db.execute("UPDATE games SET number = ? WHERE kind = ? AND number = 1",
                   [2 * BLOCK + 1, kind])
    return 2 * BLOCK + 1


@pytest.mark.parametrize(("kind", "listing", "english", "russian"), KINDS)
def test_a_game_from_another_stations_block_names_the_station(api, db, kind, listing,
                                                              english, russian):
    made(api, db, kind)
    number = from_the_tavern(db, kind)
    second = english.replace("1", "2")
    one = api("get", f"{listing}/{number}", headers=EN).get_json()
    assert one["name"] == f"{second} (station Tavern)"
    assert api("get", listing, headers=RU).get_json()[0]["name"] == \
        russian.replace("1", "2") + " (станция «Tavern»)"


def test_a_list_reads_the_stations_once_and_only_for_another_stations_numbers(api, db,
                                                                              monkeypatch):
    reads = []
    real = names.station_names
    monkeypatch.setattr(names, "station_names", lambda conn: reads.append(1) or real(conn))
    made(api, db, "duel")
    made(api, db, "duel")
    assert [d["name"] for d in api("get", "/api/v1/duels").get_json()] == ["Duel 2", "Duel 1"]
    assert reads == []
    with db.conn:
        db.execute("UPDATE games SET number = number + ? WHERE kind = 'duel'", [2 * BLOCK])
    assert [d["name"] for d in api("get", "/api/v1/duels").get_json()] == \
        ["Duel 3 (station 2)", "Duel 2 (station 2)"]
    assert reads == [1]
