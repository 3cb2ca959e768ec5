"""The stations' screens: the link, pairing, and the conflicts the merge holds."""

from __future__ import annotations

from pathlib import Path

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

import referee.store.conflicts  # by full name: the view conflicts() has the short one
from referee.api.stations import conflict_json
from referee.qr import qr_svg
from referee.rules import RuleError
from referee.stations import pinning
from referee.stations.current import EXTENSION, link, runtime
from referee.stations.runtime import Runtime
from referee.store import ledger
from referee.store.db import fetch
from referee.web.context import get_db, is_loopback, signed_in
from referee.web.i18n import rule_message
from referee.web.security import local_path, organizer_required, referee_required

bp = Blueprint("stations", __name__)


def init_app(app: Flask, station: Runtime | None) -> None:
    if station is not None:
        app.extensions[EXTENSION] = station
    app.jinja_env.globals["station_link"] = link

    @app.before_request
    def unjoined_station_pairs_first():
        station = runtime()
        if station is None or station.status().joined or request.endpoint in (
                "stations.join", "static", "i18n.switch") or request.path.startswith("/api/"):
            return None
        here = station.here()
        if here is not None and not here["event"]:
            return redirect(url_for("stations.join"))
        return None

    @app.after_request
    def export_at_once(response):
        """A write on this station goes out now, not at the loop's next tick."""
        station = runtime()
        if station is not None and request.method not in ("GET", "HEAD", "OPTIONS"):
            station.poke()
        return response


@bp.get("/stations")
@referee_required
def index():
    """This station, the others and when each was last heard from."""
    db = get_db()
    station = runtime()
    here = ledger.station(db)
    stations = fetch(db, "SELECT s.*, h.heard_at, h.last_seq FROM stations s LEFT JOIN "
                         "heard h ON h.station = s.id ORDER BY s.number")
    return render_template("stations/index.html", here=here, link=link(),
                           stations=stations, running=station is not None,
                           problems=fetch(db, "SELECT * FROM segments WHERE status != 'ok' "
                                              "OR problem != '' ORDER BY path LIMIT 50"),
                           held=len(referee.store.conflicts.find(db, "held")))


def _pin() -> str | None:
    """With --https, the fingerprint of this station's authority, for the join link."""
    folder = current_app.config.get("TLS_DIR")
    if not folder:
        return None
    try:
        return pinning.pin_of((Path(folder) / "ca.crt").read_bytes())
    except (OSError, ValueError):
        return None


@bp.post("/stations/code")
@organizer_required
def new_code():
    """A one-time pairing code (and its QR) for a new station."""
    station = runtime()
    if station is None:
        abort(404)
    try:
        code = station.new_code()
    except RuleError as err:
        return render_template("stations/code.html", error=rule_message(err)), 422
    # This station's own address (not the passports' shared one): where the new one pairs.
    base = request.host_url.rstrip("/")
    if is_loopback(base) and current_app.config.get("LAN_URL"):
        base = current_app.config["LAN_URL"].rstrip("/")
    url = base + url_for("stations.join", organizer=base, code=code, pin=_pin())
    return render_template("stations/code.html", code=code, url=url, base=base,
                           qr=qr_svg(url).decode())


@bp.route("/stations/join", methods=["GET", "POST"])
def join():
    """On a new, empty station: pair with the organizer's station by its code."""
    station = runtime()
    if station is None:
        abort(404)
    here = station.here()
    if here is not None and here["event"]:
        return redirect(url_for("stations.index"))
    error = None
    organizer = request.values.get("organizer", "")
    code = request.values.get("code", "")
    if request.method == "POST":
        try:
            station.join(organizer.strip(), code, request.values.get("pin", ""))
            return redirect(url_for("stations.joined"), 303)
        except RuleError as err:
            error = rule_message(err)
    return render_template("stations/join.html", organizer=organizer, code=code,
                           pin=request.values.get("pin", ""),
                           error=error, name=here["name"] if here else ""), 422 if error else 200


@bp.get("/stations/joined")
def joined():
    """After pairing: the event arrives; sign in once the referees have."""
    db = get_db()
    count = db.execute("SELECT count(*) FROM referees").fetchone()[0]
    return render_template("stations/joined.html", arrived=count > 0)


@bp.get("/conflicts")
@referee_required
def conflicts():
    """Changes the merged logs refused, for a referee to apply anyway or discard."""
    db = get_db()
    settled = (referee.store.conflicts.find(db, "applied", limit=20)
               + referee.store.conflicts.find(db, "discarded", limit=20))
    return _conflicts_page(db, settled)


def _conflicts_page(db, settled: list[dict], error: str | None = None, status: int = 200):
    names = {p["id"]: p["character"] for p in fetch(db, "SELECT id, character FROM players")}
    return render_template("stations/conflicts.html", error=error, names=names,
                           held=[conflict_json(c)
                                 for c in referee.store.conflicts.find(db, "held")],
                           settled=[conflict_json(c) for c in settled]), status


def _back(default: str):
    """Back to the page the form came from (a path on this site only), else ``default``."""
    return redirect(local_path(request.form.get("next")) or default, 303)


@bp.post("/conflicts/<conflict_id>")
@referee_required
def settle(conflict_id: str):
    """Apply a held change anyway, or discard it."""
    db = get_db()
    try:
        referee.store.conflicts.settle(db, signed_in()["id"], conflict_id,
                                       request.form.get("decision", ""))
    except RuleError as err:
        return _conflicts_page(db, [], rule_message(err), 422)
    return _back(url_for("stations.conflicts"))


@bp.get("/stations/link.json")
@referee_required
def link_json():
    """The link's state, for a screen that wants to refresh it."""
    state = link()
    return jsonify(None if state is None else {
        "name": state.name, "in_reach": state.in_reach, "known": state.known,
        "alone_since": state.alone_since, "unseen": state.unseen})



@bp.post("/stations/games/<kind>/<int:number>/take")
@organizer_required
def take_over(kind: str, number: int):
    """An organizer hands a game over to this station."""
    from referee.games import registry, service

    db = get_db()
    here = ledger.station(db)
    if here is None or kind not in registry.kinds():
        abort(404)
    try:
        service.hand_over(db, signed_in()["id"], kind, number, here["id"])
    except RuleError as err:
        return _conflicts_page(db, [], rule_message(err), 422)
    return _back(url_for("games.index"))
