"""The pocket referee in the browser: the service worker, the offline shell, the copy of
the event a phone keeps, and the taps it sends when back in reach (players.pocket)."""

from __future__ import annotations

from pathlib import Path

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from referee.api import games
from referee.players import pocket
from referee.web.context import current_referee, get_db
from referee.web.live import event_mark
from referee.web.security import referee_required

bp = Blueprint("pocket", __name__)

# The screen of each game kind, to keep a copy of the games in progress on the phone.
GAME_SCREENS = {"duel": ("duels.show", "duel_id"), "coup": ("coup.show", "game_id"),
                "underworld": ("underworld.show", "game_id"),
                "berserk": ("berserk.show", "game_id")}
GAMES_KEPT = 30  # the games in progress a phone keeps, the latest moved first


def _games() -> list[list]:
    """The games in progress: where their screen is and their version, so the phone
    fetches again only the screens that moved (static/offline.js keeps them)."""
    kept = []
    for row in pocket.running_games(get_db(), GAMES_KEPT):
        endpoint, arg = GAME_SCREENS.get(row["kind"], (None, None))
        if endpoint is not None and arg is not None:
            kept.append([url_for(endpoint, **{arg: row["number"]}), row["version"],
                         games.name_of(row["kind"], row["number"])])
    return kept


# What the service worker keeps from its first visit on: the shell the phone shows out of
# reach, and the static files every page uses (by their fingerprinted addresses).
SHELL_FILES = ("app.css", "app.js", "live.js", "offline.js", "icon.svg",
               "vendor/htmx-2.0.11.min.js")


def _unauthorized():
    return jsonify({"error": gettext("Sign in again to send the changes kept on this "
                                     "phone.")}), 401


@bp.get("/sw.js")
def service_worker():
    """The service worker, at the root so that it may serve every page of the site."""
    code = (Path(current_app.static_folder) / "sw.js").read_text("utf-8")
    shell = [url_for("pocket.shell")] + [url_for("static", filename=f) for f in SHELL_FILES]
    version = "-".join(u.rsplit("=", 1)[-1] for u in shell[1:])
    code = code.replace("__SHELL__", repr(shell).replace("'", '"')).replace(
        "__VERSION__", version)
    response = Response(code, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # a new version is found at once
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
@referee_required
def shell():
    """What a phone shows out of reach: the list, a sheet or a game, drawn by offline.js
    from the copy it keeps."""
    return render_template("players/offline.html")


@bp.get("/offline/data.json")
def data():
    """The copy of the event a phone keeps; 304 while nothing changed."""
    referee = current_referee()
    if referee is None:
        return _unauthorized()
    etag = f'"{event_mark()}.r{referee["id"]}"'
    if request.headers.get("If-None-Match") == etag:
        response = Response(status=304)
    else:
        response = jsonify({**pocket.snapshot(get_db()), "games": _games(),
                            "at": pocket.now_iso(),
                            "referee": {"id": referee["id"], "name": referee["name"]}})
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/offline/taps")
def taps():
    """The taps a phone kept out of reach, each applied once (players.pocket)."""
    referee = current_referee()
    if referee is None:
        return _unauthorized()
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify({"error": gettext("Send the kept changes as JSON.")}), 400
    outcomes = pocket.receive(get_db(), referee, body.get("taps"), body.get("sent"))
    return jsonify({"results": [o.json(gettext) for o in outcomes]})
