"""Playing cards of the duel table: the 36-card deck and the duel decks (D1–D3).

Referees type what they read off the table on a phone, in whatever notation comes to
hand: ``10H``, ``qs``, ``Д♠``, ``10 червей``, ``т♣``, ``дама пик``. Everything is read
into a canonical :class:`Card` whose ``code`` (``10H``, ``QS``) is what states, records
and JSON carry.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from referee.rules import N_, RuleError

RANKS: tuple[str, ...] = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

# D3: 6–10 face value, J 11, Q 12, K 13, A 14.
VALUES: dict[str, int] = {rank: value for value, rank in enumerate(RANKS, start=6)}

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# Single characters (after casefolding). Cyrillic В Д К Т are the Russian ranks; a Latin
# "b" is taken as Валет (it looks like В and is the German Bube), a Cyrillic "а" as an
# ace, because a phone keyboard switches scripts without warning.
_RANK_CHARS: dict[str, str] = {
    "j": "J", "q": "Q", "k": "K", "a": "A",
    "в": "J", "д": "Q", "к": "K", "т": "A",
    "b": "J", "а": "A",
}
_SUIT_CHARS: dict[str, str] = {
    "s": "S", "h": "H", "d": "D", "c": "C",
    "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
    "❤": "H",
    # Cyrillic look-alikes of the Latin suit letters, and Russian initials where they
    # do not clash with a rank (т and к are Туз and Король, so трефы need the word).
    "с": "C", "н": "H", "п": "S", "ч": "H", "б": "D",
}
# Word stems, matched at the start of a word so that every case and number reads
# ("пика", "пики", "пик", "пиковая"; "червы", "червей", "червонный").
_RANK_STEMS: tuple[tuple[str, str], ...] = (
    ("шест", "6"), ("сем", "7"), ("вос", "8"), ("девят", "9"), ("десят", "10"),
    ("валет", "J"), ("дам", "Q"), ("корол", "K"), ("туз", "A"),
    ("six", "6"), ("seven", "7"), ("eight", "8"), ("nine", "9"), ("ten", "10"),
    ("jack", "J"), ("knave", "J"), ("queen", "Q"), ("king", "K"), ("ace", "A"),
)
_SUIT_STEMS: tuple[tuple[str, str], ...] = (
    ("пик", "S"), ("вин", "S"), ("черв", "H"), ("буб", "D"), ("треф", "C"), ("крест", "C"),
    ("spade", "S"), ("heart", "H"), ("diamond", "D"), ("club", "C"),
)
_FILLERS = frozenset({"of"})
_TOKEN = re.compile(r"\d+|[^\W\d_]+|[♠♤♥♡♦♢♣♧❤]")


@dataclass(frozen=True)
class Card:
    """One playing card, e.g. ``Card("10", "H")``; ``code`` is ``10H``."""

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in VALUES or self.suit not in SUITS:
            raise RuleError("D3", _UNREADABLE, text=f"{self.rank}{self.suit}")

    @property
    def code(self) -> str:
        """The canonical notation: rank then suit letter."""
        return f"{self.rank}{self.suit}"

    @property
    def value(self) -> int:
        """The value in a comparison (D3); suits never matter."""
        return VALUES[self.rank]

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for display: ``10♥``."""
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.code


_UNREADABLE = N_(
    "Cannot read the card “%(text)s”: write a rank (6–10, J Q K A or В Д К Т) and a suit "
    "(S H D C, ♠ ♥ ♦ ♣ or пики, черви, бубны, трефы), e.g. 10H or Д♠."
)
_LATIN_T = N_(
    "“%(text)s” is ambiguous: a Latin T may mean ten or Туз; write 10 for a ten and A "
    "(or Т) for an ace."
)
_UNREADABLE_SUIT = N_(
    "Cannot read the suit “%(text)s”: write S, H, D or C, a symbol ♠ ♥ ♦ ♣, or пики, "
    "черви, бубны, трефы."
)
_NOT_TEXT = N_("A card must be written as text, e.g. 10H or Д♠.")


def _tokens(text: str) -> list[str]:
    # NFKC folds full-width letters; variation selectors (♥️) are not word characters,
    # so the tokenizer drops them with every other separator.
    folded = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return [t for t in _TOKEN.findall(folded) if t not in _FILLERS]


def _rank_of(token: str) -> str | None:
    if token.isdigit():
        return token if token in VALUES else None
    if len(token) == 1:
        return _RANK_CHARS.get(token)
    return next((rank for stem, rank in _RANK_STEMS if token.startswith(stem)), None)


def _suit_of(token: str) -> str | None:
    if len(token) == 1:
        return _SUIT_CHARS.get(token)
    return next((suit for stem, suit in _SUIT_STEMS if token.startswith(stem)), None)


def _split_letters(tokens: list[str]) -> list[str]:
    """Split a glued two-letter run such as ``qs`` or ``дh`` into rank and suit."""
    out: list[str] = []
    for token in tokens:
        if (
            len(token) == 2
            and _rank_of(token) is None
            and _suit_of(token) is None
            and not token.isdigit()
        ):
            out.extend(token)
        else:
            out.append(token)
    return out


def parse_card(text: object) -> Card:
    """Read any D3 notation into a :class:`Card`; raise ``RuleError("D3")`` if unreadable."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise RuleError("D3", _NOT_TEXT)
    shown = text.strip()[:20]
    tokens = _split_letters(_tokens(text))
    ranks: list[str] = []
    suits: list[str] = []
    for token in tokens:
        rank, suit = _rank_of(token), _suit_of(token)
        if rank is not None:
            ranks.append(rank)
        elif suit is not None:
            suits.append(suit)
        elif token == "t":
            raise RuleError("D3", _LATIN_T, text=shown)
        else:
            raise RuleError("D3", _UNREADABLE, text=shown)
    if len(ranks) != 1 or len(suits) != 1:
        raise RuleError("D3", _UNREADABLE, text=shown)
    return Card(ranks[0], suits[0])


def parse_suit(text: object) -> str:
    """Read a suit (``S``, ``♠``, ``пики``, ``spades``…) into its letter S, H, D or C."""
    if isinstance(text, str):
        tokens = _tokens(text)
        if len(tokens) == 1 and (suit := _suit_of(tokens[0])) is not None:
            return suit
    shown = text.strip()[:20] if isinstance(text, str) else ""
    raise RuleError("D3", _UNREADABLE_SUIT, text=shown)


def duel_deck(suit: object) -> tuple[Card, ...]:
    """The nine cards of one suit, 6 to A, in rank order (D1)."""
    letter = parse_suit(suit)
    return tuple(Card(rank, letter) for rank in RANKS)


def table_deck() -> tuple[Card, ...]:
    """The ordinary 36-card deck that lies in front of each duelist (D2)."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def sort_codes(codes: Iterable[str]) -> tuple[str, ...]:
    """Canonical codes in deck order (suit, then rank), without repeats."""
    order = {card.code: i for i, card in enumerate(table_deck())}
    return tuple(sorted(set(codes), key=order.__getitem__))
