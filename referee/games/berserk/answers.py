"""Berserk-style battles' answer bodies: cards and decks, squads and registered decks with
their counts and saves, battles with their log and outcomes (B1–B14)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from referee.api.models import Answer, GameAnswer
from referee.games.berserk.schemas import Level, Status


class BerserkCard(Answer):
    """A card's printed properties (B1–B5, B8); creatures also have movement and strike."""

    code: str
    name_en: str
    name_ru: str
    kind: str
    cost: int | Literal["X"]
    x: int = None
    elite: bool
    lives: int
    movement: int | str = Field(None, description="Squares, or flying")
    strike: list[int] | None = None
    elements: list[str]
    unique: bool
    text_en: str = None
    text_ru: str = None


class DeckCard(BerserkCard):
    """A card of a deck and how many copies the deck holds."""

    copies: int


class BerserkDeck(Answer):
    """A deck of Berserk-style cards."""

    name: str
    title_en: str
    title_ru: str
    cards: list[DeckCard]


class BerserkProblem(Answer):
    """A rule the squad breaks, with a sentence."""

    rule: str | None
    error: str


class CardCount(Answer):
    """How many copies of a card the squad holds."""

    code: str
    count: int


class BerserkSquadSummary(Answer):
    """Live counts of a squad (B12–B14)."""

    cards: int
    gold: int
    silver: int
    elite_cost: int
    ordinary_cost: int
    elements: list[str]
    element_penalty: int
    gold_used: int
    silver_used: int
    gold_left: int
    silver_left: int
    flyer_cost: int
    flyer_limit: int
    copies: list[CardCount]
    problems: list[BerserkProblem]
    ok: bool


class _Save(Answer):
    """One save of a player's squad or registered deck: who and when."""

    version: int
    at: datetime
    referee: str | None


class SquadEdit(_Save):
    """One save of a squad: who, when and what."""

    squad: dict[str, Any]


class _Held(Answer):
    """What a player's saved squad and registered deck both answer. Each declares its
    own required fields after ``deck``, so the document lists them in that order."""

    id: int
    player: int
    character: str = None
    name: str
    deck: str
    problems: Annotated[list[BerserkProblem], Field(
        description="Why the counts cannot be made")] = None
    created_at: datetime = None
    created_by: str | None = None
    updated_at: datetime = None
    updated_by: str | None = None


class BerserkSquad(_Held):
    """A saved squad with its counts as they are now."""

    seat: Literal["first", "second"]
    cards: list[dict[str, Any]] = Field(description="Picks: code, and x for a card of cost X")
    settings: dict[str, int | bool]
    version: int = Field(description="Counts the saves")
    summary: BerserkSquadSummary | None = None
    edits: Annotated[list[SquadEdit], Field(
        description="Every save, newest first (GET of one squad)")] = None
    registered_deck: int | None = Field(None, description="B14: the player's registered "
                                        "deck the squad is hired from; null when the "
                                        "player has registered none (the squad is then "
                                        "not checked against a deck)")


class BerserkSquadSaves(BerserkSquad):
    """A squad with its counts and every save, newest first."""

    edits: list[SquadEdit]


class BerserkSquadStale(BerserkSquad):
    """A stale version: nothing saved; the squad as it stands with a sentence."""

    error: str


class BerserkDeckSummary(Answer):
    """Live counts of a deck (B14): cards against the limits, copies, problems."""

    cards: int
    deck_min: int
    deck_max: int
    max_copies: int
    max_unique_copies: int
    copies: list[CardCount]
    problems: list[BerserkProblem]
    ok: bool


class DeckEdit(_Save):
    """One save of a registered deck: who, when and what."""

    deck: dict[str, Any]


class BerserkRegisteredDeck(_Held):
    """A player's registered deck with its counts as they are now (B14)."""

    deck: str = Field(description="The deck file its cards come from")
    cards: list[dict[str, Any]] = Field(description="code and count of each card held")
    settings: dict[str, int | bool]
    version: int = Field(description="Counts the saves")
    summary: BerserkDeckSummary | None = None


class BerserkRegisteredDeckSaves(BerserkRegisteredDeck):
    """A registered deck with every save, newest first, and the player's squads."""

    edits: list[DeckEdit]
    squads: list[int] = Field(description="Ids of the player's squads, hired from this deck")


class BerserkRegisteredDeckStale(BerserkRegisteredDeck):
    """A stale version: nothing saved; the deck as it stands with a sentence."""

    error: str


class BerserkOutcome(Answer):
    """What a strike does."""

    attack_roll: int
    defence_roll: int | None
    strike: Level
    answer: Level
    wounds_to_target: int
    wounds_to_attacker: int
    may_lower: Literal["attacker", "target"] | None
    lowered: bool


class BerserkPreview(Answer):
    """One outcome, or two where the exchange may be lowered."""

    version: int
    outcomes: list[BerserkOutcome]


class BattleSquad(Answer):
    """The squad a side plays, as it was saved."""

    squad: int | None
    squad_version: int | None
    name: str | None
    deck: str | None


class BattleLogEntry(Answer):
    """One action of the battle."""

    seq: int
    at: datetime
    referee: str | None
    action: dict[str, Any] | None
    undone: bool
    outcome: BerserkOutcome | None
    deaths: list[str]


class BattleState(Answer):
    """The engine's battle (berserk.rules.state_to_dict)."""

    settings: dict[str, int | bool]
    creatures: list[dict[str, Any]] = Field(description="card, mods, wounds, tapped, dead, "
                                                        "effective, lives_left")
    living: dict[str, list[str]]
    winner: str | None
    allowed: dict[str, list[str]] = Field(description="Creature id → actions allowed now")
    last_strike: BerserkOutcome | None


class BerserkBattle(GameAnswer):
    """A battle: its creatures with their current properties, and its record."""

    version: int
    status: Status
    title: str = None
    players: dict[Literal["a", "b"], int] = Field(description="Player ids of sides a and b")
    squads: dict[Literal["a", "b"], BattleSquad] = None
    state: BattleState
    log: list[BattleLogEntry]


class BerserkBattleStale(BerserkBattle):
    """A stale version: nothing applied; the fresh battle with a sentence."""

    error: str
