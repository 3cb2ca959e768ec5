"""Stations merging their logs, fact by fact, without Syncthing (README "How stations
merge"): each rule of the merge is one test here; tests/stations/test_syncthing.py runs
the same through real Syncthing processes."""

from __future__ import annotations

import itertools

import pytest

from referee.accounts import service as accounts
from referee.games.duel import service as duels
from referee.games.duel.rules import Play, Round
from referee.players import service as players
from referee.rules import RuleError
from referee.store import conflicts, ledger, membership, merge
from referee.store import players as player_rows
from tests.stations.helpers import dump, founder, joiner, rows


@pytest.fixture
def clock(monkeypatch):
    """A wall clock the test moves: one second a reading, so order is the test's."""
    ticks = itertools.count(1_900_000_000)
    monkeypatch.setattr(ledger, "clock", lambda: float(next(ticks)))


@pytest.fixture
def pair(tmp_path, clock):
    a = founder(tmp_path / "a.db")
    b = joiner(tmp_path / "b.db", a, "tavern")
    yield a, b
    a.close()
    b.close()


def exchange(*stations):
    for x, y in itertools.permutations(stations, 2):
        x.send_to(y)


def player_id(station, n=0):
    return rows(station, "SELECT id FROM players ORDER BY id")[n]["id"]


def test_a_joining_station_receives_the_whole_event_and_answers_alike(pair):
    a, b = pair
    assert b.here["number"] == 2 and a.here["number"] == 1
    assert dump(a.answers()) == dump(b.answers())
    assert len(rows(b, "SELECT * FROM players")) == 3


def test_applying_a_fact_twice_does_nothing(pair):
    a, b = pair
    players.adjust(a.db, None, player_id(a), {"hp": -1})
    first = a.send_to(b)
    before = dump(b.answers())
    again = a.send_to(b)
    assert first.applied == 1 and again.applied == 0 and again.skipped > 0
    assert dump(b.answers()) == before
    assert rows(b, "SELECT count(*) AS n FROM events WHERE kind = 'adjust'")[0]["n"] == 1


def test_stat_changes_made_apart_add_up_as_deltas(pair):
    a, b = pair
    pid = player_id(a)
    players.adjust(a.db, None, pid, {"cartridges": -1})
    players.adjust(b.db, None, pid, {"cartridges": -1, "hp": -1})
    exchange(a, b)
    for station in (a, b):
        row = player_rows.get(station.db, pid)
        assert (row["cartridges"], row["hp"]) == (0, 2)
    assert dump(a.answers()) == dump(b.answers())


def test_D8_the_last_chance_token_spent_on_two_stations_holds_the_later_as_a_conflict(pair):
    a, b = pair
    pid = player_id(a)
    players.adjust(a.db, None, pid, {"chance": -1}, "A spends")  # earlier by the clock
    players.adjust(b.db, None, pid, {"chance": -1}, "B spends")
    exchange(a, b)
    for station in (a, b):
        assert player_rows.get(station.db, pid)["chance"] == 0
        held = conflicts.find(station.db, "held")
        assert [(c["rule"], c["player_id"], c["change"]["reason"]) for c in held] == \
            [("D8", pid, "B spends")]
        assert conflicts.pending_for(station.db, pid) == 1
    assert dump(a.answers()) == dump(b.answers())


def test_a_late_fact_that_sorts_first_is_folded_in_at_its_place(pair):
    a, b = pair
    pid = player_id(a)
    players.adjust(b.db, None, pid, {"chance": -1}, "B first")
    players.adjust(a.db, None, pid, {"chance": -1}, "A later")
    b.send_to(a)  # A folds B's earlier fact in before its own: its own becomes the conflict
    report = b.send_to(a)
    assert report.applied == 0
    held = conflicts.find(a.db, "held")
    assert [c["change"]["reason"] for c in held] == ["A later"]
    assert player_rows.get(a.db, pid)["chance"] == 0
    exchange(a, b)
    assert dump(a.answers()) == dump(b.answers())


