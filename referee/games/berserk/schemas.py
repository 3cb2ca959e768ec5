"""Berserk-style battles' request and response bodies: decks, squads, battles, strikes
(B1–B14). The engine checks every value and refuses a wrong one with its rule."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, create_model

from referee.api.models import Answer, Body, GameName, GameRules, Versioned
from referee.games.berserk.game import SETTING_GROUPS, SETTING_LIMIT
from referee.games.berserk.registered import COUNT_LIMIT
from referee.games.berserk.registered import NAME_LIMIT as DECK_NAME_LIMIT
from referee.games.berserk.squads import CARD_LIMIT, NAME_LIMIT, X_LIMIT

Creature = Annotated[str, Field(description="A creature's id in the battle: a1, a2, … for "
                                            "side a, b1, … for side b")]
Seat = Annotated[Literal["first", "second"], Field(
    description="B12: whose crystals the squad is built with")]
Level = Literal["none", "weak", "medium", "strong"]
Element = Literal["steppe", "forest", "mountains", "swamps", "darkness", "fire"]
Die = Annotated[int, Field(ge=1, le=6)]
Status = Literal["in_progress", "finished"]


class Pick(Body):
    """A card of the squad (their battle ids follow the order)."""

    code: str
    x: int = Field(None, ge=0, le=X_LIMIT, description="B2: only for a card of cost X")


Picks = Annotated[list[Pick], Field(max_length=CARD_LIMIT)]

BerserkSettings = create_model(
    "BerserkSettings", __base__=Body, __module__=__name__,
    __doc__="The published rules' numbers an event may change (left out = published value)",
    **{key: ((bool, None) if key == "strike_taps_attacker" else
             (int, Field(None, ge=0, le=SETTING_LIMIT, description=rule)))
       for rule, keys in SETTING_GROUPS for key in keys})


class SquadCheck(Body):
    """A squad to count without saving it."""

    deck: str
    seat: Seat = "first"
    cards: Picks = Field(default_factory=list)
    settings: BerserkSettings | None = None
    player: int = Field(None, description="B14: also check the squad against this player's "
                                          "registered deck, if they have one")


class SquadNew(Body):
    """A squad to save for a player."""

    player: int
    name: str = Field("", max_length=NAME_LIMIT)
    deck: str
    seat: Seat = "first"
    cards: Picks
    settings: BerserkSettings | None = None


class SquadChange(Versioned):
    """What changes in a squad; fields left out keep their value."""

    player: int = None
    name: str = Field(None, max_length=NAME_LIMIT)
    deck: str = None
    seat: Seat = None
    cards: Picks = None
    settings: BerserkSettings | None = None


class BattleNew(Body):
    """Two saved squads of two players (a moves first); settings default to squad a's."""

    a: int
    b: int
    settings: BerserkSettings | None = None


class DeckCount(Body):
    """A card of a registered deck and how many copies it holds (each card once)."""

    code: str
    count: int = Field(ge=0, le=COUNT_LIMIT)


DeckCounts = Annotated[list[DeckCount], Field(max_length=CARD_LIMIT)]


class DeckCheck(Body):
    """A deck to count against B14 without registering it."""

    deck: str = Field(description="The deck file its cards come from")
    cards: DeckCounts = Field(default_factory=list)
    settings: BerserkSettings | None = None


class DeckNew(Body):
    """A player's deck to register (one a player); refused unless it keeps B14."""

    player: int
    name: str = Field("", max_length=DECK_NAME_LIMIT)
    deck: str = Field(description="The deck file its cards come from")
    cards: DeckCounts
    settings: BerserkSettings | None = None


class DeckChange(Versioned):
    """What changes in a registered deck (it stays its player's); fields left out keep
    their value."""

    name: str = Field(None, max_length=DECK_NAME_LIMIT)
    deck: str = None
    cards: DeckCounts = None
    settings: BerserkSettings | None = None


class Modification(Body):
    """B6, B9. overwrite: any of cost, elite, lives, movement, strike [X,Y,Z]; lives:
    amount (+/−); halve: props (cost, lives, movement, strike) and round_up; gain / become /
    lose: element. source (optional, B7): what made the effect, e.g. a creature id."""

    model_config = ConfigDict(extra="ignore")

    op: Literal["overwrite", "lives", "halve", "gain", "become", "lose"]
    cost: int = None
    elite: bool = None
    lives: int = None
    movement: int = None
    strike: list[int] = Field(None, min_length=3, max_length=3)
    amount: int = None
    props: list[Literal["cost", "lives", "movement", "strike"]] = None
    round_up: bool = True
    element: Element = None
    source: str = Field(None, max_length=60)


