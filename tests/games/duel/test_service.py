"""The duel service on a real database: effects as player events, 409 versions, undo."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import notes, store
from referee.errors import Conflict
from referee.games.duel import rules as duel
from referee.games.duel import service as duels
from referee.games.duel.rules import Extension, Play, Round
from referee.players import service as players_service
from referee.rules import RuleError
from referee.rules.cards import duel_deck
from referee.store import events
from referee.store import players as rows

SUITS = ("S", "H", "D", "C")


def make(db, name: str, *, hp=3, chance=2, cartridges=3, suit="H") -> dict:
    return players_service.create(db, None, {"character": name, "hp_max": hp,
                                             "chance_max": chance, "cartridges": cartridges,
                                             "suit": suit})


@pytest.fixture
def pair(db):
    """A and B of duel.md's worked examples."""
    return make(db, "A"), make(db, "B", chance=1, cartridges=2, suit="C")


def rnd(a: str, b: str, *, a_hand=None, b_hand=None, a_tokens=0, b_tokens=0) -> Round:
    return Round(a=Play(a, a_hand, a_tokens), b=Play(b, b_hand, b_tokens))


def stats_of(db, player_id: int) -> dict:
    row = rows.get(db, player_id)
    return {k: row[k] for k in ("hp", "chance", "cartridges", "status", "duel_deck",
                                "wounded_at")}


def counts(db) -> tuple:
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("events", "games", "game_actions"))


