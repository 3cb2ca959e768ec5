"""Underworld, the castle card game (rules U1–U17 in ``shared/rules/underworld.md``).

Build a game with ``new_game``, fold actions with ``apply``; ask ``awaiting``,
``allowed``, ``legal_actions``, ``fight_breakdown`` and ``winner`` for the screens;
``quick_fight`` settles a fight from numbers alone. Modules: ``cards`` (card data, U2 deck
checks), ``state``, ``actions`` (and their JSON), ``play`` (preparing a fight), ``events``
(an event's card and step effects), ``engine`` (``apply``), ``fight`` (score lines), ``query``.

Readings followed where the page leaves a choice:
- U10: an item of a type already in play is refused unless the action names the card it
  replaces (so a Human's second weapon is refused, example 5); the replaced card is
  discarded whatever its bonus. Magic and two weapons come from the class card's powers.
- U11: a helper offers before the fight is scored, may then play cards and power up; the
  reward stays with the fighter (it cannot be traded or discarded) until the fight ends,
  and goes from the inventory (else the play area) to the helper's inventory on a win.
- U12: both kinds of Summoning put the monster among the player's allies until their next
  turn; the Summoning card is discarded once used.
- U9/U13: a challenge the active player fights is a fight: won, it counts toward the two
  fights won in a row (the class card is offered at once, and the event is followed on
  after it); lost or drawn, the row starts again. A step in which the active player
  fought no fight of their own (an item, a skill, an event without their challenge, a
  challenge between two others) breaks the row.
- U13: an event's challenge may be repeated until the event is ended; losing one ends the
  active player's steps (U6). U17 challenges end the turn.
- U5: an event's text is followed by the referee, one effect at a time, until the event is
  ended: levels (``EventLevel``), a card discarded from an inventory or a play area
  (``EventDiscard``), a card given from one player to another's inventory (``EventGive``:
  the one gift the rules know, U10 forbids it by choice), one more castle card into the
  active player's inventory (``EventDraw``: no step) and no second step (``EventNoSecondStep``).
- U15: immediate cards go when the fight they counted in is scored, or at the end of the
  turn; only the active player discards down to 4. An empty castle is refilled from the
  discard pile.
- U16/U17: checked when a level-10 player's turn begins; once a play-off has begun, the
  game ends as soon as a single player is left at level 10.
"""

from .actions import (
    ACTIONS,
    Action,
    AdjustMonster,
    AnswerHelp,
    Challenge,
    ChangeClass,
    Discard,
    Draw,
    EndTurn,
    EventDiscard,
    EventDone,
    EventDraw,
    EventGive,
    EventLevel,
    EventNoSecondStep,
    Fight,
    KeepClass,
    OfferHelp,
    PlayCard,
    PowerUp,
    Summon,
    Trade,
    action_from_dict,
    action_to_dict,
)
from .cards import (
    WEAPON,
    Card,
    CardError,
    ClassCard,
    Event,
    Item,
    Monster,
    Skill,
    card_from_dict,
    card_to_dict,
    castle_deck_problems,
    class_deck_problems,
    validate_castle_deck,
    validate_class_deck,
)
from .engine import apply
from .fight import Breakdown, Line, QuickFight, Side, fight_breakdown, quick_fight
from .query import (
    Awaiting,
    Option,
    actor,
    allowed,
    awaiting,
    legal_actions,
    state_to_dict,
    whose_turn,
    winner,
)
from .state import Encounter, Offer, Player, State, new_game

__all__ = [
    "ACTIONS",
    "WEAPON",
    "Action",
    "AdjustMonster",
    "AnswerHelp",
    "Awaiting",
    "Breakdown",
    "Card",
    "CardError",
    "Challenge",
    "ChangeClass",
    "ClassCard",
    "Discard",
    "Draw",
    "Encounter",
    "EndTurn",
    "Event",
    "EventDiscard",
    "EventDone",
    "EventDraw",
    "EventGive",
    "EventLevel",
    "EventNoSecondStep",
    "Fight",
    "Item",
    "KeepClass",
    "Line",
    "Monster",
    "Offer",
    "OfferHelp",
    "Option",
    "PlayCard",
    "Player",
    "PowerUp",
    "QuickFight",
    "Side",
    "Skill",
    "State",
    "Summon",
    "Trade",
    "action_from_dict",
    "action_to_dict",
    "actor",
    "allowed",
    "apply",
    "awaiting",
    "card_from_dict",
    "card_to_dict",
    "castle_deck_problems",
    "class_deck_problems",
    "fight_breakdown",
    "legal_actions",
    "new_game",
    "quick_fight",
    "state_to_dict",
    "validate_castle_deck",
    "validate_class_deck",
    "whose_turn",
    "winner",
]
