"""Coup: the characters, the state and the actions (``shared/rules/coup.md``, C1–C10).

The referee never sees a hidden card, so nothing here stores one: the state holds only
what the table says and shows — coins, claims, challenges, blocks, the card shown to win
a challenge and the cards turned face up.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.rules import N_

# C1: six characters exist; a game uses five (the Ambassador OR the Inquisitor).
CHARACTERS = ("duchess", "assassin", "captain", "ambassador", "inquisitor", "countess")
VARIANTS = ("ambassador", "inquisitor")
CHARACTER_NAMES = {
    "duchess": N_("Duchess"),
    "assassin": N_("Assassin"),
    "captain": N_("Captain"),
    "ambassador": N_("Ambassador"),
    "inquisitor": N_("Inquisitor"),
    "countess": N_("Countess"),
}

# C4/C5: the actions a player may declare on their turn.
ACTIONS = (
    "income",
    "foreign_aid",
    "coup",
    "tax",
    "assassinate",
    "steal",
    "exchange",
    "inquisitor_exchange",
    "examine",
)
ACTION_NAMES = {
    "income": N_("Income"),
    "foreign_aid": N_("Foreign aid"),
    "coup": N_("Coup"),
    "tax": N_("Tax (Duchess)"),
    "assassinate": N_("Assassinate (Assassin)"),
    "steal": N_("Steal (Captain)"),
    "exchange": N_("Exchange (Ambassador)"),
    "inquisitor_exchange": N_("Exchange one card (Inquisitor)"),
    "examine": N_("Examine a card (Inquisitor)"),
}
# C5: the character an action claims (income, foreign aid and coup claim none).
CLAIMS = {
    "tax": "duchess",
    "assassinate": "assassin",
    "steal": "captain",
    "exchange": "ambassador",
    "inquisitor_exchange": "inquisitor",
    "examine": "inquisitor",
}
TARGETED = frozenset({"coup", "assassinate", "steal", "examine"})
COSTS = {"coup": 7, "assassinate": 3}
# C4/C5: the characters that block an action; C8: any player blocks foreign aid, only
# the target blocks an assassination or a steal.
BLOCKERS = {
    "foreign_aid": ("duchess",),
    "assassinate": ("countess",),
    "steal": ("captain", "ambassador", "inquisitor"),
}
GAINS = {"income": 1, "foreign_aid": 2, "tax": 3}
STEAL = 2
FORCED_COUP = 10  # C6

# C2: 24 silver + 6 gold, one gold = 5 silver. The supply is counted in silver value,
# so coins (player coins + supply) always add up to 54.
TOTAL_COINS = 24 + 6 * 5
STARTING_COINS = 2
INFLUENCE = 2

# The steps of one turn: what the table must answer next.
DECLARE = "declare"
CHALLENGE = "challenge"
PROVE = "prove"
BLOCK = "block"
CHALLENGE_BLOCK = "challenge_block"
PROVE_BLOCK = "prove_block"
LOSE = "lose_influence"
EXAMINE = "examine"
OVER = "over"

# Why a player is losing an influence: it decides what happens after the card is turned.
COUP_LOSS = "coup"
ASSASSINATION_LOSS = "assassination"
CHALLENGE_LOSS = "challenge"
BLOCK_CHALLENGE_LOSS = "block_challenge"


@dataclass(frozen=True)
class Player:
    """One seat: coins (always visible, C2) and the cards turned face up (dead, C9)."""

    id: str
    coins: int
    face_up: tuple[str, ...] = ()

    @property
    def influence(self) -> int:
        """Face-down cards left (C2: two at the start)."""
        return INFLUENCE - len(self.face_up)

    @property
    def alive(self) -> bool:
        """C9: a player with no face-down card left is out."""
        return self.influence > 0


@dataclass(frozen=True)
class Pending:
    """The action being settled this turn, with its challenge and its block."""

    actor: str
    action: str
    target: str | None = None
    paid: int = 0
    challenger: str | None = None
    blocker: str | None = None
    block: str | None = None
    block_challenger: str | None = None


@dataclass(frozen=True)
class LogEntry:
    """One readable line: an ``N_`` sentence and its params (character codes under
    ``character`` are translated by ``log_text``)."""

    rule: str
    message: str
    params: tuple[tuple[str, str | int], ...] = ()


@dataclass(frozen=True)
class CoupState:
    """A Coup table as the referee sees it."""

    players: tuple[Player, ...]  # seating order, clockwise (C4)
    variant: str  # "ambassador" or "inquisitor" (C1)
    copies: int  # copies of each character in the box for this game (C1, C3)
    court: int  # cards in the Court (C2, C3)
    out_of_game: int  # cards set aside face down in a 2-player game (C3)
    supply: int  # coins in the middle, in silver value (C2)
    turn: str  # the player whose turn it is
    step: str = DECLARE
    pending: Pending | None = None
    loser: str | None = None  # who must turn a card face up now (C9)
    loss: str | None = None  # why: decides what follows the loss
    shown: str | None = None  # card shown to win the challenge being paid for (C1 count)
    winner: str | None = None  # C10
    log: tuple[LogEntry, ...] = ()

    def player(self, pid: str) -> Player:
        """The seat of ``pid`` (the caller has checked that it exists)."""
        return next(p for p in self.players if p.id == pid)

    @property
    def in_play(self) -> tuple[str, ...]:
        """The five characters of this game (C1)."""
        left_out = "inquisitor" if self.variant == "ambassador" else "ambassador"
        return tuple(c for c in CHARACTERS if c != left_out)

    def face_up_count(self, character: str) -> int:
        """Cards of ``character`` turned face up at the whole table."""
        return sum(p.face_up.count(character) for p in self.players)


# Actions: each one answers one question of the table with one tap.


@dataclass(frozen=True)
class Declare:
    """The player whose turn it is declares an action (C4), with a target if it has one."""

    player: str
    action: str
    target: str | None = None


@dataclass(frozen=True)
class Challenge:
    """Someone challenges the claim on the table (C7); ``None``: nobody challenges."""

    challenger: str | None = None


@dataclass(frozen=True)
class Reveal:
    """The challenged claimant shows the claimed card (``shown``) or turns ``character``
    face up instead (C7)."""

    player: str
    character: str
    shown: bool


@dataclass(frozen=True)
class Block:
    """``blocker`` blocks the action claiming ``character`` (C8); ``None``: nobody."""

    blocker: str | None = None
    character: str | None = None


@dataclass(frozen=True)
class LoseInfluence:
    """``player`` turns the card ``character`` face up (their choice, C9)."""

    player: str
    character: str


@dataclass(frozen=True)
class ExamineVerdict:
    """The Inquisitor gives the examined card back, or has it swapped (``swap``, C5 b)."""

    player: str
    swap: bool


Action = Declare | Challenge | Reveal | Block | LoseInfluence | ExamineVerdict
