"""Berserk-style squads saved for a player: picks from a deck, checked against B12–B14,
and hired from the player's registered deck once there is one (B14, ``registered``).

A squad is a list of picks from one deck file — a card code and, for a card of cost X,
the X fixed while building (B2) — with the seat it is built for (the second player has
one crystal more of each kind, B12) and the rules numbers in force (B11–B14). Every save
appends an edit row with who, when and the whole squad, and updates the squad row in
the same transaction; a save made against an older version is refused with the fresh
squad.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlite_utils import Database

from referee.decks import Deck
from referee.games.berserk import files, registered, rules
from referee.games.berserk.documents import NOT_IN_DECK, Store, bounded, name_of
from referee.games.berserk.game import NO_SQUAD, read_settings
from referee.games.berserk.rules import Card, Settings, SquadSummary
from referee.rules import N_, RuleError
from referee.store import players, write

SEATS = ("first", "second")
X_LIMIT = 99
CARD_LIMIT = 99  # a sanity bound for one form or request, far above any squad

BAD_PICKS = N_("The cards of a squad are a list of picks like {\"code\": \"B01\"}, with "
               "\"x\" for a card of cost X; %(detail)s.")
TOO_MANY = N_("A squad holds at most %(limit)s cards here; remove some.")
BAD_SEAT = N_("A squad is built for the first or the second player, not %(value)s.")


@dataclass(frozen=True)
class Pick:
    """One card taken into the squad; ``x`` only for a card of cost X (B2)."""

    code: str
    x: int | None = None

    @property
    def token(self) -> str:
        """How a form carries the pick: ``B01`` or ``B16:3``."""
        return self.code if self.x is None else f"{self.code}:{self.x}"

    def to_dict(self) -> dict:
        return {"code": self.code} if self.x is None else {"code": self.code, "x": self.x}




# Picks -------------------------------------------------------------------------------


def _x(code: str, raw: object) -> int | None:
    if raw is None:
        return None
    if (number := bounded(raw, X_LIMIT)) is None:
        raise RuleError("B2", N_("X of %(card)s must be a whole number from 0 to %(limit)s, "
                                 "not %(value)s."),
                        card=code, limit=X_LIMIT, value=str(raw)[:20])
    return number


def picks_from_json(raw: object) -> tuple[Pick, ...]:
    """Picks from the API: a list of {"code", "x"?}; refusals say what is wrong."""
    if not isinstance(raw, list):
        raise RuleError(None, BAD_PICKS, detail="not a list")
    if len(raw) > CARD_LIMIT:
        raise RuleError(None, TOO_MANY, limit=CARD_LIMIT)
    out = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("code"), str) \
                or set(item) - {"code", "x"}:
            raise RuleError(None, BAD_PICKS, detail=f"got {str(item)[:40]}")
        out.append(Pick(item["code"], _x(item["code"], item.get("x"))))
    return tuple(out)


def picks_from_tokens(tokens: Iterable[str]) -> tuple[Pick, ...]:
    """Picks from a form's hidden fields (``B01``, ``B16:3``)."""
    out = []
    for token in tokens:
        code, _, x = token.partition(":")
        out.append(Pick(code.strip(), _x(code, x) if x else None))
    if len(out) > CARD_LIMIT:
        raise RuleError(None, TOO_MANY, limit=CARD_LIMIT)
    return tuple(out)


def picks(squad: dict) -> tuple[Pick, ...]:
    """The picks of a stored squad."""
    return tuple(Pick(p["code"], p.get("x")) for p in squad["cards"])


def card_of(deck: Deck, pick: Pick) -> Card:
    """The printed card of a pick, with its X fixed (B2)."""
    try:
        card = deck.card(pick.code).card
    except KeyError:
        raise RuleError(None, NOT_IN_DECK, card=pick.code[:20], deck=deck.name) from None
    if card.variable_cost:
        return rules.fix_x(card, 0 if pick.x is None else pick.x)
    if pick.x is not None:
        rules.fix_x(card, pick.x)  # B2: raises, only a card of cost X takes a value
    return card


def cards_of(deck: Deck, chosen: Iterable[Pick]) -> tuple[Card, ...]:
    """The squad's cards in pick order (the order of their ids in a battle)."""
    return tuple(card_of(deck, p) for p in chosen)


