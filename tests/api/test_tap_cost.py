"""A tap reads and writes what it must and no more, with the same answers."""

from __future__ import annotations

import pytest

from referee.store import referees
from referee.web.context import EXTENSION

REF_ID = 1


@pytest.fixture
def bearer(db):
    return {"Authorization": f"Bearer {referees.issue_token(db, REF_ID)}"}


def statements_of(app, client, url, body, headers) -> tuple[list[str], object]:
    """The SQL statements a call runs on the server's connection (triggers left out)."""
    client.post(url, json=body, headers=headers)  # the thread's connection opened
    seen: list[str] = []
    connections = list(app.extensions[EXTENSION]._opened)
    for db in connections:
        db.conn.set_trace_callback(seen.append)
    try:
        answer = client.post(url, json=body, headers=headers)
    finally:
        for db in connections:
            db.conn.set_trace_callback(None)
    top = [s for n, s in enumerate(seen) if n == 0 or s != seen[n - 1]]  # a trigger's echo
    return top, answer


def test_a_tap_takes_seven_statements(app, client, db, player, bearer):
    """Was 10: the token's join, the player read twice, max(id), the public URL."""
    url = f"/api/v1/players/{player['id']}/adjust"
    sql, answer = statements_of(app, client, url, {"cartridges": 1}, bearer)
    assert answer.status_code == 200 and answer.get_json()["cartridges"] == \
        player["cartridges"] + 2
    assert len(sql) == 7, sql
    assert sum(s.startswith("SELECT * FROM players") for s in sql) == 1


def test_events_are_numbered_and_ordered_as_before(client, db, player, bearer):
    for delta in (1, -1, 1):
        assert client.post(f"/api/v1/players/{player['id']}/adjust", headers=bearer,
                           json={"cartridges": delta}).status_code == 200
    rows = db.execute("SELECT id, ord FROM events ORDER BY id").fetchall()
    ids = [r[0] for r in rows]
    assert ids == list(range(1, len(ids) + 1))
    assert all(o == f"0|{i:012d}" for i, o in rows)


@pytest.mark.parametrize("path, body", [
    ("adjust", {"cartridges": 1}), ("adjust", {}), ("adjust", {"hp": "many"}),
    ("adjust", "not json"), ("set", {"hp": 1}), ("heal", None), ("kill", None),
    ("adjust", {"hp": "\ud800"}),
])
def test_an_unknown_player_is_404_whatever_the_body(client, bearer, path, body):
    """Read late (load_late), the player still answers 404 first, as when read up front."""
    answer = client.post(f"/api/v1/players/999/{path}", headers=bearer, json=body)
    assert answer.status_code == 404
