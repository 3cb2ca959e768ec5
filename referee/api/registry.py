"""The routes of /api/v1, each declared once as an operation of the OpenAPI document.

``ApiBlueprint.operation`` registers a Flask route and records what the document says of
it: the method and path, the summary (the view's docstring), the request model, the query
model and the response model per status. The same declaration runs the call: it asks for
the bearer token, answers 404 for an id too large to name anything, reads the body with
its model and hands it to the view, so what is documented is what is checked.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, g, request
from flask_babel import gettext
from pydantic import BaseModel

from referee.api.models import OUT_OF_RANGE, SQLITE_MAX, Body, out_of_range
from referee.rules import RuleError
from referee.store import referees, settings
from referee.web.context import found_or_404, get_db
from referee.web.errors import error_response
from referee.web.i18n import rule_message
from referee.web.storable import path_names_nothing, unstorable_input

PREFIX = "/api/v1"
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
# What any call may answer besides its own answers: no token, nothing there, refused.
ERRORS = (401, 404, 422)


@dataclass(frozen=True)
class Operation:
    """One call as the document shows it."""

    method: str                     # "post"
    rule: str                       # the Flask rule: /api/v1/duels/<int:duel_id>
    endpoint: str                   # "api_duels.play_round"
    summary: str
    answers: dict[int, Any]         # status → response model, [model] for a list, or None
    body: type[Body] | None = None
    body_required: bool = True
    query: type[BaseModel] | None = None  # a model whose fields are the query parameters
    public: bool = False            # no bearer token needed
    errors: tuple[int, ...] = ERRORS
    deprecated: bool = False        # an old path kept for clients: use the new one
    idempotent: bool = False        # takes an optional Idempotency-Key header (web.once)

    @property
    def path(self) -> str:
        """The OpenAPI path: /api/v1/duels/{duel_id}."""
        return _PARAM.sub(r"{\2}", self.rule)

    @property
    def path_parameters(self) -> list[tuple[str, str]]:
        """Each path parameter's name and converter (int, string…)."""
        return [(name, kind or "string") for kind, name in _PARAM.findall(self.rule)]


def _first_paragraph(doc: str | None) -> str:
    return " ".join((doc or "").strip().split("\n\n")[0].split())


def bearer_referee() -> dict | None:
    """The referee whose token came as `Authorization: Bearer <token>`, if any."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    db = get_db()
    # read once a call: the token's account and the public URL of its answer are known
    # from memory at this tally (store.settings.config_tally)
    g.config_tally = tally = settings.config_tally(db)
    return referees.by_token(db, token.strip(), tally)


def _read(op: Operation):
    """The request body read with the operation's model (an absent optional body is {})."""
    data = request.get_json(silent=True)
    if not op.body_required and not isinstance(data, dict):
        data = {}
    assert op.body is not None  # called for an operation with a body only
    return op.body.read(data)


class ApiBlueprint(Blueprint):
    """A blueprint of /api/v1 whose every route is an operation of the document."""

    def __init__(self, name: str, import_name: str, url_prefix: str = PREFIX) -> None:
        super().__init__(name, import_name, url_prefix=url_prefix)
        self.operations: list[Operation] = []

    def operation(self, method: str, rule: str, answers: dict[int, Any], *,
                  body: type[Body] | None = None, body_required: bool = True,
                  query: type[BaseModel] | None = None, public: bool = False,
                  errors: tuple[int, ...] = ERRORS,
                  load: Callable[[Any, int], object | None] | None = None,
                  load_late: bool = False, old: str | None = None) -> Callable:
        """Declare and route one call. ``load`` finds the object the path's id names, so
        that an unknown one is 404 before its body is read; the view gets ``body``.
        ``old`` is the path the call had before (it keeps working, marked deprecated).
        ``load_late``: the view reads the object in its own transaction and refuses one
        that is not there, so ``load`` runs only when the call is refused (a body that
        does not read, a rule): the answer is the same 404, and a tap reads its player
        once."""

        def decorate(view: Callable) -> Callable:
            for path, name, deprecated in ((rule, view.__name__, False),
                                           (old, f"{view.__name__}_old", True)):
                if path is None:
                    continue
                op = Operation(method=method, rule=(self.url_prefix or "") + path,
                               endpoint=f"{self.name}.{name}",
                               summary=_first_paragraph(view.__doc__),
                               answers=answers, body=body, body_required=body_required,
                               query=query, public=public, errors=errors,
                               deprecated=deprecated,
                               idempotent=getattr(view, "idempotent", False))
                self.operations.append(op)
                self.add_url_rule(path, name, _runner(op, view, load, load_late),
                                  methods=[method.upper()])
            return view

        return decorate


def _runner(op: Operation, view: Callable, load: Callable | None,
            load_late: bool = False) -> Callable:
    def found(path: dict) -> None:
        if load is not None:
            found_or_404(load, *(v for k, v in path.items() if k != "body"))

    @functools.wraps(view)
    def run(**path):
        try:
            return checked(path)
        except RuleError:
            if load_late:
                found(path)  # a refusal of an object not there is its 404, as before
            raise

    def checked(path: dict):
        if not op.public:
            g.api_referee = bearer_referee()
            if g.api_referee is None:
                abort(401)
        if any(type(v) is int and v > SQLITE_MAX for v in path.values()) \
                or path_names_nothing(path):
            abort(404)  # SQLite holds no id that large, nor text with a NUL
        if not load_late:
            found(path)
        unstorable = unstorable_input()
        if unstorable is not None:
            # A NUL or a lone surrogate anywhere in the call, answered as a body
            # of the wrong shape is (400 where the call says so, else 422), before the view.
            malformed = op.body is not None and op.body.malformed is not None
            if load_late:
                found(path)
            return error_response(rule_message(unstorable), 400 if malformed else 422)
        if op.body is not None:
            try:
                path["body"] = _read(op)
            except RuleError:
                if op.body.malformed is None:
                    raise
                if load_late:
                    found(path)
                return error_response(gettext(op.body.malformed), 400)
        try:
            return view(**path)
        except OverflowError:
            # A whole number beyond SQLite's INTEGER reached the database (as an id, most
            # often): it names nothing. Caught here rather than refused up front so that
            # a value the rules read without storing keeps its own answer.
            name = out_of_range(request.get_json(silent=True))
            if name is None:
                raise
            raise RuleError(None, OUT_OF_RANGE, field=name, low=-SQLITE_MAX - 1,
                            high=SQLITE_MAX) from None

    return run