def test_settling_a_conflict_replicates_and_apply_anyway_keeps_the_bounds(pair):
    a, b = pair
    pid = player_id(a)
    players.adjust(a.db, None, pid, {"chance": -1, "hp": -1})
    players.adjust(b.db, None, pid, {"chance": -1, "hp": -1})
    exchange(a, b)
    (held,) = conflicts.find(b.db, "held")
    conflicts.settle(b.db, None, held["id"], "apply")
    with pytest.raises(RuleError, match="already settled"):
        conflicts.settle(b.db, None, held["id"], "discard")
    exchange(a, b)
    for station in (a, b):
        row = player_rows.get(station.db, pid)
        assert (row["chance"], row["hp"]) == (0, 1)  # chance clamped at 0, HP applied
        assert conflicts.find(station.db, "held") == []
        assert conflicts.find(station.db, "applied")[0]["id"] == held["id"]
    assert dump(a.answers()) == dump(b.answers())


def test_a_discarded_conflict_changes_nothing(pair):
    a, b = pair
    pid = player_id(a)
    players.adjust(a.db, None, pid, {"chance": -1})
    players.adjust(b.db, None, pid, {"chance": -1})
    exchange(a, b)
    (held,) = conflicts.find(a.db, "held")
    conflicts.settle(a.db, None, held["id"], "discard")
    exchange(a, b)
    assert [c["status"] for c in conflicts.find(b.db)] == ["discarded"]
    assert player_rows.get(b.db, pid)["chance"] == 0


def test_two_stations_undoing_one_event_one_wins_the_other_is_a_conflict(pair):
    a, b = pair
    pid = player_id(a)
    event_id = players.adjust(a.db, None, pid, {"hp": -1})["event_id"]
    exchange(a, b)
    players.undo(a.db, None, event_id)
    players.undo(b.db, None, event_id)
    exchange(a, b)
    for station in (a, b):
        assert player_rows.get(station.db, pid)["hp"] == 3  # given back once
        assert [c["kind"] for c in conflicts.find(station.db, "held")] == ["undo"]
    assert dump(a.answers()) == dump(b.answers())


def test_ids_never_collide_between_stations(pair):
    a, b = pair
    new_a = players.create(a.db, None, {"character": "From A", "hp_max": 2, "chance_max": 1,
                                        "cartridges": 0, "suit": "H"})
    new_b = players.create(b.db, None, {"character": "From B", "hp_max": 2, "chance_max": 1,
                                        "cartridges": 0, "suit": "S"})
    assert new_a["id"] == 4 and new_b["id"] == 2 * ledger.BLOCK
    exchange(a, b)
    assert {r["character"] for r in rows(a, "SELECT character FROM players")} >= \
        {"From A", "From B"}
    assert dump(a.answers()) == dump(b.answers())


def test_a_game_belongs_to_its_station_and_others_show_it_read_only(pair):
    a, b = pair
    one, two = player_id(a, 0), player_id(a, 1)
    duel = duels.start(a.db, None, one, two)
    exchange(a, b)
    with pytest.raises(RuleError, match="belongs to the station master"):
        duels.record(b.db, None, duel.id, Round(Play("10S"), Play("8D")))
    duels.record(a.db, None, duel.id, Round(Play("10S"), Play("8D")))
    exchange(a, b)
    assert duels.load(b.db, duel.id).version == duels.load(a.db, duel.id).version == 2
    assert dump(a.answers()) == dump(b.answers())


def test_a_step_forged_from_another_station_is_held_not_played(pair):
    a, b = pair
    duel = duels.start(a.db, None, player_id(a, 0), player_id(a, 1))
    exchange(a, b)
    key = rows(b, "SELECT id FROM games")[0]["id"]
    from referee.store import fold, write

    with pytest.raises(RuleError, match="belongs to the station master"), write(b.db):
        fold.change(b.db, "games", {"id": key}, {"title": "mine now"})
    # what a station running other code could still write, sealed with the event's key
    here = b.here
    fact = {"gid": f"{here['id']}:{here['next_seq']}", "station": here["id"],
            "seq": here["next_seq"], "hlc": "1999999999999.00000", "at": "2030-01-01",
            "parts": [{"t": "row", "tbl": "games", "pk": {"id": key},
                       "set": {"title": "mine now"}}]}
    fact["mac"] = ledger.mac(here["event_key"], fact)
    assert merge.receive(a.db, [fact]).applied == 1
    assert rows(a, "SELECT title FROM games")[0]["title"] == ""
    assert [(c["kind"], c["id"]) for c in conflicts.find(a.db, "held")] == \
        [("games", f"{here['id']}-{here['next_seq']}-0")]
    assert duels.load(a.db, duel.id).version == 1


