"""Berserk-style battles on the generic stored-game service (B1–B14).

A battle is a ``games`` row of kind ``berserk``: its setup holds both squads' printed
cards (X fixed, B2) and the event's settings (B11–B14), so a later edit of a deck file
never changes a battle in progress. Its actions are the engine's own dicts. This module
registers the kind, reads the rules numbers an organizer may change, builds a battle
from two saved squads, and rebuilds the battle's record for the screens.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from sqlite_utils import Database

from referee.decks import Deck, DeckError, deck_paths, load_file
from referee.games import service as games
from referee.games.berserk import rules as berserk
from referee.games.berserk.rules import PUBLISHED, Battle, Settings, Strike, StrikeOutcome
from referee.rules import N_, RuleError
from referee.store import games as game_rows
from referee.store import players as player_rows

KIND = "berserk"
SIDES = ("a", "b")
SETTING_LIMIT = 99

# The numbers of the published rules an event may change, grouped by their rule.
SETTING_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("B11", ("tapped_medium_from", "tapped_strong_from", "tie_answer_from",
             "strike_taps_attacker")),
    ("B12", ("first_gold", "first_silver", "second_gold", "second_silver")),
    ("B13", ("element_penalty",)),
    ("B14", ("flyer_cost_limit", "max_copies", "max_unique_copies", "deck_min", "deck_max")),
)
SETTING_RULE = {key: rule for rule, keys in SETTING_GROUPS for key in keys}
SETTING_LABELS = {
    "tapped_medium_from": N_("Tapped target: medium strike from a roll of"),
    "tapped_strong_from": N_("Tapped target: strong strike from a roll of"),
    "tie_answer_from": N_("Tie: the target answers when the attacker rolled at least"),
    "strike_taps_attacker": N_("A creature that strikes is tapped"),
    "first_gold": N_("First player: gold crystals"),
    "first_silver": N_("First player: silver crystals"),
    "second_gold": N_("Second player: gold crystals"),
    "second_silver": N_("Second player: silver crystals"),
    "element_penalty": N_("Gold lost for each element beyond the first"),
    "flyer_cost_limit": N_("Flying creatures may cost at most"),
    "max_copies": N_("Copies of a card at most"),
    "max_unique_copies": N_("Copies of a unique card at most"),
    "deck_min": N_("Cards in a deck at least"),
    "deck_max": N_("Cards in a deck at most"),
}

BAD_NUMBER = N_("%(setting)s must be a whole number from 0 to %(limit)s, not %(value)s.")
BAD_SWITCH = N_("%(setting)s is either yes or no, not %(value)s.")
UNKNOWN_SETTING = N_("There is no setting %(setting)s; use one of %(settings)s.")
DECK_RANGE = N_("A deck of at least %(min)s cards cannot also have at most %(max)s; lower "
                "the first number or raise the second.")
TAPPED_RANGE = N_("A medium strike on a tapped target from %(medium)s cannot come after a "
                  "strong one from %(strong)s; lower the first number.")
BAD_SETUP = N_("This battle's setup cannot be read (%(detail)s); start the battle again "
               "from two saved squads.")
EMPTY_SQUAD = N_("The squad of side %(side)s has no cards; add cards to it first.")
BAD_ACTION = N_("This action cannot be read (%(detail)s); check its fields against the API "
                "description.")
NO_DECK = N_("There is no Berserk deck named %(deck)s; choose one of %(decks)s.")
NO_SQUAD = N_("There is no squad %(id)s; it may have been mistyped. Open the list of squads.")
SAME_PLAYER = N_("A battle needs the squads of two different players; choose another squad "
                 "for side B.")
NO_PLAYER = N_("No player %(id)s: they may have been removed; reload the list.")


# Decks -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def _deck_file(path: str, mtime_ns: int, size: int) -> Deck | None:
    """A deck file read once per version of it (reading every deck takes ~60 ms)."""
    try:
        return load_file(path)
    except DeckError:
        return None  # the Print page reports broken files; here they are just left out


def decks() -> dict[str, Deck]:
    """Every readable deck of Berserk-style cards, by name."""
    found = {}
    for name, path in deck_paths().items():
        try:
            stat = path.stat()
        except OSError:
            continue
        deck = _deck_file(str(path), stat.st_mtime_ns, stat.st_size)
        if deck is not None and deck.kind == KIND:
            found[name] = deck
    return found


def deck(name: object) -> Deck:
    """One Berserk deck; RuleError naming the decks there are."""
    found = decks()
    if not isinstance(name, str) or name not in found:
        raise RuleError(None, NO_DECK, deck=str(name)[:40], decks=", ".join(found) or "-")
    return found[name]


# Settings (B11–B14) --------------------------------------------------------------------


def _number(key: str, value: object, strict: bool) -> int:
    if not strict and isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SETTING_LIMIT:
        raise RuleError(SETTING_RULE[key], BAD_NUMBER, setting=key, limit=SETTING_LIMIT,
                        value=str(value)[:20])
    return value


def _switch(key: str, value: object, strict: bool) -> bool:
    if not strict and isinstance(value, str) and value in ("0", "1", "on", "off", "true",
                                                           "false"):
        return value in ("1", "on", "true")
    if not isinstance(value, bool):
        raise RuleError(SETTING_RULE[key], BAD_SWITCH, setting=key, value=str(value)[:20])
    return value


def read_settings(values: Mapping[str, object] | None, strict: bool = True,
                  base: Settings = PUBLISHED) -> Settings:
    """Settings from JSON (``strict``: numbers and booleans) or from a form (text).
    Missing keys keep ``base``; every refusal names the setting and its rule."""
    if values is None:
        return base
    if not isinstance(values, Mapping):
        raise RuleError(None, UNKNOWN_SETTING, setting="?", settings=", ".join(SETTING_RULE))
    known = {f.name: f for f in fields(Settings)}
    chosen: dict[str, object] = {}
    for key, value in values.items():
        if key not in known:
            raise RuleError(None, UNKNOWN_SETTING, setting=str(key)[:40],
                            settings=", ".join(SETTING_RULE))
        if known[key].type == "bool":
            chosen[key] = _switch(key, value, strict)
        else:
            chosen[key] = _number(key, value, strict)
    settings = Settings(**{**berserk.settings_to_dict(base), **chosen})
    if settings.deck_min > settings.deck_max:
        raise RuleError("B14", DECK_RANGE, min=settings.deck_min, max=settings.deck_max)
    if settings.tapped_medium_from > settings.tapped_strong_from:
        raise RuleError("B11", TAPPED_RANGE, medium=settings.tapped_medium_from,
                        strong=settings.tapped_strong_from)
    return settings


def changed_settings(settings: Settings) -> dict[str, object]:
    """The settings that differ from the published rules (shown on the screens)."""
    published = berserk.settings_to_dict(PUBLISHED)
    return {k: v for k, v in berserk.settings_to_dict(settings).items() if published[k] != v}


# The stored-game kind ------------------------------------------------------------------


def start(setup: object) -> Battle:
    """The battle a stored setup starts; RuleError for a setup that is not right."""
    if not isinstance(setup, dict) or not all(isinstance(setup.get(s), dict) for s in SIDES):
        raise RuleError(None, BAD_SETUP, detail="sides a and b")
    settings = read_settings(setup.get("settings") or {})
    squads = []
    for side in SIDES:
        raw = setup[side].get("cards")
        if not isinstance(raw, list):
            raise RuleError(None, BAD_SETUP, detail=f"cards of side {side}")
        try:
            cards = tuple(berserk.card_from_dict(c) for c in raw)
        except ValueError as err:
            raise RuleError(None, BAD_SETUP, detail=str(err)[:200]) from None
        if not cards:
            raise RuleError("B12", EMPTY_SQUAD, side=side.upper())
        squads.append(cards)
    # B12–B14: the engine checks both squads against these settings, a first, b second.
    return berserk.start(squads[0], squads[1], settings)


def read_action(d: object) -> berserk.Action:
    """An action dict as the engine reads it; a malformed one is a refusal, not a crash."""
    try:
        return berserk.action_from_dict(d)
    except (ValueError, TypeError) as err:
        raise RuleError(None, BAD_ACTION, detail=str(err)[:200]) from None


def finished(state: Battle) -> bool:
    """A battle ends when one side (or both) has no living creature left."""
    return berserk.winner(state) is not None


games.register(games.Kind(name=KIND, start=start, apply=berserk.apply,
                          action_from_dict=read_action, action_to_dict=berserk.action_to_dict,
                          finished=finished))


# Starting a battle from two saved squads -------------------------------------------------


def side_setup(squad: dict, cards: tuple[berserk.Card, ...]) -> dict:
    """One side of a setup: where the squad came from and its printed cards, X fixed."""
    return {"squad": squad["id"], "squad_version": squad["version"],
            "player": squad["player_id"], "name": squad["name"], "deck": squad["deck"],
            "cards": [berserk.card_to_dict(c) for c in cards]}


def create(db: Database, referee_id: int | None, squad_a: object, squad_b: object,
           settings: Settings) -> games.Game:
    """Put two saved squads in play; the engine checks them first (B12–B14)."""
    from referee.games.berserk import squads

    rows = []
    for squad_id in (squad_a, squad_b):
        row = squads.get(db, squad_id) if type(squad_id) is int else None
        if row is None:
            raise RuleError(None, NO_SQUAD, id=str(squad_id)[:20])
        rows.append(row)
    if rows[0]["player_id"] == rows[1]["player_id"]:
        raise RuleError(None, SAME_PLAYER)
    players = [player_rows.get(db, r["player_id"]) for r in rows]
    setup = {"settings": berserk.settings_to_dict(settings)}
    for side, row in zip(SIDES, rows):
        setup[side] = side_setup(row, squads.cards_of(deck(row["deck"]), squads.picks(row)))
    title = f"{players[0]['character']} — {players[1]['character']}"
    return games.create(db, referee_id, KIND, setup, [r["player_id"] for r in rows], title)


def load(db: Database, game_id: int) -> games.Game | None:
    """A stored battle (None if there is none or it is another game)."""
    return games.load(db, game_id, KIND)


def listing(db: Database, player_id: int | None = None) -> list[dict]:
    """Battles, newest first, with both players' characters."""
    found = game_rows.listing(db, KIND, player_id)
    names = {}
    for row in found:
        seats = db.execute("SELECT s.seat, p.id, p.character FROM game_players s JOIN "
                           "players p ON p.id = s.player_id WHERE s.game_id = ? ORDER BY "
                           "s.seat", [row["id"]]).fetchall()
        names[row["id"]] = {SIDES[seat]: {"id": pid, "character": character}
                            for seat, pid, character in seats if seat < 2}
        row["players"] = names[row["id"]]
    return found


