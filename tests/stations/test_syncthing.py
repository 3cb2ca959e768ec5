"""Stations through real Syncthing processes on loopback (README "Stations")."""

from __future__ import annotations

import os
import shutil
import signal
import time

import pytest

from referee import store
from referee.accounts.service import add_referee
from referee.players import service as players
from referee.store import settings
from tests.stations.live import Served, start_all, stop_all, text_of, until


def need_syncthing() -> None:
    """Skip without the syncthing package, except where CI says it must be there."""
    if shutil.which("syncthing") is None:
        if os.environ.get("REFEREE_REQUIRE_SYNCTHING") == "1":
            pytest.fail("REFEREE_REQUIRE_SYNCTHING=1 but no syncthing: install it")
        pytest.skip("needs the syncthing package")


@pytest.fixture(autouse=True)
def _syncthing():
    need_syncthing()


def organizer_db(path, n_players=3):
    db = store.init(path)
    add_referee(db, "ref", "ref-password", False, by=None)
    add_referee(db, "org", "org-password", True, by=None)
    # Passports lead to one address every station answers on (README: Stations).
    with store.write(db):
        settings.put(db, "public_url", "http://10.0.0.1:8080")
    for i in range(n_players):
        players.create(db, None, {"character": f"Hero {i}", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "H"})
    db.close()


