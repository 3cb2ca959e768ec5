"""Property: random taps, undos, settlements and games on three stations, exchanged in
random partial orders (partitions), always converge to byte-identical answers, keep
every bound, and hold each refused change as a conflict with its rule."""

from __future__ import annotations

import itertools
import shutil

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.players import service as players
from referee.rules import RuleError
from referee.rules.stats import Sheet
from referee.store import conflicts, ledger
from referee.store import players as player_rows
from tests.stations.helpers import Station, dump, founder, joiner, rows

STATS = st.sampled_from(["chance", "chance", "hp", "cartridges"])
TAP = st.tuples(st.just("adjust"), st.integers(0, 2), st.integers(0, 1), STATS,
                st.sampled_from([-1, -1, 1]))
OPS = TAP | st.one_of(
    st.tuples(st.just("set"), st.integers(0, 2), st.integers(0, 2), STATS, st.integers(0, 2)),
    st.tuples(st.just("undo"), st.integers(0, 2), st.integers(0, 5)),
    st.tuples(st.just("settle"), st.integers(0, 2), st.sampled_from(["apply", "discard"])),
    st.tuples(st.just("create"), st.integers(0, 2)),
)
SENDS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), max_size=3)
# Rounds of changes made apart, each followed by a few one-way exchanges (a partition
# healing in part, a device carried from one station to another).
ROUNDS = st.lists(st.tuples(st.lists(OPS, min_size=1, max_size=8), SENDS),
                  min_size=1, max_size=4)


def _template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("three")
    a = founder(folder / "a.db")
    b = joiner(folder / "b.db", a, "duels")
    c = joiner(folder / "c.db", a, "tavern")
    a.send_to(b)  # b and c learn of each other through a
    a.send_to(c)
    for s in (a, b, c):
        s.close()
    return folder


def _do(op, stations) -> None:
    name, at = op[0], stations[op[1]]
    ids = [r["id"] for r in rows(at, "SELECT id FROM players ORDER BY id")]
    try:
        if name == "adjust":
            players.adjust(at.db, None, ids[op[2] % len(ids)], {op[3]: op[4]})
        elif name == "set":
            players.set_exact(at.db, None, ids[op[2] % len(ids)], {op[3]: op[4]})
        elif name == "undo":
            found = rows(at, "SELECT id FROM events WHERE kind IN ('adjust', 'set') "
                             "ORDER BY ord DESC LIMIT 6")
            if found:
                players.undo(at.db, None, found[op[2] % len(found)]["id"])
        elif name == "settle":
            held = conflicts.find(at.db, "held")
            if held:
                conflicts.settle(at.db, None, held[0]["id"], op[2])
        elif name == "create":
            players.create(at.db, None, {"character": f"New at {op[1]}", "hp_max": 2,
                                         "chance_max": 1, "cartridges": 1, "suit": "D"})
    except RuleError:
        pass  # refused on the spot, as a referee would see it: nothing was written


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(rounds=ROUNDS)
def test_three_stations_always_converge(tmp_path_factory, monkeypatch, rounds):
    ticks = itertools.count(1_900_000_000_000)
    monkeypatch.setattr(ledger, "clock", lambda: next(ticks) / 1000)
    template = _template_cached(tmp_path_factory)
    work = tmp_path_factory.mktemp("run")
    stations = []
    for name in ("a", "b", "c"):
        shutil.copyfile(template / f"{name}.db", work / f"{name}.db")
        stations.append(Station(work / f"{name}.db"))
    try:
        for ops, sends in rounds:
            for op in ops:
                _do(op, stations)
            for x, y in sends:
                if x != y:
                    stations[x].send_to(stations[y])
        for _ in range(2):
            for x, y in itertools.permutations(stations, 2):
                x.send_to(y)
        answers = [dump(s.answers()) for s in stations]
        assert answers[0] == answers[1] == answers[2]
        logs = [rows(s, "SELECT gid, body FROM log ORDER BY gid") for s in stations]
        assert logs[0] == logs[1] == logs[2]
        for row in rows(stations[0], "SELECT * FROM players"):
            sheet = player_rows.sheet(row)
            assert Sheet.bounds_error(sheet) is None, row
        held = conflicts.find(stations[0].db)
        event("conflicts held" if held else "no conflict")
        for conflict in held:
            assert conflict["msg"]  # every held change says why, with its rule if any
    finally:
        for s in stations:
            s.close()


_CACHE: dict = {}


def _template_cached(factory):
    if "t" not in _CACHE:
        _CACHE["t"] = _template(factory)
    return _CACHE["t"]
