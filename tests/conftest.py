"""Fixtures: app → client → signed-in client; a real waitress server for end-to-end tests."""

from __future__ import annotations

import fnmatch
import os
import shutil
import socket
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from itsdangerous import BadSignature

pytest_plugins = ["tests.browser_fixtures"]

# A cheap password hash instead of scrypt's half second a hash, for this process and the
# servers it starts (tests/accounts/test_service.py checks production still uses scrypt).
os.environ["REFEREE_FAST_HASH_FOR_TESTS"] = "1"

from referee import store
from referee.accounts.service import add_referee
from referee.app import create_app
from referee.players import service as player_service
from referee.store import settings as settings_store
from referee.web import throttle
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
def db_path(tmp_path, _template_db, _template_sign_ins):
    """A fresh database file with a referee and an organizer, both signed in once (a copy
    of the template)."""
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


def _csrf_in_cookie(client) -> str | None:
    """The CSRF token in the client's session cookie, read as the app signed it (a
    tenth of what opening a session transaction costs); None if it holds none."""
    app = client.application
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    serializer = app.session_interface.get_signing_serializer(app)
    if cookie is None or serializer is None:
        return None
    try:
        token = serializer.loads(cookie.value).get("csrf")
    except BadSignature:
        return None
    return token if isinstance(token, str) and token else None


def csrf_of(client) -> str:
    """The CSRF token of the client's session, as its cookie holds it; a session without
    one gets one by opening a page, as a browser would."""
    token = _csrf_in_cookie(client)
    if token:
        return token
    with client.session_transaction() as session:
        if session.get("csrf"):
            return session["csrf"]
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


def kept_sign_in(app, name: str, password: str) -> dict[str, str]:
    """Sign ``name`` in through the form on the app's database and keep the sign-in in
    its file: the cookies the form answered with then work in every copy of the file
    made from now on (the same session row, the same secret key)."""
    browser = sign_in(app.test_client(), name, password)
    cookies = {key: browser.get_cookie(key).value
               for key in ("session", throttle.KNOWN_COOKIE)}
    close_connections(app)
    db = store.connect(app.config["DATABASE"])
    busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    db.close()
    assert busy == 0, "the sign-in is not all in the file: copies of it would miss it"
    return cookies


def with_cookies(client, cookies: dict[str, str]):
    """The client holding these cookies, as a browser that signed in would."""
    for key, value in cookies.items():
        client.set_cookie(key, value)
    return client


@pytest.fixture(scope="session")
def _template_sign_ins(_template_db, _shared_app):
    """"ref" and "org" signed in once, through the login form, on the template database:
    every copy of it holds their two sessions, and a test's browser is handed the cookies
    the form answered with instead of signing in again (two requests, ~10 ms a test).
    The secret key they are signed with is the template's."""
    cookies = {name: kept_sign_in(_shared_app, name, f"{name}-password")
               for name in ("ref", "org")}
    return _shared_app.secret_key, cookies


def _signed_in_as(client, sign_ins, name: str):
    """The client signed in as ``name``: with the template's cookies where its database
    is a copy of the template (the same secret key), else through the form."""
    secret, cookies = sign_ins
    if client.application.secret_key != secret:
        return sign_in(client, name, f"{name}-password")
    return with_cookies(client, cookies[name])


@pytest.fixture
def referee(client, _template_sign_ins):
    """A signed-in referee's browser."""
    return _signed_in_as(client, _template_sign_ins, "ref")


@pytest.fixture
def organizer(client, _template_sign_ins):
    """A signed-in organizer's browser."""
    return _signed_in_as(client, _template_sign_ins, "org")


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


class _Gate:
    """Lets requests into the shared app only while a test holds the live server.

    The phone of a browser test is closed after the test's app is put back on the
    template database: a request it still sends (a poll, a countdown) then gets a 503
    instead of reaching some other test's file, and the test waits for the ones under
    way before its database goes.
    """

    def __init__(self, app):
        import threading

        self.app = app
        self.open = False
        self.running = 0
        self.idle = threading.Condition()

    def __call__(self, environ, start_response):
        with self.idle:
            if not self.open:
                start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
                return [b"no test is running"]
            self.running += 1
        try:
            # Read the whole body while the test's database is still the app's.
            body = self.app(environ, start_response)
            try:
                return list(body)
            finally:
                if hasattr(body, "close"):
                    body.close()  # Flask's teardown runs here
        finally:
            with self.idle:
                self.running -= 1
                self.idle.notify_all()

    def close(self) -> None:
        with self.idle:
            self.open = False
            self.idle.wait_for(lambda: self.running == 0, timeout=10)