class ModifyIn(Versioned):
    """A change of a creature's properties or elements."""

    creature: Creature
    modification: Modification


class Rolled(Body):
    """A simple strike as rolled (B11)."""

    attacker: Creature
    target: Creature
    attacker_die: Die
    defender_die: Die | None = Field(None, description="null when the target does not roll "
                                                       "(tapped, an artifact, or it cannot "
                                                       "answer)")
    attacker_die_mod: int = 0
    defender_die_mod: int = 0
    strike_mod: int = Field(0, description="Added to the wounds of the attack")
    answer_mod: int = Field(0, description="Added to the wounds of the answer")


class PreviewIn(Rolled):
    """A strike to preview; nothing is stored, so a version sent is not checked."""

    version: int | None = Field(None, description="Not checked: nothing is stored")


class StrikeIn(Versioned, Rolled):
    """A simple strike as rolled, and whether the exchange is lowered (B11)."""

    lower: bool = Field(False, description="Where both strike, the stronger side lowers "
                                           "both one step")


class BattleModify(ModifyIn):
    """{type: modify}: as POST …/modifications."""

    type: Literal["modify"]


class BattleStrike(StrikeIn):
    """{type: strike}: as POST …/strikes."""

    type: Literal["strike"]


class BattleWound(Versioned):
    """Wounds dealt to a creature (B10 deaths at once)."""

    type: Literal["wound"]
    creature: Creature
    amount: int


class BattleTap(Versioned):
    """Tap or untap a creature."""

    type: Literal["tap", "untap"]
    creature: Creature


class BattleEndEffects(Versioned):
    """End the effects a source made on a creature (B7)."""

    type: Literal["end_effects"]
    creature: Creature
    source: str


class BattleAction(Versioned):
    """Any battle action: wound, tap, untap, end_effects (also modify and strike)."""

    model_config = ConfigDict(extra="allow")
    variants = (BattleWound, BattleTap, BattleEndEffects, BattleModify, BattleStrike)


# Answers ----------------------------------------------------------------------------


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


class SquadEdit(Answer):
    """One save of a squad: who, when and what."""

    version: int
    at: datetime
    referee: str | None
    squad: dict[str, Any]


class BerserkSquad(Answer):
    """A saved squad with its counts as they are now."""

    id: int
    player: int
    character: str = None
    name: str
    deck: str
    seat: Literal["first", "second"]
    cards: list[dict[str, Any]] = Field(description="Picks: code, and x for a card of cost X")
    settings: dict[str, int | bool]
    version: int = Field(description="Counts the saves")
    summary: BerserkSquadSummary | None = None
    problems: list[BerserkProblem] = Field(None, description="Why the counts cannot be made")
    created_at: datetime = None
    created_by: str | None = None
    updated_at: datetime = None
    updated_by: str | None = None
    edits: list[SquadEdit] = Field(None, description="Every save, newest first (GET of one "
                                                     "squad)")
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


class DeckEdit(Answer):
    """One save of a registered deck: who, when and what."""

    version: int
    at: datetime
    referee: str | None
    deck: dict[str, Any]


class BerserkRegisteredDeck(Answer):
    """A player's registered deck with its counts as they are now (B14)."""

    id: int
    player: int
    character: str = None
    name: str
    deck: str = Field(description="The deck file its cards come from")
    cards: list[dict[str, Any]] = Field(description="code and count of each card held")
    settings: dict[str, int | bool]
    version: int = Field(description="Counts the saves")
    summary: BerserkDeckSummary | None = None
    problems: list[BerserkProblem] = Field(None, description="Why the counts cannot be made")
    created_at: datetime = None
    created_by: str | None = None
    updated_at: datetime = None
    updated_by: str | None = None


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


class BerserkBattle(Answer):
    """A battle: its creatures with their current properties, and its record."""

    id: int
    name: GameName
    rules: GameRules = Field(None, description="Not in lists: GET the game")
    version: int
    status: Status
    title: str = None
    players: dict[Literal["a", "b"], int] = Field(description="Player ids of sides a and b")
    squads: dict[Literal["a", "b"], BattleSquad] = None
    state: BattleState
    log: list[BattleLogEntry]
    created_at: datetime = None
    updated_at: datetime = None


class BerserkBattleStale(BerserkBattle):
    """A stale version: nothing applied; the fresh battle with a sentence."""

    error: str
