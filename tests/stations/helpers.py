"""Stations for tests: each its own database file and app, exchanging facts directly."""

from __future__ import annotations

import json
from pathlib import Path

from referee import store
from referee.accounts.service import add_referee
from referee.app import create_app
from referee.players import service as players
from referee.store import ledger, membership, merge, settings
from referee.web.context import close_connections

# Every GET of /api/v1 whose answer is the event's state (the document itself aside).
LISTS = ("/api/v1/players", "/api/v1/events", "/api/v1/duels", "/api/v1/coup",
         "/api/v1/underworld", "/api/v1/castle", "/api/v1/berserk/battles",
         "/api/v1/berserk/squads", "/api/v1/conflicts")
DETAILS = {"/api/v1/players": ("/api/v1/players/{}", "/api/v1/players/{}/events"),
           "/api/v1/duels": ("/api/v1/duels/{}",), "/api/v1/coup": ("/api/v1/coup/{}",),
           "/api/v1/underworld": ("/api/v1/underworld/{}",),
           "/api/v1/berserk/battles": ("/api/v1/berserk/battles/{}",),
           "/api/v1/berserk/squads": ("/api/v1/berserk/squads/{}",)}


_APP: list = []


def _shared_app(path: Path):
    """One app for every station of this process, built on the first one's file."""
    if not _APP:
        _APP.append(create_app({"DATABASE": str(path), "TESTING": True}))
    return _APP[0]


class Station:
    """One station: a database, the app serving it and a client holding an API token."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = store.init(path)
        self._app = None
        self._token = None

    @property
    def here(self) -> dict:
        return ledger.station(self.db)

    def app(self):
        """The process's one test app, pointed at this station's file (an app is built
        for its file alone, ~0.1 s each: the convergence property alone made 36)."""
        app = _shared_app(self.path)
        app.config.update(DATABASE=str(self.path),
                          SECRET_KEY=settings.get(self.db, "secret_key"))
        self._app = app
        return app

    def get(self, url: str):
        app = self.app()
        client = app.test_client()
        if self._token is None:
            app.extensions["referee.throttle"].reset()  # as a station's own app would be
            answer = client.post("/api/v1/token", json={"name": "ref", "password": "ref-password"})
            self._token = answer.get_json()["token"]
        return client.get(url, headers={"Authorization": f"Bearer {self._token}"})

    def answers(self) -> dict[str, bytes]:
        """Every state GET of /api/v1, byte for byte."""
        out: dict[str, bytes] = {}
        for url in LISTS:
            answer = self.get(url)
            assert answer.status_code == 200, (url, answer.get_data(as_text=True))
            out[url] = answer.get_data()
            for item in answer.get_json() if isinstance(answer.get_json(), list) else []:
                for pattern in DETAILS.get(url, ()):
                    detail = self.get(pattern.format(item["id"]))
                    out[pattern.format(item["id"])] = detail.get_data()
        return out

    def send_to(self, other: Station) -> merge.Report:
        return merge.receive(other.db, ledger.facts(self.db))

    def close(self) -> None:
        if self._app is not None:
            close_connections(self._app)
        self.db.close()


def founder(path: Path, n_players: int = 3) -> Station:
    """The organizer's station with referees 'ref' and 'org' and a few players."""
    station = Station(path)
    add_referee(station.db, "ref", "ref-password", False, by=None)
    add_referee(station.db, "org", "org-password", True, by=None)
    for i in range(n_players):
        players.create(station.db, None, {
            "character": f"Hero {i}", "player": f"P{i}", "hp_max": 3, "chance_max": 1,
            "cartridges": 2, "suit": "HDCS"[i % 4]})
    membership.found(station.db, "master")
    return station


def joiner(path: Path, organizer: Station, name: str) -> Station:
    """A new station admitted by the organizer's and given the whole event."""
    station = Station(path)
    here = membership.prepare(station.db, name)
    admitted = membership.admit(organizer.db, None, station_id=here["id"], name=name)
    boss = organizer.here
    membership.joined(station.db, number=admitted["number"], event=boss["event"],
                 event_key=boss["event_key"])
    organizer.send_to(station)
    return station


def rows(station: Station, sql: str, params=()) -> list[dict]:
    return [dict(r) for r in store.db.fetch(station.db, sql, params)]


def dump(answers: dict[str, bytes]) -> str:
    return json.dumps({k: v.decode() for k, v in answers.items()}, indent=1)
