"""Games named by kind and number: "Coup table 2", "Duel 3", the same
on every station, in both languages."""

from __future__ import annotations

from referee import store
from referee.games import names, registry
from referee.games import service as games
from referee.games.coup import service as coup
from referee.games.duel import service as duels
from referee.notes import render
from referee.players import service as player_service
from referee.store import fold
from referee.store.ledger import BLOCK
from tests.conftest import sign_in


def seated(db, *who):
    return [player_service.create(db, None, {"character": n, "hp_max": 3, "chance_max": 1,
                                             "cartridges": 2, "suit": "H"})["id"]
            for n in who]


def test_numbers_are_said_within_their_kind_and_their_station_block():
    assert names.spoken(1) == (1, None) and names.spoken(2 * BLOCK - 1) == (2 * BLOCK - 1,
                                                                            None)
    assert names.spoken(2 * BLOCK) == (1, 2) and names.spoken(3 * BLOCK + 4) == (5, 3)
    stations = {2: "Tavern"}
    assert names.name("coup", 2, stations) == "Coup table 2"
    assert names.name("berserk", 2 * BLOCK + 3, stations) == "Battle 4 (station Tavern)"
    assert names.name("underworld", 3 * BLOCK, stations) == "Castle game 1 (station 3)"


def test_each_kind_counts_from_one(db):
    a, b = seated(db, "Anna", "Boris")
    table = coup.create(db, 1, [a, b])
    duel = duels.start(db, 1, a, b)
    assert (table.id, duel.id) == (1, 1)
    assert names.name("coup", table.id, {}) == "Coup table 1"
    assert names.name("duel", duel.id, {}) == "Duel 1"


def test_a_step_of_a_kind_without_reasons_of_its_own_is_named_in_the_feed(db):
    """A castle game's level change reads "Castle game 3", not "game #3"; one from
    another station's block says which station."""
    kind = registry.kind("underworld")
    assert render(games._reason(db, kind, 3, None, None)) == "Castle game 3"
    with store.write(db):
        fold.row(db, "stations", {"id": "tav", "name": "Tavern", "number": 2, "device": "",
                                  "address": "", "admitted_at": "", "admitted_by": None})
    assert render(games._reason(db, kind, 2 * BLOCK + 1, None, None)) == \
        "Castle game 2 (station Tavern)"
    # A duel keeps its own reasons, with the duel named the same way.
    duel = registry.kind("duel")
    assert render(games._reason(db, duel, 2 * BLOCK, None, None)) == \
        "Duel 1 (station Tavern), start"


def test_screens_name_the_game_in_both_languages(app, referee, db):
    a, b = seated(db, "Anna", "Boris")
    table = coup.create(db, 1, [a, b], title="Salon")
    assert "<title>Coup table 1</title>" in referee.get(f"/coup/{table.id}").get_data(
        as_text=True)
    russian = app.test_client()
    russian.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    sign_in(russian)
    page = russian.get(f"/coup/{table.id}").get_data(as_text=True)
    assert "<title>Стол «Переворота» №1</title>" in page
    assert "Стол «Переворота» №1 · Salon" in russian.get("/coup").get_data(as_text=True)
    assert render(names.name_note("underworld", names.number_note(2 * BLOCK, {2: "Таверна"})),
                  lambda s: {"Castle game %(n)s": "Игра в замке №%(n)s",
                             "%(n)s (station %(station)s)": "%(n)s (станция «%(station)s»)"}
                  .get(s, s)) == "Игра в замке №1 (станция «Таверна»)"
