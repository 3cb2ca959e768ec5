"""The OpenAPI 3.1 document of /api/v1, generated from the declared operations.

Every route of an ``ApiBlueprint`` is an operation; its request, query and response
models become the document's schemas (pydantic's JSON Schema, one component per model).
Nothing here is written by hand but the frame.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter

from referee import __version__
from referee.api.models import Error, Generator
from referee.api.registry import Operation

REF = "#/components/schemas/{model}"
ERROR = {"$ref": "#/components/responses/Error"}
_PATH_TYPES: dict[str, dict[str, Any]] = {"int": {"type": "integer", "minimum": 0},
                                          "string": {"type": "string"}}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _types(op: Operation) -> list:
    return [t for t in (op.body, *op.answers.values()) if t is not None]


def _description(kind: Any) -> str:
    """What an answer is: its model's docstring, or its items' for a list."""
    if get_origin(kind) is list:
        return "A list. Each: " + _description(get_args(kind)[0])
    if isinstance(kind, type) and issubclass(kind, BaseModel) and kind.__doc__:
        return kind.__doc__.strip().splitlines()[0]
    return "A JSON object"


def _path_parameters(op: Operation) -> list[dict]:
    return [{"name": name, "in": "path", "required": True,
             "schema": dict(_PATH_TYPES.get(kind, _PATH_TYPES["string"]))}
            for name, kind in op.path_parameters]


def _query_parameters(op: Operation) -> list[dict]:
    params = []
    if op.query is not None:
        props = op.query.model_json_schema(schema_generator=Generator)["properties"]
        for name, schema in props.items():
            schema = dict(schema)
            description = schema.pop("description", None)
            schema.pop("default", None)
            param = {"name": name, "in": "query", "required": False, "schema": schema}
            if description:
                param["description"] = description
            params.append(param)
    return params


IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "Optional. A call repeated with the same key creates nothing more: it "
                   "answers 201 with what the first call created, as it stands now, and "
                   "the header Idempotent-Replayed: true. 1 to 200 visible ASCII "
                   "characters (a UUID will do); another shape is refused (422).",
    "schema": {"type": "string", "pattern": "^[!-~]{1,200}$"}}


def _operation(op: Operation, schema: dict) -> dict:
    out: dict = {"operationId": op.endpoint, "summary": op.summary}
    if op.deprecated:
        out["deprecated"] = True
    if op.public:
        out["security"] = []
    params = _query_parameters(op) + ([IDEMPOTENCY_KEY] if op.idempotent else [])
    if params:
        out["parameters"] = params
    if op.body is not None:
        out["requestBody"] = {"required": op.body_required, **_json(schema[op.body])}
    responses = {str(code): {"description": _description(kind), **_json(schema[kind])}
                 for code, kind in op.answers.items()}
    for code in op.errors:
        responses.setdefault(str(code), ERROR)
    out["responses"] = dict(sorted(responses.items()))
    return out


def document(operations: Iterable[Operation]) -> dict:
    """The whole document for these operations."""
    operations = list(operations)
    kinds = list(dict.fromkeys([Error, *(t for op in operations for t in _types(op))]))
    generated, definitions = TypeAdapter.json_schemas(
        [(kind, "validation", TypeAdapter(kind)) for kind in kinds],
        ref_template=REF, schema_generator=Generator)
    schema = {kind: generated[(kind, "validation")] for kind in kinds}
    paths: dict[str, dict] = {}
    for op in operations:
        path = paths.setdefault(op.path, {})
        if params := _path_parameters(op):
            path["parameters"] = params  # shared by the path's operations, as in v1
        path[op.method] = _operation(op, schema)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Referee API", "version": __version__},
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "schemas": definitions.get("$defs", {}),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "responses": {"Error": {"description": "A refusal with a sentence",
                                    **_json({"$ref": REF.format(model="Error")})}},
        },
    }
