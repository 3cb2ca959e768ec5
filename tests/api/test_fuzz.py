"""Schemathesis fuzzes every documented operation of /api/v1 on a seeded world, with
requests that follow the document and some that break it: no answer is a 5xx, and every
answer (status, content type, body) is what the document says. Then text that cannot be
stored is dropped into every operation's calls: refused, said, and
nothing written."""

from __future__ import annotations

import copy
import itertools
import json
import sqlite3

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from referee.api import core
from referee.api import stations as stations_api
from referee.games.berserk import api as berserk_api
from referee.games.coup import api as coup_api
from referee.games.duel import api as duel_api
from referee.games.underworld import api as underworld_api
from tests.api.conftest import path_ids

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
EXAMPLES = 10  # per operation: with the walk of test_conformance.py, ~15 s of CPU in all
# Each token request checks a password hash, slow by design: a few tries say enough.
FEWER = {("post", "/api/v1/token"): 3}
# Schemathesis leaves out the document's own operation; the walk in test_conformance.py
# checks it.
OPERATIONS = [(op.method, op.path) for module in (core, duel_api, coup_api, underworld_api,
                                                   berserk_api, stations_api)
              for op in module.bp.operations if op.path != "/api/v1/openapi.json"]


@pytest.fixture(scope="module")
def schema(world):
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", world.app)


