"""The referee's screens: the player list, a player's sheet with one-tap stats, import."""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext

import referee.players.settings  # by full name: the view settings() has the short one
import referee.store.settings
from referee.games.hub import door, game_name, player_panels
from referee.players import exporting, importing, joinrpg, service
from referee.rules import N_, RuleError, whole, whole_arg
from referee.rules.stats import COUNTERS, HEAVY_WOUND
from referee.store import conflicts, events, games, players
from referee.web.context import get_db, public_base, signed_in
from referee.web.i18n import event_reason, field_label, rule_message
from referee.web.once import once_form, row_target
from referee.web.screens import is_htmx
from referee.web.security import organizer_required, referee_required

bp = Blueprint("players", __name__)


def wound_clock(row: dict, death_minutes: int, at: datetime | None = None) -> dict | None:
    """Seconds left until death for a heavily wounded player, when the setting is on."""
    if row["status"] != HEAVY_WOUND or not row["wounded_at"]:
        return None
    since = datetime.fromisoformat(row["wounded_at"])
    if death_minutes <= 0:
        return {"since": since, "left": None}
    deadline = since + timedelta(minutes=death_minutes)
    left = int((deadline - (at or datetime.now(UTC))).total_seconds())
    return {"since": since, "left": left}


# The latest changes a sheet shows; app.js drops the oldest as taps add rows on top, so
# the history on the phone stays what a reload shows.
HISTORY_SHOWN = 50


# Entries the sheet's Undo passes over: they change no stat (a new passport token).
QUIET = {"reissue"}


def latest_change(history: list[dict]) -> dict | None:
    """The player's latest change that still stands (newest first in ``history``): what
    the sheet's Undo takes back. Never an older one past it: a duel's round
    that left the player at 0 HP is the latest change, not the tap before it."""
    return next((e for e in history if not e["undone_by"] and not e["undoes"]
                 and e["kind"] not in QUIET), None)


def game_step(player_id: int, event: dict | None) -> dict | None:
    """A latest change made by a game step, as the sheet names it ("Duel 3, round 2")
    with the address of that game, whose own Undo takes the whole step back."""
    if event is None or not service.is_game_step(event):
        return None
    game_door = door(event["kind"])
    game = games.step_of(get_db(), player_id, event["id"])
    name = event_reason(event)
    if game and game_door:
        return {"event": event, "name": name or game_name(game["kind"], game["id"]),
                "url": game_door.screen(game["id"]), "game": game_name(game["kind"], game["id"])}
    return {"event": event, "name": name or event["kind"],
            "url": url_for(game_door.index) if game_door else None, "game": None}


def sheet_view(row: dict) -> dict:
    """What the sheet templates need about one player."""
    db = get_db()
    minutes = int(referee.store.settings.get(db, "death_minutes") or 0)
    history = events.for_player(db, row["id"], limit=HISTORY_SHOWN)
    latest = latest_change(history)
    last = latest if latest and latest["kind"] in service.UNDOABLE else None
    return {
        "p": row,
        "deck": players.deck_cards(row),
        "clock": wound_clock(row, minutes),
        "history": history,
        "history_shown": HISTORY_SHOWN,
        "last": last,
        "step": game_step(row["id"], latest),
        "undoable": service.UNDOABLE,
        "passport_url": public_base() + url_for("passport.sheet", token=row["passport_token"]),
        "conflicts": conflicts.pending_for(db, row["id"]),
    }


def sheet_page(row: dict, status: int = 200, **extra):
    """The whole sheet: the card, each game's panel of this player, the history."""
    return render_template("players/sheet.html", **sheet_view(row),
                           games=player_panels(get_db(), row["id"]), **extra), status


def history_update(view: dict) -> str:
    """The history below the card, brought up to date out of band: only what it lacks.

    The card names the newest row the screen shows (``seen``); the rows above it are
    sent, to go on top, with any older row they undo, to be marked undone. A tap thus
    carries one row, not fifty. A screen that names no row of the history gets it whole.
    """
    history = view["history"]
    ids = [e["id"] for e in history]
    seen = whole(request.form.get("seen", ""))
    if seen not in ids:
        return render_template("players/_history.html", **view, oob=True)
    new = history[:ids.index(seen)]
    undone = {e["undoes"] for e in new if e["undoes"]}
    changed = [e for e in history[len(new):] if e["id"] in undone]
    return render_template("players/_history_update.html", **view, new=new, changed=changed)


def missed(view: dict) -> list[dict]:
    """What a tap's screen did not show yet: the changes made between the newest row it
    showed (``seen``) and the tap's own, newest first (another referee's, most often)."""
    ids = [e["id"] for e in view["history"]]
    seen = whole(request.form.get("seen", ""))
    if seen not in ids:
        return []
    return view["history"][1:ids.index(seen)]