def test_D4_start_pays_a_cartridge_each_as_duel_events(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    assert (view.version, view.status, view.state.a.cartridges) == (1, "in_progress", 2)
    assert stats_of(db, a["id"])["cartridges"] == 2 and stats_of(db, b["id"])["cartridges"] == 1
    kinds = db.execute("SELECT player_id, kind, changes FROM events WHERE kind = 'duel'"
                       " ORDER BY id").fetchall()
    assert kinds == [(a["id"], "duel", '{"cartridges": {"after": 2, "before": 3}}'),
                     (b["id"], "duel", '{"cartridges": {"after": 1, "before": 2}}')]
    assert [r["kind"] for r in view.log] == ["start"]


@pytest.mark.parametrize(("changes", "text"), [
    ({"cartridges": 0}, "B has no cartridge"),
    ({"hp": 0}, "B cannot fight"),
])
def test_D4_refused_start_changes_nothing(db, pair, changes, text):
    a, b = pair
    players_service.set_exact(db, None, b["id"], changes)
    before = counts(db), stats_of(db, a["id"])
    with pytest.raises(RuleError) as err:
        duels.start(db, None, a["id"], b["id"])
    assert err.value.rule == "D4" and text in err.value.text
    assert (counts(db), stats_of(db, a["id"])) == before


def test_D4_dead_player_cannot_duel(db, pair):
    a, b = pair
    players_service.kill(db, None, b["id"])
    with pytest.raises(RuleError) as err:
        duels.check_start(db, a["id"], b["id"])
    assert err.value.rule == "D4"


def test_D14_stale_version_raises_with_the_fresh_duel_and_applies_nothing(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    duels.record(db, None, view.id, rnd("10S", "7H"), version=1)
    before = counts(db), stats_of(db, b["id"])
    with pytest.raises(Conflict) as err:
        duels.record(db, None, view.id, rnd("10S", "7H"), version=1)
    assert err.value.fresh.version == 2 and len(err.value.fresh.state.rounds) == 1
    assert (counts(db), stats_of(db, b["id"])) == before
    with pytest.raises(Conflict):
        duels.undo(db, None, view.id, version=1)


def test_D7_D1_surrendered_cards_leave_the_deck_and_are_listed(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    duels.record(db, None, view.id, rnd("6S", "KC", a_hand="AH"))
    view = duels.record(db, None, view.id, rnd("7S", "QC", a_hand="QH", b_hand="6C"))
    assert stats_of(db, a["id"])["duel_deck"] == "6H,7H,8H,9H,10H,JH,KH"
    assert duels.surrendered(db, a["id"]) == \
        [("QH", view.id), ("AH", view.id)]
    assert duels.surrendered(db, b["id"]) == [("6C", view.id)]
    duels.undo(db, None, view.id)  # the round that took QH and 6C is undone: both return
    assert duels.surrendered(db, a["id"]) == [("AH", view.id)]
    assert duels.surrendered(db, b["id"]) == []


def test_D1_surrendered_cards_of_events_written_before_notes_name_their_duel(db, pair):
    a, _ = pair
    # An event from before m005: the reason in English, no note.
    with store.write(db):
        events.record(db, referee_id=None, player_id=a["id"], kind="duel", reason="duel #4, "
                      "round 2", changes={"duel_deck": {"before": "6H,7H,8H,9H,10H,JH,QH,KH,AH",
                                                        "after": "6H,7H,8H,9H,10H,JH,QH,KH"}})
        db.execute("UPDATE players SET duel_deck = '6H,7H,8H,9H,10H,JH,QH,KH' WHERE id = ?",
                   [a["id"]])
    assert duels.surrendered(db, a["id"]) == [("AH", 4)]


def test_D10_heavy_wound_sets_status_and_clock_and_undo_clears_them(db, pair):
    a, b = pair
    players_service.set_exact(db, None, b["id"], {"hp": 1})
    view = duels.start(db, None, a["id"], b["id"])
    view = duels.record(db, None, view.id, rnd("KS", "6S"))
    row = rows.get(db, b["id"])
    assert (row["hp"], row["status"], view.status) == (0, "heavy_wound", "finished")
    assert row["wounded_at"] is not None
    duels.undo(db, None, view.id)
    row = rows.get(db, b["id"])
    assert (row["hp"], row["status"], row["wounded_at"]) == (1, "active", None)


def test_D8_undo_refused_when_it_would_break_a_bound_and_nothing_changes(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    duels.record(db, None, view.id, rnd("9C", "JD", a_tokens=2))
    players_service.adjust(db, None, a["id"], {"chance": 2})  # given back by a referee
    before = counts(db), stats_of(db, a["id"])
    with pytest.raises(RuleError) as err:
        duels.undo(db, None, view.id)
    assert err.value.rule == "D8"
    assert (counts(db), stats_of(db, a["id"])) == before


def test_D8_row_spent_elsewhere_mid_duel_refuses_the_round(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    players_service.adjust(db, None, a["id"], {"chance": -2})
    before = counts(db)
    with pytest.raises(RuleError) as err:
        duels.record(db, None, view.id, rnd("9C", "JD", a_tokens=2))
    assert err.value.rule == "D8"
    assert counts(db) == before


def test_undo_refused_once_a_duelist_is_dead(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    duels.record(db, None, view.id, rnd("10S", "7H"))
    players_service.kill(db, None, b["id"])
    with pytest.raises(RuleError) as err:
        duels.undo(db, None, view.id)
    assert "B has been marked dead since" in err.value.text


def test_cancelled_duel_takes_no_more_actions(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    view = duels.undo(db, None, view.id)
    assert (view.status, view.state, view.last) == ("cancelled", None, None)
    with pytest.raises(RuleError, match="cancelled"):
        duels.record(db, None, view.id, rnd("10S", "7H"))
    with pytest.raises(RuleError, match="Nothing left to undo"):
        duels.undo(db, None, view.id)


def test_player_level_undo_refuses_duel_events(db, pair):
    a, b = pair
    duels.start(db, None, a["id"], b["id"])
    event_id = db.execute("SELECT max(id) FROM events WHERE kind = 'duel'").fetchone()[0]
    assert "duel" not in players_service.UNDOABLE
    with pytest.raises(RuleError, match="cannot be undone"):
        players_service.undo(db, None, event_id)


def test_duel_log_is_append_only(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    duels.undo(db, None, view.id)
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("UPDATE game_actions SET action = NULL")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("DELETE FROM game_actions")
    log = duels.load(db, view.id).log
    assert [(r["kind"], r["seq"], r["undone_by"] is not None) for r in log] == \
        [("start", 1, True), ("undo", 2, False)]


def test_reasons_are_notes_read_in_each_readers_language(db, pair):
    a, b = pair
    view = duels.start(db, None, a["id"], b["id"])
    duels.undo(db, None, view.id)
    stored = [events.get(db, e) for (e,) in db.execute(
        "SELECT id FROM events WHERE player_id = ? AND kind LIKE 'duel%' ORDER BY id",
        [a["id"]])]
    # English text for readers that do not render notes, the message and values as data
    assert [e["reason"] for e in stored] == ["Duel 1, start", "undone: Duel 1, start"]
    assert stored[0]["note"] == {"msg": "Duel %(duel)s, start", "params": {"duel": 1}}
    russian = {"Duel %(duel)s, start": "Дуэль №%(duel)s, начало",
               "undone: %(reason)s": "отменено: %(reason)s"}
    assert notes.render(stored[1]["note"], lambda m: russian.get(m, m)) == \
        "отменено: Дуэль №1, начало"


# Random legal duels through the service ----------------------------------------------


def legal_action(data, state):
    """A random legal next action for the engine state."""
    if duel.awaiting(state) == "extension":
        wants = [data.draw(st.booleans()) and state.side(k).cartridges > 0 for k in duel.SIDES]
        return Extension(a=wants[0], b=wants[1])
    plays = []
    for key in duel.SIDES:
        table = data.draw(st.sampled_from(duel.table_cards_left(state, key)))
        allowed = duel.hand_cards_allowed(state, key)
        hand = data.draw(st.one_of(st.none(), st.sampled_from(allowed))) if allowed else None
        tokens = data.draw(st.integers(0, duel.tokens_allowed(state, key)))
        plays.append(Play(table, hand, tokens))
    return Round(a=plays[0], b=plays[1])


def check_in_step(db, view) -> None:
    """The player rows match the engine's state, and every bound holds (D1–D13)."""
    state = view.state
    for key in duel.SIDES:
        side, row = state.side(key), rows.get(db, view.player_id(key))
        deck = rows.deck_cards(row)
        assert (row["hp"], row["chance"], row["cartridges"]) == \
            (side.hp, side.chance, side.cartridges)
        assert tuple(deck) == side.duel_deck
        assert row["hp"] >= 0 and row["cartridges"] >= 0
        assert 0 <= row["chance"] <= row["chance_max"]
        assert not set(side.surrendered) & set(deck)  # D1: never played again
        assert (row["status"] == "heavy_wound") == side.heavy_wound
        other = "b" if key == "a" else "a"
        lost = sum(1 for r in state.rounds if r.winner == other)
        assert side.start.hp - side.hp == lost  # D9: HP lost equals rounds lost
    if state.status == "finished":
        assert state.result is not None and view.status == "finished"
    else:
        assert state.result is None


def comparable(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in ("version", "updated_at")}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_D1_to_D14_random_legal_duels_keep_rows_in_step_and_undo_restores_them(data):
    db = store.init(":memory:")
    ids = []
    for name in ("A", "B"):
        suit = data.draw(st.sampled_from(SUITS))
        chance_max = data.draw(st.integers(0, 3))
        row = make(db, name, hp=data.draw(st.integers(1, 4)), chance=chance_max,
                   cartridges=data.draw(st.integers(1, 4)), suit=suit)
        chance = data.draw(st.integers(0, chance_max))
        if chance != chance_max:
            players_service.set_exact(db, None, row["id"], {"chance": chance})
        # A deck already thinned by earlier duels: D5 hands of fewer than three.
        deck = data.draw(st.sets(st.sampled_from([c.code for c in duel_deck(suit)])))
        db["players"].update(row["id"], {"duel_deck": ",".join(
            c.code for c in duel_deck(suit) if c.code in deck)})
        ids.append(row["id"])
    original = {pid: comparable(rows.get(db, pid)) for pid in ids}
    events_before = db.execute("SELECT count(*) FROM events").fetchone()[0]

    view = duels.start(db, None, ids[0], ids[1])
    check_in_step(db, view)
    actions = 1
    while view.state.status != "finished" and actions < 14:
        if data.draw(st.integers(0, 9)) == 0 and view.last["kind"] != "start":
            view = duels.undo(db, None, view.id, version=view.version)
        else:
            action = legal_action(data, view.state)
            view = duels.record(db, None, view.id, action, version=view.version)
            actions += 1
        check_in_step(db, view)
    assert view.version == len(view.log)

    while view.last is not None:
        view = duels.undo(db, None, view.id, version=view.version)
        if view.state is not None:
            check_in_step(db, view)
    assert view.status == "cancelled"
    assert {pid: comparable(rows.get(db, pid)) for pid in ids} == original
    # Nothing was deleted: the log only grew, and every duel event has its compensation.
    assert db.execute("SELECT count(*) FROM events").fetchone()[0] > events_before
    unpaired = db.execute(
        "SELECT count(*) FROM events e WHERE e.kind = 'duel' AND NOT EXISTS "
        "(SELECT 1 FROM events u WHERE u.undoes = e.id)").fetchone()[0]
    assert unpaired == 0
    db.close()
