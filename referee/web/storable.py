"""Text that cannot be stored is refused where a request brings it in.

One look at everything a request carries, before any view reads it: the headers (the
cookies, Accept-Language, Idempotency-Key, X-CSRF-Token among them; RFC 9110 calls a NUL
in a field value invalid), the query string, the form's fields and upload names, and a
JSON body, keys and values at any depth. The first text holding a NUL or a lone
surrogate (rules.text) is answered 4xx with a sentence naming where, and no view runs, so
nothing is written. A path segment holding one names nothing: 404, as an id too large
for SQLite does.

The browser's screens are looked at here, after the CSRF and sign-in guard; the JSON
API's calls in their runner (api.registry), after the bearer token and the path's
object, so that an API call keeps its order of answers (401, 404, then the body).
"""

from __future__ import annotations

import re

from flask import Flask, abort, request

from referee.rules import RuleError
from referee.rules.text import UNSTORABLE_FILE, UNSTORABLE_HEADER, refusal, storable, unstorable
from referee.web.errors import error_response
from referee.web.i18n import rule_message
from referee.web.security import is_api

# What a form or the query string brings in that cannot be stored answers as any refused
# form does (players.web, the games' setups): 422 with the sentence.
STATUS = 422


def path_names_nothing(values: dict | None) -> bool:
    """Whether a path segment holds text that cannot be stored (it names nothing)."""
    return any(type(v) is str and not storable(v) for v in (values or {}).values())


def _all_storable_fast() -> bool:
    """Whether a request surely brings nothing unstorable, seen in one search over its
    raw headers and body (a tap's headers, read one by one through werkzeug,
    were a sixth of its time). Whatever might hold a NUL or a lone surrogate once decoded
    goes to the full walk below, which names where: a query string or a cookie (both
    decoded from escapes), a form or an upload, a JSON body with a ``\\u0000`` or
    ``\\udXXX`` escape, and any header that holds one as it is."""
    environ = request.environ
    if environ.get("QUERY_STRING") or "\\" in environ.get("HTTP_COOKIE", ""):
        return False
    content_type = environ.get("CONTENT_TYPE", "")
    if content_type and not request.is_json:
        return False
    if not storable("".join([k + v for k, v in environ.items() if type(v) is str and (
            k.startswith("HTTP_") or k in ("CONTENT_TYPE", "CONTENT_LENGTH"))])):
        return False
    return not content_type or _ESCAPED.search(request.get_data(cache=True)) is None


# A JSON escape that decodes to a NUL or a surrogate, or a NUL byte (UTF-16 or -32 JSON).
_ESCAPED = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])|\x00")


def unstorable_input() -> RuleError | None:
    """The refusal of the first text this request brings that cannot be stored, or None."""
    if _all_storable_fast():
        return None
    for name, value in request.headers.items():
        if not storable(name) or not storable(value):
            return RuleError(None, UNSTORABLE_HEADER, header=name if storable(name) else "?")
    # A cookie's value may be quoted with octal escapes ("\\000"): a NUL only once read.
    if not all(storable(k) and storable(v) for k, v in request.cookies.items(multi=True)):
        return RuleError(None, UNSTORABLE_HEADER, header="Cookie")
    for fields in (request.args, request.form):
        for key, value in fields.items(multi=True):
            if not storable(key):
                return refusal(None)
            if not storable(value):
                return refusal(key)
    for key, upload in request.files.items(multi=True):
        if not storable(key) or not storable(upload.filename or ""):
            return RuleError(None, UNSTORABLE_FILE)
    if request.is_json:
        return unstorable(request.get_json(silent=True))
    return None


def init_app(app: Flask) -> None:
    """Look at every screen's request before its view; the API looks in its runner."""

    @app.before_request
    def refuse_unstorable_text():
        if is_api():
            return None
        if path_names_nothing(request.view_args):
            abort(404)
        err = unstorable_input()
        if err is None:
            return None
        return error_response(rule_message(err), STATUS)
