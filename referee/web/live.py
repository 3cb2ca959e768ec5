"""Screens that stay true while open: a cheap question, asked every few seconds.

A screen left open on a phone (a sheet, a passport page, the players list, the feed, a
game) names what it shows by a mark (an ETag): the player's row version, the count of
every event and game step, a game's version. static/live.js asks ``/live/…`` with
``If-None-Match``; while nothing changed the answer is a bodiless 304, one indexed read
and no template. When something changed it says who did it and when, and the screen
fetches itself again.

Why polling and not server-sent events: the server is waitress with a fixed pool of
threads (16), and an event stream holds a thread for as long as the screen is open, so
a hundred open phones would leave no thread for a tap. A 304 holds one for a fraction
of a millisecond (benchmarks/bench_live.py measures 100 idle screens).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from markupsafe import Markup, escape

from referee.games import registry
from referee.players.passport import passport_row
from referee.store.db import fetch
from referee.store.sql import fetch_one
from referee.web.context import current_referee, get_db

bp = Blueprint("live", __name__)

INTERVAL_MS = 2500  # how often an open screen asks: a change shows within 5 s


def _player_mark(player_id: int) -> str | None:
    rows = fetch(get_db(), "SELECT version, status, (SELECT count(*) FROM conflicts c WHERE "
                           "c.player_id = p.id AND c.status = 'held') AS held "
                           "FROM players p WHERE p.id = ?", [player_id])
    if not rows:
        return None
    row = rows[0]
    return f"p{player_id}.{row['version']}.{row['status']}.{row['held']}"


def event_mark() -> str:
    """The mark of everything recorded: every event and every game step."""
    db = get_db()
    events = db.execute("SELECT n FROM tallies WHERE name = 'events'").fetchone()
    steps = db.execute("SELECT max(id) FROM game_actions").fetchone()
    return f"e{events[0] if events else 0}.{steps[0] or 0}"


def _game_mark(kind: str, number: int) -> str | None:
    rows = fetch(get_db(), "SELECT version, status FROM games WHERE kind = ? AND number = ?",
                 [kind, number])
    if not rows:
        return None
    return f"g{kind}.{number}.{rows[0]['version']}.{rows[0]['status']}"


def _latest_event(player_id: int | None) -> dict | None:
    condition = "WHERE e.player_id = ?" if player_id is not None else ""
    return fetch_one(get_db(), "SELECT e.at, e.referee_id, r.name AS referee FROM events e "
                               "LEFT JOIN referees "
                               f"r ON r.id = e.referee_id {condition} ORDER BY e.id DESC LIMIT 1",
                     [player_id] if player_id is not None else [])


def _latest_step(kind: str, number: int) -> dict | None:
    return fetch_one(get_db(), "SELECT a.at, a.referee_id, r.name AS referee FROM game_actions a "
                               "JOIN games g "
                               "ON g.id = a.game_id LEFT JOIN referees r ON r.id = a.referee_id "
                               "WHERE g.kind = ? AND g.number = ? ORDER BY a.seq DESC LIMIT 1",
                     [kind, number])


def _answer(mark: str | None, latest: Callable[[], dict | None]) -> Response:
    """304 while the screen's mark is the same; else the new mark and who changed it."""
    if mark is None:
        abort(404)
    etag = f'"{mark}"'
    if request.headers.get("If-None-Match") == etag:
        response = Response(status=304)
    else:
        change = latest() or {}
        me = current_referee()
        mine = me is not None and change.get("referee_id") == me["id"]
        response = jsonify({"etag": etag, "by": change.get("referee"), "at": change.get("at"),
                            "mine": mine})
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


def _signed_in() -> None:
    if current_referee() is None:
        abort(401)


@bp.get("/live/players/<int:player_id>")
def player(player_id: int):
    """Has this player's sheet changed?"""
    _signed_in()
    return _answer(_player_mark(player_id), lambda: _latest_event(player_id))


@bp.get("/live/events")
def everything():
    """Has anything been recorded (the players list, the feed, the game lists)?"""
    _signed_in()
    return _answer(event_mark(), lambda: _latest_event(None))


@bp.get("/live/games/<kind>/<int:number>")
def game(kind: str, number: int):
    """Has this game moved on?"""
    _signed_in()
    if kind not in registry.kinds():
        abort(404)
    return _answer(_game_mark(kind, number), lambda: _latest_step(kind, number))


@bp.get("/p/<token>/live")
def passport(token: str):
    """Has the passport's sheet changed? (the player's own page, no sign-in)"""
    row = passport_row(token)
    # A player's own page says when, never which referee
    return _answer(_player_mark(row["id"]),
                   lambda: {"at": (_latest_event(row["id"]) or {}).get("at")})


def live_attrs(scope: str, *args: Any) -> Markup:
    """The attributes a screen's root carries to stay true: where to ask and its mark.

    ``scope``: "player" (an id), "passport" (a token), "events", or "game" (kind, number).
    """
    if scope == "player":
        url, mark = url_for("live.player", player_id=args[0]), _player_mark(args[0])
    elif scope == "passport":
        row = passport_row(str(args[0]))
        url, mark = url_for("live.passport", token=args[0]), _player_mark(row["id"])
    elif scope == "game":
        url = url_for("live.game", kind=args[0], number=args[1])
        mark = _game_mark(str(args[0]), int(args[1]))
    else:
        url, mark = url_for("live.everything"), event_mark()
    etag = f'"{mark}"' if mark else ""
    return Markup(f'data-live="{escape(url)}" data-live-etag="{escape(etag)}" '
                  f'data-live-every="{INTERVAL_MS}"')


def init_app(app) -> None:
    """Give templates ``live_attrs``."""
    app.jinja_env.globals["live_attrs"] = live_attrs
