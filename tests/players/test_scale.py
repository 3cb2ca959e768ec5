"""The event can grow. The players page comes in pages, search goes
through an index and forgives case in Russian, the urgent panel lists every heavily
wounded player, and the API's lists page through a cursor without cutting anything."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.players import service
from referee.store import players
from tests.conftest import post

NAMES = ["Вера", "Орлов", "Лемке", "Дуся", "Hale", "Ксения", "Ржевский", "Renard", "Жук",
         "Платонов", "фон Штерн", "Рада", "ЁЛКА", "ёжик"]


def many_players(db, count: int) -> list[dict]:
    """``count`` players in one go, named so that name order differs from id order."""
    return service.create_many(db, None, [
        {"character": f"{NAMES[n % len(NAMES)]} {(n * 7919) % count:05d}",
         "player": f"Игрок {n}", "hp_max": 3, "chance_max": 1, "cartridges": 0,
         "suit": "H", "level": 1} for n in range(count)])


def _rows_of(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-player="(\d+)"', html)]


def _more_of(html: str) -> str | None:
    found = re.search(r'hx-get="([^"]+)"[^>]*hx-target="closest li"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_the_players_page_is_light_and_shows_the_rest_on_demand(referee, db):
    made = many_players(db, 620)
    page = referee.get("/")
    html = page.get_data(as_text=True)
    assert len(page.data) <= 30 * 1024, len(page.data)
    shown = _rows_of(html)
    assert len(shown) == players.PAGE
    assert "Show more (620 in all)" in html
    more = _more_of(html)
    while more:  # what the "Show more" row loads, again and again, as htmx would
        part = referee.get(more, headers={"HX-Request": "true"}).get_data(as_text=True)
        assert "<ul" not in part  # rows only, in place of the "more" row
        shown += _rows_of(part)
        more = _more_of(part)
    # each once, in the list's name order (SQLite's NOCASE, as the list always sorted)
    assert shown == [r[0] for r in db.execute(
        "SELECT id FROM players ORDER BY character COLLATE NOCASE, id")]
    assert sorted(shown) == sorted(r["id"] for r in made)


def test_every_heavily_wounded_player_is_in_the_urgent_panel(referee, db):
    made = many_players(db, 620)
    last = [r[0] for r in db.execute("SELECT id FROM players ORDER BY character COLLATE "
                                     "NOCASE, id DESC LIMIT 3")]
    late = [r for r in made if r["id"] in last]
    for row in late:  # far past the first page, and past the 500 the list once stopped at
        service.adjust(db, None, row["id"], {"hp": -3}, "ambush")
    html = referee.get("/").get_data(as_text=True)
    panel = html.split('id="wounded-title"')[1].split("</section>")[0]
    assert set(_rows_of(panel) or [int(n) for n in re.findall(r"/players/(\d+)", panel)]) \
        == {r["id"] for r in late}


def test_search_goes_through_the_index_and_follows_renames(referee, db):
    vera = service.create(db, None, {"character": "Капитан Вера Соколова", "player": "Анна",
                                     "hp_max": 3, "chance_max": 1, "cartridges": 0,
                                     "suit": "H"})
    plan = " ".join(str(r) for r in db.execute(
        "EXPLAIN QUERY PLAN SELECT p.* FROM players p" + players._INDEXED, ["x"]).fetchall())
    assert "SCAN players_search VIRTUAL TABLE INDEX 0:M" in plan  # a MATCH on the index
    assert [r["id"] for r in players.search(db, "STRASSE")] == [] # casefold: ß is ss
    straße = service.create(db, None, {"character": "Herr Straße", "hp_max": 3,
                                       "chance_max": 1, "cartridges": 0, "suit": "H"})
    assert [r["id"] for r in players.search(db, "STRASSE")] == [straße["id"]]
    assert [r["id"] for r in players.search(db, "ВЕРА")] == [vera["id"]]
    assert [r["id"] for r in players.search(db, "анн")] == [vera["id"]]   # the player's name
    post(referee, f"/players/{vera['id']}/edit", {
        "character": "Майор Вера Орлова", "player": "Анна", "hp_max": "3",
        "chance_max": "1", "suit": "H", "notes": ""})
    assert players.get(db, vera["id"])["character"] == "Майор Вера Орлова"
    assert players.search(db, "соколова") == []
    assert [r["id"] for r in players.search(db, "ОРЛОВА")] == [vera["id"]]
    assert [r["id"] for r in players.search(db, "ор")] == [vera["id"]]  # short: the key
    # the index agrees with the rows it indexes (SQLite checks every entry)
    db.execute("INSERT INTO players_search(players_search) VALUES ('integrity-check')")


WORDS = st.sampled_from(["Вера", "вЕРА", "Ёлка", "ёж", "Орлов", "ORLOV", "al", "Al", "x",
                         "Зоя", "ß", "İ", "'", '"', "%", "_"])


@settings(max_examples=40, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(names=st.lists(st.tuples(st.lists(WORDS, min_size=1, max_size=3).map(" ".join),
                                st.lists(WORDS, max_size=2).map(" ".join)),
                      min_size=1, max_size=8),
       query=st.one_of(WORDS, st.lists(WORDS, min_size=2, max_size=2).map(" ".join),
                       st.text(max_size=4)))
def test_search_finds_what_casefold_finds_in_name_order(db, names, query):
    """The index and the short-query scan agree with Python's casefold, whatever is
    typed: the same players, in the list's order (SQLite's NOCASE, as always)."""
    made = service.create_many(db, None, [
        {"character": c[:80], "player": p[:80], "hp_max": 3, "chance_max": 1,
         "cartridges": 0, "suit": "H", "level": 1} for c, p in names])
    needle = query.strip().casefold()
    expected = [r["id"] for r in made
                if needle in r["character"].casefold() or needle in r["player"].casefold()]
    here = {r["id"] for r in made}  # players of earlier examples are left out
    found = [r["id"] for r in players.search(db, query, limit=10_000) if r["id"] in here]
    assert sorted(found) == sorted(expected)
    assert found == [r["id"] for r in players.search(db, "", limit=10_000)
                     if r["id"] in set(expected)]


def test_a_search_holding_a_nul_finds_nothing_and_never_fails(db):
    """FTS5 reads a NUL as the end of its query; such a search goes by the folded
    names instead, where no name matches (a stored name never holds one)."""
    service.create(db, None, {"character": "Вера 00", "hp_max": 3, "chance_max": 1,
                              "cartridges": 0, "suit": "H"})
    assert players.count(db, "00\x00") == 0
    assert players.search(db, "00\x00") == []
    assert [r["character"] for r in players.search(db, "ра 00")] == ["Вера 00"]


def test_the_api_pages_players_through_a_cursor(api, db):
    made = many_players(db, 130)
    first = api("get", "/api/v1/players?limit=50")
    assert first.status_code == 200
    assert first.headers["X-Total-Count"] == "130"
    seen, answer = [], first
    while True:
        body = answer.get_json()
        assert isinstance(body, list) and len(body) <= 50
        seen += [p["id"] for p in body]
        link = answer.headers.get("Link")
        if not link:
            break
        url = re.fullmatch(r'<([^>]+)>; rel="next"', link).group(1)
        answer = api("get", url)
    assert len(seen) == 130 == len(set(seen)) and set(seen) == {r["id"] for r in made}
    # a search pages the same way, and counts its matches
    vera = api("get", "/api/v1/players?q=вера&limit=5")
    assert vera.headers["X-Total-Count"] == str(sum(
        1 for r in made if "вера" in r["character"].casefold()))
    # without ?limit= nothing changes for an event of fewer than 500 players
    assert len(api("get", "/api/v1/players").get_json()) == 130
    assert "Link" not in api("get", "/api/v1/players").headers


def test_the_api_pages_events_back_through_the_link(api, db):
    made = many_players(db, 30)
    for row in made[:10]:
        service.adjust(db, None, row["id"], {"cartridges": 1}, "")
    total = db.execute("SELECT count(*) FROM events").fetchone()[0]
    answer, seen = api("get", "/api/v1/events?limit=7"), []
    assert answer.headers["X-Total-Count"] == str(total)
    while True:
        seen += [e["id"] for e in answer.get_json()]
        link = answer.headers.get("Link")
        if not link:
            break
        answer = api("get", re.fullmatch(r'<([^>]+)>; rel="next"', link).group(1))
    assert len(seen) == total == len(set(seen))
    one = api("get", f"/api/v1/players/{made[0]['id']}/events?limit=1")
    assert one.headers["X-Total-Count"] == "2" and "Link" in one.headers


def test_a_page_size_out_of_bounds_is_refused_with_a_sentence(api):
    for bad in ("0", "1001", "abc", "²", "9" * 30):
        for path in ("/api/v1/players", "/api/v1/events", "/api/v1/players/1/events"):
            answer = api("get", f"{path}?limit={bad}")
            assert answer.status_code in (404, 422), (path, bad)
            if answer.status_code == 422:
                assert "limit must be a whole number from 1 to 1000" in answer.get_json()["error"]


def test_an_upgraded_event_is_searchable_at_once(tmp_path):
    """m010 folds and indexes the players an older database already holds."""
    import shutil
    from pathlib import Path

    from referee import store
    legacy = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-v1.db"
    path = tmp_path / "old.db"
    shutil.copyfile(legacy, path)
    db = store.init(path)
    try:
        assert [r["id"] for r in players.search(db, "СОКОЛОВА")] == [1]
        assert [r["id"] for r in players.search(db, "ив")] == [2]    # Иван, the player
        assert players.count(db) == db.execute("SELECT count(*) FROM players").fetchone()[0]
        assert db.execute("SELECT n FROM tallies WHERE name = 'events'").fetchone()[0] == \
            db.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        db.close()


def test_a_search_with_many_matches_pages_in_name_order_too(db):
    """Past 400 matches the search walks the list in name order instead of sorting:
    the same players come back, page after page."""
    many_players(db, 620)
    order = [r[0] for r in db.execute(
        "SELECT id FROM players WHERE player LIKE 'Игрок %' ORDER BY character COLLATE "
        "NOCASE, id")]
    assert players.count(db, "ИГРОК") == 620 > players._MANY
    pages, after = [], None
    while True:
        page = players.search(db, "игрок", 50, after)
        if not page:
            break
        pages += [r["id"] for r in page]
        after = page[-1]["id"]
    assert pages == order


def test_a_row_that_arrives_with_a_key_is_indexed_by_its_names(db):
    """A joining station's founding snapshot carries whole rows, search_key included:
    the key is made again from the names, and the index stays whole."""
    from referee.store import write
    from referee.store.fold import insert
    row = dict(many_players(db, 1)[0])
    with write(db):
        insert(db, "players", {**row, "id": 9001, "passport_token": "t-9001",
                               "character": "Гость Вера", "search_key": "stale words"})
    assert players.get(db, 9001)["search_key"] == "гость вера\nигрок 0"
    assert 9001 in {r["id"] for r in players.search(db, "ГОСТЬ")}
    assert players.search(db, "stale") == []
    db.execute("INSERT INTO players_search(players_search) VALUES ('integrity-check')")
