"""Light on the wire: answers compressed when asked, static files fingerprinted
and kept a year, and a tap's answer small."""

from __future__ import annotations

import gzip
import hashlib
import os
import re

import pytest
from flask import Response

from referee.assets import folder
from referee.players import service
from referee.web import wire
from tests.conftest import post

STATIC_URL = re.compile(r'(?:href|src)="(/static/([^"?]+)(?:\?v=([0-9a-f]+))?)"')


def fingerprint_of(filename: str) -> str:
    return hashlib.sha256((folder("static") / filename).read_bytes()).hexdigest()[:12]


@pytest.mark.parametrize(("accept", "zipped"), [
    ("gzip", True),
    ("gzip, deflate, br, zstd", True),  # what Chromium sends
    ("*", True),
    ("identity", False),
    ("gzip;q=0, identity", False),
    (None, False),
])
def test_a_page_is_gzipped_when_the_client_asks(client, accept, zipped):
    plain = client.get("/login")
    response = client.get("/login", headers={"Accept-Encoding": accept} if accept else {})
    assert response.status_code == 200
    assert "Accept-Encoding" in response.headers["Vary"]
    assert (response.headers.get("Content-Encoding") == "gzip") is zipped
    body = gzip.decompress(response.data) if zipped else response.data
    assert body == plain.data
    assert int(response.headers["Content-Length"]) == len(response.data)


