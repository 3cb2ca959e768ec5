"""The feed of recent actions and undo."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext

from referee.players import service
from referee.players.web import card_response, is_htmx
from referee.rules import RuleError, whole_arg
from referee.store import events
from referee.web.context import current_referee, get_db
from referee.web.i18n import rule_message
from referee.web.security import referee_required

bp = Blueprint("events", __name__)


@bp.get("/events")
@referee_required
def feed():
    """Recent actions of every referee, newest first."""
    before = request.args.get("before", type=whole_arg)
    items = events.recent(get_db(), limit=100, before=before)
    return render_template("players/feed.html", events=items, undoable=service.UNDOABLE)


def whose_change(event: dict) -> str | None:
    """The question an undo of someone else's change asks first; None for one's own."""
    if event["referee_id"] == current_referee()["id"]:
        return None
    at = event["at"][11:16]
    if event["referee_id"] is None:
        return gettext("This change was made by the app (at %(time)s): undo it?", time=at)
    return gettext("This is %(name)s's change (at %(time)s): undo it?",
                   name=event["referee"], time=at)


@bp.post("/events/<int:event_id>/undo")
def undo(event_id: int):
    """Append the compensating event; answer with the player's card or the feed."""
    db = get_db()
    event = events.get(db, event_id)
    if event is None:
        abort(404)
    back = request.form.get("back", "card")
    asked = whose_change(event)
    if asked and request.form.get("confirm") != "1":
        # Taking back another referee's tap asks first, on the web only: the API's
        # undo is a contract and stays as it is.
        confirm = {"confirm_undo": event, "confirm_message": asked}
        if back == "card" and event["player_id"]:
            return card_response(event["player_id"], None, 422, **confirm)
        items = events.recent(db, limit=100)
        return render_template("players/feed.html", events=items,
                               undoable=service.UNDOABLE, **confirm), 422
    error = None
    try:
        service.undo(db, current_referee()["id"], event_id, request.form.get("reason", "")[:200])
    except RuleError as err:
        error = rule_message(err)
    if back == "card" and event["player_id"]:
        return card_response(event["player_id"], error, 422 if error else 200)
    if error and is_htmx():
        return render_template("_error.html", message=error), 422
    if error:
        return render_template("error.html", message=error, code=422), 422
    return redirect(url_for("events.feed"), code=303)