@pytest.fixture(scope="session")
def _served(_shared_app):
    """Waitress serving the process's one app on a real socket, started once per process.

    A `referee serve` process for each test cost 2-4 s of start-up (the imports, the app,
    the socket); the browser tests spent more time waiting for it than playing. It serves
    whatever database the running test's `app` points at, with as many threads as
    `referee serve` gives; tests/test_cli.py starts the command itself.
    """
    import threading

    from waitress.server import create_server

    gate = _Gate(_shared_app)
    server = create_server(gate, host="127.0.0.1", port=0, threads=16, ident="referee")
    thread = threading.Thread(target=server.run, name="live-server", daemon=True)
    thread.start()
    yield gate, f"http://127.0.0.1:{server.effective_port}"
    stop_server(server, thread)


def stop_server(server, thread) -> None:
    """Stop a waitress server that runs in ``thread``. Its sockets are closed in its own
    loop: closed from here, one could vanish under the loop's select (EBADF in the
    server's thread). Then its worker threads end."""
    from waitress import wasyncore

    sockets = getattr(server, "map", None) or server._map
    server.trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
    thread.join(timeout=10)
    server.task_dispatcher.shutdown()


@pytest.fixture
def live_server(app, _served):
    """A real waitress server on the test database (this test's file), on a real socket."""
    gate, url = _served
    app.config["LAN_URL"] = url  # as `referee serve` sets it (put back after the test)
    gate.open = True
    yield url
    gate.close()


def pytest_configure(config):
    """Before the workers start: the package's bytecode and the test modules' rewritten
    asserts are made once here, instead of once in every worker."""
    if hasattr(config, "workerinput"):
        return
    if sys.dont_write_bytecode:
        _compile_the_package()
    if (config.getoption("numprocesses", None) or 0) > 1 \
            and config.getoption("assertmode") == "rewrite":
        _rewrite_the_test_modules(config)


def _compile_the_package() -> None:
    """Compile ``referee`` once (half a second). Installed packages come compiled, but
    ``referee`` is installed editable: where ``PYTHONDONTWRITEBYTECODE`` is set, every
    worker and every server a test starts (some thirty) would otherwise compile all of it
    from source again, ~0.4 s each."""
    import compileall

    compileall.compile_dir(Path(store.__file__).parents[1], quiet=2)


def _rewrite_the_test_modules(config) -> None:
    """Write pytest's cached pycs of the test modules, their asserts rewritten, one
    share of the files for each CPU (forked), before the workers start.

    Every worker imports every test module, and rewriting the asserts of all of them is
    most of a worker's start: ~6 CPU-s each, three times over. A worker reads a cached
    pyc even where ``PYTHONDONTWRITEBYTECODE`` keeps it from writing one, and checks it
    against the source's hash, so a stale pyc is never run. This uses pytest's own
    rewriting functions, which are not public: under a pytest without them, the
    workers rewrite the modules themselves, as before.
    """
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            get_cache_dir,
        )
    except ImportError:
        return
    root = Path(__file__).parent
    patterns = [*config.getini("python_files"), "conftest.py", "browser_fixtures.py"]
    files = [path for path in root.rglob("*.py")
             if any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns)]

    def pyc_of(path: Path) -> Path:
        return get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)

    stale = sorted((path for path in files if _read_pyc(path, pyc_of(path)) is None),
                   key=lambda path: path.stat().st_size, reverse=True)
    cpus = len(os.sched_getaffinity(0))
    shares = [stale[i::cpus] for i in range(cpus)]  # dealt out, the largest first
    quiet = types.SimpleNamespace(trace=lambda message: None)

    def write(share: list[Path]) -> None:
        for path in share:
            pyc = pyc_of(path)
            pyc.parent.mkdir(exist_ok=True)
            source_hash, code = _rewrite_test(path, config)
            _write_pyc(quiet, code, source_hash, pyc)

    children = []
    for share in shares[1:]:
        pid = os.fork()
        if pid == 0:  # the child writes its share and leaves at once, pytest untouched
            try:
                write(share)
            finally:
                os._exit(0)
        children.append(pid)
    write(shares[0])
    for pid in children:
        os.waitpid(pid, 0)


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker a CPU, and one more. The stations' tests spend most of
    their time waiting on Syncthing; meanwhile the other workers keep every CPU busy."""
    return len(os.sched_getaffinity(0)) + 1


def pytest_collection_modifyitems(config, items):
    """The tests that mostly wait on real Syncthing processes go first: the other
    worker's quick tests then fill in around them instead of trailing after them."""
    items.sort(key=lambda item: 0 if "stations/test_syncthing" in item.nodeid else 1)
