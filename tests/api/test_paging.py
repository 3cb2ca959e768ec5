"""Every list of the API pages through a cursor and says how many there are;
nothing is cut without a Link to the rest."""

from __future__ import annotations

import re

from referee.games.coup import service as coup
from referee.games.duel import service as duels
from referee.players import service as players


def _walk(api, url: str) -> tuple[list[int], list[str]]:
    """Follow the Link headers from ``url``; every id seen, and every total said."""
    seen, totals = [], []
    while url:
        answer = api("get", url)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        seen += [item["id"] for item in answer.get_json()]
        totals.append(answer.headers["X-Total-Count"])
        link = answer.headers.get("Link")
        url = re.fullmatch(r'<([^>]+)>; rel="next"', link).group(1) if link else None
    return seen, totals


def _people(db, count: int) -> list[dict]:
    return [players.create(db, None, {"character": f"P{n}", "hp_max": 3, "chance_max": 1,
                                      "cartridges": 3, "suit": "H"}) for n in range(count)]


def test_duels_page_back_newest_first(api, db):
    people = _people(db, 10)
    made = [duels.start(db, None, people[2 * n]["id"], people[2 * n + 1]["id"]).id
            for n in range(5)]
    seen, totals = _walk(api, "/api/v1/duels?limit=2")
    assert seen == sorted(made, reverse=True)
    assert set(totals) == {"5"} and len(totals) == 3
    mine, totals = _walk(api, f"/api/v1/duels?limit=1&player={people[4]['id']}")
    assert mine == [made[2]] and totals == ["1"]


def test_coup_tables_page_back_and_old_calls_get_them_all(api, db):
    people = _people(db, 3)
    made = [coup.create(db, None, [p["id"] for p in people]).id for _ in range(4)]
    seen, totals = _walk(api, "/api/v1/coup?limit=3")
    assert seen == sorted(made, reverse=True) and totals == ["4", "4"]
    whole = api("get", "/api/v1/coup")  # no ?limit=: the default page holds them all
    assert [t["id"] for t in whole.get_json()] == seen and "Link" not in whole.headers
    assert api("get", "/api/v1/underworld?limit=0").status_code == 422


def test_berserk_squads_page_back(api, db, monkeypatch, tmp_path):
    from tests.games.berserk.test_web import install_test_deck, new_player, save_squad
    install_test_deck(tmp_path, monkeypatch)
    anna = new_player(db, "Anna")
    made = [save_squad(db, anna, ["S234", "F7", "N3"], name=f"Greens {n}")["id"]
            for n in range(3)]
    seen, totals = _walk(api, "/api/v1/berserk/squads?limit=2")
    assert seen == sorted(made, reverse=True) and totals == ["3", "3"]
