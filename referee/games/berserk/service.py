"""Berserk-style battles on the generic stored-game service (B1–B14).

A battle is a ``games`` row of kind ``berserk``: its setup holds both squads' printed
cards (X fixed, B2) and the event's settings (B11–B14), so a later edit of a deck file
never changes a battle in progress. Its actions are the engine's own dicts. This module
registers the kind, reads the rules numbers an organizer may change, builds a battle
from two saved squads, and rebuilds the battle's record for the screens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlite_utils import Database

from referee.games import service
from referee.games.berserk import rules, squads
from referee.games.berserk.files import deck, decks  # noqa: F401  (re-exported)

# Re-exported: the screens and the API read the settings through this module.
from referee.games.berserk.game import (  # noqa: F401
    NO_SQUAD,
    SETTING_GROUPS,
    SETTING_LABELS,
    SETTING_RULE,
    SIDES,
    changed_settings,
    read_action,
    read_settings,
    start,
)
from referee.games.berserk.rules import Battle, Settings, Strike, StrikeOutcome
from referee.rules import N_, RuleError
from referee.store import games

KIND = "berserk"

# Starting a battle from two saved squads -------------------------------------------------


def side_setup(squad: dict, cards: tuple[rules.Card, ...]) -> dict:
    """One side of a setup: where the squad came from and its printed cards, X fixed."""
    return {"squad": squad["id"], "squad_version": squad["version"],
            "player": squad["player_id"], "name": squad["name"], "deck": squad["deck"],
            "cards": [rules.card_to_dict(c) for c in cards]}


def create(db: Database, referee_id: int | None, squad_a: object, squad_b: object,
           settings: Settings) -> service.Game:
    """Put two saved squads in play; the engine checks them first (B12–B14), and each
    against its player's registered deck (B14)."""
    rows = []
    for squad_id in (squad_a, squad_b):
        row = squads.get(db, squad_id) if type(squad_id) is int else None
        if row is None:
            raise RuleError(None, NO_SQUAD, id=str(squad_id)[:20])
        rows.append(row)
    if rows[0]["player_id"] == rows[1]["player_id"]:
        raise RuleError(None, N_("A battle needs the squads of two different players; choose "
                                 "another squad for side B."))
    for row in rows:  # B14: a squad comes from its player's registered deck, if any
        hired = squads.hire_problems(db, row)
        if hired:
            raise hired[0]
    setup = {"settings": rules.settings_to_dict(settings)}
    for side, row in zip(SIDES, rows, strict=True):
        setup[side] = side_setup(row, squads.cards_of(deck(row["deck"]), squads.picks(row)))
    title = f"{rows[0]['character']} — {rows[1]['character']}"
    return service.create(db, referee_id, KIND, setup, [r["player_id"] for r in rows], title)


def load(db: Database, game_id: int) -> service.Game | None:
    """A stored battle (None if there is none or it is another game)."""
    return service.load(db, KIND, game_id)


def listing(db: Database, player_id: int | None = None, limit: int = 200,
            before: int | None = None) -> list[dict]:
    """Battles, newest first, with both players' characters."""
    found = games.listing(db, KIND, player_id, limit, before)
    for row in found:
        row["players"] = {SIDES[s["seat"]]: {"id": s["player_id"], "character": s["character"]}
                          for s in row["seated"] if s["seat"] < len(SIDES)}
    return found


# The record ---------------------------------------------------------------------------


@dataclass
class Entry:
    """One stored action as it happened: the state before it, what it did, its undo."""

    row: dict
    action: rules.Action
    before: Battle
    after: Battle
    outcome: StrikeOutcome | None
    deaths: tuple[str, ...]
    undone_by: dict | None = None

    @property
    def type(self) -> str:
        return self.row["action"]["type"]


@dataclass
class Record:
    """Every action of a battle in order (undone ones marked) and the state now."""

    state: Battle
    entries: list[Entry] = field(default_factory=list)

    @property
    def live(self) -> list[Entry]:
        return [e for e in self.entries if e.undone_by is None]


def record(game: service.Game) -> Record:
    """Replay the whole history once, keeping each action's outcome and deaths."""
    state = start(game.row["setup"])
    out = Record(state=state)
    live: list[Entry] = []
    by_id: dict[int, Entry] = {}
    for row in game.history:
        if row["undoes"]:
            entry = by_id.get(row["undoes"])
            if entry is not None:
                entry.undone_by = row
                # Undo always takes back the latest action that counts.
                live = [e for e in live if e is not entry]
                state = live[-1].after if live else start(game.row["setup"])
            continue
        action = read_action(row["action"])
        after = rules.apply(state, action)
        deaths = _deaths(action, state, after)
        entry = Entry(row, action, state, after,
                      after.last_strike if isinstance(action, Strike) else None, deaths)
        out.entries.append(entry)
        by_id[row["id"]] = entry
        live.append(entry)
        state = after
    out.state = state
    return out


def _deaths(action: rules.Action, before: Battle, after: Battle) -> tuple[str, ...]:
    """Who died by this action (B10): only the creatures it names can have."""
    named = {getattr(action, k, None) for k in ("attacker", "target", "creature")}
    return tuple(c.id for c, was in zip(after.creatures, before.creatures, strict=True)
                 if c.id in named and c.dead and not was.dead)


def outcomes(state: Battle, strike: Strike) -> tuple[StrikeOutcome, ...]:
    """What a strike would do, as rolled and (in an exchange) lowered (B11)."""
    return rules.preview(state, strike)