def summary(deck: Deck, chosen: Iterable[Pick], settings: Settings, seat: str
            ) -> SquadSummary:
    """Live counts: gold, silver, element penalty, flyers, copies, problems (B12–B14)."""
    return rules.squad_summary(cards_of(deck, chosen), settings, seat == "first")


def add(deck: Deck, chosen: tuple[Pick, ...], pick: Pick, settings: Settings, seat: str,
        hired_from: dict | None = None) -> tuple[Pick, ...]:
    """The picks with one more card, or the refusal it would bring (B12–B14); with the
    player's registered deck ``hired_from``, also a card it does not hold (B14)."""
    cards = rules.add_to_squad(cards_of(deck, chosen), card_of(deck, pick), settings,
                               seat == "first")
    for problem in registered.hire_problems(hired_from, deck.name, cards):
        if problem.params.get("card", pick.code) == pick.code:
            raise problem
    return (*chosen, pick)


def remove(chosen: tuple[Pick, ...], code: str) -> tuple[Pick, ...]:
    """The picks without the last copy of ``code`` (unchanged if there is none)."""
    for i in range(len(chosen) - 1, -1, -1):
        if chosen[i].code == code:
            return chosen[:i] + chosen[i + 1:]
    return chosen


def counts(chosen: Iterable[Pick]) -> dict[str, int]:
    """Copies of each code in the squad."""
    out: dict[str, int] = {}
    for p in chosen:
        out[p.code] = out.get(p.code, 0) + 1
    return out


# Stored squads --------------------------------------------------------------------------


STORE = Store("berserk_squads", "berserk_squad_edits", "squad", NO_SQUAD)
get, listing, count, edits = STORE.get, STORE.listing, STORE.count, STORE.edits


def check(player_id: object, name: object, deck_name: object, seat: object,
          chosen: tuple[Pick, ...], settings: Settings) -> dict:
    """The squad as it would be stored; RuleError for the first thing wrong with it."""
    name = name_of(name, N_("The squad's name must be text of at most %(limit)s characters."))
    if seat not in SEATS:
        raise RuleError("B12", BAD_SEAT, value=str(seat)[:20])
    deck = files.deck(deck_name)
    cards = cards_of(deck, chosen)
    if not cards:
        raise RuleError("B12", N_("The squad has no cards; add at least one card before "
                                  "saving."))
    rules.check_squad(cards, settings, seat == "first")
    return {"player_id": player_id, "name": name, "deck": deck.name, "seat": seat,
            "cards": [p.to_dict() for p in chosen],
            "settings": rules.settings_to_dict(settings)}


def save(db: Database, referee_id: int | None, squad_id: int | None, *, player_id: object,
         name: object, deck: object, seat: object, chosen: tuple[Pick, ...],
         settings: Settings, version: int | None = None) -> dict:
    """Create (``squad_id`` None) or change a squad; refused unless it keeps B12–B14."""
    with write(db):
        players.existing(db, player_id)
        squad = check(player_id, name, deck, seat, chosen, settings)
        # B14: once the player has registered a deck, the squad is hired from it
        cards = cards_of(files.deck(squad["deck"]), chosen)
        hired = registered.hire_problems(registered.of_player(db, player_id), squad["deck"],
                                         cards)
        if hired:
            raise hired[0]
        squad_id = STORE.write(db, referee_id, squad_id, squad, version)
    return STORE.current(db, squad_id, None)


def hire_problems(db: Database, squad: dict) -> tuple[RuleError, ...]:
    """B14: what a stored squad breaks of its player's registered deck (none registered:
    nothing), e.g. when the deck was registered or changed after the squad was saved."""
    try:
        cards = cards_of(files.deck(squad["deck"]), picks(squad))
    except RuleError as err:
        return (err,)
    return registered.hire_problems(registered.of_player(db, squad["player_id"]),
                                    squad["deck"], cards)


def problems_of(squad: dict, db: Database | None = None) -> tuple[RuleError, ...]:
    """What is wrong with a stored squad now (its deck file may have changed since);
    with ``db`` also what it breaks of its player's registered deck (B14)."""
    try:
        settings = read_settings(squad["settings"])
        found = summary(files.deck(squad["deck"]), picks(squad), settings,
                        squad["seat"]).problems
    except RuleError as err:
        return (err,)
    return found + (hire_problems(db, squad) if db is not None else ())
