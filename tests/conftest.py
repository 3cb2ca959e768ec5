"""Fixtures: app → client → signed-in client; a real waitress server for end-to-end tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

pytest_plugins = ["tests.browser_fixtures"]

# A cheap password hash instead of scrypt's half second a hash, for this process and the
# servers it starts (tests/accounts/test_service.py checks production still uses scrypt).
os.environ["REFEREE_FAST_HASH_FOR_TESTS"] = "1"

from referee import store
from referee.accounts.service import add_referee
from referee.app import create_app
from referee.players import service as player_service
from referee.store import settings as settings_store
from referee.web.context import close_connections


@pytest.fixture(scope="session")
def _template_db(tmp_path_factory):
    """A migrated database with a referee and an organizer, made once per test process."""
    path = tmp_path_factory.mktemp("template") / "referee.db"
    db = store.init(path)
    add_referee(db, "ref", "ref-password", False, by=None)
    add_referee(db, "org", "org-password", True, by=None)
    db.close()  # the last connection checkpoints the WAL: the file alone is complete
    return path


@pytest.fixture
def db_path(tmp_path, _template_db):
    """A fresh database file with a referee and an organizer (a copy of the template)."""
    path = tmp_path / "referee.db"
    shutil.copyfile(_template_db, path)
    return path


@pytest.fixture(scope="session")
def _shared_app(_template_db):
    """One app per test process: building one (~110 routes to compile) costs ~0.2 s."""
    # Refused sign-ins are answered at once here (a test of the delay sets its own).
    return create_app({"DATABASE": str(_template_db), "TESTING": True,
                       "SIGN_IN_DELAY_MAX": 0})


@pytest.fixture
def app(_shared_app, db_path):
    """The app on the fresh database, as create_app makes it for that file.

    The process's one app is pointed at this test's file and gets its secret key; what
    a test changes in the config is put back and its connections are closed after it.
    """
    app = _shared_app
    saved = dict(app.config)
    db = store.connect(db_path)
    secret = settings_store.get(db, "secret_key")
    db.close()
    app.config.update(DATABASE=str(db_path), SECRET_KEY=secret)
    app.extensions["referee.throttle"].reset()  # no failed sign-ins left from another test
    yield app
    close_connections(app)
    app.config.clear()
    app.config.update(saved)


@pytest.fixture
def db(app):
    """A connection to the app's database, for arranging and asserting."""
    conn = store.connect(app.config["DATABASE"])
    yield conn
    conn.close()


@pytest.fixture
def client(app):
    """An anonymous browser, English by default."""
    c = app.test_client()
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return c


def csrf_of(client) -> str:
    """The CSRF token of the client's session (made by opening any page)."""
    client.get("/login")
    with client.session_transaction() as session:
        return session["csrf"]


def sign_in(client, name="ref", password="ref-password"):
    """Sign the client in through the login form."""
    token = csrf_of(client)
    response = client.post("/login", data={"name": name, "password": password,
                                           "csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)
    return client


@pytest.fixture
def referee(client):
    """A signed-in referee's browser."""
    return sign_in(client)


@pytest.fixture
def organizer(client):
    """A signed-in organizer's browser."""
    return sign_in(client, "org", "org-password")


@pytest.fixture
def player(db):
    """Player A of duel.md's worked examples: HP 3/3, chance 2/2, 3 cartridges, ♥."""
    return player_service.create(db, None, {
        "character": "Captain A", "player": "Anna", "hp_max": 3, "chance_max": 2,
        "cartridges": 3, "suit": "H"})


def post(client, url, data=None, htmx=False, **kwargs):
    """A form POST with the session's CSRF token, as the page would send it."""
    data = dict(data or {})
    data.setdefault("csrf_token", csrf_of(client))
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url, data=data, headers=headers, **kwargs)


@pytest.fixture
def token(client):
    """A bearer token for the API, as the referee 'ref'."""
    response = client.post("/api/v1/token", json={"name": "ref", "password": "ref-password"})
    return response.get_json()["token"]


@pytest.fixture
def api(client, token):
    """Call the API with the bearer token: api("post", "/api/v1/...", json=...)."""

    def call(method, url, **kwargs):
        headers = {"Authorization": f"Bearer {token}", **kwargs.pop("headers", {})}
        return getattr(client, method)(url, headers=headers, **kwargs)

    return call


_HANDED_OUT: set[int] = set()


def free_port() -> int:
    """A port nobody listens on right now, and never one this process handed out before:
    the system may offer a port again once it is closed, and a station's web server and
    another station's Syncthing then fought over it."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _HANDED_OUT:
            _HANDED_OUT.add(port)
            return port


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 20) -> None:
    """Block until the server accepts connections (or fail with its output)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {process.stdout.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


@pytest.fixture
def live_server(app):
    """`referee serve` (waitress) on the test database, on a real socket."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--db", app.config["DATABASE"],
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def pytest_collection_modifyitems(config, items):
    """The tests that mostly wait on real Syncthing processes go first: the other
    worker's quick tests then fill in around them instead of trailing after them."""
    items.sort(key=lambda item: 0 if "stations/test_syncthing" in item.nodeid else 1)
