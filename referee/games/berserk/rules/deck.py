"""A player's deck (B14): 30–50 cards, at most 3 copies of a card and 1 of a unique one;
and a squad hired from a registered deck, which takes no card the deck does not hold and
no more copies than it holds.

A deck is handed in as its cards, copies repeated (``expand`` makes that list from counts
by code). ``deck_summary`` gives the live counts a registration screen shows while cards
are added; ``deck_problems`` lists what is wrong (each a RuleError with its rule id, not
raised); ``check_deck`` raises the first. ``hire_problems`` checks a squad against the
counts of the deck it is hired from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from referee.games.berserk.rules.cards import Card, FormatError
from referee.games.berserk.rules.settings import PUBLISHED, Settings
from referee.games.berserk.rules.squad import _cards, _copy_problems
from referee.rules import N_, RuleError

# B14: a deck's size, with what to change.
TOO_FEW = N_("The deck has %(count)s cards; a deck needs %(min)s to %(max)s cards: add "
             "%(missing)s more.")
TOO_MANY = N_("The deck has %(count)s cards; a deck needs %(min)s to %(max)s cards: take "
              "out %(over)s.")
# B14: a squad hired from a registered deck.
NOT_HELD = N_("%(card)s is not in the deck registered for %(player)s; take it out of the "
              "squad, or register the deck again with it.")
BEYOND_HELD = N_("The squad takes %(count)s copies of %(card)s, but the deck registered for "
                 "%(player)s holds %(held)s; take out %(over)s.")


@dataclass(frozen=True)
class DeckSummary:
    """Live counts of a deck: its size against the limits, copies by code, problems."""

    cards: int
    deck_min: int
    deck_max: int
    max_copies: int
    max_unique_copies: int
    copies: tuple[tuple[str, int], ...]  # (card code, count), in first-seen order
    problems: tuple[RuleError, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def expand(counts: Mapping[str, int], catalogue: Mapping[str, Card]) -> tuple[Card, ...]:
    """The deck's cards, copies repeated, from counts by code (codes of ``catalogue``)."""
    out: list[Card] = []
    for code, count in counts.items():
        if code not in catalogue:
            raise FormatError(f"card {code!r} is not in the catalogue")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise FormatError(f"the count of {code!r} must be a whole number >= 0")
        out.extend([catalogue[code]] * count)
    return tuple(out)


def deck_problems(cards: Iterable[Card], settings: Settings = PUBLISHED
                  ) -> tuple[RuleError, ...]:
    """B14: deck size, copies and unique cards; each refusal says what to change."""
    cards = _cards(cards)
    problems = []
    count, low, high = len(cards), settings.deck_min, settings.deck_max
    if count < low:
        problems.append(RuleError("B14", TOO_FEW, count=count, min=low, max=high,
                                  missing=low - count))
    elif count > high:
        problems.append(RuleError("B14", TOO_MANY, count=count, min=low, max=high,
                                  over=count - high))
    problems.extend(_copy_problems(cards, settings))
    return tuple(problems)


def check_deck(cards: Iterable[Card], settings: Settings = PUBLISHED) -> None:
    """Raise the first problem of a deck, if any."""
    problems = deck_problems(cards, settings)
    if problems:
        raise problems[0]


def deck_summary(cards: Iterable[Card], settings: Settings = PUBLISHED) -> DeckSummary:
    """B14 counts of a deck as it is being put together."""
    cards = _cards(cards)
    return DeckSummary(
        cards=len(cards), deck_min=settings.deck_min, deck_max=settings.deck_max,
        max_copies=settings.max_copies, max_unique_copies=settings.max_unique_copies,
        copies=tuple(Counter(c.code for c in cards).items()),
        problems=deck_problems(cards, settings))


def hire_problems(squad: Iterable[Card], held: Mapping[str, int], owner: str = ""
                  ) -> tuple[RuleError, ...]:
    """B14: a squad is hired from its player's deck, so it takes only cards the deck holds
    and never more copies than it holds. ``held``: the deck's counts by card code;
    ``owner`` names the player in the refusals."""
    problems = []
    for code, count in Counter(c.code for c in _cards(squad)).items():
        have = held.get(code, 0)
        if have == 0:
            problems.append(RuleError("B14", NOT_HELD, card=code, player=owner))
        elif count > have:
            problems.append(RuleError("B14", BEYOND_HELD, card=code, player=owner,
                                      count=count, held=have, over=count - have))
    return tuple(problems)
