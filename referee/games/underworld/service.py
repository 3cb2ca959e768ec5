"""Underworld games on the stored-game service: setup, the game kind, quick fights.

An underworld game is a row of the generic ``games`` table. Its stored setup holds the seated
registry players in turn order, both decks as they were when the game began (the cards
themselves, so editing a deck file never changes a game in progress), each player's 4
starting cards and, when the game carries passport levels, the levels carried in.
The engine (:mod:`referee.rules.underworld`) names players by text: the registry ids as
strings.

The folded state is a :class:`Table`: the engine state plus the table it came from and
the action that led to it, so one replay gives the screens every step of the record.
When the game carries passport levels, every level the engine moves is written to the
player's sheet as an ``underworld`` event in the same transaction as the action (U8).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sqlite_utils import Database

from referee.decks import Deck, DeckError, UnknownDeck, load_all, load_deck, search
from referee.errors import Conflict
from referee.games import service
from referee.games.underworld import rules
from referee.games.underworld.game import (  # noqa: F401  (re-exported for the screens)
    BAD_SETUP,
    Table,
    _cards,
    apply,
    finished,
    level_effects,
    start,
)
from referee.games.underworld.rules.state import INVENTORY, MAX_SEATS, MIN_SEATS
from referee.notes import Note
from referee.players.service import change_sheet
from referee.rules import N_, RuleError, stats, whole
from referee.rules.stats import LEVEL_MAX, LEVEL_MIN
from referee.store import games, players
from referee.store.db import fetch

KIND = "underworld"
CASTLE_DECK, CLASS_DECK = "castle-sample", "classes-sample"
TITLE_LIMIT = 80
REQUEST_KEYS = {"players", "castle", "classes", "starting", "passport_levels", "title"}

BONUSES = N_("Bonuses must be whole numbers such as 2 or 2+1-1 (one per card, helper "
             "or ally); correct them.")


# Decks and cards --------------------------------------------------------------------------


def decks(kind: str) -> dict[str, Deck]:
    """The readable deck files of a kind (``castle`` or ``class``), by name."""
    return {name: deck for name, deck in load_all(errors=[]).items() if deck.kind == kind}


def _no_deck(name: object, kind: str) -> RuleError:
    missing = {"castle": N_("There is no castle deck named %(name)s; pick one of %(names)s."),
               "class": N_("There is no class deck named %(name)s; pick one of %(names)s.")}
    return RuleError("U1", missing[kind], name=str(name), names=", ".join(decks(kind)) or "—")


def _deck(name: object, kind: str) -> dict:
    if not isinstance(name, str) or not name:
        raise _no_deck(name, kind)
    try:
        deck = load_deck(name)
    except UnknownDeck:
        raise _no_deck(name, kind) from None
    except DeckError as err:
        # the DeckError itself: the web shows its complaint in the reader's language
        raise RuleError("U2", N_("The deck file %(name)s cannot be read: %(problem)s"),
                        name=name, problem=err) from None
    if deck.kind != kind:
        raise _no_deck(name, kind)
    return {"name": deck.name, "cards": [{**rules.card_to_dict(e.card), "copies": e.copies}
                                         for e in deck.cards]}


# Finding a card by code or name: the same search as every deck's (referee.decks.search).
distinct = search.distinct
code_key = search.code_key
same_code = search.same_code
find_cards = search.find_cards


def resolve_card(cards: Iterable[rules.Card], text: object) -> str:
    """The code a referee meant by a code or a name (``"M07 · Gate Troll"`` works too)."""
    cards = distinct(cards)
    raw = text.split(" · ", 1)[0] if isinstance(text, str) else ""
    exact = [c.code for c in cards if same_code(c.code, raw)]
    if exact:
        return exact[0]
    found = find_cards(cards, raw) if raw.strip() else []
    needle = raw.strip().casefold()
    # Narrow a loose match: a whole name, then a whole word ("rat" is not "Rattling").
    for narrower in (lambda n: n == needle, lambda n: needle in n.split()):
        close = [c for c in found if narrower(c.name_en.casefold())
                 or narrower(c.name_ru.casefold())]
        if len(close) == 1:
            return close[0].code
    codes = [c.code for c in found]
    if len(codes) == 1:
        return codes[0]
    if not codes:
        raise RuleError("U4", N_("No castle card matches “%(text)s”; type a code such as M07 "
                                 "or part of a name."), text=str(text))
    raise RuleError("U4", N_("“%(text)s” matches several cards (%(codes)s); type the code "
                             "instead."), text=str(text), codes=", ".join(codes[:6]))


# Setup ------------------------------------------------------------------------------------


def build_setup(db: Database, request: dict) -> tuple[dict, list[dict]]:
    """The stored setup for what the referee chose: registry players in turn order,
    decks by name, 4 starting cards each by code or name, passport levels or not.
    Returns the setup and the seated player rows."""
    ids = request.get("players")
    if not isinstance(ids, list) or len(set(map(str, ids))) != len(ids) \
            or not MIN_SEATS <= len(ids) <= MAX_SEATS:
        raise RuleError("U4", N_("Pick 2 to 6 different players from the list; %(count)s were "
                                 "picked."), count=len(ids) if isinstance(ids, list) else 0)
    seated = [players.existing(db, pid) for pid in ids]
    castle = _deck(request.get("castle") or CASTLE_DECK, "castle")
    classes = _deck(request.get("classes") or CLASS_DECK, "class")
    cards = _cards(castle, "castle")
    given = request.get("starting")
    given = given if isinstance(given, dict) else {}
    starting: dict[str, list[str]] = {}
    for row in seated:
        hand = given.get(str(row["id"]), given.get(row["id"]))
        texts = [t for t in hand if not (isinstance(t, str) and not t.strip())] \
            if isinstance(hand, list) else []
        if len(texts) != INVENTORY:
            raise RuleError("U4", N_("Give %(player)s exactly 4 starting cards; %(count)s were "
                                     "given."), player=row["character"], count=len(texts))
        starting[str(row["id"])] = [resolve_card(cards, t) for t in texts]
    passport = request.get("passport_levels", False)
    if not isinstance(passport, bool):
        raise RuleError(None, N_("%(field)s must be true or false."), field="passport_levels")
    setup = {"players": [r["id"] for r in seated], "castle": castle, "classes": classes,
             "starting": starting, "passport_levels": passport}
    if passport:
        for row in seated:
            if not LEVEL_MIN <= row["level"] < LEVEL_MAX:
                raise RuleError("U4", N_("%(player)s is at level %(level)s on the passport; a "
                                         "castle game carries in levels 1 to 9 only (U4). "
                                         "Start without passport levels."),
                                player=row["character"], level=row["level"])
        setup["levels"] = {str(r["id"]): r["level"] for r in seated}
    return setup, seated


def title_of(request: dict) -> str:
    title = request.get("title") or ""
    if not isinstance(title, str):
        raise RuleError(None, N_("%(field)s must be text."), field="title")
    if len(title.strip()) > TITLE_LIMIT:
        raise RuleError(None, N_("The title is longer than %(limit)s characters."),
                        limit=TITLE_LIMIT)
    return title.strip()


def create(db: Database, referee_id: int | None, request: dict) -> service.Game:
    """Start an underworld game; the engine checks everything before anything is stored."""
    setup, seated = build_setup(db, request)
    return service.create(db, referee_id, KIND, setup, [r["id"] for r in seated],
                          title_of(request))


def load(db: Database, game_id: int) -> service.Game | None:
    """An underworld game rebuilt from its actions, or None (also for another kind's id)."""
    return service.load(db, KIND, game_id)


def names(db: Database, seats: Iterable[int]) -> dict[str, str]:
    """Engine player id → character name, for the seated players."""
    seats = list(seats)
    if not seats:
        return {}
    marks = ",".join("?" * len(seats))
    found = fetch(db, f"SELECT id, character FROM players WHERE id IN ({marks})", seats)
    by_id = {r["id"]: r["character"] for r in found}
    return {str(pid): by_id.get(pid, f"#{pid}") for pid in seats}


def listing(db: Database, player_id: int | None = None, limit: int = 200,
            before: int | None = None) -> list[dict]:
    """Underworld games, newest first, each with its seated players' names."""
    return games.listing(db, KIND, player_id, limit, before)


# Quick fight ------------------------------------------------------------------------------




@dataclass(frozen=True)
class QuickResult:
    fight: rules.QuickFight
    row: dict  # the player after the fight
    event_id: int | None  # the level event written (None when the level stays)


_BONUS = re.compile(r"\s*([+-]?)\s*(\d{1,3})\s*,?")


def parse_bonuses(text: object) -> tuple[int, ...]:
    """``"2+1 -1"`` or ``[2, 1, -1]`` → (2, 1, -1); empty means no bonus."""
    if isinstance(text, list):
        if not all(type(v) is int for v in text):
            raise RuleError("U7", BONUSES)
        return tuple(text)
    if type(text) is int:
        return (text,)
    if not isinstance(text, str):
        raise RuleError("U7", BONUSES)
    text, out, at = text.strip(), [], 0
    while at < len(text):
        found = _BONUS.match(text, at)
        if found is None or found.end() == at:
            raise RuleError("U7", BONUSES)
        out.append(int(found.group(1) + found.group(2)))
        at = found.end()
    return tuple(out)


def parse_strength(value: object) -> int:
    if isinstance(value, str) and (number := whole(value)) is not None:
        value = number
    if type(value) is not int or not 0 <= value <= 99:
        raise RuleError("U7", N_("The monster's strength must be a whole number from 0 to 99; "
                                 "correct it."))
    return value


def preview_quick(db: Database, player_id: object, bonuses: object, strength: object
                  ) -> rules.QuickFight:
    """What a quick fight would do to the player now (nothing is written)."""
    row = players.existing(db, player_id)
    return rules.quick_fight(row["level"], parse_bonuses(bonuses), parse_strength(strength))


# The reason on the level event of a quick fight (a note: read in each reader's language).
QUICK_REASON = N_("Quick fight: %(bonuses)s against strength %(strength)s")


def quick_fight(db: Database, referee_id: int | None, player_id: object, bonuses: object,
                strength: object, version: int | None, reason: str | Note) -> QuickResult:
    """U7–U8 from numbers alone on a registry player's level, as a normal level event.

    The fight is scored against the level the referee saw: if the sheet changed since
    (``version``), Conflict carries the fresh row and nothing is written."""
    plus, against = parse_bonuses(bonuses), parse_strength(strength)
    row = players.existing(db, player_id)
    if version is not None and version != row["version"]:
        raise Conflict(row)
    result = rules.quick_fight(row["level"], plus, against)
    if result.level == row["level"]:
        return QuickResult(result, row, None)

    def rule(sheet):
        if sheet.level != row["level"]:  # changed between the read and the write lock
            raise Conflict(players.get(db, row["id"]))
        return stats.adjust(sheet, {"level": result.level - sheet.level})

    saved = change_sheet(db, referee_id, row["id"], "adjust", rule, reason)
    return QuickResult(result, saved, saved["event_id"])
