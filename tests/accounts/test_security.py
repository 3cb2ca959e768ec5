"""Every write needs a referee and a CSRF token; passports need their secret token."""

from __future__ import annotations

import re

import pytest

from referee.players import service
from tests.conftest import post, sign_in

WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def write_routes(app):
    """Every (method, concrete URL) of the app that changes state."""
    routes = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) & WRITE_METHODS):
            url = re.sub(r"<(?:[^:>]+:)?[^>]+>", "1", rule.rule)
            routes.append((method, url, rule.endpoint))
    return routes


def snapshot(db):
    return (db.execute("SELECT count(*) FROM events").fetchone()[0],
            list(db.execute("SELECT * FROM players").fetchall()),
            list(db.execute("SELECT * FROM referees").fetchall()),
            list(db.execute("SELECT * FROM settings").fetchall()))


def test_the_url_map_has_write_routes(app):
    endpoints = {endpoint for _m, _u, endpoint in write_routes(app)}
    assert {"players.adjust", "events.undo", "api.adjust", "api.create_player"} <= endpoints


def test_every_write_refuses_anonymous_and_csrf_less_requests(app, db, player):
    # Player 1 exists, so a refusal is not just a 404 for a missing row.
    before = snapshot(db)
    anonymous = app.test_client()
    signed_in = sign_in(app.test_client())
    for method, url, endpoint in write_routes(app):
        form = {"hp": "-1", "name": "ref", "password": "ref-password", "character": "X",
                "hp_max": "3", "chance_max": "1", "cartridges": "1", "suit": "H",
                "action": "add"}
        # Anonymous, with no token at all.
        response = anonymous.open(url, method=method, data=form)
        assert 400 <= response.status_code < 500, (endpoint, response.status_code)
        # Signed in (session cookie), but no CSRF token.
        response = signed_in.open(url, method=method, data=form)
        assert response.status_code in (400, 401, 403), (endpoint, response.status_code)
        # Anonymous API calls, JSON body, no bearer token.
        response = anonymous.open(url, method=method, json={"hp": -1})
        assert 400 <= response.status_code < 500, (endpoint, response.status_code)
    assert snapshot(db) == before


def test_login_needs_the_csrf_token_too(client):
    response = client.post("/login", data={"name": "ref", "password": "ref-password"})
    assert response.status_code == 400
    assert "This screen has expired" in response.get_data(as_text=True)


def test_htmx_sends_the_token_as_a_header(referee, db, player):
    from tests.conftest import csrf_of
    token = csrf_of(referee)
    response = referee.post(f"/players/{player['id']}/adjust", data={"hp": "-1"},
                            headers={"X-CSRF-Token": token, "HX-Request": "true"})
    assert response.status_code == 200
    assert db["players"].get(player["id"])["hp"] == 2


def test_security_headers(client):
    response = client.get("/login")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_pages_load_nothing_from_the_internet(client, referee):
    html = referee.get("/").get_data(as_text=True)
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "/static/vendor/htmx-2.0.11.min.js" in html
    assert "<script>" not in html and " style=" not in html  # the CSP would block them


def test_passport_shows_the_sheet_read_only_to_anyone(client, db, player):
    html = client.get(f"/p/{player['passport_token']}").get_data(as_text=True)
    assert "Captain A" in html
    assert "/adjust" not in html and "csrf_token" not in html.split("<main")[1]
    assert "6♥" in html and "A♥" in html


def test_passport_gives_a_referee_the_editable_view(referee, player):
    html = referee.get(f"/p/{player['passport_token']}").get_data(as_text=True)
    assert f"/players/{player['id']}/adjust" in html


@pytest.mark.parametrize("token", ["1", "x" * 30, "../../etc/passwd"])
def test_unknown_passport_tokens_are_not_found(client, player, token):
    assert client.get(f"/p/{token}").status_code == 404


def test_reissued_passport_old_url_is_404(client, db, player):
    old = player["passport_token"]
    new = service.reissue(db, 1, player["id"])["passport_token"]
    assert client.get(f"/p/{old}").status_code == 404
    assert client.get(f"/p/{old}/qr.svg").status_code == 404
    assert client.get(f"/p/{new}").status_code == 200


def test_reissue_through_the_sheet(referee, db, player):
    response = post(referee, f"/players/{player['id']}/reissue")
    assert response.status_code == 303
    assert db["players"].get(player["id"])["passport_token"] != player["passport_token"]


def test_qr_svg_encodes_the_public_url(client, db, player):
    db["settings"].upsert({"key": "public_url", "value": "http://192.168.7.7:8080/"}, pk="key")
    response = client.get(f"/p/{player['passport_token']}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).lstrip().startswith("<?xml")
    from referee.players.passport import qr_svg
    expected = qr_svg(f"http://192.168.7.7:8080/p/{player['passport_token']}")
    assert response.get_data() == expected
    assert response.headers["Cache-Control"] == "no-store"


def test_passport_tokens_are_long_and_random(db):
    tokens = {service.create(db, None, {"character": f"P{i}", "hp_max": 1, "chance_max": 0,
                                        "cartridges": 0, "suit": "S"})["passport_token"]
              for i in range(50)}
    assert len(tokens) == 50
    assert all(len(t) * 6 >= 128 for t in tokens)
