"""Squad building: crystals (B12), element penalty (B13), limits (B14); decks are in
``deck``.

``squad_summary`` gives the live counts a squad builder shows while cards are added;
``squad_problems`` lists what is wrong (each a RuleError with its rule id, not raised);
``check_squad`` raises the first. Cards come with X already fixed (``fix_x``, B2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from referee.games.berserk.rules.cards import Card, Element, FormatError, sorted_elements
from referee.games.berserk.rules.settings import PUBLISHED, Settings
from referee.rules import N_, RuleError

# B14: the copy limits, of a squad and of the deck it comes from (``deck``).
UNIQUE_COPIES = N_("%(card)s is unique and appears %(count)s times; keep at most %(limit)s.")
COPIES = N_("%(card)s appears %(count)s times; keep at most %(limit)s copies of a card.")


@dataclass(frozen=True)
class SquadSummary:
    """Live counts for a squad. ``*_left`` go negative when the squad costs too much."""

    cards: int
    gold: int  # B12: crystals the player has
    silver: int
    elite_cost: int
    ordinary_cost: int
    elements: tuple[Element, ...]
    element_penalty: int  # B13: gold lost
    gold_used: int  # elite cards + penalty + whatever silver could not pay
    silver_used: int
    gold_left: int
    silver_left: int
    flyer_cost: int  # B14
    flyer_limit: int
    copies: tuple[tuple[str, int], ...]  # (card code, count), in first-seen order
    problems: tuple[RuleError, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def _cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    cards = tuple(cards)
    for card in cards:
        if not isinstance(card, Card):
            raise FormatError(f"a squad holds cards, not {type(card).__name__}")
    return cards


def element_penalty(cards: Iterable[Card], settings: Settings = PUBLISHED) -> int:
    """B13: E different non-neutral elements cost E − 1 gold; Neutral adds nothing."""
    elements = frozenset().union(*(c.elements for c in cards))
    return max(0, len(elements) - 1) * settings.element_penalty


def squad_summary(cards: Iterable[Card], settings: Settings = PUBLISHED,
                  first_player: bool = True) -> SquadSummary:
    """B12–B14 counts for a squad of the first (or second) player."""
    cards = _cards(cards)
    gold, silver = settings.crystals(first_player)
    elite = sum(c.cost for c in cards if c.elite)
    ordinary = sum(c.cost for c in cards if not c.elite)
    penalty = element_penalty(cards, settings)
    # B12: silver pays only ordinary cards, so spend it there first and keep gold free.
    silver_used = min(ordinary, silver)
    gold_used = elite + penalty + ordinary - silver_used
    counts = Counter(c.code for c in cards)
    return SquadSummary(
        cards=len(cards), gold=gold, silver=silver, elite_cost=elite,
        ordinary_cost=ordinary,
        elements=sorted_elements(frozenset().union(*(c.elements for c in cards))),
        element_penalty=penalty, gold_used=gold_used, silver_used=silver_used,
        gold_left=gold - gold_used, silver_left=silver - silver_used,
        flyer_cost=sum(c.cost for c in cards if c.flying),
        flyer_limit=settings.flyer_cost_limit,
        copies=tuple(counts.items()),
        problems=_squad_problems(cards, settings, gold, silver, elite, ordinary, penalty),
    )


def _squad_problems(cards: tuple[Card, ...], settings: Settings, gold: int, silver: int,
                    elite: int, ordinary: int, penalty: int) -> tuple[RuleError, ...]:
    problems: list[RuleError] = []
    if elite > gold:
        problems.append(RuleError(
            "B12", N_("Elite cards cost %(cost)s and are paid with gold only, but there are "
                      "%(gold)s gold crystals; drop an elite card."), cost=elite, gold=gold))
    elif elite + penalty > gold:
        problems.append(RuleError(
            "B13", N_("Elite cards cost %(cost)s gold and the element penalty %(penalty)s "
                      "more, but there are %(gold)s gold crystals; drop an elite card or a "
                      "card of an extra element."), cost=elite, penalty=penalty, gold=gold))
    total = gold + silver
    if elite + ordinary > total:
        problems.append(RuleError(
            "B12", N_("The squad costs %(cost)s crystals but there are %(crystals)s; drop "
                      "cards worth %(over)s."),
            cost=elite + ordinary, crystals=total, over=elite + ordinary - total))
    elif elite + ordinary + penalty > total:
        problems.append(RuleError(
            "B13", N_("The squad costs %(cost)s crystals and the element penalty %(penalty)s "
                      "more, but there are %(crystals)s; drop a card or a card of an extra "
                      "element."), cost=elite + ordinary, penalty=penalty, crystals=total))
    flyers = sum(c.cost for c in cards if c.flying)
    if flyers > settings.flyer_cost_limit:
        problems.append(RuleError(
            "B14", N_("Flying creatures in the squad cost %(cost)s crystals, more than "
                      "%(limit)s; drop a flyer."), cost=flyers, limit=settings.flyer_cost_limit))
    problems.extend(_copy_problems(cards, settings))
    return tuple(problems)


def _copy_problems(cards: tuple[Card, ...], settings: Settings) -> list[RuleError]:
    """B14: copies are counted by card code; a squad comes from a deck, so a squad
    breaking the copy limits means its deck broke them too."""
    problems = []
    unique = {c.code for c in cards if c.unique}
    for code, count in Counter(c.code for c in cards).items():
        if code in unique and count > settings.max_unique_copies:
            problems.append(RuleError("B14", UNIQUE_COPIES, card=code, count=count,
                                      limit=settings.max_unique_copies))
        elif count > settings.max_copies:
            problems.append(RuleError("B14", COPIES, card=code, count=count,
                                      limit=settings.max_copies))
    return problems


def squad_problems(cards: Iterable[Card], settings: Settings = PUBLISHED,
                   first_player: bool = True) -> tuple[RuleError, ...]:
    """Everything wrong with a squad (B12–B14), each with its rule id; empty when fine."""
    return squad_summary(cards, settings, first_player).problems


def check_squad(cards: Iterable[Card], settings: Settings = PUBLISHED,
                first_player: bool = True) -> None:
    """Raise the first problem of a squad, if any."""
    problems = squad_problems(cards, settings, first_player)
    if problems:
        raise problems[0]


def add_to_squad(cards: Iterable[Card], card: Card, settings: Settings = PUBLISHED,
                 first_player: bool = True) -> tuple[Card, ...]:
    """The squad with ``card`` added, or RuleError for the first problem it would bring."""
    cards = _cards(cards)
    new = _cards((*cards, card))
    old = {_key(p) for p in squad_problems(cards, settings, first_player)}
    for problem in squad_problems(new, settings, first_player):
        # A problem that stays exactly as it was is not this card's doing.
        if _key(problem) not in old:
            raise problem
    return new


def _key(problem: RuleError) -> tuple[object, ...]:
    return problem.rule, problem.message, tuple(sorted(problem.params.items()))