def card_response(player_id: int, error: str | None = None, status: int = 200,
                  tapped: bool = False, **extra):
    """The player's stats card (htmx) or a redirect to the sheet (plain form); ``extra``
    (an undo's question) goes to the card too. After a tap made on a screen that was
    behind, the card says what the tap was applied to."""
    row = players.get(get_db(), player_id)
    if row is None:
        abort(404)
    if is_htmx():
        view = sheet_view(row)
        behind = missed(view) if tapped else []
        html = render_template("players/_card.html", **view, error=error, behind=behind,
                               **extra) + history_update(view)
        return html, status
    if error or extra:
        return sheet_page(row, status, error=error, **extra)
    return redirect(url_for("players.sheet", player_id=player_id), code=303)


def run(player_id: int, action):
    """Apply a service call; a refusal comes back as the fresh card with the reason."""
    try:
        action()
    except RuleError as err:
        return card_response(player_id, rule_message(err), 422)
    return card_response(player_id, tapped=True)


REASON_LIMIT = 200  # as the API's (api.models.Reason): refused past it, never cut


def reason() -> str:
    """The optional reason typed beside the buttons."""
    text = request.form.get("reason", "").strip()
    if len(text) > REASON_LIMIT:
        raise RuleError(None, N_("A reason is at most %(n)s characters; this one has "
                                 "%(count)s. Shorten it."), n=REASON_LIMIT, count=len(text))
    return text


@bp.get("/")
@referee_required
def index():
    """All players, a page at a time, with search by character or player name."""
    db = get_db()
    q = request.args.get("q", "")
    after = request.args.get("after", type=whole_arg)
    found, total = players.page(db, q, players.PAGE, after)
    page = found[:players.PAGE]
    more = None
    if len(found) > players.PAGE:
        more = url_for("players.index", q=q or None, after=page[-1]["id"])
    listing = {"players": page, "q": q, "more": more, "total": total}
    if is_htmx() and after is not None:
        return render_template("players/_list.html", **listing, rows_only=True)
    if is_htmx() and request.headers.get("HX-Target") == "player-list":
        return render_template("players/_list.html", **listing)
    # The heavily wounded come first, with their clocks: they are the urgent ones, and
    # every one of them is listed, whatever the page below shows.
    minutes = int(referee.store.settings.get(db, "death_minutes") or 0)
    wounded = [(r, wound_clock(r, minutes)) for r in players.heavily_wounded(db)]
    return render_template("players/index.html", **listing, wounded=wounded)


@bp.get("/players/<int:player_id>")
@referee_required
def sheet(player_id: int):
    """A player's sheet, editable, with their history."""
    row = players.get(get_db(), player_id)
    if row is None:
        abort(404)
    return sheet_page(row)


@bp.post("/players/<int:player_id>/adjust")
def adjust(player_id: int):
    """One tap: the pressed button names the stat and carries the delta."""
    deltas = {}
    for name in COUNTERS:
        if name in request.form:
            value = whole(request.form[name], signed=True)
            if value is None:
                abort(400)
            deltas[name] = value
    referee = signed_in()
    return run(player_id, lambda: service.adjust(get_db(), referee["id"], player_id, deltas,
                                                 reason()))


@bp.post("/players/<int:player_id>/set")
def set_exact(player_id: int):
    """Set stats to typed values; untouched fields are left alone."""
    row = players.get(get_db(), player_id)
    if row is None:
        abort(404)
    values = {}
    for name in COUNTERS:
        raw = request.form.get(name, "").strip()
        if raw == "":
            continue
        number = whole(raw, signed=True)
        if number is None:
            return card_response(player_id, gettext("%(field)s must be a whole number.",
                                                    field=field_label(name)), 422)
        if number != row[name]:
            values[name] = number
    referee = signed_in()
    return run(player_id, lambda: service.set_exact(get_db(), referee["id"], player_id,
                                                    values, reason()))


@bp.post("/players/<int:player_id>/heal")
def heal(player_id: int):
    """Heal a heavily wounded player back to 1 HP."""
    referee = signed_in()
    return run(player_id, lambda: service.heal(get_db(), referee["id"], player_id, reason()))


@bp.post("/players/<int:player_id>/kill")
def kill(player_id: int):
    """Mark the character dead."""
    referee = signed_in()
    return run(player_id, lambda: service.kill(get_db(), referee["id"], player_id, reason()))


@bp.post("/players/<int:player_id>/reissue")
def reissue(player_id: int):
    """Give the player a new passport token; the old link stops working."""
    referee, why = signed_in(), reason()  # a reason too long: 422, said as such
    try:
        service.reissue(get_db(), referee["id"], player_id, why)
    except RuleError:
        abort(404)
    return redirect(url_for("players.sheet", player_id=player_id) + "#passport", code=303)


