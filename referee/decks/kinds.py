"""What each deck kind's cards hold, checked by the rules engines where one exists.

Which kinds there are is each game's manifest's to say (``decks``, games.registry): it
names the reader of a card and of a whole deck, here or in the game's own folder.

A card table goes to the engine's own ``card_from_dict`` (Underworld, Berserk) or to the
playing-card parser (D1–D3), so a deck file has exactly the shape the rules read. Coup
cards are only printed (the Coup engine never sees a hidden card), so their shape lives
here. ``Problem`` names the key at fault so the loader can point at its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import referee.games.berserk.rules
import referee.games.underworld.rules
from referee.games.coup.rules.model import CHARACTERS
from referee.rules import N_, RuleError
from referee.rules.cards import RANKS, SUIT_SYMBOLS, Card, parse_suit

MAX_COPIES = 99
_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}")  # fullmatch: no "\n" after it

RANK_NAMES = {
    "6": ("Six", "Шестёрка"), "7": ("Seven", "Семёрка"), "8": ("Eight", "Восьмёрка"),
    "9": ("Nine", "Девятка"), "10": ("Ten", "Десятка"), "J": ("Jack", "Валет"),
    "Q": ("Queen", "Дама"), "K": ("King", "Король"), "A": ("Ace", "Туз"),
}
# Russian names the suit in the genitive plural: «дама пик», «туз бубён».
SUIT_NAMES = {"S": ("spades", "пик"), "H": ("hearts", "червей"),
              "D": ("diamonds", "бубён"), "C": ("clubs", "треф")}


class Problem(Exception):
    """A card or deck that is wrong; ``key`` is the field to point at, ``index`` the card.

    ``parts`` are what ``DeckError`` shows: ``message`` (an English sentence marked with
    ``N_``, filled from ``params``) or an engine's RuleError as it was raised, then
    ``more``. ``key`` and ``index`` are positional only, so a message may name its own
    ``%(key)s``.
    """

    def __init__(self, message: str | RuleError, key: str | None = None,
                 index: int | None = None, /, *more: RuleError, **params: object) -> None:
        first = message if isinstance(message, RuleError) else RuleError(None, message,
                                                                         **params)
        self.parts: tuple[RuleError, ...] = (first, *more)
        self.key = key
        self.index = index
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """What is wrong, in English."""
        return " ".join(str(part) for part in self.parts)


@dataclass(frozen=True)
class PlayingCard:
    """D1–D3: a card of the 36-card deck, with its printed names."""

    card: Card

    @property
    def code(self) -> str:
        return self.card.code

    @property
    def name_en(self) -> str:
        return f"{RANK_NAMES[self.card.rank][0]} of {SUIT_NAMES[self.card.suit][0]}"

    @property
    def name_ru(self) -> str:
        return f"{RANK_NAMES[self.card.rank][1]} {SUIT_NAMES[self.card.suit][1]}"

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.card.suit]


@dataclass(frozen=True)
class CoupCard:
    """A Coup character (C1, C5) or the player-aid card; printed only."""

    code: str
    role: str  # "character" or "aid"
    name_en: str
    name_ru: str
    character: str = ""
    power_en: str = ""
    power_ru: str = ""
    blocks_en: str = ""
    blocks_ru: str = ""
    text_en: str = ""
    text_ru: str = ""


_MISSING = N_("card %(code)s: %(key)s is missing; add it")


def _only(code: str, d: dict, allowed: set[str]) -> None:
    for key in d:
        if key not in allowed:
            raise Problem(N_("card %(code)s: unknown field %(value)s; remove it or fix its "
                             "spelling (fields: %(allowed)s)"), key,
                          code=code, value=repr(key), allowed=", ".join(sorted(allowed)))


def _text(code: str, d: dict, key: str, required: bool = True) -> str:
    value = d.get(key, None if required else "")
    if not isinstance(value, str) or (required and not value.strip()):
        message = _MISSING if key not in d else N_("card %(code)s: %(key)s must be "
                                                  "non-empty text")
        raise Problem(message, key, code=code, key=key)
    return value.strip()


def playing(code: str, d: dict) -> PlayingCard:
    """D3: a rank 6–A and a suit S H D C; the code must be the canonical one (``10H``)."""
    _only(code, d, {"code", "rank", "suit"})
    for key in ("rank", "suit"):
        if key not in d:
            raise Problem(_MISSING, key, code=code, key=key)
    rank = d["rank"]
    if isinstance(rank, int) and not isinstance(rank, bool):
        rank = str(rank)
    if not isinstance(rank, str) or rank.strip().upper() not in RANKS:
        raise Problem(N_("card %(code)s: rank must be one of %(ranks)s, not %(value)s"),
                      "rank", code=code, ranks=" ".join(RANKS), value=repr(d["rank"]))
    try:
        suit = parse_suit(d["suit"])
    except RuleError:
        raise Problem(N_("card %(code)s: suit must be one of S, H, D, C (or ♠ ♥ ♦ ♣), "
                         "not %(value)s"), "suit", code=code, value=repr(d["suit"])) from None
    card = Card(rank.strip().upper(), suit)
    if code != card.code:
        raise Problem(N_("card %(code)s: the code of the %(rank)s of %(suit)s must be "
                         "%(canonical)s (rank, then suit letter)"), "code",
                      code=code, rank=rank, suit=d["suit"], canonical=card.code)
    return PlayingCard(card)


def _rule_problem(err: RuleError) -> Problem:
    field = err.params.get("field")
    key = str(field) if field else None
    if key is None:
        for word, name in (("kind", "kind"), ("duration", "duration"),
                           ("item type", "item_type"), ("code", "code")):
            if word in err.message:
                key = name
                break
    return Problem(err, key)


def castle(code: str, d: dict) -> referee.games.underworld.rules.Card:
    """U1/U3: a monster, item, skill or event, in the Underworld engine's shape."""
    if d.get("kind") == "class":
        raise Problem(N_("card %(code)s: class cards belong in a class deck file "
                         "(kind = \"class\" in [deck]), not in the castle deck (U1)"), "kind",
                      code=code)
    if "kind" not in d:
        raise Problem(N_("card %(code)s: kind is missing; add monster, item, skill or event"),
                      "kind", code=code)
    try:
        return referee.games.underworld.rules.card_from_dict(d)
    except RuleError as err:
        raise _rule_problem(err) from None


