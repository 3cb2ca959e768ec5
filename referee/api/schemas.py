"""Bodies of the players, events and token calls (the games declare theirs beside them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.api.models import Answer, Body, Checked, Reason
from referee.api.paging import LIMIT_MAX
from referee.rules import N_

# The API checks only that these are JSON whole numbers; the bounds shown are the
# service's, which refuses a value outside them in its own words.
WholeNumber = Annotated[int, Checked()]
SUIT = "S H D C, ♠ ♥ ♦ ♣ or a Russian suit name"


def bounds(low: int, high: int) -> Any:
    return Field(json_schema_extra={"minimum": low, "maximum": high})


class TokenRequest(Body):
    """A referee's name and password."""

    model_config = ConfigDict(extra="ignore")
    malformed: ClassVar[str | None] = N_("Send a JSON object with name and password.")

    name: Annotated[str, Checked(required=True)]
    password: Annotated[str, Checked(required=True)]


class Token(Answer):
    """A bearer token for `Authorization: Bearer <token>`."""

    token: str


class NewPlayer(Body):
    """A player to register; HP and chance start at their maximums."""

    character: str = Field(min_length=1, max_length=80)
    player: str = Field("", max_length=80)
    hp_max: Annotated[WholeNumber, bounds(1, 99)]
    chance_max: Annotated[WholeNumber, bounds(0, 99)]
    cartridges: Annotated[WholeNumber, bounds(0, 999)]
    suit: str = Field(description=SUIT)
    level: Annotated[WholeNumber, bounds(1, 10)] = 1
    notes: str = Field("", max_length=2000)
    reason: Reason = ""


class PlayerEdit(Body):
    """Fields to change; those left out keep their value."""

    character: str = Field(None, min_length=1, max_length=80)
    player: str = Field(None, max_length=80)
    hp_max: int = Field(None, ge=1, le=99)
    chance_max: int = Field(None, ge=0, le=99)
    suit: str = Field(None, description=SUIT)
    notes: str = Field(None, max_length=2000)
    reason: Reason = ""


class Stats(Body):
    """Stats to change (at least one) and why."""

    unknown: ClassVar[str] = N_("Unknown stat: %(field)s.")

    hp: int = None
    chance: int = None
    cartridges: int = None
    level: int = None
    reason: Reason = ""


class WithReason(Body):
    """Optional: why, in the referee's words."""

    model_config = ConfigDict(extra="ignore")

    reason: Reason = ""


class Player(Answer):
    """A player as the API shows it."""

    id: int
    character: str
    player: str
    hp: int = Field(ge=0)
    hp_max: int = Field(ge=1)
    chance: int = Field(ge=0)
    chance_max: int = Field(ge=0)
    cartridges: int = Field(ge=0)
    level: int = Field(ge=1, le=10)
    status: Literal["active", "heavy_wound", "dead"]
    suit: Literal["S", "H", "D", "C"]
    duel_deck: list[str] = Field(description="Duel-deck cards still held (D1), canonical "
                                             "codes")
    notes: str = None
    wounded_at: datetime | None = None
    version: int = None
    passport_url: str


class Change(BaseModel):
    """A field's value before and after."""

    before: Any = None
    after: Any = None


class Event(Answer):
    """An entry of the history."""

    id: int
    at: datetime
    referee: str | None
    player_id: int | None = None
    kind: str
    changes: dict[str, Change]
    reason: str = Field(description="The referee's words as written; a reason the app wrote "
                                    "(a duel round, a game step) in the language of "
                                    "Accept-Language.")
    undoes: int | None = None
    undone_by: int | None = None


def page_limit(description: str):
    """The ``limit`` of a paged list: 1 to the most a page holds (api.paging)."""
    return Field(None, ge=1, le=LIMIT_MAX, description=description)


class Search(BaseModel):
    q: str = Field(None, description="Part of a character's or player's name")
    limit: int = page_limit("At most this many players (default 500); the `Link` header's "
                            "rel=\"next\" gives the next page and `X-Total-Count` how many "
                            "match")
    after: int = Field(None, description="The page after this player id (the last one "
                                         "of the page before), in the list's name order")


class Page(BaseModel):
    before: int = Field(None, description="Only events older than this event id")
    limit: int = page_limit("At most this many events (default 100 for every referee's, "
                            "1000 for a player's); `Link` rel=\"next\" pages back, "
                            "`X-Total-Count` counts them all")


class PlayerFilter(BaseModel):
    player: int = Field(None, description="Only this player's (a registry player id)")


class GamePage(PlayerFilter):
    limit: int = page_limit("At most this many (the list's default if not given); `Link` "
                            "rel=\"next\" pages back, `X-Total-Count` counts them all")
    before: int = Field(None, description="Only games older than this one (its id)")
