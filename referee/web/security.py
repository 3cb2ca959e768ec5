"""Who may do what: sessions, CSRF tokens, the write guard and security headers."""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Callable
from urllib.parse import urlsplit

from flask import Flask, abort, g, redirect, request, session, url_for

from referee.store import referees, write
from referee.web.context import current_referee, get_db

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# Writes an anonymous visitor may make (still CSRF-checked): signing in.
# A new station has no accounts yet: its pairing code is what authorizes the join.
ANONYMOUS_WRITES = {"auth.login", "stations.join"}

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    # The passport scanner's decoder is WebAssembly, from static/: compiling
    # it needs 'wasm-unsafe-eval', which allows no JavaScript eval.
    "script-src 'self' 'wasm-unsafe-eval'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; "
    "frame-ancestors 'none'"
)

ALWAYS = (("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
          # Passport URLs carry their secret token: never leak it in a Referer.
          ("Referrer-Policy", "no-referrer"))


def local_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site, else None: never an open redirect.

    Browsers drop tabs and newlines from a URL and read a backslash as a slash, so
    "/<tab>/evil.example" or "/<backslash>evil.example" would leave the site: any control
    character, space or backslash is refused, as is anything with a scheme or a host."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if any(ch <= " " or ch in "\\\x7f" for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


def csrf_token() -> str:
    """The session's CSRF token, created on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def _csrf_ok() -> bool:
    expected = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    return isinstance(expected, str) and bool(expected) and hmac.compare_digest(expected, sent)


def login(referee: dict) -> None:
    """Start a session for this referee (a fresh CSRF token too). It is also kept in the
    database, so that signing out ends it for any copy of the cookie."""
    session.clear()
    session.permanent = True
    db = get_db()
    with write(db):
        session["sid"] = referees.start_session(db, referee["id"])
    csrf_token()


def logout() -> None:
    """End this browser's session, here and for every copy of its cookie."""
    sid = session.get("sid")
    if sid:
        db = get_db()
        with write(db):
            referees.end_session(db, sid)
    session.clear()


def is_api() -> bool:
    """Whether this request is for the JSON API (bearer tokens, no cookies)."""
    return request.path.startswith("/api/")


def guard_writes() -> None:
    """Every state-changing browser request needs a CSRF token and a signed-in referee."""
    if request.method in SAFE_METHODS or is_api():
        return
    if not _csrf_ok():
        abort(400, description="csrf")
    if request.endpoint not in ANONYMOUS_WRITES and current_referee() is None:
        abort(401)


def referee_required(view: Callable) -> Callable:
    """A page only referees may open; others are sent to sign in."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if current_referee() is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapped


def organizer_required(view: Callable) -> Callable:
    """A page only organizers may open."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        referee = current_referee()
        if referee is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        if not referee["is_organizer"]:
            abort(403)
        return view(*args, **kwargs)

    return wrapped


def set_headers(response):
    """Security headers on every answer."""
    headers = response.headers
    # The names there are read once: each lookup or set would walk the list again (a
    # twelfth of a tap); an absent header is appended, as setting it would.
    have = {name.lower() for name, _ in headers.items()}
    if "content-security-policy" not in have:
        headers.add("Content-Security-Policy", CSP)
    for name, value in ALWAYS:
        if name.lower() in have:
            headers[name] = value
        else:
            headers.add(name, value)
    if getattr(g, "referee", None) is not None or request.path.startswith("/p/"):
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """Install the guard and the headers, and give templates the CSRF token."""
    app.before_request(guard_writes)
    app.after_request(set_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["current_referee"] = current_referee
