"""The card duel's vocabulary: states, actions, records and refusal messages (D1–D14).

The engine that folds actions into states is :mod:`referee.rules.duel`; import from
there, it re-exports everything here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from referee.rules import N_
from referee.rules.cards import Card

SIDES: tuple[str, str] = ("a", "b")
REGULAR_ROUNDS = 3  # D10
HAND_SIZE = 3  # D5
IN_PROGRESS, EXTENSION, FINISHED = "in_progress", "extension", "finished"

# Refusals: what is wrong and what to do instead. Placeholders hold only codes, numbers
# and names, never words that need translating.

SAME_PLAYER = N_("A player cannot duel themselves; choose two different players.")
CANNOT_FIGHT = N_(
    "%(player)s cannot fight (0 HP, heavily wounded or dead) and may not duel; choose a "
    "duelist who can fight."
)
NO_CARTRIDGE_START = N_(
    "%(player)s has no cartridge: each duelist pays one cartridge to start a duel, so "
    "this duel cannot start."
)
BAD_STATS = N_(
    "%(player)s's sheet has invalid numbers: HP, chance and cartridges must be whole "
    "numbers, 0 or more; correct the sheet first."
)
DECK_SHAPE = N_("%(player)s's duel deck must be a list of cards, e.g. 6H, 7H, AH.")
DECK_SUIT = N_(
    "%(card)s is not of %(player)s's suit %(suit)s: a duel deck holds only cards of its "
    "suit; correct the duel deck."
)
ACTION_SHAPE = N_("Unknown duel action: record a round or an extension decision.")
ROUND_SHAPE = N_(
    "A round needs, for each duelist, a table card, an optional hand card and a number of "
    "chance tokens."
)
NO_COUNTING_CARD = N_(
    "%(player)s has no counting card: enter the table card turned up, or the hand card "
    "laid over it."
)
TABLE_TWICE = N_(
    "%(card)s already turned up from %(player)s's table deck in this duel and cannot turn "
    "up again; enter the card actually turned up."
)
HAND_LIMIT = N_(
    "%(player)s has already laid %(limit)s hand cards in this duel, the whole hand; leave "
    "the hand card empty."
)
NO_HAND = N_(
    "%(player)s started this duel with an empty duel deck and so has no hand; leave the "
    "hand card empty."
)
HAND_SUIT = N_(
    "%(card)s is not in %(player)s's duel deck (%(suit)s): a hand card must come from "
    "one's own duel deck; lay one of %(cards)s or no hand card."
)
HAND_GONE = N_(
    "%(card)s was already surrendered by %(player)s and never comes back; lay one of "
    "%(cards)s or no hand card."
)
TOKENS_WHOLE = N_(
    "Chance tokens must be a whole number, 0 or more; enter how many tokens the duelist "
    "spent."
)
TOKENS_SHORT = N_(
    "Not enough chance tokens: %(player)s holds %(have)s, %(want)s asked; spend at most "
    "%(have)s."
)
OVER = N_("The duel is already over; start a new duel instead.")
DECIDE_FIRST = N_(
    "Round wins are equal: first record whether each duelist continues (paying a "
    "cartridge) or refuses."
)
NO_EXTENSION = N_(
    "No extension is open: a duel goes on only when round wins are equal after the "
    "regular rounds; record a round instead."
)
EXTENSION_SHAPE = N_(
    "An extension decision needs, for each duelist, yes (continues and pays a cartridge) "
    "or no (refuses)."
)
NO_CARTRIDGE_MORE = N_(
    "%(player)s has no cartridge left and cannot continue; record that %(player)s refuses."
)


@dataclass(frozen=True)
class Duelist:
    """A player's stats as the duel starts: the store's snapshot of the passport."""

    player: str | int
    hp: int
    chance: int
    chance_max: int
    cartridges: int
    duel_deck: tuple[str, ...]  # canonical codes still held (D1)
    suit: str
    can_fight: bool = True  # active (not heavily wounded, not dead)
    name: str = ""  # shown in messages; the player id when empty


@dataclass(frozen=True)
class Side:
    """One duelist during the duel: running stats and what they have laid."""

    start: Duelist
    hp: int
    chance: int
    cartridges: int
    duel_deck: tuple[str, ...]
    surrendered: tuple[str, ...] = ()  # hand cards laid in this duel (D1, D7)
    table_cards: tuple[str, ...] = ()  # turned up from this duelist's table deck (D6)
    cartridges_paid: int = 0
    heavy_wound: bool = False

    @property
    def label(self) -> str:
        return str(self.start.name or self.start.player)

    @property
    def suit(self) -> str:
        return self.start.suit

    @property
    def hand_limit(self) -> int:
        """D5: the hand holds three cards, fewer when the duel deck is smaller."""
        return min(HAND_SIZE, len(self.start.duel_deck))


@dataclass(frozen=True)
class Play:
    """What one duelist lays in a round: table card, optional hand card, chance tokens.

    One hand slot only: D7 forbids replacing a laid hand card by another in the round.
    ``table`` may be None when a hand card lies over it: only the hand card counts (D7),
    so a covered card the referee did not read is recorded as not read (D14), and D6's
    repeat check covers the table cards that were read.
    """

    table: str | Card | None
    hand: str | Card | None = None
    tokens: int = 0


@dataclass(frozen=True)
class Round:
    """Both duelists' plays of one round, entered together (D6, D7: at the same time)."""

    a: Play
    b: Play


@dataclass(frozen=True)
class Extension:
    """Each duelist's D12 decision: True continues (and pays a cartridge), False refuses."""

    a: bool
    b: bool


Action = Round | Extension


@dataclass(frozen=True)
class PlayRecord:
    """One duelist's part of a played round, in canonical codes (D14); ``table`` is None
    for a table card covered by the hand card and not read (D7)."""

    table: str | None
    hand: str | None
    tokens: int
    total: int


@dataclass(frozen=True)
class RoundRecord:
    """A played round (D14): ``winner`` is ``"a"``, ``"b"`` or None for a tie (D9)."""

    n: int
    a: PlayRecord
    b: PlayRecord
    winner: str | None


class Result(NamedTuple):
    """How a duel ended: winner ``"a"``/``"b"``/None; reason rounds, heavy_wound,
    extension or draw."""

    winner: str | None
    reason: str


@dataclass(frozen=True)
class DuelState:
    """A duel between side a and side b; rebuilt by folding its actions (D14)."""

    a: Side
    b: Side
    rounds: tuple[RoundRecord, ...] = ()
    extensions: tuple[tuple[bool, bool], ...] = ()  # D12 decisions, in order
    status: str = IN_PROGRESS
    result: Result | None = None

    def side(self, key: str) -> Side:
        """The duelist on side ``"a"`` or ``"b"``."""
        if key not in SIDES:
            raise ValueError(f"side must be 'a' or 'b', not {key!r}")
        return self.a if key == "a" else self.b

    def with_side(self, key: str, side: Side) -> DuelState:
        """This state with the duelist on side ``key`` replaced by ``side``."""
        return replace(self, a=side) if key == "a" else replace(self, b=side)


def is_blank(value: object) -> bool:
    """An empty form field: no card entered (None, or only whitespace)."""
    return value is None or (isinstance(value, str) and not value.strip())
