"""A world for checking the API against its document: players, a duel, a Coup table, a
underworld game, two squads and a battle, all made through the API itself."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from referee import store
from referee.accounts.service import add_referee
from referee.app import create_app

NAMES = ("Anna", "Boris", "Vera", "Gleb")
# A registered deck of the sample set that keeps B14: 30 cards, one of the unique B10.
SAMPLE_DECK = [*({"code": f"B{i:02d}", "count": 3} for i in range(1, 10)),
               {"code": "B10", "count": 1}, {"code": "B11", "count": 2}]


@dataclass
class World:
    """The app, a referee's bearer token and the ids of what was made."""

    app: object
    token: str
    ids: dict[str, int] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        # Schemathesis sends requests' "Accept-Encoding: gzip" but its WSGI transport does
        # not undo gzip as an HTTP client does: ask for the body as the document has it.
        return {"Authorization": f"Bearer {self.token}", "Accept-Language": "en",
                "Accept-Encoding": "identity"}

    def call(self, method: str, url: str, status: int, **kwargs) -> dict | list:
        """One call that must answer ``status``; its JSON."""
        client = self.app.test_client()
        response = client.open(url, method=method.upper(), headers=self.headers, **kwargs)
        assert response.status_code == status, (method, url, response.get_json())
        return response.get_json()


def make_world(path) -> World:
    """Seed a fresh database through the API."""
    db = store.init(path)
    add_referee(db, "ref", "ref-password", False, by=None)
    db.close()
    app = create_app({"DATABASE": str(path), "TESTING": True})
    token = app.test_client().post("/api/v1/token", json={"name": "ref",
                                                          "password": "ref-password"})
    world = World(app, token.get_json()["token"])
    ids = world.ids
    for name, suit in zip(NAMES, "SHDC", strict=True):
        ids[name] = world.call("post", "/api/v1/players", 201, json={
            "character": name, "hp_max": 3, "chance_max": 2, "cartridges": 9,
            "suit": suit})["id"]
    anna, boris, vera = ids["Anna"], ids["Boris"], ids["Vera"]
    ids["duel"] = world.call("post", "/api/v1/duels", 201, json={"a": anna, "b": boris})["id"]
    world.call("post", f"/api/v1/duels/{ids['duel']}/rounds", 200, json={
        "a": {"table": "10S"}, "b": {"table": "7H"}})
    ids["coup"] = world.call("post", "/api/v1/coup", 201,
                             json={"players": [anna, boris, vera]})["id"]
    ids["castle"] = world.call("post", "/api/v1/castle", 201, json={
        "players": [anna, boris], "starting": {
            str(anna): ["I02", "I06", "M01", "M01"], str(boris): ["M06", "M06", "M08", "M08"]},
    })["id"]
    ids["squad"] = world.call("post", "/api/v1/berserk/squads", 201, json={
        "player": anna, "deck": "berserk-sample",
        "cards": [{"code": "B01"}, {"code": "B03"}, {"code": "B11"}]})["id"]
    ids["squad_b"] = world.call("post", "/api/v1/berserk/squads", 201, json={
        "player": boris, "deck": "berserk-sample", "seat": "second",
        "cards": [{"code": "B05"}, {"code": "B07"}]})["id"]
    ids["battle"] = world.call("post", "/api/v1/berserk/battles", 201, json={
        "a": ids["squad"], "b": ids["squad_b"]})["id"]
    ids["deck"] = world.call("post", "/api/v1/berserk/registered-decks", 201, json={
        "player": ids["Gleb"], "deck": "berserk-sample", "cards": SAMPLE_DECK})["id"]
    ids["event"] = world.call("get", f"/api/v1/players/{vera}/events", 200)[0]["id"]
    return world


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[World]:
    """One seeded world per test module (the calls of a module share it). It lives in
    memory where the machine has a tmpfs: the fuzz writes a lot, and each write to a disk
    waits for its fsync."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        with tempfile.TemporaryDirectory(dir=shm) as folder:
            yield make_world(Path(folder) / "referee.db")
    else:
        yield make_world(tmp_path_factory.mktemp("world") / "referee.db")


def path_ids(world: World, path: str) -> dict[str, int]:
    """Real ids for a documented path's parameters, so a call reaches a real object."""
    ids = world.ids
    game = ids["coup"] if "/coup/" in path else ids["castle"] if "/castle/" in path \
        else ids["battle"]
    known = {"player_id": ids["Anna"], "duel_id": ids["duel"], "squad_id": ids["squad"],
             "event_id": ids["event"], "game_id": game, "deck_id": ids["deck"]}
    return {name: value for name, value in known.items() if "{" + name + "}" in path}
