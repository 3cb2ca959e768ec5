"""Underworld game state (U4–U17) and the starting setup.

Cards are named by code everywhere in the state; ``State.cards`` is the catalogue that
gives each code its data. The castle and its discard pile are what the referee knows:
the cards still to draw (as a multiset, order unknown) and the cards thrown away.

Phases (``State.phase``), i.e. what the game waits for:
``draw`` (a step into the castle), ``playoff`` (a level-10 player must challenge, U17),
``fight`` (a monster met, U7), ``event`` (an event being followed), ``challenge`` (two
players fighting, U13), ``step_over`` (step again or end the turn, U6), ``class_change``
(U9 prompt), ``cleanup`` (discard down to 4, U15), ``over`` (U16/U17).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from referee.rules import N_, RuleError

from .cards import CASTLE_KINDS, Card, ClassCard, castle_deck_problems, class_deck_problems

MIN_LEVEL, MAX_LEVEL = 1, 10
MIN_SEATS, MAX_SEATS = 2, 6  # U4: players at a castle game
INVENTORY = 4
PHASES = ("draw", "playoff", "fight", "event", "challenge", "step_over", "class_change",
          "cleanup", "over")


@dataclass(frozen=True)
class Player:
    id: str
    level: int = 1
    class_card: str = ""  # "" = a plain Human (U1)
    past_classes: tuple[str, ...] = ()  # kept under the new class (U9)
    inventory: tuple[str, ...] = ()
    play_area: tuple[str, ...] = ()  # items and skills in play
    allies: tuple[str, ...] = ()  # summoned monsters in the play area (U12)
    powered: bool = False  # class card turned 90° (U14)
    ability_used: bool = False  # U14: once a turn


@dataclass(frozen=True)
class Offer:
    """U11: ``helper`` offers to fight beside ``fighter`` for the card ``reward``."""

    helper: str
    fighter: str
    reward: str
    accepted: bool = False


@dataclass(frozen=True)
class Encounter:
    """A fight waiting to be scored: against ``monster`` (U7), or a challenge between
    ``fighter`` and ``defender`` (U13) when ``monster`` is empty."""

    fighter: str
    monster: str = ""
    defender: str = ""
    modifiers: tuple[tuple[str, int], ...] = ()  # (card code or "", amount) on the monster
    offers: tuple[Offer, ...] = ()
    from_event: bool = False


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    cards: tuple[Card, ...]
    castle: tuple[str, ...]
    class_deck: tuple[str, ...]
    discard: tuple[str, ...] = ()
    active: int = 0
    turn: int = 1
    step: int = 1  # the step being taken, 1 or 2 (U6)
    phase: str = "draw"
    streak: int = 0  # fights won in a row this turn (U9), challenges too (U13)
    fought: bool = False  # the active player fought a challenge in this step (U9/U13)
    may_step: bool = True  # U6: no second step after a lost fight, or when an event says so
    event: str = ""
    encounter: Encounter | None = None
    playoff: bool = False
    winner: str = ""
    # The reading of U9/U13 the game is played under: 2 (today's) counts a challenge the
    # active player fights toward two fights won in a row; 1 (games started before it)
    # counted monster fights only, ended every event's row, and followed on to the step's
    # end after a class change. A game keeps the reading it started with.
    reading: int = 2


def card_of(state: State, code: str) -> Card:
    for card in state.cards:
        if card.code == code:
            return card
    raise RuleError("U1", N_("There is no card %(code)s in this game; check the code on the "
                             "card."), code=code)


def player_of(state: State, pid: str) -> Player:
    for p in state.players:
        if p.id == pid:
            return p
    raise RuleError("U4", N_("Player %(player)s is not in this game; pick one of "
                             "%(players)s."), player=str(pid),
                    players=", ".join(p.id for p in state.players))


def active_player(state: State) -> Player:
    return state.players[state.active]


def with_player(state: State, player: Player) -> State:
    return replace(state, players=tuple(player if p.id == player.id else p
                                        for p in state.players))


def without(cards: tuple[str, ...], codes: Iterable[str]) -> tuple[str, ...] | None:
    """``cards`` less one copy of each of ``codes``; None when a copy is missing."""
    rest = list(cards)
    for code in codes:
        if code not in rest:
            return None
        rest.remove(code)
    return tuple(rest)


def less(cards: tuple[str, ...], codes: Iterable[str]) -> tuple[str, ...]:
    """``cards`` less one copy of each of ``codes``, which the caller has checked are
    there."""
    rest = without(cards, codes)
    assert rest is not None, (cards, codes)
    return rest


def take_from_castle(state: State, code: str) -> State:
    """``code`` leaves the castle as the referee knows it (U5); an empty castle is first
    refilled from the discard pile (the reading in ``__init__``)."""
    card_of(state, code)
    castle, discard = state.castle, state.discard
    if not castle:
        castle, discard = tuple(sorted(discard)), ()
    rest = without(castle, [code])
    if rest is None:
        raise RuleError("U1", N_("No copy of %(code)s is left in the castle deck; check the "
                                 "card drawn."), code=code)
    return replace(state, castle=rest, discard=discard)


def holds(cards: Iterable[str], codes: Iterable[str]) -> bool:
    return not Counter(codes) - Counter(cards)


def class_of(state: State, player: Player) -> ClassCard | None:
    card = card_of(state, player.class_card) if player.class_card else None
    return card if isinstance(card, ClassCard) else None


def new_game(
    players: Sequence[str],
    castle: Sequence[Card],
    classes: Sequence[Card],
    starting: Mapping[str, Sequence[str]],
    levels: Mapping[str, int] | None = None,
    *,
    check_decks: bool = True,
) -> State:
    """U4 setup: 2–6 players in turn order, the castle deck and the class deck (lists of
    cards, copies repeated), each player's 4 starting castle cards (codes) and an optional
    starting level per player (default 1; passport levels 1–9 may be carried in).
    ``check_decks=False`` skips the U2 counts for a small or house deck. Long because
    every setup check of U2–U4 stands here in turn, each with its refusal."""
    if isinstance(players, str) or not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise RuleError("U4", N_("A game needs 2 to 6 players, got %(count)s; add or remove "
                                 "players."), count=len(players))
    ids = list(players)
    for pid in ids:
        if not isinstance(pid, str) or not pid.strip():
            raise RuleError("U4", N_("Every player needs an id (non-empty text); fix the "
                                     "player list."))
        if ids.count(pid) > 1:
            raise RuleError("U4", N_("Player id %(player)s appears twice; give each player "
                                     "their own id."), player=pid)
    problems = castle_deck_problems(castle) + class_deck_problems(classes)
    hard = [p for p in problems if p.rule != "U2"]  # a wrong kind or code is never playable
    if hard or (check_decks and problems):
        raise (hard or list(problems))[0]
    catalogue: dict[str, Card] = {}
    for card in [*castle, *classes]:
        if catalogue.setdefault(card.code, card) != card:
            raise RuleError("U3", N_("Cards with the code %(code)s differ; give each "
                                     "different card its own code."), code=card.code)
    levels = dict(levels or {})
    starting = dict(starting)
    for pid in [*levels, *starting]:
        if pid not in ids:
            raise RuleError("U4", N_("Player %(player)s is not in this game; pick one of "
                                     "%(players)s."), player=str(pid), players=", ".join(ids))
    deck = tuple(sorted(c.code for c in castle if isinstance(c, CASTLE_KINDS)))
    seats = []
    for pid in ids:
        level = levels.get(pid, MIN_LEVEL)
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 9:
            raise RuleError("U4", N_("The starting level of %(player)s must be a whole number "
                                     "from 1 to 9 (level 10 would win at once); correct "
                                     "it."), player=pid)
        hand = starting.get(pid, ())
        if isinstance(hand, str) or len(hand) != INVENTORY or not all(
                isinstance(c, str) for c in hand):
            raise RuleError("U4", N_("%(player)s must start with exactly 4 castle cards "
                                     "(codes); deal 4 cards."), player=pid)
        rest = without(deck, hand)
        if rest is None:
            missing = next(c for c in hand if Counter(hand)[c] > deck.count(c))
            raise RuleError("U4", N_("No copy of %(code)s is left in the castle deck to deal "
                                     "to %(player)s; deal a card from the castle deck."),
                            code=missing, player=pid)
        deck = rest
        seats.append(Player(id=pid, level=level, inventory=tuple(hand)))
    return State(players=tuple(seats), cards=tuple(catalogue.values()), castle=deck,
                 class_deck=tuple(sorted(c.code for c in classes)))
