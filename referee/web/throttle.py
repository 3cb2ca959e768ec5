"""Sign-ins that cannot be guessed: failed attempts are limited per address and account.

Flask-Limiter counts only the attempts that fail (a referee who signs in is never
slowed down), in moving windows of growing length: a few tries a minute, more an hour,
more a day. Once a window is full, the form and the token call answer 429 with
Retry-After and a sentence saying how long to wait, before any password is hashed, so
that hammering the login costs the laptop almost nothing and the referees' taps go on.

The counts live in this process's memory: a restart forgets them, and every station
counts its own (each one is its own door).
"""

from __future__ import annotations

import math
import time

from flask import Flask, current_app, render_template, request
from flask_babel import gettext, ngettext
from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address

from referee.web.errors import error_response

# Growing delays: past the first tier one waits up to a minute, past the next an hour...
PER_ADDRESS = "10 per minute;30 per hour;100 per day"
PER_ACCOUNT = "5 per minute;20 per hour;60 per day"
# Pairing a new station: its code is the key, so guesses of it are limited the same way.
PAIRING = "10 per minute;30 per hour"

SIGN_INS = ("auth.login", "api.token")
PAIRINGS = ("stations.join",)


def _failed(response) -> bool:
    """A wrong name or password (401), or a wrong pairing code (422)."""
    return response.status_code in (401, 422)


def _account() -> str:
    """The account being tried: the form's name or the token call's, case folded."""
    if request.is_json:
        body = request.get_json(silent=True)
        name = body.get("name") if isinstance(body, dict) else None
    else:
        name = request.form.get("name")
    if not isinstance(name, str) or not name.strip():
        return "-"  # no name: counted as one account, the address limit still applies
    return "account:" + name.strip().casefold()[:80]


def wait_seconds(limit: RequestLimit) -> int:
    """Whole seconds until the full window lets one more attempt in (at least 1)."""
    return max(1, math.ceil(limit.reset_at - time.time()))


def _refuse(limit: RequestLimit):
    """The 429: the sign-in page with its sentence, or the API's JSON error."""
    seconds = wait_seconds(limit)
    if seconds >= 120:
        minutes = math.ceil(seconds / 60)
        wait = ngettext("%(num)d minute", "%(num)d minutes", minutes)
    else:
        wait = ngettext("%(num)d second", "%(num)d seconds", seconds)
    message = gettext("Too many failed attempts from here or for this account. "
                      "Wait %(wait)s, then try again.", wait=wait)
    if request.endpoint == "auth.login" and not request.headers.get("HX-Request"):
        response = current_app.make_response((render_template(
            "accounts/login.html", error=message, next=request.values.get("next", "")), 429))
    else:
        response = current_app.make_response(error_response(message, 429))
    response.headers["Retry-After"] = str(seconds)
    return response


def init_app(app: Flask) -> Limiter:
    """Limit the sign-in form, the token call and pairing; the limiter is kept on the app
    (``app.extensions["referee.throttle"]``) so tests can start from clean counts."""
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://",
                      strategy="moving-window", default_limits=[], on_breach=_refuse,
                      headers_enabled=False, swallow_errors=False)
    per_address = limiter.shared_limit(PER_ADDRESS, scope="sign-in-address",
                                       methods=["POST"], deduct_when=_failed)
    per_account = limiter.shared_limit(PER_ACCOUNT, scope="sign-in-account", key_func=_account,
                                       methods=["POST"], deduct_when=_failed)
    pairing = limiter.shared_limit(PAIRING, scope="pairing", methods=["POST"],
                                   deduct_when=_failed)
    for endpoint in SIGN_INS:
        app.view_functions[endpoint] = per_account(per_address(app.view_functions[endpoint]))
    for endpoint in PAIRINGS:
        app.view_functions[endpoint] = pairing(app.view_functions[endpoint])
    app.extensions["referee.throttle"] = limiter
    return limiter
