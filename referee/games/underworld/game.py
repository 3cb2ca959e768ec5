"""Underworld games (U1–U17) as a game kind: the folded table and its effects.

The stored setup holds the seated registry players in turn order, both decks as they
were when the game began (the cards themselves, so editing a deck file never changes a
game in progress), each player's 4 starting cards and, when the game carries passport
levels, the levels carried in. The engine names players by text: the registry ids as
strings. The folded state is a :class:`Table`: the engine state plus the table it came
from and the action that led to it, so one replay gives the screens every step of the
record. With passport levels, every level the engine moves is an effect on the player's
sheet (U8).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from referee.games.interface import Effect, GameKind, default_status
from referee.games.underworld import rules
from referee.rules import N_, RuleError

SETUP_KEYS = {"players", "castle", "classes", "starting", "passport_levels", "levels"}
BAD_SETUP = N_("This castle game's setup is damaged (%(field)s); start a new game.")


@dataclass(frozen=True, eq=False)
class Table:
    """A folded underworld game: the engine ``state``, and how it was reached."""

    state: rules.State
    passport_levels: bool
    seats: tuple[int, ...]
    previous: Table | None = field(default=None, repr=False)
    action: object | None = None  # the engine action that led here from ``previous``

    def steps(self) -> list[Table]:
        """Every table from the first to this one."""
        chain: list[Table] = []
        table: Table | None = self
        while table is not None:
            chain.append(table)
            table = table.previous
        return chain[::-1]


# The game kind: start, apply, finished and the passport levels --------------------------


def _setup_error(name: str) -> RuleError:
    return RuleError(None, BAD_SETUP, field=name)


def _cards(deck: object, name: str) -> list[rules.Card]:
    """A stored deck (``{"name", "cards": [card table + copies]}``) as engine cards."""
    if not isinstance(deck, dict) or not isinstance(deck.get("cards"), list):
        raise _setup_error(name)
    out: list[rules.Card] = []
    for entry in deck["cards"]:
        if not isinstance(entry, dict):
            raise _setup_error(name)
        copies = entry.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= 99:
            raise _setup_error(name)
        card = rules.card_from_dict({k: v for k, v in entry.items() if k != "copies"})
        out.extend([card] * copies)
    return out


def start(setup: object) -> Table:
    """The first table of a stored setup; RuleError for anything malformed (U1–U4)."""
    if not isinstance(setup, dict) or set(setup) - SETUP_KEYS:
        raise _setup_error("setup")
    seats = setup.get("players")
    if not isinstance(seats, list) or not all(type(p) is int for p in seats):
        raise _setup_error("players")
    passport = setup.get("passport_levels", False)
    levels = setup.get("levels") or {}
    starting = setup.get("starting")
    if not isinstance(passport, bool) or not isinstance(levels, dict) \
            or not isinstance(starting, dict):
        raise _setup_error("starting")
    state = rules.new_game([str(p) for p in seats], _cards(setup.get("castle"), "castle"),
                           _cards(setup.get("classes"), "classes"), starting,
                           levels if passport else None)
    return Table(state, passport, tuple(seats))


def apply(table: Table, action: object) -> Table:
    """The engine's step, remembering where it came from."""
    return Table(rules.apply(table.state, action), table.passport_levels, table.seats,
                 table, action)


def finished(table: Table) -> bool:
    return table.state.phase == "over"


def level_effects(before: Table | None, after: Table) -> dict[int, Effect]:
    """U8 on the passports: each seated player's level delta, when the game carries them."""
    if before is None or not after.passport_levels:
        return {}
    was = {p.id: p.level for p in before.state.players}
    return {int(p.id): Effect({"level": p.level - was[p.id]}) for p in after.state.players
            if p.level != was[p.id]}


def legal(table: Table) -> tuple:
    """Every concrete action the engine accepts now (open-ended ones aside, see
    ``rules.allowed``)."""
    return rules.legal_actions(table.state)


def under(table: Table, reading: int) -> Table:
    """The first table of a game played under an earlier reading of U9/U13."""
    return replace(table, state=replace(table.state, reading=reading))


def read(table: Table) -> dict:
    return rules.state_to_dict(table.state)


KIND = GameKind(
    name="underworld", title=N_("Underworld castle games"), start=start, legal=legal,
    apply=apply, read=read, action_from_dict=rules.action_from_dict,
    action_to_dict=rules.action_to_dict, status=default_status(finished), effects=level_effects,
    reading=2, under=under)
