"""The one shape every game has: what the store, the service and the screens rely on.

A game kind is pure: it starts a state from its stored setup, lists the actions legal
now, applies one (or raises a ``RuleError`` naming the rule), reads the state as plain
data for screens and the API, and says what a step did to the players' passports.
Nothing here touches Flask, SQL, the clock or randomness; chance (cards, dice) arrives
inside the actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from referee.notes import Note, note
from referee.rules import N_

IN_PROGRESS, FINISHED = "in_progress", "finished"
CANCELLED = "cancelled"  # a kind whose start is a step: that start was undone

# The reason on player events of a step, when a kind names none of its own: written
# before games were named by kind; the service now writes the game's name instead
# (games.names: "Castle game 2"), and old events still read this.
REASON_STEP = N_("game #%(id)s")

State = Any
Action = Any


@dataclass(frozen=True)
class Effect:
    """What one step does to one player's passport: plain data, applied by the service.

    ``deltas`` add to counters (hp, chance, cartridges, level); ``refill`` sets counters
    back to their passport maximum (D13 gives the duel's winner back their chance);
    ``surrender`` takes duel-deck cards away (D7).
    """

    deltas: Mapping[str, int] = field(default_factory=dict)
    refill: tuple[str, ...] = ()
    surrender: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return any(self.deltas.values()) or bool(self.refill or self.surrender)


Effects = Mapping[int, Effect]  # by registry player id


def no_effects(before: State | None, after: State) -> Effects:
    """Most games keep their own counters (coins, lives): the passports stay as they are."""
    return {}


def default_status(finished: Callable[[State], bool]) -> Callable[[State], str]:
    """``finished`` or ``in_progress``, from a kind's test for the end."""
    return lambda state: FINISHED if finished(state) else IN_PROGRESS


def step_note(number: int | Note, action: Action, after: State) -> Note:
    """The reason written on the player events of one step: "game #5"."""
    return note(REASON_STEP, id=number)


@dataclass(frozen=True)
class GameKind:
    """One game, under the names every game uses.

    ``start(setup)`` → the first state (``RuleError`` for a setup the rules refuse);
    ``legal(state)`` → every action legal now (may be a lazy :class:`Choices`);
    ``apply(state, action)`` → the next state, pure, or ``RuleError`` with the rule id;
    ``read(state)`` → the state as plain JSON-ready data, for screens and the API.
    """

    name: str
    title: str  # N_ msgid: what a list of these is called ("Coup tables")
    start: Callable[[Any], State]
    legal: Callable[[State], Sequence[Action]]
    apply: Callable[[State, Action], State]
    read: Callable[[State], dict]
    action_from_dict: Callable[[object], Action]
    action_to_dict: Callable[[Action], dict]
    status: Callable[[State], str]
    # What a step did to the passports: ``effects(None, first)`` is the start's own.
    effects: Callable[[State | None, State], Effects] = no_effects
    # A kind whose start moves passport stats (a duel takes a cartridge, D4) stores the
    # start as its first step, so that undoing it cancels the game and gives them back.
    start_is_step: bool = False
    # ``number`` as every station says it (games.names.number_note): a plain number, or
    # a note naming the station it comes from.
    note: Callable[[int | Note, Action | None, State], Note] = step_note
    # The kind of the player events that take a step's effects back (the kind's own
    # name unless it has another: a duel's are ``duel_undo``).
    undo_event: str = ""
    # The reading of the rules new games are played under, numbered from 1. A kind whose
    # rules were once read otherwise keeps each earlier reading playable: ``under(state,
    # reading)`` gives a first state that plays by it, so a game recorded under an earlier
    # reading replays, shows and goes on as it was recorded (a stored step is never
    # re-judged by a later reading).
    reading: int = 1
    under: Callable[[State, int], State] | None = None

    @property
    def undo_kind(self) -> str:
        return self.undo_event or self.name

    def finished(self, state: State) -> bool:
        return self.status(state) == FINISHED

    @property
    def readings(self) -> tuple[int, ...]:
        """Every reading of the rules this kind still plays, today's first."""
        return tuple(range(self.reading, 0, -1)) if self.under is not None else (1,)

    def start_under(self, setup: object, reading: int | None = None) -> State:
        """The first state of ``setup``, played under ``reading`` (today's if None)."""
        state = self.start(setup)
        if self.under is not None and reading is not None and reading != self.reading:
            state = self.under(state, reading)
        return state

    def replay(self, setup: object, actions: Sequence[Action],
               reading: int | None = None) -> State:
        """The state after ``actions`` from the start: how a stored game is rebuilt."""
        state = self.start_under(setup, reading)
        for action in actions:
            state = self.apply(state, action)
        return state


class Choices(Sequence):
    """Every combination of independent choices, built only when one is looked at.

    A duel round is one table card, one hand card (or none) and some tokens for each
    side: thousands of combinations, listed lazily so ``random.choice`` still works.
    """

    def __init__(self, build: Callable[..., Action], *options: Sequence) -> None:
        self._build = build
        self._options = [tuple(o) for o in options]
        self._len = 1
        for o in self._options:
            self._len *= len(o)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> Action:  # type: ignore[override]
        if not -self._len <= index < self._len:
            raise IndexError(index)
        index %= self._len
        picked = []
        for options in reversed(self._options):
            index, at = divmod(index, len(options))
            picked.append(options[at])
        return self._build(*reversed(picked))

    def __iter__(self):
        return (self._build(*p) for p in product(*self._options))