@bp.route("/players/new", methods=["GET", "POST"])
@referee_required
@once_form("players", row_target("players.sheet", "player_id", "players.index"),
           N_("This player was already registered: here they are."))
def new():
    """Register a player."""
    return _player_form({"hp_max": 3, "chance_max": 1, "cartridges": 3, "level": 1,
                         "suit": "S"}, None,
                        lambda sent: service.create(get_db(), signed_in()["id"], sent)["id"])


@bp.route("/players/<int:player_id>/edit", methods=["GET", "POST"])
@referee_required
def edit(player_id: int):
    """Change names, maximums, suit or notes."""
    row = players.get(get_db(), player_id)
    if row is None:
        abort(404)

    def save(sent: dict) -> int:
        service.edit(get_db(), signed_in()["id"], player_id, sent, reason())
        return player_id

    return _player_form(row, row, save)


def _player_form(form: dict, player: dict | None, save: Callable[[dict], int]):
    """The player form: shown with ``form``'s values; a POST is saved with ``save(sent)``
    (which gives the player's id) and opens their sheet, or is shown again with the
    refusal (422)."""
    error = None
    if request.method == "POST":
        sent = request.form.to_dict()
        form = {**form, **sent} if player else sent
        try:
            return redirect(url_for("players.sheet", player_id=save(sent)), code=303)
        except RuleError as err:
            error = rule_message(err)
    return render_template("players/form.html", form=form, error=error,
                           player=player), 422 if error else 200


@bp.route("/players/import", methods=["GET", "POST"])
@organizer_required
@once_form("import", lambda made: url_for("players.index"),
           N_("This file was already imported: its players are in the list."))
def import_csv():
    """Import players from CSV (organizers): every error listed by line, or all rows."""
    errors, created = [], []
    encoding = request.form.get("encoding", "")
    if request.method == "POST":
        upload = request.files.get("file")
        data = upload.read() if upload else b""
        if request.form.get("joinrpg") or joinrpg.is_joinrpg(data):
            return _import_joinrpg(data)
        created, problems = importing.import_players(get_db(), signed_in()["id"], data,
                                                     encoding or None)
        errors = [(line, rule_message(err)) for line, err in problems]
    status = 422 if errors else 200
    return render_template("players/import.html", errors=errors, created=created,
                           encodings=importing.ENCODINGS, encoding=encoding), status


def _import_joinrpg(data: bytes):
    """A JoinRPG file. First the mapping step (selects prefilled with the
    suggestions, the file carried along in the form) with a preview of the plan; its
    Import button applies it, all or nothing."""
    if request.form.get("joinrpg"):
        try:
            data = base64.b64decode(request.form["joinrpg"], validate=True)
        except ValueError:
            data = b""
    db = get_db()
    errors, todo, mapping, export, done = [], None, {}, None, False
    try:
        export = joinrpg.read(data)
        given = {k: request.form[f"map_{k}"] for k in joinrpg.OURS
                 if request.form.get(f"map_{k}")} if request.form.get("joinrpg") else {}
        mapping = joinrpg.mapping_for(db, export, given)
        if request.form.get("joinrpg"):  # the mapping step was sent: exactly its choices
            mapping = given
        joinrpg.check_mapping(export, mapping)
        todo = joinrpg.plan(db, export, mapping)
        errors = [(ref, rule_message(err)) for ref, err in todo.errors]
        if not errors and request.form.get("step") == "import":
            joinrpg.apply(db, signed_in()["id"], todo, mapping)
            done = True
    except RuleError as err:
        errors.append(("", rule_message(err)))
    return render_template("players/import_joinrpg.html", errors=errors, todo=todo,
                           export=export, mapping=mapping, ours=joinrpg.OURS, done=done,
                           data=base64.b64encode(data).decode()), 422 if errors else 200


@bp.get("/players/import/template.csv")
def import_template():
    """The CSV template to fill in."""
    return Response(importing.template(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=players.csv"})


@bp.get("/players/export.csv")
@organizer_required
def export_csv():
    """Every player with live values and passport links (organizers: the links are keys)."""
    data = exporting.players_csv(get_db(), public_base())
    return Response(data.encode("utf-8"), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=players-export.csv"})


@bp.route("/settings", methods=["GET", "POST"])
@organizer_required
def settings():
    """Event settings: its name, the bleed-out minutes and the public URL for passports."""
    db = get_db()
    values = referee.store.settings.get_all(db)
    error = message = None
    if request.method == "POST":
        new = referee.players.settings.submitted(request.form)
        try:
            values = referee.players.settings.save(db, signed_in()["id"], new)
            message = gettext("Saved.")
        except RuleError as err:
            error = rule_message(err)
            values.update(new)
    return render_template("players/settings.html", values=values, error=error,
                           message=message), 422 if error else 200
