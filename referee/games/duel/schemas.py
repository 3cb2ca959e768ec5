"""The card duel's request and response bodies (D3–D14)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from referee.api.models import Body, Checked, GameAnswer, Versioned

Side = Literal["a", "b"]


class DuelStart(Body):
    """The two duelists, registry player ids; both pay their cartridge (D4)."""

    a: int
    b: int


class DuelPlayIn(Body):
    """One side's play in a round."""

    table: str = Field(description="The table card, any D3 notation (10S, Д♠, дама пик)")
    hand: str | None = Field(None, description="A duel-deck card laid over it (D7), or null")
    tokens: int = Field(0, ge=0, description="Chance tokens spent (D8)")


class DuelRoundIn(Versioned):
    """Both sides' plays of a round (D6–D11)."""

    a: Annotated[DuelPlayIn, Checked()]
    b: Annotated[DuelPlayIn, Checked()]


class DuelDecisionIn(Versioned):
    """The D12 decision of each side: true continues and pays a cartridge."""

    a: bool
    b: bool


class DuelPlay(BaseModel):
    """A side's play as recorded, cards canonical."""

    table: str | None = Field(
        description="The table card; null when a hand card covered it before the referee "
                    "read it on the screen (D7: only the hand card counts)")
    hand: str | None
    tokens: int
    total: int


class DuelRound(BaseModel):
    """A round with its winner (null: tied)."""

    n: int
    a: DuelPlay
    b: DuelPlay
    winner: Side | None


class DuelResult(BaseModel):
    """How the duel ended."""

    winner: Side | None
    reason: Literal["rounds", "heavy_wound", "extension", "draw"]


class DuelDecision(BaseModel):
    """One D12 decision."""

    a: bool
    b: bool


class DuelSide(BaseModel):
    """D14: a duelist before and after."""

    player: int
    suit: str
    hp_before: int
    hp_after: int
    chance_before: int
    chance_after: int
    cartridges_paid: int
    table_cards: list[str] = Field(
        description="The table cards read in this duel, in order (D6); a card a hand card "
                    "covered unread is not among them")
    surrendered: list[str]
    heavy_wound: bool


class Duel(GameAnswer):
    """A duel with its rounds and result."""

    version: int = Field(description="Counts the duel's log entries")
    a: int = Field(description="Player id of duelist a")
    b: int = Field(description="Player id of duelist b")
    status: Literal["in_progress", "extension", "finished", "cancelled"] = Field(
        description="cancelled: the start was undone")
    rounds: list[DuelRound]
    result: DuelResult | None
    awaiting: Literal["round", "extension"] | None = Field(
        None, description="What is entered next")
    extensions: Annotated[list[DuelDecision], Field(description="D12 decisions in order")] = None
    duelists: dict[Side, DuelSide] | None = Field(
        None, description="D14: per side hp/chance before and after, cartridges paid, "
                          "table cards, surrendered cards, heavy wound")


class DuelStale(Duel):
    """A stale version: nothing applied; the fresh duel with a sentence."""

    error: str