def test_the_api_is_compressed_transparently(client, api):
    plain = api("get", "/api/v1/players")
    zipped = api("get", "/api/v1/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.status_code == 200 and zipped.mimetype == "application/json"
    assert gzip.decompress(zipped.data) == client.get("/api/v1/openapi.json").data
    refused = api("get", "/api/v1/players/999999", headers={"Accept-Encoding": "gzip"})
    # A short error is sent as it is: same status, same body as without the header.
    assert refused.status_code == api("get", "/api/v1/players/999999").status_code == 404
    assert "Content-Encoding" not in refused.headers
    assert plain.status_code == 200


def test_a_pdf_is_never_compressed(organizer):
    response = organizer.get("/print/deck.pdf?name=coup", headers={"Accept-Encoding": "gzip"})
    assert response.mimetype == "application/pdf"
    assert "Content-Encoding" not in response.headers
    assert response.data.startswith(b"%PDF")


@pytest.mark.parametrize(("make", "why"), [
    (lambda: Response(iter([b"x" * 4096]), mimetype="text/html"), "streamed"),
    (lambda: Response(b"x" * 4096, mimetype="text/html", direct_passthrough=True),
     "passed through"),
    (lambda: Response(b"x" * 4096, status=206, mimetype="text/html",
                      headers={"Content-Range": "bytes 0-4095/9000"}), "a range"),
    (lambda: Response(b"x" * 4096, mimetype="image/png"), "compressed already"),
    (lambda: Response(b"x" * 100, mimetype="text/html"), "too small to gain"),
    (lambda: Response(b"x" * 4096, mimetype="text/html",
                      headers={"Cache-Control": "no-transform"}), "no-transform"),
])
def test_what_is_left_as_it_is(app, make, why):
    with app.test_request_context(headers={"Accept-Encoding": "gzip"}):
        response = wire.compress(make())
    assert "Content-Encoding" not in response.headers, why


def test_a_strong_etag_becomes_weak_when_the_body_is_gzipped(app):
    with app.test_request_context(headers={"Accept-Encoding": "gzip"}):
        response = Response(b"<p>x</p>" * 200, mimetype="text/html")
        response.set_etag("v7")
        response = wire.compress(response)
    assert response.headers["ETag"] == 'W/"v7"'
    assert gzip.decompress(response.data) == b"<p>x</p>" * 200


def test_every_static_url_in_a_page_is_fingerprinted_and_kept_a_year(referee, db, player):
    page = referee.get(f"/players/{player['id']}")
    assert page.headers["Cache-Control"] == "no-store"  # a signed-in page is never kept
    found = STATIC_URL.findall(page.get_data(as_text=True))
    names = {name for _, name, _ in found}
    assert {"app.css", "app.js", "icon.svg", "manifest.webmanifest"} <= names
    assert any(name.startswith("vendor/htmx-") for name in names)
    for url, name, digest in found:
        assert digest == fingerprint_of(name), url
        response = referee.get(url)  # signed in: security's no-store must not reach it
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.data == (folder("static") / name).read_bytes()


def test_static_files_are_gzipped_with_their_own_etag(client):
    url = f"/static/app.css?v={fingerprint_of('app.css')}"
    plain = client.get(url)
    zipped = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 3
    assert zipped.headers["ETag"] != plain.headers["ETag"]
    again = client.get(url, headers={"Accept-Encoding": "gzip",
                                     "If-None-Match": zipped.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"].endswith("immutable")


@pytest.mark.parametrize("url", ["/static/app.css", "/static/app.css?v=000000000000"])
def test_a_url_without_todays_fingerprint_revalidates(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    again = client.get(url, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_ranges_and_missing_files(client):
    part = client.get("/static/app.css", headers={"Range": "bytes=0-9"})
    assert part.status_code == 206
    assert part.data == (folder("static") / "app.css").read_bytes()[:10]
    assert client.get("/static/nope.css").status_code == 404
    assert client.get("/static/../referee/app.py").status_code == 404


def test_a_changed_file_gets_a_new_fingerprint(tmp_path):
    assets = wire.Assets(str(tmp_path))
    path = tmp_path / "app.css"
    path.write_bytes(b"body { color: red }")
    first = assets.fingerprint("app.css")
    assert first == hashlib.sha256(b"body { color: red }").hexdigest()[:12]
    assert assets.fingerprint("app.css") == first  # kept while the file stays as it is
    path.write_bytes(b"body { color: tan }")  # the same size: the time tells it changed
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert assets.fingerprint("app.css") == hashlib.sha256(b"body { color: tan }").hexdigest()[:12]
    assert assets.fingerprint("missing.css") is None


def test_apps_share_what_they_read_and_folders_stay_apart(tmp_path):
    one, other = tmp_path / "one", tmp_path / "other"
    one.mkdir()
    other.mkdir()
    for place, colour in ((one, b"red"), (other, b"tan")):  # same size, same time
        (place / "app.css").write_bytes(b"body { color: %s }" % colour)
        os.utime(place / "app.css", ns=(1_700_000_000_000_000_000,) * 2)
    first, second = wire.Assets(str(one)), wire.Assets(str(one))
    assert second.get("app.css") is first.get("app.css")  # read and hashed once
    assert wire.Assets(str(other)).fingerprint("app.css") == \
        hashlib.sha256(b"body { color: tan }").hexdigest()[:12]
    assert first.fingerprint("app.css") == hashlib.sha256(b"body { color: red }").hexdigest()[:12]


def test_a_tap_is_under_2_kb_gzipped_with_a_long_history(referee, db, player):
    for n in range(50):
        service.adjust(db, 1, player["id"], {"cartridges": 1 if n % 2 else -1},
                       "patrol at the bridge")
    page = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    seen = re.search(r'name="seen" value="(\d+)"', page).group(1)
    referee.environ_base["HTTP_ACCEPT_ENCODING"] = "gzip"
    response = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1", "seen": seen},
                    htmx=True)
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert len(response.data) <= 2048
    html = gzip.decompress(response.data).decode()
    assert html.count('<li class="event') == 1  # the new row, not the fifty


def test_static_files_and_fragments_leave_the_session_cookie_alone(referee, player):
    page = referee.get(f"/players/{player['id']}")
    assert "session=" in page.headers["Set-Cookie"]  # a page load slides the expiry
    static = referee.get(f"/static/app.css?v={fingerprint_of('app.css')}")
    # A cookie signed anew each second, and Vary: Cookie, would void the cached copy.
    assert "Set-Cookie" not in static.headers
    assert "Cookie" not in static.headers.get("Vary", "")
    tap = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1"}, htmx=True)
    assert tap.status_code == 200 and "Set-Cookie" not in tap.headers
    assert referee.get(f"/players/{player['id']}").status_code == 200  # still signed in
