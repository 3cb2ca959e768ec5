"""Per-request helpers: the database connection, the signed-in referee, the public URL."""

from __future__ import annotations

import functools
import ipaddress
import threading
import weakref
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, request, session
from sqlite_utils import Database
from werkzeug.sansio.utils import get_current_url

from referee import store
from referee.store import referees, settings

EXTENSION = "referee.connections"


class Connections:
    """One app's connections: one per server thread and database file, reused.

    Server threads live for the whole run, so each keeps one connection instead of
    opening a file and setting pragmas on every tap. The cache belongs to the app, not
    to the thread: whatever it opened is closed by ``close()``, or when the app itself
    is garbage-collected, so apps that come and go (tests, the CLI) leave no open files.
    """

    def __init__(self) -> None:
        self._local = threading.local()
        self._opened: weakref.WeakSet[Database] = weakref.WeakSet()
        self._guard = threading.Lock()

    def get(self, path: str) -> Database:
        """This thread's connection to ``path``, opened on first use."""
        cache = getattr(self._local, "by_path", None)
        if cache is None:
            cache = self._local.by_path = {}
        db = cache.get(path)
        if db is None:
            db = cache[path] = store.connect(path)
            with self._guard:
                # Weak: a connection of a thread that ended is closed when its cache goes.
                self._opened.add(db)
        return db

    def close(self) -> None:
        """Close every connection opened so far; later requests open fresh ones."""
        with self._guard:
            self._local = threading.local()
            opened, self._opened = list(self._opened), weakref.WeakSet()
        for db in opened:
            db.close()


def init_app(app: Flask) -> None:
    """Give the app its connection cache, closed when the app is garbage-collected."""
    connections = app.extensions[EXTENSION] = Connections()
    # The finalizer holds the cache, never the app, so the app can still be collected.
    weakref.finalize(app, connections.close)


def close_connections(app: Flask) -> None:
    """Close the app's cached connections now (tests and the CLI, when done with it)."""
    connections = app.extensions.get(EXTENSION)
    if connections is not None:
        connections.close()


def get_db() -> Database:
    """This thread's connection to the app's database, opened once and reused.

    A request never leaves a transaction open: store.write() commits or rolls back.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # one lookup
    return app.extensions[EXTENSION].get(app.config["DATABASE"])


def current_referee() -> dict | None:
    """The signed-in, still active referee of this request, or None."""
    if "referee" not in g:
        g.referee = None
        sid = session.get("sid")
        if isinstance(sid, str):
            # Signed out, a reset password or a switched-off account ends the session.
            g.referee = referees.by_session(get_db(), sid)
    return g.referee


def signed_in() -> dict:
    """The signed-in referee of a request that ``referee_required`` has let in."""
    referee = current_referee()
    if referee is None:
        raise RuntimeError("no referee is signed in on this request")
    return referee


def is_loopback(url: str) -> bool:
    """Whether a URL names this machine only (localhost, 127.x, ::1): no phone reaches it."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_base() -> str:
    """Where phones reach this server: the setting, the --public-url flag, else this host.

    An organizer who opens the app on the laptop itself (http://localhost:8080) would
    otherwise print passports whose QR codes lead nowhere; then the address on the
    local network that ``referee serve`` found (``LAN_URL``) is used instead.
    """
    # from memory while no setting changed (an API call read the tally with its token)
    configured = (settings.get_cached(get_db(), "public_url", g.get("config_tally"))
                  or current_app.config.get("PUBLIC_URL"))
    if configured:
        return configured.rstrip("/")
    here = _host_url(request.scheme, request.host)
    lan = current_app.config.get("LAN_URL")
    if lan and is_loopback(here) and not is_loopback(lan):
        return lan.rstrip("/")
    return here.rstrip("/")


@functools.lru_cache(maxsize=64)
def _host_url(scheme: str, host: str) -> str:
    """``request.host_url``, worked out once for each host a phone names (on
    every tap, for its passport URL, it was a twentieth of the tap's time)."""
    return get_current_url(scheme, host)


Found = TypeVar("Found")


def found_or_404(load: Callable[[Database, int], Found | None], item_id: int) -> Found:
    """What ``load`` finds by id in this request's database (a duel, a game), or a 404."""
    item = load(get_db(), item_id)
    if item is None:
        abort(404)
    return item
