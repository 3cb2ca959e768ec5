"""Player actions against a real database: each one a row change plus its event."""

from __future__ import annotations

import pytest

from referee.players import service
from referee.rules import RuleError
from referee.store import events


def history(db, player_id):
    return events.for_player(db, player_id)


def test_create_starts_at_full_hp_and_chance_with_the_whole_duel_deck(db):
    row = service.create(db, 1, {"character": "B", "hp_max": 3, "chance_max": 1,
                                 "cartridges": 2, "suit": "♣"})
    assert (row["hp"], row["chance"], row["level"], row["status"]) == (3, 1, 1, "active")
    assert row["suit"] == "C"
    assert row["duel_deck"] == "6C,7C,8C,9C,10C,JC,QC,KC,AC"
    assert len(row["passport_token"]) >= 22  # 192 bits, URL-safe
    assert history(db, row["id"])[0]["kind"] == "create"


@pytest.mark.parametrize(("data", "message"), [
    ({"hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "H"}, "required"),
    ({"character": " ", "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "H"}, "required"),
    ({"character": "X", "hp_max": 0, "chance_max": 1, "cartridges": 2, "suit": "H"}, "between"),
    ({"character": "X", "hp_max": 3, "chance_max": -1, "cartridges": 2, "suit": "H"}, "between"),
    ({"character": "X", "hp_max": 3, "chance_max": 1, "cartridges": "many", "suit": "H"},
     "whole number"),
    ({"character": "X", "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "Z"}, "D3"),
    ({"character": "X" * 81, "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "H"},
     "longer"),
    ({"character": "X", "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "H",
      "level": 11}, "between"),
])
def test_create_refuses_bad_fields(db, data, message):
    with pytest.raises(RuleError) as err:
        service.create(db, None, data)
    assert message in str(err.value)
    assert db["players"].count == 0


def test_adjust_records_who_what_and_why(db, player):
    row = service.adjust(db, 1, player["id"], {"hp": -1}, "shot at the bridge")
    event = history(db, player["id"])[0]
    assert row["hp"] == 2
    assert event["kind"] == "adjust"
    assert event["referee"] == "ref"
    assert event["changes"] == {"hp": {"before": 3, "after": 2}}
    assert event["reason"] == "shot at the bridge"
    assert event["at"].endswith("+00:00")


def test_D10_hp_zero_is_a_heavy_wound_with_its_time(db, player):
    row = service.adjust(db, 1, player["id"], {"hp": -3})
    assert row["status"] == "heavy_wound"
    assert row["wounded_at"]
    changes = history(db, player["id"])[0]["changes"]
    assert changes["status"] == {"before": "active", "after": "heavy_wound"}
    healed = service.heal(db, 1, player["id"])
    assert (healed["hp"], healed["status"], healed["wounded_at"]) == (1, "active", None)


def test_kill_then_undo_restores_the_living_character(db, player):
    service.adjust(db, 1, player["id"], {"hp": -1})
    dead = service.kill(db, 1, player["id"], "bled out")
    assert (dead["status"], dead["hp"]) == ("dead", 0)
    with pytest.raises(RuleError, match="dead"):
        service.adjust(db, 1, player["id"], {"hp": 1})
    back = service.undo(db, 1, dead["event_id"])
    assert (back["status"], back["hp"]) == ("active", 2)


def test_undo_appends_and_never_deletes(db, player):
    tap = service.adjust(db, 1, player["id"], {"hp": -1})
    count = db["events"].count
    row = service.undo(db, 2, tap["event_id"], "misclick")
    assert row["hp"] == 3
    assert db["events"].count == count + 1
    newest = history(db, player["id"])[0]
    assert newest["kind"] == "undo"
    assert newest["undoes"] == tap["event_id"]
    assert newest["changes"] == {"hp": {"before": 2, "after": 3}}
    assert events.get(db, tap["event_id"])["undone_by"] == newest["id"]


def test_undoing_twice_is_refused(db, player):
    tap = service.adjust(db, 1, player["id"], {"hp": -1})
    service.undo(db, 1, tap["event_id"])
    with pytest.raises(RuleError, match="already undone"):
        service.undo(db, 1, tap["event_id"])
    assert db["players"].get(player["id"])["hp"] == 3


def test_an_undo_cannot_itself_be_undone(db, player):
    tap = service.adjust(db, 1, player["id"], {"hp": -1})
    undo = service.undo(db, 1, tap["event_id"])
    with pytest.raises(RuleError, match="cannot be undone"):
        service.undo(db, 1, undo["event_id"])


def test_undo_that_would_break_a_bound_is_refused(db, player):
    gift = service.adjust(db, 1, player["id"], {"cartridges": 1})   # 4
    service.adjust(db, 1, player["id"], {"cartridges": -4})          # 0
    with pytest.raises(RuleError) as err:
        service.undo(db, 1, gift["event_id"])
    assert err.value.rule == "D4"
    assert db["players"].get(player["id"])["cartridges"] == 0


def test_undo_keeps_later_changes_by_others(db, player):
    first = service.adjust(db, 1, player["id"], {"hp": -1})
    service.adjust(db, 2, player["id"], {"hp": -1})
    row = service.undo(db, 1, first["event_id"])
    assert row["hp"] == 2


def test_edit_lowering_max_pulls_current_down(db, player):
    row = service.edit(db, 1, player["id"], {"hp_max": 2, "character": "Major A"})
    assert (row["hp"], row["hp_max"], row["character"]) == (2, 2, "Major A")
    event = history(db, player["id"])[0]
    assert set(event["changes"]) == {"hp", "hp_max", "character"}
    back = service.undo(db, 1, row["event_id"])
    assert (back["hp"], back["hp_max"], back["character"]) == (3, 3, "Captain A")


def test_D1_suit_changes_the_whole_deck_until_a_card_is_surrendered(db, player):
    row = service.edit(db, 1, player["id"], {"suit": "S"})
    assert row["duel_deck"].startswith("6S,7S")
    db.execute("UPDATE players SET duel_deck = '6S,7S' WHERE id = ?", [player["id"]])
    with pytest.raises(RuleError) as err:
        service.edit(db, 1, player["id"], {"suit": "H"})
    assert err.value.rule == "D1"


def test_reissue_changes_the_token_and_logs_it_without_the_secret(db, player):
    row = service.reissue(db, 1, player["id"])
    assert row["passport_token"] != player["passport_token"]
    event = history(db, player["id"])[0]
    assert event["kind"] == "reissue"
    assert player["passport_token"] not in str(event["changes"])
    assert row["passport_token"] not in str(event["changes"])


def test_nothing_to_change_is_refused(db, player):
    with pytest.raises(RuleError, match="Nothing would change"):
        service.set_exact(db, 1, player["id"], {"hp": 3})
