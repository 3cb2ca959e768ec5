"""Stored games: replayed from append-only actions, stale versions refused, undo appends."""

from __future__ import annotations

import sqlite3

import pytest

from referee.errors import Conflict
from referee.games import registry
from referee.games import service as games
from referee.games.coup import rules as coup
from referee.games.interface import Effect, GameKind, default_status
from referee.games.manifest import Manifest
from referee.players import service as player_service
from referee.rules import RuleError

SETUP = {"players": ["1", "2", "3"], "variant": "ambassador"}
INCOME = {"type": "declare", "player": "1", "action": "income"}


@pytest.fixture
def seated(db):
    return [player_service.create(db, None, {"character": f"P{i}", "hp_max": 3,
                                             "chance_max": 1, "cartridges": 1,
                                             "suit": "S"})["id"] for i in range(3)]


def test_create_act_and_reload(db, seated):
    game = games.create(db, 1, "coup", SETUP, seated)
    assert (game.version, game.row["status"], game.row["player_ids"]) == (0, "in_progress",
                                                                          seated)
    game = games.act(db, 1, "coup", game.id, INCOME, version=0)
    again = games.load(db, "coup", game.id)
    assert again.version == 1
    assert coup.state_to_dict(again.state) == coup.state_to_dict(game.state)
    assert [p.coins for p in again.state.players] == [3, 2, 2]


def test_a_refused_action_changes_nothing(db, seated):
    game = games.create(db, 1, "coup", SETUP, seated)
    with pytest.raises(RuleError):
        games.act(db, 1, "coup", game.id, {"type": "declare", "player": "2", "action": "income"})
    assert games.load(db, "coup", game.id).version == 0
    assert db["game_actions"].count == 0


def test_a_stale_version_is_refused_with_the_fresh_game(db, seated):
    game = games.create(db, 1, "coup", SETUP, seated)
    games.act(db, 1, "coup", game.id, INCOME, version=0)
    with pytest.raises(Conflict) as stale:
        games.act(db, 2, "coup", game.id, INCOME, version=0)
    assert stale.value.fresh.version == 1
    assert db["game_actions"].count == 1


def test_undo_appends_and_the_state_goes_back(db, seated):
    game = games.create(db, 1, "coup", SETUP, seated)
    games.act(db, 1, "coup", game.id, INCOME, version=0)
    game = games.undo(db, 2, "coup", game.id, version=1)
    assert [p.coins for p in game.state.players] == [2, 2, 2]
    assert [r["undoes"] is not None for r in game.history] == [False, True]
    assert game.actions == []
    with pytest.raises(RuleError, match="Nothing to undo"):
        games.undo(db, 2, "coup", game.id)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM game_actions")


def test_listing_by_player(db, seated):
    from referee.store import games as store
    first = games.create(db, 1, "coup", SETUP, seated)
    games.create(db, 1, "coup", {"players": ["1", "2"]}, seated[:2])
    assert [g["id"] for g in store.listing(db, "coup", seated[2])] == [first.id]
    assert len(store.listing(db, "coup")) == 2


def test_a_kind_is_known_wherever_the_registry_is(db, seated):
    # every game the registry lists is known by its kind's name, each name once
    assert [registry.kind(game.key) for game in registry.GAMES] == [
        game.kind for game in registry.GAMES]
    assert len(registry.kinds()) == len(registry.GAMES) >= 4
    with pytest.raises(RuleError, match="Unknown game kind chess"):
        games.create(db, 1, "chess", {}, seated)


def test_player_effects_are_events_in_the_same_transaction(db, seated, monkeypatch):
    # A kind whose every action costs the first seat one cartridge (as a game might).
    toll = GameKind(
        name="toll-test", title="Tolls", start=lambda setup: 0, legal=lambda s: ({"pay": 1},),
        apply=lambda s, a: s + 1, read=lambda s: {"paid": s},
        action_from_dict=lambda d: d, action_to_dict=lambda a: a,
        status=default_status(lambda s: s >= 5),
        effects=lambda before, after: {seated[0]: Effect({"cartridges": before - after})})
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, Manifest(
        toll, "Toll %(n)s", "", "games.index", ("games.index", "n"), ())))
    game = games.create(db, 1, toll.name, {}, seated)
    games.act(db, 1, toll.name, game.id, {"pay": 1})
    assert db["players"].get(seated[0])["cartridges"] == 0
    with pytest.raises(RuleError) as err:  # D4: no cartridge left, so the action is refused
        games.act(db, 1, toll.name, game.id, {"pay": 1})
    assert err.value.rule == "D4"
    assert games.load(db, toll.name, game.id).state == 1
    games.undo(db, 1, toll.name, game.id)
    assert db["players"].get(seated[0])["cartridges"] == 1
    logged = [tuple(r) for r in db.execute(
        "SELECT kind, undoes FROM events WHERE player_id = ? ORDER BY id", [seated[0]])]
    assert [k for k, _ in logged] == ["create", "toll-test", "toll-test"]
    first_toll = db.execute("SELECT id FROM events WHERE kind = 'toll-test'").fetchone()[0]
    assert logged[2][1] == first_toll  # the undo names the event it takes back
