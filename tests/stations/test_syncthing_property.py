"""Property, with real Syncthing: random taps on three stations under random partitions
and restarts always converge, and every change a station accepted is either applied
or held as a conflict with its rule: none is lost, none applied twice."""

from __future__ import annotations

import itertools
import signal

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.stats import Sheet
from tests.stations.live import Served, start_all, stop_all, until
from tests.stations.test_syncthing import (
    agree,
    api_of,
    devices,
    joined,
    link,
    need_syncthing,
    organizer_db,
)

LINKS = list(itertools.combinations(range(3), 2))
TAPS = st.lists(st.tuples(st.integers(0, 2), st.integers(1, 3),
                          st.sampled_from(["chance", "hp", "cartridges"]),
                          st.sampled_from([-1, -1, 1])), min_size=1, max_size=6)
ROUND = st.tuples(st.sets(st.sampled_from(LINKS)), TAPS, st.sampled_from([None, 1, 2]))


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    need_syncthing()
    root = tmp_path_factory.mktemp("three-live")
    master, duels, tavern = stations = [Served(root, n) for n in ("master", "duels", "tavern")]
    organizer_db(master.db_path)
    try:
        start_all(*stations)
        api_of(master.sign_in())
        for station in (duels, tavern):
            joined(station, master)
        agree(*stations)
        ids = devices(*stations)
        for x in stations:
            until(lambda x=x: len(x.syncthing().devices()) == 3 and all(
                c["connected"] for d, c in x.syncthing().connections().items()
                if d != ids[x.name]))
        yield stations, ids, {"accepted": 0}
    finally:
        stop_all(*stations)


@settings(max_examples=2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rounds=st.lists(ROUND, min_size=1, max_size=2))
def test_random_taps_partitions_and_restarts_converge(three, rounds):
    stations, ids, count = three
    for down, taps, restart in rounds:
        for a, b in LINKS:
            link(stations[a], stations[b], ids, up=(a, b) not in down)
        for at, player, stat, delta in taps:
            s = stations[at]
            answer = s.api.post(f"{s.url}/api/v1/players/{player}/adjust",
                                json={stat: delta}, timeout=10)
            assert answer.status_code in (200, 422), answer.text
            count["accepted"] += answer.status_code == 200
        if restart is not None:  # kill -9 of the app, then back: nothing lost
            stations[restart].stop(signal.SIGKILL)
            stations[restart].start()
            stations[restart].api = requests.Session()
            stations[restart].api.headers["Authorization"] = \
                f"Bearer {stations[restart].api_token()}"
    for a, b in LINKS:
        link(stations[a], stations[b], ids, up=True)
    seen = agree(*stations, seconds=90)
    assert seen
    applied = stations[0].rows("SELECT count(*) AS n FROM events WHERE kind = 'adjust'")
    held = stations[0].rows("SELECT count(*) AS n FROM conflicts WHERE kind = 'adjust'")
    assert applied[0]["n"] + held[0]["n"] == count["accepted"]
    for row in stations[0].rows("SELECT * FROM players"):
        sheet = Sheet(**{k: row[k] for k in ("hp", "hp_max", "chance", "chance_max",
                                              "cartridges", "level", "status")})
        assert sheet.bounds_error() is None, row