def test_every_documented_operation_is_fuzzed(schema):
    documented = {(op.method.lower(), op.path) for op in
                  (result.ok() for result in schema.get_all_operations())}
    assert documented == set(OPERATIONS)


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_fuzzed_answers_match_the_document(world, schema, method, path):
    operation = schema[path][method]
    ids = path_ids(world, path) or None
    # Mostly real objects, so bodies reach the rules; sometimes any id at all; and some
    # requests that break the document (wrong types, missing fields), which must be
    # refused with a documented 4xx.
    strategy = st.one_of(operation.as_strategy(path_parameters=ids), operation.as_strategy(),
                         operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=ids))

    @given(case=strategy)
    @settings(max_examples=FEWER.get((method, path), EXAMPLES), deadline=None, database=None,
              derandomize=True,
              phases=[Phase.explicit, Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    def fuzz(case):
        case.call_and_validate(headers=world.headers, checks=CHECKS)

    fuzz()


# -- text that cannot be stored ----------------------------------------------------------

# Lone surrogates (a high one, a low one, a pair in the wrong order) and NULs, inside text
# of any kind; Cyrillic around them must not make the refusal go away.
BROKEN = ["\udfff", "\ud800", "\udbff", "\ude00\ud83d", "\x00", "\x00\x00"]
AROUND = st.text(st.sampled_from("aZ9 -кЖё😀"), max_size=3)
UNSTORABLE = st.builds(lambda a, bad, b: a + bad + b, AROUND, st.sampled_from(BROKEN), AROUND)
# A URL and a header cannot even carry a surrogate (the client must encode them): a NUL.
NUL_TEXT = st.sampled_from(["\x00", "a\x00", "\x00,b"])
HEADERS = ("Accept-Language", "Idempotency-Key", "X-Note")
BROKEN_EXAMPLES = 6  # per operation at least (more where it has more text fields): ~4 s
STORED_NOT = "contains a character that cannot be stored (NUL or a broken Unicode surrogate)"


def text_fields(doc: dict, schema: dict, path: tuple = (), seen: frozenset = frozenset()
                ) -> set[tuple]:
    """The paths of every string field the document gives a body, at any depth (an
    array's by its first item), whether the generated calls happen to send it or not."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return set()
        return text_fields(doc, doc["components"]["schemas"][name], path, seen | {name})
    found: set[tuple] = set()
    for option in (*schema.get("anyOf", ()), *schema.get("oneOf", ()), *schema.get("allOf", ())):
        found |= text_fields(doc, option, path, seen)
    kinds = schema.get("type", ())
    if path and "string" in ([kinds] if isinstance(kinds, str) else kinds):
        found.add(path)
    for name, inner in schema.get("properties", {}).items():
        found |= text_fields(doc, inner, (*path, name), seen)
    if isinstance(schema.get("items"), dict):
        found |= text_fields(doc, schema["items"], (*path, 0), seen)
    return found


def places(case, documented: list[tuple]) -> list[tuple]:
    """Where a call carries text: every string field the document gives its body and
    every string and field name the generated body holds, a field name added to it, each
    query parameter, and a few headers. What people type (a body's text, the query)
    weighs more than the rest."""
    found: list[tuple] = [("field", path) for path in documented] * 3
    stack: list[tuple[tuple, object]] = [((), case.body)] if case.body is not NOT_SET else []
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            found += [("value", path)] * 2
        elif isinstance(value, dict):
            found.append(("new key", path))
            for key, inner in value.items():
                found.append(("key", path, key))
                stack.append(((*path, key), inner))
        elif isinstance(value, list):
            stack.extend(((*path, i), inner) for i, inner in enumerate(value))
    found += [("query", name) for name in sorted(case.query or {})] * 3
    return found + [("header", name) for name in HEADERS]


def put(body: dict, path: tuple, text: str) -> None:
    """Set the field at ``path`` to ``text``, making the objects and arrays on the way."""
    here: dict | list = body
    for step, after in itertools.pairwise(path):
        fresh: dict | list = [] if type(after) is int else {}
        if type(step) is int:
            if not here:
                here.append(fresh)
            if type(here[0]) is not type(fresh):
                here[0] = fresh
            here = here[0]
        else:
            if type(here.get(step)) is not type(fresh):
                here[step] = fresh
            here = here[step]
    if type(path[-1]) is int:
        here[:1] = [text]
    else:
        here[path[-1]] = text


def drop(case, place: tuple, text: str, nul: str) -> dict:
    """The text put into the call at ``place``: what to send beside the world's headers.
    A body is sent as the bytes JSON makes of it (a surrogate as its ``\\udfff`` escape),
    not put back into the case, whose own checks of its body cannot encode one."""
    kind, where = place[0], place[1]
    if kind == "query":
        case.query = {**case.query, where: f"{case.query[where]}{nul}"}
        return {}
    if kind == "header":
        return {"headers": {where: f"en, {nul}" if where == "Accept-Language" else nul}}
    body = copy.deepcopy(case.body) if isinstance(case.body, (dict, list)) else {}
    if kind == "field":
        put(body if isinstance(body, dict) else {}, where, text)
    else:
        parent = body
        for step in where[:-1] if kind == "value" else where:
            parent = parent[step]
        if kind == "value":
            parent[where[-1]] += text
        elif kind == "key":
            parent[place[2] + text] = parent.pop(place[2])
        else:
            parent[text] = "x"
    return {"data": json.dumps(body).encode(), "headers": {"Content-Type": "application/json"}}


@pytest.fixture(scope="module")
def written(world):
    """How many commits the world's database has seen from other connections (a read of
    ``PRAGMA data_version`` on a connection of its own)."""
    conn = sqlite3.connect(world.app.config["DATABASE"])
    yield lambda: conn.execute("PRAGMA data_version").fetchone()[0]
    conn.close()


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_unstorable_text_anywhere_is_refused_and_nothing_is_written(world, schema, written,
                                                                     method, path):
    operation = schema[path][method]
    body = schema.raw_schema["paths"][path][method].get("requestBody")
    documented = sorted(text_fields(schema.raw_schema, body["content"]["application/json"][
        "schema"]), key=str) if body else []
    strategy = st.tuples(operation.as_strategy(path_parameters=path_ids(world, path) or None),
                         st.integers(0, 2**16), UNSTORABLE, NUL_TEXT)
    hit: list = []

    @given(drawn=strategy)
    @settings(max_examples=max(BROKEN_EXAMPLES, len(documented) + 2), deadline=None,
              database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    def refused(drawn):
        case, pick, text, nul = drawn
        where = places(case, documented)
        # The first examples go through the documented fields one by one, so that each
        # gets its turn however few examples run; then anywhere.
        turn = len(hit)
        place = ("field", documented[turn]) if turn < len(documented) else \
            where[pick % len(where)]
        hit.append(place[1])
        sent = drop(case, place, text, nul)
        headers = {**world.headers, **sent.pop("headers", {})}
        before = written()
        response = case.call_and_validate(headers=headers, checks=CHECKS, **sent)
        # 400 where the call answers a malformed body so (token, pairing), else 422
        assert response.status_code in (400, 422), (place, response.text[:300])
        assert STORED_NOT in response.json()["error"], (place, response.text[:300])
        assert written() == before, f"{place}: the refused call wrote to the database"

    refused()
    assert set(documented) <= set(hit)  # every string field of the document had its turn
