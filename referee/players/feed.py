"""The feed of recent actions and undo."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext

from referee.players import service
from referee.players.web import HISTORY_SHOWN, card_response, is_htmx, latest_change
from referee.rules import N_, RuleError, whole_arg
from referee.store import events
from referee.web.context import get_db, signed_in
from referee.web.i18n import rule_message, when
from referee.web.security import referee_required

bp = Blueprint("events", __name__)

MOVED_ON = N_("This player has changed since: the sheet now shows their latest change. "
              "Undo that one if you mean it.")


@bp.get("/events")
@referee_required
def feed():
    """Recent actions of every referee, newest first."""
    before = request.args.get("before", type=whole_arg)
    items = events.recent(get_db(), limit=100, before=before)
    return render_template("players/feed.html", events=items, undoable=service.UNDOABLE)


def whose_change(event: dict) -> str | None:
    """The question an undo of someone else's change asks first; None for one's own."""
    if event["referee_id"] == signed_in()["id"]:
        return None
    at = when(event["at"])
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
    latest = request.form.get("latest") == "1"
    if latest and event["player_id"] and (latest_change(events.for_player(
            db, event["player_id"], limit=HISTORY_SHOWN)) or {}).get("id") != event["id"]:
        # The sheet's Undo takes back the latest change, and this one no longer is: a
        # duel's round or another referee's tap came after it. Show the fresh card.
        return card_response(event["player_id"], gettext(MOVED_ON), 409)
    asked = whose_change(event)
    if asked and request.form.get("confirm") != "1":
        # Taking back another referee's tap asks first, on the web only: the API's
        # undo is a contract and stays as it is.
        confirm: dict[str, Any] = {"confirm_undo": event, "confirm_message": asked,
                                   "confirm_latest": latest}
        if back == "card" and event["player_id"]:
            return card_response(event["player_id"], None, 422, **confirm)
        items = events.recent(db, limit=100)
        return render_template("players/feed.html", events=items,
                               undoable=service.UNDOABLE, **confirm), 422
    error = None
    try:
        service.undo(db, signed_in()["id"], event_id, request.form.get("reason", "")[:200])
    except RuleError as err:
        error = rule_message(err)
    if back == "card" and event["player_id"]:
        return card_response(event["player_id"], error, 422 if error else 200)
    if error and is_htmx():
        return render_template("_error.html", message=error), 422
    if error:
        return render_template("error.html", message=error, code=422), 422
    return redirect(url_for("events.feed"), code=303)
