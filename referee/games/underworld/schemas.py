"""Castle games' request and response bodies (Underworld, U1–U17).

The actions are the engine's own dataclasses (``underworld.rules.ACTIONS``): each becomes
one shape of the action body, named by its ``kind``, so a new engine action is
documented without anyone writing it here.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, create_model

from referee.api.models import Answer, Body, Checked, Error, GameAnswer, GameName, Versioned
from referee.api.schemas import Player
from referee.games.underworld.rules import ACTIONS, Action

# Action fields naming a player: the registry id may be sent as a number or as text.
PLAYER_FIELDS = ("player", "helper", "fighter", "challenger", "defender", "partner", "giver",
                 "receiver")
_TYPES = {"str": str, "int": int, "bool": bool}
Status = Literal["in_progress", "finished"]


class CastleSetup(Body):
    """Start a castle game (U4)."""

    players: list[int] = Field(min_length=2, max_length=6,
                               description="Registry player ids in turn order")
    castle: str = Field("castle-sample", description="A castle deck file name")
    classes: str = Field("classes-sample", description="A class deck file name")
    starting: dict[str, Annotated[list[str], Field(min_length=4, max_length=4)]] = Field(
        description="Player id → 4 castle cards, each a code (M07) or an unambiguous part "
                    "of a name")
    passport_levels: bool = Field(False, description="Start at the passport levels (1–9) "
                                                     "and write every level change back "
                                                     "to the players")
    title: str = Field("", max_length=80)


def _field_type(name: str, kind: str) -> Any:
    if name in PLAYER_FIELDS:
        return str | int
    return _TYPES.get(kind, list[str])


def _variant(cls: type[Action]) -> type[Versioned]:
    """One engine action as a body: ``kind`` plus the dataclass's fields."""
    defined: dict[str, Any] = {"kind": (Literal[cls.kind], ...)}
    for f in fields(cls):
        default = ... if f.default is MISSING else Field(default_factory=lambda d=f.default: d)
        # The engine's annotations are text (``from __future__ import annotations``): "int"
        defined[f.name] = (_field_type(f.name, str(f.type)), default)
    doc = " ".join((cls.__doc__ or "").split())
    if not doc.startswith(cls.rule):
        doc = f"{cls.rule}: {doc}"
    return create_model(cls.kind, __base__=Versioned, __module__=__name__, __doc__=doc,
                        **defined)


class CastleAction(Versioned):
    """An engine action; player fields are registry ids (number or text)."""

    model_config = ConfigDict(extra="allow")
    variants = tuple(_variant(cls) for cls in ACTIONS.values())


class QuickFightIn(Body):
    """A fight from numbers alone on a registry player's level (U7–U8)."""

    player: int
    bonuses: int | str | list[int] = Field(0, description='3, "2+1-1" or [2, 1, -1]')
    strength: int = Field(ge=0, le=99)
    version: Annotated[int | None, Checked(), Field(
        description="The player's version the client saw; another one gets 409")] = None


class CastleSeat(Answer):
    """A seat in turn order; engine_id is the id used in the state and in actions."""

    id: int
    engine_id: str
    character: str
    seat: int


class CastleSetupShown(Answer):
    """The setup as stored."""

    castle: str
    classes: str
    passport_levels: bool
    starting: dict[str, list[str]]
    levels: dict[str, int] | None


class CastleAwaiting(Answer):
    """What happens next."""

    phase: str = Field(description="draw, playoff, fight, event, challenge, step_over, "
                                   "class_change, cleanup or over")
    player: str = Field(description="Whose turn it is (engine id)")
    step: int = Field(description="The step of the turn (1 or 2)")
    may_step_again: bool
    fighters: list[str]
    discard: int
    winner: str | None


class CastleAllowed(Answer):
    """A kind of action allowed now and who takes it (null: the referee)."""

    action: str
    player: str | None


class CastleLevel(Answer):
    """A level an action moved."""

    name: str
    before: int
    after: int


class CastleRecordLine(Answer):
    """One action row as a sentence, with the levels it moved."""

    seq: int
    at: datetime
    referee: str | None
    text: str
    levels: list[CastleLevel]
    turn: str | None = Field(description="Whose turn began with it")
    winner: str | None
    undone: bool
    undo: bool


class CastleActionRow(Answer):
    """A live action as stored."""

    seq: int
    action: dict[str, Any]


class CastleState(Answer):
    """The engine state (underworld.rules.state_to_dict): levels, classes, inventories,
    play areas, the encounter and its breakdown."""

    phase: str
    turn: int
    step: int
    round: int
    active: str
    streak: int
    may_step: bool
    playoff: bool
    winner: str
    can_draw: bool
    event: str
    players: list[dict[str, Any]]
    encounter: dict[str, Any] | None
    breakdown: dict[str, Any] | None = Field(description="The pending fight's score, line "
                                                         "by line")
    castle: list[str]
    discard: list[str]
    class_deck: list[str]
    cards: list[dict[str, Any]]


class CastleGame(GameAnswer):
    """A castle game: row, seats, setup, state, what is allowed now, and the record."""

    version: int = Field(description="Counts the action rows")
    status: Status
    title: str = None
    players: list[CastleSeat]
    setup: CastleSetupShown = None
    awaiting: CastleAwaiting
    allowed: list[CastleAllowed]
    winner: str | None = None
    state: CastleState
    record: list[CastleRecordLine] = Field(description="Every action row, newest first")
    actions: list[CastleActionRow] = None


class CastleStale(CastleGame):
    """A stale version: nothing applied; the fresh game with a sentence."""

    error: str


class CastlePlayer(Answer):
    """A seated registry player."""

    id: int
    character: str


class CastleGameRow(Answer):
    """A castle game in a list: its row and seats (GET /castle/<id> gives the state)."""

    id: int
    name: GameName
    version: int
    status: Status
    title: str = None
    players: list[CastlePlayer] = None
    created_at: datetime = None
    updated_at: datetime = None


class QuickFight(Answer):
    """The fight's result and the player after it."""

    outcome: Literal["win", "loss", "draw"]
    score: int
    strength: int
    level_before: int
    level: int
    event_id: int | None
    player: Player


class QuickFightStale(Error):
    """The player changed since the client saw them: nothing applied; the player as they
    stand."""

    player: Player
