"""The station this app runs beside, if any: for the screens and the API alike."""

from __future__ import annotations

from flask import current_app

from referee.stations.runtime import Link, Runtime

EXTENSION = "referee.station"  # where init_app keeps it in app.extensions


def runtime() -> Runtime | None:
    """The running station of this app, or None (a single database, the default)."""
    return current_app.extensions.get(EXTENSION)


def link() -> Link | None:
    """The link's state for the top bar, from memory (no query per page)."""
    station = runtime()
    return station.status() if station is not None else None
