"""Underworld cards (U1–U3) and the castle-deck limits (U2).

Cards are pure data. A deck file (read elsewhere) gives one table per card; this module
turns such a table into a card with ``card_from_dict`` and checks every field, so the
loader and the rules agree on one shape. The dict shape, by ``kind``:

Every card: ``code`` (short, e.g. ``"M07"``; copies of one card share it), ``kind``,
``name_en`` and ``name_ru`` (non-empty text).

- ``kind = "monster"``: ``strength`` (0–99).
- ``kind = "item"``: ``item_type`` (a lowercase word: ``weapon``, ``armour``, ``helmet``…),
  ``bonus`` (−20…20); optional ``magic`` (false), ``duration`` (``lasting``).
- ``kind = "skill"``: ``bonus`` (−20…20); optional ``duration`` (``lasting``),
  ``magic`` (false), ``summoning`` (false; true for the skill "Summoning", U12).
- ``kind = "event"``: optional ``text_en``, ``text_ru`` (""), ``challenge`` (false; true
  when the event makes players fight each other, U13).
- ``kind = "class"``: optional ``two_weapons``, ``magic`` (false), ``ability_cost`` (0 =
  no characteristic ability, else the inventory cards discarded to power up, U14),
  ``ability_bonus`` (what the powered ability adds to a fight), ``text_en``, ``text_ru``.

``duration`` is ``lasting`` (stays in play), ``immediate`` (discarded once used: after
the fight it counted in, or when its step ends, U15) or ``round`` (stays until its
owner's next turn, U3).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from referee.rules import N_, RuleError

WEAPON = "weapon"
DURATIONS = ("lasting", "immediate", "round")
KINDS = ("monster", "item", "skill", "event", "class")
CLASS_DECK_SIZE = 13
# matched whole (fullmatch): "$" alone also matched before a trailing newline ("M07\n")
_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}")
_ITEM_TYPE = re.compile(r"[a-z][a-z_]{0,23}")


class CardError(RuleError, ValueError):
    """A card table that breaks U3 (also a ValueError, for loaders that expect one)."""


@dataclass(frozen=True)
class _Named:
    """What every card has (U3): its ``code`` and its name in each language. A card's own
    fields follow these three, so cards are also built positionally in that order."""

    code: str
    name_en: str
    name_ru: str


@dataclass(frozen=True)
class Monster(_Named):
    strength: int
    kind: ClassVar[str] = "monster"


@dataclass(frozen=True)
class Item(_Named):
    item_type: str
    bonus: int
    magic: bool = False
    duration: str = "lasting"
    kind: ClassVar[str] = "item"


@dataclass(frozen=True)
class Skill(_Named):
    bonus: int
    duration: str = "lasting"
    magic: bool = False
    summoning: bool = False
    kind: ClassVar[str] = "skill"


@dataclass(frozen=True)
class Event(_Named):
    text_en: str = ""
    text_ru: str = ""
    challenge: bool = False
    kind: ClassVar[str] = "event"


@dataclass(frozen=True)
class ClassCard(_Named):
    two_weapons: bool = False
    magic: bool = False
    ability_cost: int = 0
    ability_bonus: int = 0
    text_en: str = ""
    text_ru: str = ""
    kind: ClassVar[str] = "class"


Card = Monster | Item | Skill | Event | ClassCard
CASTLE_KINDS = (Monster, Item, Skill, Event)
_BY_KIND: dict[str, type[Card]] = {c.kind: c for c in (Monster, Item, Skill, Event, ClassCard)}
_RANGES = {"strength": (0, 99), "bonus": (-20, 20), "ability_cost": (0, 6),
           "ability_bonus": (0, 20)}
_NAMES = ("name_en", "name_ru")


def _text(code: str, field: str, value: object, *, empty_ok: bool) -> str:
    if not isinstance(value, str) or (not empty_ok and not value.strip()):
        raise CardError("U3", N_("Card %(code)s: %(field)s must be non-empty text; "
                                 "fill it in."), code=code, field=field)
    return value


def _number(code: str, field: str, value: object) -> int:
    low, high = _RANGES[field]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CardError("U3", N_("Card %(code)s: %(field)s must be a whole number from "
                                 "%(low)s to %(high)s; correct it."),
                        code=code, field=field, low=low, high=high)
    return value


def _flag(code: str, field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise CardError("U3", N_("Card %(code)s: %(field)s must be true or false; "
                                 "correct it."), code=code, field=field)
    return value


def card_from_dict(d: Mapping[str, object]) -> Card:
    """Build one card from its table (shape in the module docstring); CardError names
    the field that is missing or wrong."""
    if not isinstance(d, Mapping):
        raise CardError("U3", N_("A card must be a table of named fields (code, kind, "
                                 "name_en, name_ru, …); check the deck file."))
    code = d.get("code")
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise CardError("U3", N_("Card code %(value)s is not valid: use up to 16 letters "
                                 "and digits, like M07."), value=str(code))
    kind = d.get("kind")
    cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise CardError("U3", N_("Card %(code)s: kind %(value)s is not known; use "
                                 "monster, item, skill, event or class."),
                        code=code, value=str(kind))
    values: dict[str, Any] = {"code": code}
    known = {f.name: f for f in fields(cls)}
    for key in d:
        if key != "kind" and key not in known:
            raise CardError("U3", N_("Card %(code)s: unknown field %(field)s; remove it or "
                                     "fix its spelling."), code=code, field=str(key))
    for name, f in known.items():  # "code" passes again, as the text it is
        if name not in d:
            if f.default is MISSING:
                raise CardError("U3", N_("Card %(code)s: the field %(field)s is missing; "
                                         "add it."), code=code, field=name)
            continue
        value = d[name]
        if name in _RANGES:
            values[name] = _number(code, name, value)
        elif f.type == "bool":
            values[name] = _flag(code, name, value)
        else:
            values[name] = _text(code, name, value, empty_ok=name not in _NAMES)
    if "duration" in values and values["duration"] not in DURATIONS:
        raise CardError("U3", N_("Card %(code)s: duration %(value)s is not known; use "
                                 "lasting, immediate or round."),
                        code=code, value=str(values["duration"]))
    if "item_type" in values and not _ITEM_TYPE.fullmatch(str(values["item_type"])):
        raise CardError("U3", N_("Card %(code)s: item type %(value)s is not valid; use a "
                                 "lowercase word such as weapon or armour."),
                        code=code, value=str(values["item_type"]))
    return cls(**values)


def card_to_dict(card: Card) -> dict[str, object]:
    """The table ``card_from_dict`` reads back into the same card."""
    # "code" stays first: the fields repeat it with the same value
    return {"code": card.code, "kind": card.kind,
            **{f.name: getattr(card, f.name) for f in fields(card)}}


def _conflicts(cards: Iterable[Card]) -> list[RuleError]:
    # U3: copies share a code, so one code must always mean the same card
    seen: dict[str, Card] = {}
    clashing: list[str] = []
    for card in cards:
        if seen.setdefault(card.code, card) != card and card.code not in clashing:
            clashing.append(card.code)
    return [RuleError("U3", N_("Cards with the code %(code)s differ; give each different "
                               "card its own code."), code=code) for code in clashing]


def castle_deck_problems(cards: Iterable[Card]) -> tuple[RuleError, ...]:
    """Every U1/U2 limit the castle deck breaks, each as a RuleError naming the limit
    (empty when the deck is legal)."""
    cards = list(cards)
    strangers = sorted({getattr(c, "code", "?") for c in cards if not isinstance(c, CASTLE_KINDS)})
    problems: list[RuleError] = []
    if strangers:
        problems.append(RuleError("U1", N_("Only monsters, items, skills and events belong "
                                           "in the castle deck: move %(codes)s to the class "
                                           "deck."), codes=", ".join(strangers)))
    count = Counter(c.kind for c in cards if isinstance(c, CASTLE_KINDS))
    if count["monster"] != 34:
        problems.append(RuleError("U2", N_("monsters: %(count)s, must be exactly %(exact)s; "
                                           "add or remove monster cards."),
                                  count=count["monster"], exact=34))
    if count["item"] > 28:
        problems.append(RuleError("U2", N_("items: %(count)s, at most %(most)s; remove "
                                           "item cards."), count=count["item"], most=28))
    if not 7 <= count["skill"] <= 10:
        problems.append(RuleError("U2", N_("skills: %(count)s, must be %(least)s to "
                                           "%(most)s; add or remove skill cards."),
                                  count=count["skill"], least=7, most=10))
    if not 13 <= count["event"] <= 15:
        problems.append(RuleError("U2", N_("events: %(count)s, must be %(least)s to "
                                           "%(most)s; add or remove event cards."),
                                  count=count["event"], least=13, most=15))
    if len(cards) > 87:
        problems.append(RuleError("U2", N_("cards in all: %(count)s, at most %(most)s; "
                                           "remove cards."), count=len(cards), most=87))
    problems.extend(_conflicts(c for c in cards if isinstance(c, CASTLE_KINDS)))
    return tuple(problems)


def class_deck_problems(cards: Iterable[Card]) -> tuple[RuleError, ...]:
    """Every U1/U2 limit the class deck breaks (13 class cards, nothing else)."""
    cards = list(cards)
    problems: list[RuleError] = []
    strangers = sorted({getattr(c, "code", "?") for c in cards if not isinstance(c, ClassCard)})
    if strangers:
        problems.append(RuleError("U1", N_("Only class cards belong in the class deck: move "
                                           "%(codes)s to the castle deck."),
                                  codes=", ".join(strangers)))
    if len(cards) != CLASS_DECK_SIZE:
        problems.append(RuleError("U2", N_("class cards: %(count)s, must be exactly "
                                           "%(exact)s; add or remove class cards."),
                                  count=len(cards), exact=CLASS_DECK_SIZE))
    problems.extend(_conflicts(c for c in cards if isinstance(c, ClassCard)))
    return tuple(problems)


def validate_castle_deck(cards: Iterable[Card]) -> None:
    """Raise the first castle-deck problem (U1/U2/U3), if any."""
    problems = castle_deck_problems(cards)
    if problems:
        raise problems[0]


def validate_class_deck(cards: Iterable[Card]) -> None:
    """Raise the first class-deck problem (U1/U2/U3), if any."""
    problems = class_deck_problems(cards)
    if problems:
        raise problems[0]
