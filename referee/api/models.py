"""Request and response bodies of /api/v1, declared once as pydantic models.

A request model is both what the API reads and what the OpenAPI document shows. The API
itself checks the shape of a body: that it is an object, that it has no unknown field,
and the fields marked ``Checked`` (a version, a reason, whole numbers). Every other value
is handed on as sent, so that the rules refuse a wrong card, die or seat in their own
words and with their rule id (D8, C4, U5…), the same refusal as on the screen; the
document still names its type. A field without a default is required in the document;
when it is missing the rules refuse that too.

A response model describes what a call answers. The answers themselves are built by each
area's ``*_json`` function; the tests check every real answer against these models.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, TypeAdapter, ValidationError
from pydantic.json_schema import GenerateJsonSchema

from referee.rules import N_, RuleError

SQLITE_MAX = 2**63 - 1  # the largest INTEGER SQLite stores; an id above it names nothing

NOT_AN_OBJECT = N_("Send a JSON object in the request body.")
UNKNOWN_FIELD = N_("Unknown field: %(field)s.")
REQUIRED = N_("%(field)s is required.")
WHOLE_NUMBER = N_("%(field)s must be a whole number.")
REASON_TEXT = N_("%(field)s must be text of at most 200 characters.")
OUT_OF_RANGE = N_("%(field)s must be between %(low)s and %(high)s.")

_STRICT = ConfigDict(strict=True)


@dataclass(frozen=True)
class Checked:
    """Marks a field the API checks itself, strictly by its JSON type: a wrong value is
    refused with ``message``; with ``required`` a missing one is refused too. On a nested
    body it means that body's own fields are checked when an object is sent."""

    message: str = WHOLE_NUMBER
    required: bool = False


def _drop_defaults(schema: dict[str, Any]) -> None:
    """An answer has no defaults: a field is either there or not promised."""
    for prop in schema.get("properties", {}).values():
        prop.pop("default", None)


def _drop_none_defaults(schema: dict[str, Any]) -> None:
    """A field left out of a request is not null: it is simply not sent."""
    for prop in schema.get("properties", {}).values():
        if "default" in prop and prop["default"] is None:
            del prop["default"]


class Answer(BaseModel):
    """A response body. Fields with a default are not promised in every answer."""

    model_config = ConfigDict(json_schema_extra=_drop_defaults)


# Every game's answer, in a list or alone (referee.api.games adds it): the name the
# screens and the feed give the game.
GameName = Annotated[str, Field(description=(
    "What referees call the game, in the language of Accept-Language: its kind and its "
    "number in that kind (\"Duel 3\", \"Coup table 2\"), with the station's name for a "
    "game made on another station (\"Battle 4 (station Tavern)\")"))]


class UnreadStep(Answer):
    """A step recorded under earlier rules that today's cannot replay, as recorded."""

    seq: int
    action: dict[str, Any]
    at: datetime
    referee: str | None


class GameRules(Answer):
    """Under which reading of its kind's rules a game is read and played. A game keeps the
    reading it started under; a game recorded under an earlier one is shown and goes on
    as recorded, never re-judged by today's rules."""

    reading: int = Field(description="The reading the game's steps are read under")
    today: int = Field(description="The reading new games of this kind are played under")
    earlier: bool = Field(description=(
        "Recorded under earlier rules: today's would read its steps otherwise"))
    unread: list[UnreadStep] = Field(description=(
        "Steps no reading the app still knows can replay, from the first such one: shown "
        "as recorded; the game cannot go on until they are undone"))


class GameAnswer(Answer):
    """What every game's whole answer holds besides its own state: its id, the name it
    goes by, the reading of the rules it is read under, and when it was made and last
    changed."""

    id: int
    name: GameName
    rules: GameRules = Field(None, description="Not in lists: GET the game")
    created_at: datetime = None
    updated_at: datetime = None


