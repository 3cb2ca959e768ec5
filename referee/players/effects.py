"""What game steps do to passports: written as player events, and taken back by delta.

A game step's effect on a player (stat deltas, counters refilled, duel-deck cards
surrendered) is one event on that player, in the step's transaction. Undoing the step
appends the compensating event of each, by delta, so that other referees' taps since
then survive, exactly as a player's own undo does. Call these inside store.write().
"""

from __future__ import annotations

from sqlite_utils import Database

from referee.games.interface import Effect
from referee.notes import Note, note
from referee.players.service import record_change, reverted_sheet, wound_started
from referee.rules import N_, RuleError, stats
from referee.rules.cards import sort_codes
from referee.store import events, players

REASON_UNDO = N_("undone: %(reason)s")
# The duel's own sentence (D1, D7): a surrendered card never comes back.
HAND_GONE = N_(
    "%(card)s was already surrendered by %(player)s and never comes back; lay one of "
    "%(cards)s or no hand card.")
DEAD_SINCE = N_("%(player)s has been marked dead since; undo the death on their sheet "
                "first.")
NO_PLAYER = N_("No player %(id)s: they may have been removed; reload the list.")
_MAXIMUM = {"chance": "chance_max", "hp": "hp_max"}


def apply_effect(db: Database, referee_id: int | None, player_id: int, effect: Effect, *,
                 kind: str, reason: Note) -> int | None:
    """Write one player's effect and its event; the event id (None if nothing changed).

    stats.adjust keeps the bounds (D4 cartridges, D8 chance, D10 HP, level 1–10) and
    derives the heavy wound at 0 HP: a row changed elsewhere meanwhile is refused with
    the rule, never broken."""
    row = players.get(db, player_id)
    if row is None:
        raise RuleError(None, NO_PLAYER, id=player_id)
    deltas = dict(effect.deltas)
    for counter in effect.refill:  # D13: back to the maximum on the passport
        deltas[counter] = row[_MAXIMUM[counter]] - row[counter]
    deltas = {k: v for k, v in deltas.items() if v}
    sheet = stats.adjust(players.sheet(row), deltas) if deltas else players.sheet(row)
    new: dict = sheet.values()
    new["wounded_at"] = wound_started(row, sheet.status)
    deck = players.deck_cards(row)
    for card in effect.surrender:
        if card not in deck:  # D1: surrendered elsewhere since this game began
            raise RuleError("D7", HAND_GONE, card=card, player=row["character"],
                            cards=", ".join(deck))
    new["duel_deck"] = ",".join(c for c in deck if c not in effect.surrender)
    if all(row[k] == v for k, v in new.items()):
        return None
    return record_change(db, row, new, referee_id=referee_id, kind=kind,
                         reason=reason)["event_id"]


def compensate(db: Database, referee_id: int | None, event_id: int, *, kind: str) -> int:
    """Append the event that takes back one game event on its player, by delta."""
    event = events.get(db, event_id)
    if event is None:
        raise RuleError(None, N_("No such event: reload the history."))
    row = players.existing(db, event["player_id"])
    if row["status"] == stats.DEAD:
        raise RuleError(None, DEAD_SINCE, player=row["character"])
    changes = event["changes"]
    new = reverted_sheet(row, changes)
    if "duel_deck" in changes:
        before = set(filter(None, (changes["duel_deck"]["before"] or "").split(",")))
        after = set(filter(None, (changes["duel_deck"]["after"] or "").split(",")))
        # D1: a card comes back only because its laying is undone.
        new["duel_deck"] = ",".join(sort_codes({*players.deck_cards(row), *(before - after)}))
    saved = record_change(db, row, new, referee_id=referee_id, kind=kind,
                          reason=note(REASON_UNDO, reason=event["note"] or event["reason"]),
                          undoes=event_id)
    return saved["event_id"]
