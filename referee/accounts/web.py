"""Signing in and out, and the organizer's page of referee accounts."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext

from referee.accounts import service
from referee.rules import N_, RuleError, whole_arg
from referee.store import referees
from referee.web import security
from referee.web.context import get_db, signed_in
from referee.web.i18n import rule_message
from referee.web.once import once_form
from referee.web.security import local_path, login, organizer_required
from referee.web.throttle import remember

bp = Blueprint("auth", __name__)


def _safe_next(target: str | None) -> str:
    return local_path(target) or url_for("players.index")


@bp.route("/login", methods=["GET", "POST"], endpoint="login")
def login_page():
    """Sign in with a referee name and password."""
    error = None
    if request.method == "POST":
        row = service.authenticate(get_db(), request.form.get("name", "").strip(),
                                   request.form.get("password", ""))
        if row:
            login(row)
            return remember(redirect(_safe_next(request.form.get("next")), code=303),
                            row["name"])
        error = gettext("Wrong name or password.")
    status = 401 if error else 200
    return render_template("accounts/login.html", error=error,
                           next=request.values.get("next", "")), status


@bp.post("/logout")
def logout():
    """Sign out: the session ends here, not only in this browser."""
    security.logout()
    return redirect(url_for("auth.login"), code=303)


@bp.route("/referees", methods=["GET", "POST"])
@organizer_required
@once_form("referees", lambda made: url_for("auth.manage"),
           N_("This referee was already added: the account is in the list."))
def manage():
    """Organizers add referees, reset passwords and switch accounts off and on."""
    db = get_db()
    me = signed_in()
    message = error = None
    if request.method == "POST":
        action = request.form.get("action", "add")
        try:
            if action == "add":
                row = service.add_referee(db, request.form.get("name", ""),
                                          request.form.get("password", ""),
                                          request.form.get("organizer") == "1", me["id"])
                message = gettext("Referee %(name)s added.", name=row["name"])
            else:
                rid = request.form.get("referee_id", type=whole_arg) or 0
                if action == "password":
                    row = service.reset_password(db, rid, request.form.get("password", ""),
                                                 me["id"])
                elif action in ("disable", "enable"):
                    row = service.set_active(db, rid, action == "enable", me["id"])
                elif action == "revoke":
                    row = service.revoke_token(db, request.form.get("token", ""), me["id"])
                else:
                    abort(400)
                if row is None:
                    abort(404)
                message = gettext("Saved.")
        except RuleError as err:
            error = rule_message(err)
    status = 422 if error else 200
    return render_template("accounts/referees.html", referees=referees.all_referees(db),
                           tokens=referees.live_tokens(db), message=message,
                           token_days=referees.token_days(db),
                           error=error), status