def tap(station: Served, player_id: int, deltas: dict, reason: str = "") -> dict:
    answer = station.api.post(f"{station.url}/api/v1/players/{player_id}/adjust",
                              json={**deltas, "reason": reason}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.fixture
def stations(tmp_path):
    started: list[Served] = []

    def make(*names: str, founder: str = "") -> list[Served]:
        """Stations by these names, started side by side; ``founder`` holds the event."""
        made = [Served(tmp_path, name) for name in names]
        for served in made:
            if served.name == founder:
                organizer_db(served.db_path)
        started.extend(made)
        return start_all(*made)

    yield make
    stop_all(*started)
    for served in started:  # a stopped station leaves no Syncthing behind
        until(lambda served=served: not served.syncthing_pids(), seconds=15)


def joined(station: Served, organizer: Served) -> Served:
    station.join(organizer)
    until(lambda: station.rows("SELECT count(*) AS n FROM referees")[0]["n"] == 2)
    return api_of(station)


def api_of(station: Served) -> Served:
    import requests

    station.api = requests.Session()
    station.api.headers["Authorization"] = f"Bearer {station.api_token()}"
    return station


def answers(station: Served) -> dict:
    out = {}
    for url in ("/api/v1/players", "/api/v1/events", "/api/v1/conflicts"):
        out[url] = station.api.get(station.url + url, timeout=10).content
    return out


def agree(*stations: Served, seconds: float = 60) -> dict:
    def same():
        seen = [answers(s) for s in stations]
        return seen[0] if all(s == seen[0] for s in seen) else None

    return until(same, seconds)


def test_a_new_station_pairs_by_code_and_receives_the_whole_event(stations):
    master, tavern = stations("master", "tavern", founder="master")
    master = api_of(master.sign_in())
    tap(master, 1, {"hp": -1}, "before the tavern joined")
    tavern = joined(tavern, master)
    agree(master, tavern)
    assert tavern.rows("SELECT hp FROM players WHERE id = 1")[0]["hp"] == 2
    page = tavern.browser.get(tavern.url + "/stations/join", allow_redirects=False)
    assert page.status_code == 302  # paired: the join page sends it on
    # A folder update that lost the organizer (as a racing introduction once did) is
    # mended by the station itself: the event's stations always share the folder.
    st, organizer = tavern.syncthing(), master.syncthing().device_id()
    folder = next(f for f in st.get("/rest/config/folders") if f["id"].startswith("referee-"))
    folder["devices"] = [d for d in folder["devices"] if d["deviceID"] != organizer]
    st.call("PUT", f"/rest/config/folders/{folder['id']}", folder)
    assert organizer not in st.members(folder["id"])
    until(lambda: organizer in st.members(folder["id"]), seconds=20)
    tap(master, 2, {"hp": -1}, "after the mend")
    # Dropping the organizer cut the connection; both ends redial at once, and Syncthing
    # 1.19 may wait out its 20 s hello timeout first (35 s seen), hence the long wait.
    until(lambda: has(tavern, "after the mend"), seconds=120)


def test_partition_and_heal_with_changes_on_both_sides(stations):
    master, tavern = stations("master", "tavern", founder="master")
    master = api_of(master.sign_in())
    tavern = joined(tavern, master)
    agree(master, tavern)
    def bar():
        page = master.browser.get(master.url + "/players").text
        return page.split('class="link-chip', 1)[1].split("</a>", 1)[0]

    def all_seen():
        """Every fact of the master's so far seen by the tavern. The bar alone can say so
        from its last look while the master still writes its own Syncthing address (a
        fact of its own, once its Syncthing is up): that fact would count as made apart."""
        here = master.rows("SELECT next_seq, seen_through FROM station")[0]
        return here["seen_through"] == here["next_seq"] - 1 and \
            tavern.rows("SELECT count(*) AS n FROM stations WHERE device != ''")[0]["n"] == 2

    until(all_seen)
    until(lambda: "1 station in reach" in bar() and "not yet seen" not in bar())
    st_master, st_tavern = master.syncthing(), tavern.syncthing()
    st_master.pause()
    st_tavern.pause()
    tap(master, 1, {"cartridges": -1}, "master apart")
    until(lambda: "Alone since" in bar() and "1 change not yet seen by others" in bar())
    tap(tavern, 1, {"cartridges": -1, "hp": -1}, "tavern apart")
    tap(master, 2, {"chance": -1}, "master spends")
    tap(tavern, 2, {"chance": -1}, "tavern spends")
    st_master.resume()
    time.sleep(1)  # one end a second after the other (see link())
    st_tavern.resume()
    seen = agree(master, tavern)
    assert master.rows("SELECT cartridges, hp FROM players WHERE id = 1")[0] == \
        {"cartridges": 0, "hp": 2}
    assert b"D8" in seen["/api/v1/conflicts"]


def test_kill_9_of_syncthing_and_of_the_app_loses_nothing(stations):
    master, tavern = stations("master", "tavern", founder="master")
    master = api_of(master.sign_in())
    tavern = joined(tavern, master)
    agree(master, tavern)
    for i in range(20):
        tap(master, 1 + i % 3, {"cartridges": 1})
    killed = master.syncthing_pids()
    assert len(killed) == 1  # the worker itself: no monitor process (STMONITORED)
    master.kill_syncthing()  # mid-exchange
    for i in range(10):
        tap(tavern, 1 + i % 3, {"cartridges": 1})
    tavern.stop(signal.SIGKILL)  # the app, mid-exchange: its Syncthing goes with it
    until(lambda: not tavern.syncthing_pids(), seconds=10)
    # the station starts its Syncthing again
    until(lambda: master.syncthing_pids() and master.syncthing_pids() != killed)
    tavern.start()
    agree(master, tavern, seconds=90)
    assert master.rows("SELECT count(*) AS n FROM log")[0] == \
        tavern.rows("SELECT count(*) AS n FROM log")[0]
    for served in (master, tavern):
        assert served.rows("SELECT sum(cartridges) AS n FROM players")[0]["n"] == 36


def devices(*stations: Served) -> dict[str, str]:
    return {s.name: s.syncthing().device_id() for s in stations}


def link(a: Served, b: Served, ids: dict, up: bool) -> None:
    """Bring the link between two stations up or down, on both ends.

    Up, one end a second after the other: when both dial each other at the same instant,
    Syncthing 1.19 may wait out a 20 s hello timeout before trying again. Only an end
    that holds the other paused is resumed: a link already up is left as it is."""
    ends = [(a, b), (b, a)]
    # A station started again gives its Syncthing its peers a moment after it answers:
    # pausing one it does not know yet is a 404. Wait until each end knows the other.
    for x, y in ends:
        until(lambda x=x, y=y: ids[y.name] in x.syncthing().connections())
    if up:
        ends = [(x, y) for x, y in ends if x.syncthing().connections()
                .get(ids[y.name], {}).get("paused", True)]
    for i, (x, y) in enumerate(ends):
        if up and i:
            time.sleep(1)
        (x.syncthing().resume if up else x.syncthing().pause)(ids[y.name])


def has(station: Served, reason: str) -> bool:
    return bool(station.rows("SELECT 1 FROM events WHERE reason = ?", [reason]))


def test_a_carried_station_relays_between_two_that_never_meet(stations):
    master, runner, tavern = stations("master", "runner", "tavern", founder="master")
    master = api_of(master.sign_in())
    runner = joined(runner, master)
    tavern = joined(tavern, master)
    agree(master, runner, tavern)
    ids = devices(master, runner, tavern)
    # the organizer's station introduces the two others to each other
    for x in (master, runner, tavern):
        until(lambda x=x: all(c["connected"] for d, c in x.syncthing().connections().items()
                              if d != ids[x.name]) and len(x.syncthing().devices()) == 3)
    for x in (master, runner, tavern):  # each shares the event with both others
        folder = next(f["id"] for f in x.syncthing().get("/rest/config/folders"))
        until(lambda x=x, folder=folder: x.syncthing().members(folder) == set(ids.values()))
    link(master, tavern, ids, up=False)  # the tent and the tavern never meet
    link(runner, tavern, ids, up=False)  # the runner is at the tent
    tap(master, 1, {"hp": -1}, "at the tent")
    tap(tavern, 2, {"hp": -1}, "at the tavern")
    until(lambda: has(runner, "at the tent"))
    link(master, runner, ids, up=False)  # the runner walks to the tavern
    link(runner, tavern, ids, up=True)
    until(lambda: has(tavern, "at the tent") and has(runner, "at the tavern"))
    assert not has(master, "at the tavern")
    link(runner, tavern, ids, up=False)  # and back to the tent
    link(master, runner, ids, up=True)
    until(lambda: has(master, "at the tavern"))
    link(runner, tavern, ids, up=True)
    agree(master, runner, tavern)


def test_a_segment_edited_on_another_station_is_refused_and_put_back(stations):
    master, tavern = stations("master", "tavern", founder="master")
    master = api_of(master.sign_in())
    tavern = joined(tavern, master)
    tap(master, 1, {"hp": -1}, "the true change")
    until(lambda: has(tavern, "the true change"))
    here = master.rows("SELECT id FROM station")[0]["id"]
    own = sorted((tavern.db_path.parent / "tavern.db.station" / "shared" / here).iterdir())
    true = own[-1].read_text()
    own[-1].write_text(true.replace("the true change", "a forged change"))
    tavern.syncthing().scan(tavern.rows("SELECT event FROM station")[0]["event"] and
                            "referee-" + tavern.rows("SELECT event FROM station")[0]["event"])
    # the organizer's station, the segment's one writer, puts it back everywhere
    mine = master.db_path.parent / "master.db.station" / "shared" / here / own[-1].name
    until(lambda: text_of(own[-1]) == true and text_of(mine) == true, seconds=90)
    # reported by the station that put it back (and by the editor's, if it looked first)
    problems = master.rows("SELECT path, problem FROM segments WHERE problem != ''")
    assert problems == [{"path": f"{here}/{own[-1].name}",
                         "problem": "edited or deleted elsewhere; this station put it back"}]
    assert not has(tavern, "a forged change") and not has(master, "a forged change")
    agree(master, tavern)
