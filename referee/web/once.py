"""One-time keys on the forms that create, written once for all.

A create form holds ``{{ once_field() }}``: a hidden key made fresh when the form is
rendered. app.js copies it into the page's address (``?once=``), so that Back, which
fetches the form page again (pages are ``no-store``), shows the same key and not a new
one; without JavaScript the key still stops a resent POST or a second tap. The view is
wrapped in :func:`once_form`: a repeat of a key is answered with a 303 to what the first
submission made and a short notice, and nothing is written (store.once).

The API's create calls take the same key as an ``Idempotency-Key`` header
(:func:`idempotent`); a call without one behaves as it always has.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from flask import Flask, flash, get_flashed_messages, jsonify, redirect, request
from flask_babel import gettext
from markupsafe import Markup, escape

from referee.rules import N_
from referee.store import games, once
from referee.store.once import Made
from referee.web.context import get_db

FIELD = "once"
HEADER = "Idempotency-Key"
CATEGORY = "once"  # the flashed notice of a repeat
_API_KEY = re.compile(r"[\x21-\x7e]{1,200}")  # visible ASCII: a UUID, a ULID, a counter
BAD_HEADER = N_("The Idempotency-Key header must be 1 to 200 visible ASCII characters "
                "(a UUID will do); send it again with such a key, or without it.")


def field() -> Markup:
    """The hidden one-time key of a create form: the page address's own when Back
    brought the page again, the form's own when the form is drawn again (a squad
    builder's step, a refused setup), else a fresh one."""
    key = once.usable(request.args.get(FIELD)) or once.usable(request.form.get(FIELD)) \
        or once.fresh()
    # Only a page fetched by GET has an address Back can bring again with its key.
    keep = Markup(" data-once") if request.method == "GET" else ""
    return Markup('<input type="hidden" name="{}" value="{}"{}>').format(
        FIELD, escape(key), keep)


def game_target(endpoint: str, arg: str = "game_id") -> Callable[[Made], str]:
    """Where a repeat of a game's create form goes: that game's screen."""
    from flask import url_for

    def target(made: Made) -> str:
        number: Any = games.number_of(get_db(), made.ref)
        return url_for(endpoint, **{arg: number})

    return target


def row_target(endpoint: str, arg: str, otherwise: str) -> Callable[[Made], str]:
    """Where a repeat of a create form goes: the page of the row the first submission
    made, or the ``otherwise`` page (the list) when it made none."""
    from flask import url_for

    def target(made: Made) -> str:
        values: dict[str, Any] = {arg: made.ref}
        return url_for(endpoint, **values) if made.ref else url_for(otherwise)

    return target


def once_form(scope: str, target: Callable[[Made], str], notice: str) -> Callable:
    """Run the view under its form's one-time key: a repeat goes to ``target(made)``
    (a 303) with ``notice`` (an N_ msgid) shown there, and changes nothing."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            key = once.usable(request.form.get(FIELD))
            try:
                with once.claiming(get_db(), key, scope):
                    return view(*args, **kwargs)
            except once.Repeated as repeat:
                flash(gettext(notice), CATEGORY)
                return redirect(target(repeat.made), code=303)

        return wrapped

    return decorate


def idempotent(scope: str, replay: Callable[[Made], object]) -> Callable:
    """Run an API create call under its ``Idempotency-Key`` header, if it has one: a
    repeat answers ``replay(made)`` (what was created, as it stands now) and changes
    nothing; its answer carries ``Idempotent-Replayed: true``."""
    from referee.web.errors import error_response

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            raw = request.headers.get(HEADER)
            if raw is not None and not _API_KEY.fullmatch(raw):
                return error_response(gettext(BAD_HEADER), 422)
            try:
                with once.claiming(get_db(), raw, f"api:{scope}"):
                    return view(*args, **kwargs)
            except once.Repeated as repeat:
                response = replay(repeat.made)
                body, status = response if isinstance(response, tuple) else (response, 201)
                answer = jsonify(body) if isinstance(body, dict) else body
                answer.status_code = status
                answer.headers["Idempotent-Replayed"] = "true"
                return answer

        wrapped.idempotent = True  # type: ignore[attr-defined]  # named by the OpenAPI
        return wrapped

    return decorate


def notices() -> list[str]:
    """The notices of repeats flashed for this page (base.html shows them)."""
    return [str(message) for message in get_flashed_messages(category_filter=[CATEGORY])]


def init_app(app: Flask) -> None:
    app.jinja_env.globals["once_field"] = field
    app.jinja_env.globals["once_notices"] = notices
