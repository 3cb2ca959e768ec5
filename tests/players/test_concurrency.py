"""Many referees at once against the real WSGI server: nothing lost, nothing doubled."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor


def call(base, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read())


def test_200_concurrent_cartridge_taps_from_16_clients_add_exactly_200(live_server, db, player):
    _, body = call(live_server, "POST", "/api/v1/token",
                   {"name": "ref", "password": "ref-password"})
    token = body["token"]
    path = f"/api/v1/players/{player['id']}/adjust"

    def tap(_):
        return call(live_server, "POST", path, {"cartridges": 1}, token)[0]

    with ThreadPoolExecutor(max_workers=16) as pool:
        statuses = list(pool.map(tap, range(200)))

    assert statuses == [200] * 200
    assert db["players"].get(player["id"])["cartridges"] == 3 + 200
    taps = db.execute("SELECT count(*) FROM events WHERE kind='adjust' AND player_id=?",
                      [player["id"]]).fetchone()[0]
    assert taps == 200


def test_racing_undos_of_one_event_give_one_200_and_the_rest_409(live_server, db, player):
    _, body = call(live_server, "POST", "/api/v1/token",
                   {"name": "ref", "password": "ref-password"})
    token = body["token"]
    call(live_server, "POST", f"/api/v1/players/{player['id']}/adjust", {"hp": -1}, token)
    _, history = call(live_server, "GET", f"/api/v1/players/{player['id']}/events", None, token)
    path = f"/api/v1/events/{history[0]['id']}/undo"

    def undo(_):
        try:
            return call(live_server, "POST", path, {}, token)[0]
        except urllib.error.HTTPError as err:
            return err.code

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(undo, range(8)))

    assert statuses == [200] + [409] * 7
    assert db["players"].get(player["id"])["hp"] == 3
    assert db.execute("SELECT count(*) FROM events WHERE kind='undo'").fetchone()[0] == 1
