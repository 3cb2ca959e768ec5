"""A player's registered Berserk-style deck (B14): the cards of one deck file with their
counts, checked as a judge checks a decklist (30–50 cards, at most 3 copies of a card, at
most 1 of a unique card); the player's squads are then hired from it.

One registered deck a player. Every registration or change appends an edit row with who,
when and the whole deck, and updates the deck row in the same transaction; a save made
against an older version is refused with the fresh deck (as squads are stored).

A squad of a player who has registered no deck is still saved and played (squads came
before registration, and older API clients know nothing of it), but it is shown as not
checked against a deck. Once a deck is registered, the player's squads must come from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlite_utils import Database

from referee.decks import Deck
from referee.games.berserk import files, rules
from referee.games.berserk.documents import NOT_IN_DECK, Store, bounded, name_of
from referee.games.berserk.game import read_settings
from referee.games.berserk.rules import Card, DeckSummary, Settings
from referee.rules import N_, RuleError
from referee.store import players, write

COUNT_LIMIT = 99  # copies of one card a form or request may name, far above any limit

BAD_CARDS = N_("The cards of a registered deck are a list like {\"code\": \"B01\", "
               "\"count\": 3}, each card once; %(detail)s.")


# Counts ---------------------------------------------------------------------------------


def _count(code: str, raw: object) -> int:
    if (number := bounded(raw, COUNT_LIMIT)) is None:
        raise RuleError("B14", N_("The count of %(card)s must be a whole number from 0 to "
                                  "%(limit)s, not %(value)s."),
                        card=code[:20], limit=COUNT_LIMIT, value=str(raw)[:20])
    return number


def counts_from_json(raw: object) -> dict[str, int]:
    """Counts from the API: a list of {"code", "count"}; refusals say what is wrong."""
    if not isinstance(raw, list):
        raise RuleError(None, BAD_CARDS, detail="not a list")
    out: dict[str, int] = {}
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("code"), str) \
                or set(item) != {"code", "count"} or item["code"] in out:
            raise RuleError(None, BAD_CARDS, detail=f"got {str(item)[:40]}")
        out[item["code"]] = _count(item["code"], item["count"])
    return out


def counts_from_form(form: Mapping[str, str], deck: Deck) -> dict[str, int]:
    """Counts from a form's fields ``n_<code>`` (blank = 0), for the deck's own cards."""
    out: dict[str, int] = {}
    for entry in deck.cards:
        raw = (form.get(f"n_{entry.code}") or "").strip()
        out[entry.code] = _count(entry.code, raw) if raw else 0
    return out


def counts_json(counts: Mapping[str, int]) -> list[dict]:
    """Counts as stored and answered: cards held, in the order given."""
    return [{"code": code, "count": n} for code, n in counts.items() if n]


def held(row: dict) -> dict[str, int]:
    """The counts of a stored registered deck."""
    return {c["code"]: c["count"] for c in row["cards"]}


def cards_of(deck: Deck, counts: Mapping[str, int]) -> tuple[Card, ...]:
    """The deck's cards, copies repeated; RuleError for a code the file does not hold."""
    catalogue = {e.code: e.card for e in deck.cards}
    for code in counts:
        if code not in catalogue:
            raise RuleError(None, NOT_IN_DECK, card=code[:20], deck=deck.name)
    return rules.expand(counts, catalogue)


def summary(deck: Deck, counts: Mapping[str, int], settings: Settings) -> DeckSummary:
    """Live counts: cards against 30–50, copies, unique cards, problems (B14)."""
    return rules.deck_summary(cards_of(deck, counts), settings)


# Stored decks ---------------------------------------------------------------------------


STORE = Store("berserk_decks", "berserk_deck_edits", "deck",
              N_("There is no registered deck %(id)s; it may have been mistyped. Open the "
                 "list of registered decks."),
              total=lambda cards: sum(c["count"] for c in cards))
get, of_player, listing, count, edits = (STORE.get, STORE.of_player, STORE.listing,
                                         STORE.count, STORE.edits)


def check(player_id: object, name: object, deck_name: object, counts: Mapping[str, int],
          settings: Settings) -> dict:
    """The deck as it would be stored; RuleError for the first thing wrong with it (B14)."""
    name = name_of(name, N_("The deck's name must be text of at most %(limit)s characters."))
    deck = files.deck(deck_name)
    rules.check_deck(cards_of(deck, counts), settings)
    return {"player_id": player_id, "name": name, "deck": deck.name,
            "cards": counts_json(counts), "settings": rules.settings_to_dict(settings)}


def save(db: Database, referee_id: int | None, deck_id: int | None, *, player_id: object,
         name: object, deck: object, counts: Mapping[str, int], settings: Settings,
         version: int | None = None) -> dict:
    """Register (``deck_id`` None) or change a player's deck; refused unless it keeps B14."""
    with write(db):
        old = None
        if deck_id is not None:
            old = STORE.current(db, deck_id, version)
            player_id = old["player_id"]  # a registered deck stays its player's
        player = players.existing(db, player_id)
        if old is None and (mine := of_player(db, player_id)) is not None:
            raise RuleError(None, N_("%(player)s already has a registered deck (#%(id)s); "
                                     "change that one instead."),
                            player=player["character"], id=mine["id"])
        deck_id = STORE.write(db, referee_id, deck_id,
                              check(player_id, name, deck, counts, settings), old=old)
    return STORE.current(db, deck_id, None)


def problems_of(row: dict) -> tuple[RuleError, ...]:
    """What is wrong with a registered deck now (its deck file may have changed since)."""
    try:
        settings = read_settings(row["settings"])
        return summary(files.deck(row["deck"]), held(row), settings).problems
    except RuleError as err:
        return (err,)


# Squads hired from the registered deck ----------------------------------------------------


def hire_problems(registered: dict | None, deck_name: str, cards: Iterable[Card]
                  ) -> tuple[RuleError, ...]:
    """B14: what a squad of these cards from ``deck_name`` breaks of its player's
    registered deck; nothing when the player has registered none."""
    if registered is None:
        return ()
    owner = registered["character"]
    if deck_name != registered["deck"]:
        return (RuleError("B14", N_("The deck registered for %(player)s is made of %(deck)s "
                                    "cards; build the squad from %(deck)s."),
                          player=owner, deck=registered["deck"]),)
    return rules.hire_problems(cards, held(registered), owner)