def test_settings_and_reissued_passports_replicate_last_write_wins(pair):
    a, b = pair
    from referee.players import settings as event_settings
    from referee.store import settings as stored

    pid = player_id(a)
    old = player_rows.get(a.db, pid)["passport_token"]
    values = stored.get_all(a.db)
    event_settings.save(a.db, None, {**{k: values[k] for k in stored.EDITABLE},
                                     "event_name": "from A"})
    event_settings.save(b.db, None, {**{k: values[k] for k in stored.EDITABLE},
                                     "event_name": "from B"})
    players.reissue(b.db, None, pid)
    exchange(a, b)
    for station in (a, b):
        assert stored.get(station.db, "event_name") == "from B"
        assert player_rows.by_token(station.db, old) is None
        # A scan of the old passport says it was reissued, on either station
        assert player_rows.by_retired_token(station.db, old)["id"] == pid
    assert stored.get(a.db, "secret_key") != stored.get(b.db, "secret_key")


def test_a_tampered_fact_is_refused_and_changes_nothing(pair):
    a, b = pair
    players.adjust(a.db, None, player_id(a), {"hp": -1})
    facts = ledger.facts(a.db)
    facts[-1]["parts"][0]["changes"]["hp"]["after"] = 0
    before = dump(b.answers())
    report = merge.receive(b.db, facts)
    assert report.refused and "seal" in report.refused[0][1]
    assert dump(b.answers()) == before


def test_a_fact_changed_under_an_id_already_held_is_refused(pair):
    a, b = pair
    players.adjust(a.db, None, player_id(a), {"hp": -1})
    a.send_to(b)
    fact = ledger.facts(a.db)[-1]
    fact["at"] = "2000-01-01T00:00:00+00:00"
    fact["mac"] = ledger.mac(a.here["event_key"], fact)  # even with the event's key
    report = merge.receive(b.db, [fact])
    assert report.refused == [(fact["gid"], "it differs from the fact held under its id")]


def test_facts_of_an_unknown_station_wait_and_change_nothing(pair, tmp_path):
    a, b = pair
    stranger = founder(tmp_path / "x.db")
    players.adjust(stranger.db, None, player_id(stranger), {"hp": -1})
    forged = ledger.facts(stranger.db)
    for fact in forged:
        fact["mac"] = ledger.mac(a.here["event_key"], fact)
    before = dump(b.answers())
    report = merge.receive(b.db, forged)
    assert report.applied == 0 and report.waiting
    assert "never admitted" in report.waiting[0][1]
    assert dump(b.answers()) == before
    stranger.close()


def test_a_gap_in_a_station_sequence_waits_for_the_missing_facts(pair):
    a, b = pair
    pid = player_id(a)
    for _ in range(2):
        players.adjust(a.db, None, pid, {"cartridges": -1})
    facts = ledger.facts(a.db)
    report = merge.receive(b.db, facts[-1:])
    assert report.applied == 0 and "have not arrived yet" in report.waiting[0][1]
    merge.receive(b.db, facts[-2:-1])
    merge.receive(b.db, facts[-1:])
    assert player_rows.get(b.db, pid)["cartridges"] == 0


def test_a_fact_in_a_station_own_name_that_it_never_wrote_is_refused(pair):
    _a, b = pair
    here = b.here
    fact = {"gid": f"{here['id']}:{here['next_seq']}", "station": here["id"],
            "seq": here["next_seq"], "hlc": "1999999999999.00000", "at": "2030-01-01",
            "parts": []}
    fact["mac"] = ledger.mac(here["event_key"], fact)
    assert merge.receive(b.db, [fact]).refused == [(fact["gid"], "this station never wrote it")]
    players.adjust(b.db, None, player_id(b), {"hp": -1})  # its own numbering goes on


