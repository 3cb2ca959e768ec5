"""The castle game's legal actions and "what is allowed now": the old listing against the new.

The old listing (``tests/games/underworld/legal_reference.py``, ``legal_actions`` as it was, with
``each_draw=False``) tried every candidate through ``apply``, and at cleanup every
discard by position; the new one tries once for all the candidates ``apply`` judges
alike and lists discards as ways to pick cards. Both run on the same states, in turn, a
state at a time, so a noisy machine slows both alike; the two must list the same actions.

States, all reached by ``apply`` with the shipped sample decks:

- every state of random legal games (a fixed seed), grouped by phase;
- cleanups with a big inventory: the active player follows an event that gives them
  more cards (U5), ends the turn and must discard down to 4 (U15).

Prints, per group, the actions listed (a state's mean), the milliseconds (each state's
median call, their mean) of ``legal_actions``, of ``allowed`` and of both (what one render
of the turn screen
asks), old and new side by side, and the ratio new / old.

    .venv/bin/python benchmarks/bench_castle_legal.py [--games 20] [--repeat 5] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.decks import load_deck
from referee.games.underworld import rules as uw
from tests.games.underworld import legal_reference as old

CLEANUPS = (6, 8, 12, 16, 20)  # inventory cards at cleanup


def cards(name: str) -> list[uw.Card]:
    return [e.card for e in load_deck(name).cards for _ in range(e.copies)]


def new_game(rnd: random.Random, players: int) -> uw.State:
    castle, classes = cards("castle-sample"), cards("classes-sample")
    pile = [c.code for c in castle]
    rnd.shuffle(pile)
    ids = [chr(ord("A") + i) for i in range(players)]
    return uw.new_game(ids, castle, classes, {p: [pile.pop() for _ in range(4)] for p in ids})


def random_game(rnd: random.Random, players: int, steps: int = 150) -> list[uw.State]:
    """Every state of a random legal game: a kind of action, then one of its actions."""
    state = new_game(rnd, players)
    out = [state]
    for _ in range(steps):
        if state.phase == "over":
            break
        options = list(uw.legal_actions(state))
        pool = state.castle or state.discard
        kind = rnd.choice(sorted({a.kind for a in options}))
        if kind in ("draw", "event_draw"):  # the castle is shuffled: any copy is as likely
            action = uw.Draw(rnd.choice(pool)) if kind == "draw" else uw.EventDraw(
                rnd.choice(pool))
        else:
            action = rnd.choice([a for a in options if a.kind == kind])
        state = uw.apply(state, action)
        out.append(state)
    return out


def big_cleanup(rnd: random.Random, held: int) -> uw.State:
    """A cleanup where the active player holds ``held`` cards: an event gave them more."""
    state = new_game(rnd, 3)
    event = next(c.code for c in state.cards if isinstance(c, uw.Event)
                 and not c.challenge and c.code in state.castle)
    state = uw.apply(state, uw.Draw(event))
    for _ in range(held - 4):
        state = uw.apply(state, uw.EventDraw(rnd.choice(state.castle)))
    state = uw.apply(uw.apply(state, uw.EventDone()), uw.EndTurn())
    assert state.phase == "cleanup" and len(state.players[0].inventory) == held
    return state


def legal_as_it_was(state: uw.State) -> tuple:
    return old.legal_actions(state, each_draw=False)


def clock(fn, state: uw.State) -> float:
    t0 = time.perf_counter()
    fn(state)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5, help="calls a state, each way")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    rnd = random.Random(args.seed)  # chance for the benchmark only: the engine never draws
    groups: dict[str, list[uw.State]] = defaultdict(list)
    for i in range(args.games):
        for state in random_game(rnd, 2 + i % 5):
            groups[f"game: {state.phase}"].append(state)
    for held in CLEANUPS:
        groups[f"cleanup, {held} cards"] = [big_cleanup(rnd, held) for _ in range(3)]

    ways = {"legal": (legal_as_it_was, uw.legal_actions),
            "allowed": (old.allowed, uw.allowed)}
    # per group and function: the sum over its states of each state's median call
    totals: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for name, states in groups.items():
        for state in states:
            assert legal_as_it_was(state) == uw.legal_actions(state), name
            assert old.allowed(state) == uw.allowed(state), name
            for fn_name, (before, after) in ways.items():
                times: list[list[float]] = [[], []]
                for _ in range(args.repeat):  # in turn, so both see the same machine
                    times[0].append(clock(before, state))
                    times[1].append(clock(after, state))
                for side in (0, 1):
                    totals[name][fn_name][side] += statistics.median(times[side])

    print(f"castle legal actions, old against new: {args.games} random games (seed "
          f"{args.seed}) and cleanups with big inventories; ms a call, median of "
          f"{args.repeat}")
    print(f"{'states':<22}{'n':>5}{'listed':>8}{'legal old':>11}{'new':>8}{'ratio':>7}"
          f"{'allowed old':>13}{'new':>8}{'ratio':>7}{'screen old':>12}{'new':>8}{'ratio':>7}")
    every = [0.0, 0.0]
    for name, states in groups.items():
        n = len(states)
        listed = sum(len(uw.legal_actions(s)) for s in states) / n
        legal, allowed = totals[name]["legal"], totals[name]["allowed"]
        screen = [legal[i] + allowed[i] for i in (0, 1)]
        every = [every[i] + legal[i] for i in (0, 1)] if name.startswith("game") else every
        cells = ""
        for pair, width in ((legal, 11), (allowed, 13), (screen, 12)):
            a, b = pair[0] / n * 1000, pair[1] / n * 1000
            cells += f"{a:>{width}.3f}{b:>8.3f}{b / a:>7.2f}"
        print(f"{name:<22}{n:>5}{listed:>8.0f}{cells}")
    print(f"all random-game states, legal_actions: {every[0]:.2f} s old, {every[1]:.2f} s "
          f"new, ratio {every[1] / every[0]:.2f}")


if __name__ == "__main__":
    main()