def class_card(code: str, d: dict) -> referee.games.underworld.rules.Card:
    """U3/U14: a class card; ``kind`` may be left out in a class deck."""
    d = {"kind": "class", **d}
    if d["kind"] != "class":
        raise Problem(N_("card %(code)s: only class cards belong in a class deck (U1); "
                         "move this %(kind)s to a castle deck"), "kind",
                      code=code, kind=str(d["kind"]))
    try:
        return referee.games.underworld.rules.card_from_dict(d)
    except RuleError as err:
        raise _rule_problem(err) from None


_FIELD = re.compile(r"field(?:\(s\))? '(\w+)'")


def berserk_card(code: str, d: dict) -> referee.games.berserk.rules.Card:
    """B1–B5, B8: the Berserk engine's card table."""
    try:
        return referee.games.berserk.rules.card_from_dict(d)
    except referee.games.berserk.rules.FormatError as err:
        # "field 'x' must be …" or "unknown field(s) 'x', …": point at (the first) x
        found = _FIELD.search(str(err))
        raise Problem(err.message, found.group(1) if found else None, **err.params) from None


_COUP_CHARACTER = {"code", "role", "character", "name_en", "name_ru", "power_en", "power_ru",
                   "blocks_en", "blocks_ru"}
_COUP_AID = {"code", "role", "name_en", "name_ru", "text_en", "text_ru"}


def coup(code: str, d: dict) -> CoupCard:
    """C1/C5: a character with its power and what it blocks, or a player aid."""
    role = d.get("role", "character")
    if role == "aid":
        _only(code, d, _COUP_AID)
        texts = {k: _text(code, d, k) for k in ("name_en", "name_ru", "text_en", "text_ru")}
        return CoupCard(code=code, role="aid", **texts)
    if role != "character":
        raise Problem(N_("card %(code)s: role must be \"character\" or \"aid\", not %(value)s"),
                      "role", code=code, value=repr(role))
    _only(code, d, _COUP_CHARACTER)
    character = d.get("character")
    if character not in CHARACTERS:
        raise Problem(N_("card %(code)s: character must be one of %(characters)s, "
                         "not %(value)s"), "character",
                      code=code, characters=", ".join(CHARACTERS), value=repr(character))
    texts = {k: _text(code, d, k) for k in sorted(_COUP_CHARACTER - {"code", "role",
                                                                     "character"})}
    return CoupCard(code=code, role="character", character=character, **texts)


def check_code(index: int, d: object) -> str:
    """Every kind: a table with a short code (what the referee taps on the phone)."""
    if not isinstance(d, dict):
        raise Problem(N_("card %(number)s must be a table of fields ([[cards]])"), None,
                      number=index + 1)
    code = d.get("code")
    if code is None:
        raise Problem(N_("card %(number)s: code is missing; add a short code such as M07"),
                      "code", number=index + 1)
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise Problem(N_("card %(number)s: code %(value)s is not valid: use 1–16 letters, "
                         "digits, - or _, starting with a letter or digit (e.g. M07)"), "code",
                      number=index + 1, value=repr(code))
    return code


def check_copies(code: str, d: dict) -> int:
    """``copies = N`` prints a card N times (all copies share the code)."""
    copies = d.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        raise Problem(N_("card %(code)s: copies must be a whole number from 1 to %(most)s, "
                         "not %(value)s"), "copies", code=code, most=MAX_COPIES,
                      value=repr(copies))
    return copies


# the label in front of the U1/U2 refusals of a whole deck ("castle deck: U2: …")
DECK_LABELS = {"castle": N_("castle deck:"), "class": N_("class deck:")}


def _uw_problems(kind: str, check: Callable, cards: list[tuple[object, int]]) -> list[Problem]:
    problems = check([card for card, copies in cards for _ in range(copies)])
    return [Problem(DECK_LABELS[kind], None, None, *problems)] if problems else []


def castle_problems(cards: list[tuple[object, int]]) -> list[Problem]:
    """U2: the whole castle deck's limits."""
    return _uw_problems("castle", referee.games.underworld.rules.castle_deck_problems, cards)


def class_problems(cards: list[tuple[object, int]]) -> list[Problem]:
    """U2: the whole class deck's limits."""
    return _uw_problems("class", referee.games.underworld.rules.class_deck_problems, cards)


def coup_problems(cards: list[tuple[object, int]]) -> list[Problem]:
    """One card per Coup character (C1)."""
    seen: dict[str, str] = {}
    for index, (card, _copies) in enumerate(cards):
        if isinstance(card, CoupCard) and card.role == "character":
            if card.character in seen:
                return [Problem(N_("card %(code)s: the %(character)s already has card "
                                   "%(other)s; give one card more copies instead"),
                                "character", index, code=card.code, character=card.character,
                                other=seen[card.character])]
            seen[card.character] = card.code
    return []
