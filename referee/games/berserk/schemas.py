"""Berserk-style battles' request bodies: decks, squads, battles, strikes (B1–B14), and
the types their answers share (answers.py). The engine checks every value and refuses a
wrong one with its rule."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, create_model

from referee.api.models import Body, Versioned
from referee.games.berserk.documents import NAME_LIMIT
from referee.games.berserk.game import SETTING_GROUPS, SETTING_LIMIT
from referee.games.berserk.registered import COUNT_LIMIT
from referee.games.berserk.squads import CARD_LIMIT, X_LIMIT

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

# create_model's field definitions: (type, default or Field) by name
_SETTINGS: dict[str, Any] = {
    key: ((bool, None) if key == "strike_taps_attacker" else
          (int, Field(None, ge=0, le=SETTING_LIMIT, description=rule)))
    for rule, keys in SETTING_GROUPS for key in keys}
BerserkSettings = create_model(
    "BerserkSettings", __base__=Body, __module__=__name__,
    __doc__="The published rules' numbers an event may change (left out = published value)",
    **_SETTINGS)


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
    name: str = Field("", max_length=NAME_LIMIT)
    deck: str = Field(description="The deck file its cards come from")
    cards: DeckCounts
    settings: BerserkSettings | None = None


class DeckChange(Versioned):
    """What changes in a registered deck (it stays its player's); fields left out keep
    their value."""

    name: str = Field(None, max_length=NAME_LIMIT)
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
    strike: Annotated[list[int], Field(min_length=3, max_length=3)] = None
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
