"""Coup tables' request and response bodies (C1–C10).

A step is one of the engine's actions, exactly as listed in the table's ``options``; the
engine (``coup.rules.codec``) checks its fields and refuses a malformed one with C4.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from referee.api.models import Answer, Body, GameAnswer, GameName, Versioned

PlayerRef = Annotated[str | int, Field(
    description="A seated player's registry id (the engine's player id), as text or number")]
# The engine's characters and declared actions (coup.rules.model: CHARACTERS, ACTIONS), in
# its order; tests/games/coup/test_api.py keeps the two lists the same.
Character = Literal["duchess", "assassin", "captain", "ambassador", "inquisitor", "countess"]
Declared = Literal["income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange",
                   "inquisitor_exchange", "examine"]
Status = Literal["in_progress", "finished"]


class CoupSetup(Body):
    """Registry players in clockwise seating order and how the table is played (C1–C4)."""

    players: list[int] = Field(min_length=2, max_length=8,
                               description="Registry player ids in seating order")
    variant: Literal["ambassador", "inquisitor"] = "ambassador"
    first: int | None = Field(None, description="Who starts (default: the first seat)")
    one_coin_start: bool = Field(False, description="C3: 2 players only, the starting "
                                                    "player takes 1 coin")
    title: str = Field("", max_length=120)


class CoupDeclare(Versioned):
    """C4, C5: the player whose turn it is declares an action (and its target)."""

    type: Literal["declare"]
    player: PlayerRef
    action: Declared
    target: PlayerRef | None = None


class CoupChallenge(Versioned):
    """C7: who challenges the claim; null: nobody does."""

    type: Literal["challenge"]
    challenger: PlayerRef | None = Field(None, description="null: nobody challenges")


class CoupReveal(Versioned):
    """C7: the challenged player shows the claimed card, or turns ``character`` up."""

    type: Literal["reveal"]
    player: PlayerRef
    character: Character
    shown: bool = Field(description="true: the claimed card was shown; false: "
                                    "`character` was turned face up")


class CoupBlock(Versioned):
    """C8: who blocks, claiming which character; null: nobody blocks."""

    type: Literal["block"]
    blocker: PlayerRef | None = Field(None, description="null: nobody blocks")
    character: Character | None = None


class CoupLoseInfluence(Versioned):
    """C9: the card a player turns face up."""

    type: Literal["lose_influence"]
    player: PlayerRef
    character: Character


class CoupExamineVerdict(Versioned):
    """C5 (Inquisitor): whether the examined card is swapped."""

    type: Literal["examine_verdict"]
    player: PlayerRef
    swap: bool


class CoupStep(Versioned):
    """One step of the table: exactly one of the objects in state.options (C4–C9)."""

    model_config = ConfigDict(extra="allow")
    variants = (CoupDeclare, CoupChallenge, CoupReveal, CoupBlock, CoupLoseInfluence,
                CoupExamineVerdict)


class CoupSeat(Answer):
    """A seat: coins, cards face up, influence left."""

    id: str = Field(description="The engine's player id (the registry id as text)")
    player_id: int
    name: str
    coins: int
    face_up: list[str]
    influence: int = Field(ge=0, le=2)
    out: bool


class CoupState(Answer):
    """The engine's table (coup.rules.codec.state_to_dict)."""

    game: Literal["coup"]
    variant: Literal["ambassador", "inquisitor"]
    characters: list[str]
    copies: int
    players: list[CoupSeat]
    supply: int
    total_coins: int
    court: int
    out_of_game: int
    face_up: dict[str, int] = Field(description="Cards face up per character")
    turn: str
    must_coup: bool
    step: str
    pending: dict[str, Any] | None = Field(description="The action being settled")
    loser: str | None
    shown: str | None
    awaiting: dict[str, Any] = Field(description="The question on screen: kind, players "
                                                 "who may answer, action, claim, …")
    legal_actions: list[dict[str, Any]]
    options: list[dict[str, Any]] = Field(description="Every legal step now, each a body "
                                                      "for POST …/actions")
    winner: str | None
    log: list[dict[str, Any]]


class CoupTable(GameAnswer):
    """A table: the row, the seats' names and the engine's state."""

    version: int = Field(description="Counts the stored steps and undos")
    status: Status
    title: str
    player_ids: list[int] = Field(description="Seats in clockwise order")
    names: dict[str, str] = Field(description="Engine player id → the character's name")
    record: list[str] = Field(description="The log of the table in the request's language")
    state: CoupState


class CoupTableRow(Answer):
    """A table in a list: its row only (GET /coup/<id> gives the whole state)."""

    id: int
    name: GameName
    version: int
    status: Status
    title: str
    created_at: datetime
    updated_at: datetime


class CoupStale(CoupTable):
    """A stale version: nothing applied; the fresh table with a sentence."""

    error: str