# The record ---------------------------------------------------------------------------


@dataclass
class Entry:
    """One stored action as it happened: the state before it, what it did, its undo."""

    row: dict
    action: berserk.Action
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

    entries: list[Entry] = field(default_factory=list)
    state: Battle | None = None

    @property
    def live(self) -> list[Entry]:
        return [e for e in self.entries if e.undone_by is None]


def record(game: games.Game) -> Record:
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
        after = berserk.apply(state, action)
        deaths = _deaths(action, state, after)
        entry = Entry(row, action, state, after,
                      after.last_strike if isinstance(action, Strike) else None, deaths)
        out.entries.append(entry)
        by_id[row["id"]] = entry
        live.append(entry)
        state = after
    out.state = state
    return out


def _deaths(action: berserk.Action, before: Battle, after: Battle) -> tuple[str, ...]:
    """Who died by this action (B10): only the creatures it names can have."""
    named = {getattr(action, k, None) for k in ("attacker", "target", "creature")}
    return tuple(c.id for c, was in zip(after.creatures, before.creatures)
                 if c.id in named and c.dead and not was.dead)


def outcomes(state: Battle, strike: Strike) -> tuple[StrikeOutcome, ...]:
    """What a strike would do, as rolled and (in an exchange) lowered (B11)."""
    return berserk.preview(state, strike)
