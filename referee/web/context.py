"""Per-request helpers: the database connection, the signed-in referee, the public URL."""

from __future__ import annotations

from flask import current_app, g, request, session
from sqlite_utils import Database

from referee import store
from referee.store import referees, settings


def get_db() -> Database:
    """This request's connection, opened on first use and closed at teardown."""
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"])
    return g.db


def current_referee() -> dict | None:
    """The signed-in, still active referee of this request, or None."""
    if "referee" not in g:
        g.referee = None
        rid = session.get("referee_id")
        if rid is not None:
            row = referees.get(get_db(), rid)
            # A deactivated account or a changed password ends old sessions.
            if row and row["active"] and session.get("pw") == row["password_hash"][-16:]:
                g.referee = row
    return g.referee


def public_base() -> str:
    """Where phones reach this server: the setting, the --public-url flag, else this host."""
    configured = settings.get(get_db(), "public_url") or current_app.config.get("PUBLIC_URL")
    return (configured or request.host_url).rstrip("/")
