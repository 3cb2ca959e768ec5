"""Sign-ins that cannot be guessed: failed attempts are limited per address and account.

Flask-Limiter counts only the attempts that fail (a referee who signs in is never
slowed down), in moving windows of growing length: a few tries a minute, more an hour,
more a day. Once a window is full, the form and the token call answer 429 with
Retry-After and a sentence saying how long to wait, before any password is hashed. The
refusal itself comes late (the tarpit): a guesser's connections sleep instead of asking
again every millisecond, so hammering the login costs the laptop almost nothing and the
referees' taps go on (benchmarks/bench_login.py).

The counts live in this process's memory: a restart forgets them, and every station
counts its own (each one is its own door).
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

from flask import Flask, current_app, render_template, request
from flask_babel import gettext, ngettext
from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address
from itsdangerous import BadSignature, URLSafeSerializer

from referee.web.errors import error_response

# Growing delays: past the first tier one waits up to a minute, past the next an hour...
PER_ADDRESS = "10 per minute;30 per hour;100 per day"
PER_ACCOUNT = "5 per minute;20 per hour;60 per day"
# Pairing a new station: its code is the key, so guesses of it are limited the same way.
PAIRING = "10 per minute;30 per hour"

# A refused attempt is answered late, so that a guesser waits instead of costing the
# laptop a request every millisecond: 0.25 s, then twice as long each time, up to
# DELAY_MAX. Only SLOTS refusals wait at once (each holds one of the server's threads,
# asleep); past that, refusals are answered at once.
DELAY_FIRST = 0.25
DELAY_MAX = 2.0
SLOTS = 8  # `referee serve` gives half its threads (16 by default)
_REMEMBERED = 4096  # addresses whose refusals in a row are counted

# A browser that has signed in as an account is remembered (a signed cookie of account
# names), and guesses made elsewhere at that account do not lock its own referee out.
KNOWN_COOKIE = "referee_known"
KNOWN_MAX = 8  # accounts one browser remembers (a shared phone at the referees' table)
KNOWN_DAYS = 365

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


def _known() -> URLSafeSerializer:
    key = current_app.secret_key
    assert key is not None  # the app factory always sets one
    return URLSafeSerializer(key, salt="known-browser")


def known_accounts() -> list[str]:
    """The accounts this browser has signed in as (none if the cookie was forged)."""
    try:
        names = _known().loads(request.cookies.get(KNOWN_COOKIE, ""))
    except BadSignature:
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def _known_browser() -> bool:
    """Exempt from the account's limit: this browser signed in as this account before."""
    return _account() in known_accounts()


def remember(response, name: str):
    """After a successful sign-in on the form: this browser knows this account."""
    key = "account:" + name.strip().casefold()[:80]
    names = [key] + [n for n in known_accounts() if n != key]
    response.set_cookie(KNOWN_COOKIE, _known().dumps(names[:KNOWN_MAX]),
                        max_age=KNOWN_DAYS * 86400, httponly=True, samesite="Lax",
                        secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    return response


def wait_seconds(limit: RequestLimit) -> int:
    """Whole seconds until the full window lets one more attempt in (at least 1)."""
    return max(1, math.ceil(limit.reset_at - time.time()))


class Tarpit:
    """How long to hold each refusal: longer for an address refused again and again."""

    def __init__(self, first: float, most: float, slots: int) -> None:
        self.first, self.most = first, most
        self.slots = threading.BoundedSemaphore(slots) if slots > 0 else None
        self.refused: dict[str, tuple[int, float]] = {}  # address: (in a row, last)
        self.lock = threading.Lock()

    def hold(self, address: str) -> float:
        """Wait before a refusal if a slot is free; the seconds waited. Refusals count
        as in a row while they come less than a minute apart."""
        now = time.monotonic()
        with self.lock:
            if len(self.refused) >= _REMEMBERED:
                self.refused.clear()
            times, last = self.refused.get(address, (0, now))
            times = times + 1 if now - last < 60 else 1
            self.refused[address] = (times, now)
        if self.slots is None or self.most <= 0 or not self.slots.acquire(blocking=False):
            return 0.0
        delay = min(self.most, self.first * 2 ** min(times - 1, 16))
        try:
            time.sleep(delay)
        finally:
            self.slots.release()
        return delay


def _refuse(limit: RequestLimit):
    """The 429, held a while: the sign-in page with its sentence, or the API's JSON error."""
    current_app.extensions["referee.tarpit"].hold(get_remote_address())
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


def _only_for(endpoints: set[str], hook):
    """An after-request hook of the limiter, run for the limited views only."""

    def run(response):
        return hook(response) if request.endpoint in endpoints else response

    return run


def init_app(app: Flask) -> Limiter:
    """Limit the sign-in form, the token call and pairing; the limiter is kept on the app
    (``app.extensions["referee.throttle"]``) so tests can start from clean counts."""
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://",
                      strategy="moving-window", default_limits=[], on_breach=_refuse,
                      headers_enabled=False, swallow_errors=False)
    per_address = limiter.shared_limit(PER_ADDRESS, scope="sign-in-address",
                                       methods=["POST"], deduct_when=_failed)
    per_account = limiter.shared_limit(PER_ACCOUNT, scope="sign-in-account", key_func=_account,
                                       methods=["POST"], deduct_when=_failed,
                                       exempt_when=_known_browser)
    pairing = limiter.shared_limit(PAIRING, scope="pairing", methods=["POST"],
                                   deduct_when=_failed)
    views: dict[str, Any] = app.view_functions  # Flask-Limiter's wrappers keep their views
    for endpoint in SIGN_INS:
        views[endpoint] = per_account(per_address(views[endpoint]))
    for endpoint in PAIRINGS:
        views[endpoint] = pairing(views[endpoint])
    # Flask-Limiter checks every request before its view, and counts after it, though
    # only these views have limits: a tenth of a tap's time. Their wrappers check for
    # themselves; the counting after the answer is kept for them alone.
    before = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit in before:  # not there when RATELIMIT_ENABLED is off
        before.remove(limiter._check_request_limit)
    limited = set(SIGN_INS) | set(PAIRINGS)
    hooks = app.after_request_funcs[None]
    for hook in [h for h in hooks if getattr(h, "args", None) == (limiter,)]:
        hooks[hooks.index(hook)] = _only_for(limited, hook)
    app.extensions["referee.throttle"] = limiter
    app.extensions["referee.tarpit"] = Tarpit(
        app.config.get("SIGN_IN_DELAY_FIRST", DELAY_FIRST),
        app.config.get("SIGN_IN_DELAY_MAX", DELAY_MAX), app.config.get("SIGN_IN_SLOTS", SLOTS))
    return limiter
