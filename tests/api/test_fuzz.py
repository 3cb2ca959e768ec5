"""Schemathesis fuzzes every documented operation of /api/v1 on a seeded world, with
requests that follow the document and some that break it: no answer is a 5xx, and every
answer (status, content type, body) is what the document says."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
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
EXAMPLES = 15  # per operation: with the walk of test_conformance.py, ~20 s of CPU in all
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
    @settings(max_examples=FEWER.get((method, path), EXAMPLES), deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    def fuzz(case):
        case.call_and_validate(headers=world.headers, checks=CHECKS)

    fuzz()