def test_an_organizer_hands_a_game_over_and_the_old_station_steps_are_held(pair):
    from referee.games import service as games

    a, b = pair
    duel = duels.start(a.db, None, player_id(a, 0), player_id(a, 1))
    exchange(a, b)
    games.hand_over(b.db, None, "duel", duel.id, b.here["id"])
    duels.record(b.db, None, duel.id, Round(Play("10S"), Play("8D")))
    duels.record(a.db, None, duel.id, Round(Play("9S"), Play("7D")))  # A, apart, later
    exchange(a, b)
    for station in (a, b):
        assert duels.load(station.db, duel.id).version == 2  # B's round only
        held = conflicts.find(station.db, "held")
        assert {c["kind"] for c in held} >= {"game_actions"}
    assert dump(a.answers()) == dump(b.answers())


def test_a_game_of_another_station_shows_read_only_with_a_take_over(pair):
    from tests.conftest import csrf_of, sign_in

    a, b = pair
    duel = duels.start(a.db, None, player_id(a, 0), player_id(a, 1))
    exchange(a, b)
    browser = sign_in(b.app().test_client(), "org", "org-password")
    browser.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = browser.get(f"/duels/{duel.id}").get_data(as_text=True)
    assert "This game belongs to the station master." in page
    assert '<meta http-equiv="refresh" content="10">' in page  # follows its station live
    refused = browser.post(f"/duels/{duel.id}/undo", data={"csrf_token": csrf_of(browser)})
    assert refused.status_code == 422
    assert "shown here read-only" in refused.get_data(as_text=True)
    assert duels.load(b.db, duel.id).version == 1
    taken = browser.post(f"/stations/games/duel/{duel.id}/take", data={
        "csrf_token": csrf_of(browser), "next": f"/duels/{duel.id}"})
    assert taken.status_code == 303
    ours = browser.get(f"/duels/{duel.id}").get_data(as_text=True)
    assert "belongs to the station" not in ours and 'http-equiv="refresh"' not in ours


def test_kept_rows_are_forgotten_once_no_late_fact_can_precede_them(pair):
    a, b = pair
    pid = player_id(a)
    players.adjust(a.db, None, pid, {"hp": -1})
    players.adjust(b.db, None, pid, {"cartridges": -1})
    tap = rows(a, "SELECT max(ord) AS o FROM log")[0]["o"]
    merge.prune(a.db)  # B's tap may still come, and sort before A's: A's rows stay
    assert rows(a, "SELECT count(*) AS n FROM undo_log WHERE ord = ?", [tap])[0]["n"] == 2
    exchange(a, b)
    players.adjust(a.db, None, pid, {"hp": -1})  # after everything heard from B
    assert merge.prune(a.db) > 0
    assert rows(a, "SELECT count(*) AS n FROM undo_log WHERE ord <= ?", [tap])[0]["n"] == 0
    players.adjust(b.db, None, pid, {"chance": -1})  # B's later fact still folds in
    exchange(a, b)
    assert dump(a.answers()) == dump(b.answers())


def test_a_station_tells_the_others_its_device_and_address_once(pair):
    a, b = pair
    founder_row = "SELECT device, address FROM stations WHERE number = 1"
    assert rows(b, founder_row) == [{"device": "", "address": ""}]  # unknown at founding
    assert membership.describe(a.db, "DEVICE-A", "tcp://10.0.0.1:22000")
    assert not membership.describe(a.db, "DEVICE-A", "tcp://10.0.0.1:22000")  # no new fact
    a.send_to(b)
    assert rows(b, founder_row) == [{"device": "DEVICE-A", "address": "tcp://10.0.0.1:22000"}]
    count = "SELECT count(*) AS n FROM log"
    assert rows(a, count)[0] == rows(b, count)[0]


def test_a_password_reset_on_one_station_ends_the_tokens_on_the_others(pair):
    a, b = pair
    assert b.get("/api/v1/players").status_code == 200  # a token issued on b
    ref = rows(a, "SELECT id FROM referees WHERE name = 'ref'")[0]["id"]
    org = rows(a, "SELECT id FROM referees WHERE name = 'org'")[0]["id"]
    accounts.reset_password(a.db, ref, "a-new-long-one", by=org)
    assert b.get("/api/v1/players").status_code == 200  # b has not heard yet
    a.send_to(b)
    assert b.get("/api/v1/players").status_code == 401
