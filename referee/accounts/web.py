"""Signing in and out, and the organizer's page of referee accounts."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext

from referee.rules import N_, RuleError
from referee.store import events, referees, write
from referee.web.context import current_referee, get_db
from referee.web.i18n import rule_message
from referee.web.security import login, organizer_required

bp = Blueprint("auth", __name__)


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("players.index")


@bp.route("/login", methods=["GET", "POST"], endpoint="login")
def login_page():
    """Sign in with a referee name and password."""
    error = None
    if request.method == "POST":
        row = referees.authenticate(get_db(), request.form.get("name", "").strip(),
                                    request.form.get("password", ""))
        if row:
            login(row)
            return redirect(_safe_next(request.form.get("next")), code=303)
        error = gettext("Wrong name or password.")
    status = 401 if error else 200
    return render_template("accounts/login.html", error=error,
                           next=request.values.get("next", "")), status


@bp.post("/logout")
def logout():
    """Sign out."""
    session.clear()
    return redirect(url_for("auth.login"), code=303)


def add_referee(db, name: str, password: str, organizer: bool, by: int | None) -> dict:
    """Create an account; the event records who added whom."""
    name = (name or "").strip()
    if not name or len(name) > 40:
        raise RuleError(None, N_("A referee name of 1 to 40 characters is required."))
    if len(password or "") < 4:
        raise RuleError(None, N_("The password needs at least 4 characters."))
    with write(db):
        if referees.by_name(db, name):
            raise RuleError(None, N_("A referee called %(name)s already exists."), name=name)
        rid = db["referees"].insert({
            "name": name, "password_hash": referees.hash_password(password),
            "is_organizer": int(organizer), "active": 1, "created_at": events.now(),
        }).last_pk
        events.record(db, referee_id=by, player_id=None, kind="referee",
                      changes={"referee": {"before": None, "after": name},
                               "organizer": {"before": None, "after": bool(organizer)}})
    return referees.get(db, rid)


def _set_account(db, referee_id: int, by: int, values: dict) -> None:
    with write(db):
        row = referees.get(db, referee_id)
        if row is None:
            abort(404)
        db["referees"].update(referee_id, values)
        changes = {"referee": {"before": row["name"], "after": row["name"]}}
        if "active" in values:
            changes["active"] = {"before": bool(row["active"]), "after": bool(values["active"])}
        if "password_hash" in values:
            # Never log a password or its hash: only that it was reset.
            changes["password"] = {"before": "", "after": "reset"}
        events.record(db, referee_id=by, player_id=None, kind="referee", changes=changes)


@bp.route("/referees", methods=["GET", "POST"])
@organizer_required
def manage():
    """Organizers add referees, reset passwords and switch accounts off and on."""
    db = get_db()
    me = current_referee()
    message = error = None
    if request.method == "POST":
        action = request.form.get("action", "add")
        try:
            if action == "add":
                row = add_referee(db, request.form.get("name", ""),
                                  request.form.get("password", ""),
                                  request.form.get("organizer") == "1", me["id"])
                message = gettext("Referee %(name)s added.", name=row["name"])
            else:
                rid = request.form.get("referee_id", type=int) or 0
                if rid == me["id"]:
                    raise RuleError(None, N_("You cannot change your own account here."))
                if action == "password":
                    password = request.form.get("password", "")
                    if len(password) < 4:
                        raise RuleError(None, N_("The password needs at least 4 characters."))
                    _set_account(db, rid, me["id"],
                                 {"password_hash": referees.hash_password(password)})
                elif action in ("disable", "enable"):
                    _set_account(db, rid, me["id"], {"active": int(action == "enable")})
                else:
                    abort(400)
                message = gettext("Saved.")
        except RuleError as err:
            error = rule_message(err)
    status = 422 if error else 200
    return render_template("accounts/referees.html", referees=referees.all_referees(db),
                           message=message, error=error), status