class Body(BaseModel):
    """A request body; ``read`` checks a decoded JSON value against it."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_drop_none_defaults)
    # The sentence for fields the call does not know (a typo must change nothing).
    unknown: ClassVar[str] = UNKNOWN_FIELD
    # Set where a malformed body is answered 400 with this sentence instead of 422.
    malformed: ClassVar[str | None] = None
    # Set where the document shows a choice of shapes (one per action) for this body.
    variants: ClassVar[tuple[type[BaseModel], ...]] = ()
    _sent: dict = PrivateAttr(default_factory=dict)

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        if not cls.variants:
            return handler(core_schema)
        return {"description": (cls.__doc__ or "").strip(),
                "oneOf": [handler(v.__pydantic_core_schema__) for v in cls.variants]}

    @classmethod
    def read(cls, data: object) -> Self:
        """The body as sent, once it has the shape this model declares; else a RuleError."""
        if not isinstance(data, dict):
            raise RuleError(None, NOT_AN_OBJECT)
        if cls.model_config.get("extra") == "forbid":
            unknown = sorted(set(data) - set(cls.model_fields))
            if unknown:
                raise RuleError(None, cls.unknown, field=", ".join(unknown))
        for name, (mark, check) in _checks(cls).items():
            if name not in data:
                if mark.required:
                    raise RuleError(None, REQUIRED, field=name)
            elif isinstance(check, type) and issubclass(check, Body):
                if isinstance(data[name], dict):
                    check.read(data[name])
            else:
                try:
                    check.validate_python(data[name])
                except ValidationError:
                    raise RuleError(None, mark.message, field=name) from None
        # Unchecked values stay as sent; a field left out reads as its default (or None).
        known = {k: v for k, v in data.items() if k in cls.model_fields}
        left_out = {k: None for k, f in cls.model_fields.items()
                    if k not in data and f.is_required()}
        body: Self = cls.model_construct(_fields_set=set(known), **known, **left_out)
        body._sent = dict(data)
        return body

    def sent(self, *leave_out: str) -> dict:
        """The body exactly as sent, without the fields named."""
        return {k: v for k, v in self._sent.items() if k not in leave_out}


@functools.cache
def _checks(model: type[Body]) -> dict[str, tuple[Checked, Any]]:
    """Per checked field: its mark and a strict validator (or the nested body model)."""
    found: dict[str, tuple[Checked, Any]] = {}
    for name, info in model.model_fields.items():
        mark = next((m for m in info.metadata if isinstance(m, Checked)), None)
        if mark is None:
            continue
        if isinstance(info.annotation, type) and issubclass(info.annotation, Body):
            found[name] = (mark, info.annotation)
        else:
            checked: Any = Annotated[(info.annotation, *info.metadata)]
            found[name] = (mark, TypeAdapter(checked, config=_STRICT))
    return found


def out_of_range(data: object) -> str | None:
    """The top-level field of a body that holds a whole number SQLite cannot store."""
    def too_big(value: object) -> bool:
        if isinstance(value, dict):
            return any(too_big(v) for v in value.values())
        if isinstance(value, list):
            return any(too_big(v) for v in value)
        return type(value) is int and not -SQLITE_MAX - 1 <= value <= SQLITE_MAX

    if isinstance(data, dict):
        return next((k for k, v in data.items() if too_big(v)), None)
    return None


class Generator(GenerateJsonSchema):
    """JSON Schema for the document: a property is named by its key, not by a title too."""

    def field_title_should_be_set(self, schema) -> bool:
        return False


# Fields every area uses --------------------------------------------------------------------

Version = Annotated[int | None, Checked(), Field(
    description="The version the client saw; another one gets 409 with the fresh state. "
                "Optional.")]
Reason = Annotated[str | None, Field(max_length=200), Checked(REASON_TEXT)]


class Versioned(Body):
    """A write made against the version the client saw."""

    version: Version = None


class Undo(Versioned):
    """Optional: the version the undo was made against."""


class Error(Answer):
    """A refusal with a sentence."""

    error: str
    rule: str = Field(None, description="Rule id, e.g. D7")
