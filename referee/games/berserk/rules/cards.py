"""The printed Berserk-style card: base properties (B1–B5) and elements (B8).

A deck file (TOML, read outside ``rules/``) gives one table per card; ``card_from_dict``
checks one of them and builds a ``Card``. The dict shape::

    {
      "code": "B07",                    # required, letters/digits/-/_ (1–20 chars)
      "name_en": "Ghost Knight",        # required, non-empty
      "name_ru": "Призрачный рыцарь",   # required, non-empty
      "kind": "creature",               # "creature" (default) or "artifact"
      "cost": 4,                        # crystals, a whole number >= 0, or "X" (B2)
      "x": 3,                           # only with cost "X": the X fixed for the squad
      "elite": true,                    # gold crystal (elite) or silver (ordinary, default)
      "lives": 3,                       # starting lives, >= 1 (B3)
      "movement": 2,                    # creatures only: a number >= 0 for a ground
                                        #   creature, or "flying" / "symbiote" (B4)
      "strike": [1, 2, 3],              # creatures only: X-Y-Z, also "1-2-3" (B5)
      "elements": ["forest"],           # any of steppe, forest, mountains, swamps,
                                        #   darkness, fire; [] or ["neutral"] = Neutral
      "unique": false,                  # at most one copy in a deck (B14)
      "text_en": "...", "text_ru": "..."  # optional ability text (non-base, B1)
    }

Unknown keys are refused so that a typo in a deck file is caught when it is loaded.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeGuard

from referee.rules import N_, RuleError, whole


class FormatError(ValueError):
    """A deck file, a stored action or a settings table that is not shaped right.

    Like ``RuleError``, ``message`` may be an English sentence marked with ``N_`` whose
    ``%(name)s`` placeholders come from ``params``, so a deck file's complaint can be
    shown in the organizer's language; ``str()`` is always the English text.
    """

    def __init__(self, message: str, **params: object) -> None:
        self.message = message
        self.params = params
        super().__init__(self.text)

    @property
    def text(self) -> str:
        """The English sentence with its placeholders filled."""
        return self.message % self.params if self.params else self.message


class Element(StrEnum):
    """B8: the six elements; a card with none of them is Neutral."""

    STEPPE = "steppe"
    FOREST = "forest"
    MOUNTAINS = "mountains"
    SWAMPS = "swamps"
    DARKNESS = "darkness"
    FIRE = "fire"


NEUTRAL = "neutral"
ELEMENTS: tuple[Element, ...] = tuple(Element)

ELEMENT_NAMES: dict[str, str] = {
    Element.STEPPE: N_("Steppe"),
    Element.FOREST: N_("Forest"),
    Element.MOUNTAINS: N_("Mountains"),
    Element.SWAMPS: N_("Swamps"),
    Element.DARKNESS: N_("Darkness"),
    Element.FIRE: N_("Fire"),
    NEUTRAL: N_("Neutral"),
}


@dataclass(frozen=True)
class Look:
    """B8: how an element is printed: the corner icon and the background colour."""

    icon: str
    colour: str
    hex: str


ELEMENT_LOOK: dict[str, Look] = {
    Element.STEPPE: Look("sun", "yellow", "#f2c500"),
    Element.FOREST: Look("tree", "green", "#2e8b3a"),
    Element.MOUNTAINS: Look("peaks", "dark blue", "#1f3a7a"),
    Element.SWAMPS: Look("moss hummocks", "dark green", "#2f4f2f"),
    Element.DARKNESS: Look("skull", "black", "#111111"),
    Element.FIRE: Look("flame", "orange", "#f07f1a"),
    NEUTRAL: Look("shield and crossed weapons", "light brown", "#c8a27a"),
}


class Kind(StrEnum):
    """B3: creatures and artifacts both have lives; only creatures move and strike."""

    CREATURE = "creature"
    ARTIFACT = "artifact"


class Locomotion(StrEnum):
    """B4: a ground creature shows movement; a flyer or symbiote shows a symbol instead."""

    GROUND = "ground"
    FLYING = "flying"
    SYMBIOTE = "symbiote"


@dataclass(frozen=True)
class SimpleStrike:
    """B5: wounds of a weak, medium and strong simple strike (X-Y-Z)."""

    weak: int
    medium: int
    strong: int

    def __str__(self) -> str:
        return f"{self.weak}-{self.medium}-{self.strong}"

    def as_list(self) -> list[int]:
        return [self.weak, self.medium, self.strong]


# Names of properties and states as the UI shows them (B1–B5, B10, B11).
PROPERTY_NAMES: dict[str, str] = {
    "cost": N_("Cost"),
    "elite": N_("Elite"),
    "ordinary": N_("Ordinary"),
    "gold": N_("Gold crystals"),
    "silver": N_("Silver crystals"),
    "lives": N_("Lives"),
    "movement": N_("Movement"),
    "flying": N_("Flying"),
    "symbiote": N_("Symbiote"),
    "strike": N_("Simple strike"),
    "elements": N_("Elements"),
    "unique": N_("Unique"),
    "creature": N_("Creature"),
    "artifact": N_("Artifact"),
    "wounds": N_("Wounds"),
    "open": N_("Open"),
    "tapped": N_("Tapped"),
    "dead": N_("Dead"),
}


@dataclass(frozen=True)
class Card:
    """A printed card. ``cost`` already holds X for a variable-cost card (B2)."""

    code: str
    name_en: str
    name_ru: str
    kind: Kind
    cost: int
    elite: bool
    lives: int
    locomotion: Locomotion | None = None  # None for an artifact
    movement: int | None = None  # B4: only a ground creature has a number
    strike: SimpleStrike | None = None  # B5: creatures only
    elements: frozenset[Element] = frozenset()
    unique: bool = False
    variable_cost: bool = False
    text_en: str = ""
    text_ru: str = ""

    @property
    def is_creature(self) -> bool:
        return self.kind is Kind.CREATURE

    @property
    def flying(self) -> bool:
        return self.locomotion is Locomotion.FLYING

    @property
    def neutral(self) -> bool:
        return not self.elements


def sorted_elements(elements: frozenset[Element]) -> tuple[Element, ...]:
    """Elements in the printed order (B8), for stable display and serialization."""
    return tuple(e for e in ELEMENTS if e in elements)


def fix_x(card: Card, x: object) -> Card:
    """B2: the owner fixes X while building the squad; it is kept all game."""
    if not card.variable_cost:
        raise RuleError(
            "B2",
            N_("%(card)s has a printed cost; only a card with cost X takes a value."),
            card=card.code,
        )
    if not _is_count(x):
        raise RuleError(
            "B2", N_("X must be a whole number of 0 or more, not %(value)s."), value=str(x)[:20]
        )
    return replace(card, cost=x)


def same_cost(a: Card | int, b: Card | int) -> bool:
    """B2: a text about "the same cost" compares numbers only, ignoring eliteness."""
    return _cost(a) == _cost(b)


def compare_cost(a: Card | int, b: Card | int) -> int:
    """B2: -1, 0 or 1 as ``a`` costs less, the same or more than ``b``; eliteness ignored."""
    ca, cb = _cost(a), _cost(b)
    return (ca > cb) - (ca < cb)


def _cost(c: Card | int) -> int:
    return c.cost if isinstance(c, Card) else c


# Makes the refusal of one field of a card being read: the field, the message, its values.
_Bad = Callable[..., "FormatError"]


def _is_count(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


_CODE = re.compile(r"^[A-Za-z0-9_-]{1,20}$")
_KEYS = frozenset({
    "code", "name_en", "name_ru", "kind", "cost", "x", "elite", "lives", "movement",
    "strike", "elements", "unique", "text_en", "text_ru",
})
_TRUE_OR_FALSE = N_("card %(code)s: field '%(key)s' must be true or false, got %(value)s")


def card_from_dict(d: Any) -> Card:
    """Build a ``Card`` from one deck-file table; ValueError names the faulty field.

    Long because it checks every field of the format in turn (B2–B5), one line each."""
    if not isinstance(d, dict):
        raise FormatError(N_("a card must be a table of fields, not %(type)s"),
                          type=type(d).__name__)
    code = d.get("code")
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise FormatError(N_("card field 'code' must be 1-20 letters or digits, got %(value)s"),
                          value=repr(code))

    def bad(key: str, message: str, **params: object) -> FormatError:
        # every message names the card, the field and the value found
        return FormatError(message, code=code, key=key, value=repr(d.get(key)), **params)

    unknown = sorted(set(d) - _KEYS)
    if unknown:
        raise FormatError(N_("card %(code)s: unknown field(s) %(keys)s"),
                          code=code, keys=", ".join(map(repr, unknown)))
    names = {}
    for key in ("name_en", "name_ru"):
        if not isinstance(d.get(key), str) or not d[key].strip():
            raise bad(key, N_("card %(code)s: field '%(key)s' must be a non-empty text, "
                              "got %(value)s"))
        names[key] = d[key].strip()
    try:
        kind = Kind(d.get("kind", "creature"))
    except ValueError:
        raise bad("kind", N_("card %(code)s: field '%(key)s' must be 'creature' or "
                             "'artifact', got %(value)s")) from None

    cost = d.get("cost")
    variable = cost == "X" or cost == "x"
    if variable:
        # B2: an X that cannot be determined counts as 0.
        cost = d.get("x", 0)
        if not _is_count(cost):
            raise bad("x", N_("card %(code)s: field '%(key)s' must be a whole number of 0 "
                              "or more, got %(value)s"))
    elif "x" in d:
        raise bad("x", N_("card %(code)s: field '%(key)s' must be absent unless the cost "
                          "is 'X', got %(value)s"))
    elif not _is_count(cost):
        raise bad("cost", N_("card %(code)s: field '%(key)s' must be a whole number of 0 "
                             "or more, or 'X', got %(value)s"))
    elite = d.get("elite", False)
    if not isinstance(elite, bool):
        raise bad("elite", _TRUE_OR_FALSE)
    lives = d.get("lives")
    if not _is_count(lives) or lives < 1:
        raise bad("lives", N_("card %(code)s: field '%(key)s' must be a whole number of 1 "
                              "or more, got %(value)s"))

    locomotion, movement, strike = _creature_fields(d, kind, bad)
    elements = _elements(d.get("elements", []), bad)
    unique = d.get("unique", False)
    if not isinstance(unique, bool):
        raise bad("unique", _TRUE_OR_FALSE)
    texts = {}
    for key in ("text_en", "text_ru"):
        if not isinstance(d.get(key, ""), str):
            raise bad(key, N_("card %(code)s: field '%(key)s' must be a text, got %(value)s"))
        texts[key] = d.get(key, "")
    return Card(
        code=code, kind=kind, cost=cost, elite=elite, lives=lives, locomotion=locomotion,
        movement=movement, strike=strike, elements=elements, unique=unique,
        variable_cost=variable, **names, **texts,
    )


def _creature_fields(
    d: dict[str, Any], kind: Kind, bad: _Bad
) -> tuple[Locomotion | None, int | None, SimpleStrike | None]:
    if kind is Kind.ARTIFACT:
        # B4, B5: movement and a simple strike are printed on creatures only.
        for key in ("movement", "strike"):
            if key in d:
                raise bad(key, N_("card %(code)s: field '%(key)s' must be absent on an "
                                  "artifact, got %(value)s"))
        return None, None, None
    move = d.get("movement")
    if move in ("flying", "symbiote"):
        locomotion, movement = Locomotion(move), None
    elif _is_count(move):
        locomotion, movement = Locomotion.GROUND, move
    else:
        raise bad("movement", N_("card %(code)s: field '%(key)s' must be a whole number of "
                                 "0 or more, 'flying' or 'symbiote', got %(value)s"))
    raw = d.get("strike")
    if isinstance(raw, str):
        raw = raw.replace("–", "-").split("-")
        raw = [p if whole(p) is None else whole(p) for p in raw]
    if not isinstance(raw, (list, tuple)) or len(raw) != 3 or not all(map(_is_count, raw)):
        raise bad("strike", N_("card %(code)s: field '%(key)s' must be three whole numbers "
                               "X-Y-Z of 0 or more, got %(value)s"))
    return locomotion, movement, SimpleStrike(*raw)


def _elements(raw: object, bad: _Bad) -> frozenset[Element]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, (list, tuple)):
        raise bad("elements", N_("card %(code)s: field '%(key)s' must be a list of "
                                 "elements, got %(value)s"))
    if list(raw) == [NEUTRAL]:
        return frozenset()
    try:
        return frozenset(Element(e) for e in raw)
    except ValueError:
        raise bad("elements", N_("card %(code)s: field '%(key)s' must be a list of "
                                 "%(elements)s (or [] / ['neutral']), got %(value)s"),
                  elements=", ".join(ELEMENTS)) from None


def card_to_dict(card: Card) -> dict[str, Any]:
    """The inverse of ``card_from_dict`` (JSON-friendly)."""
    d: dict[str, Any] = {"code": card.code, "name_en": card.name_en, "name_ru": card.name_ru,
                         "kind": str(card.kind)}
    if card.variable_cost:
        d["cost"], d["x"] = "X", card.cost
    else:
        d["cost"] = card.cost
    d.update(elite=card.elite, lives=card.lives)
    if card.is_creature:
        d["movement"] = card.movement if card.locomotion is Locomotion.GROUND else str(
            card.locomotion
        )
        d["strike"] = card.strike.as_list() if card.strike else None
    d["elements"] = [str(e) for e in sorted_elements(card.elements)]
    d["unique"] = card.unique
    if card.text_en:
        d["text_en"] = card.text_en
    if card.text_ru:
        d["text_ru"] = card.text_ru
    return d
