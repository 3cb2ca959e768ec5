"""Adding a game is its folder and one line in games.registry.GAMES.

The coin toss (tests/games/coin: pure rules with their RuleErrors T1–T3, a manifest, a
web list and screen, an API, a deck kind and a table of its own) is added here to the
registry's list alone, and the hub, the API and its OpenAPI document, the names, the
list filter, random play, the stations' replication and the printed cards all serve it:
no other file names it.
"""

from __future__ import annotations

import pytest

from referee import store
from referee.app import create_app
from referee.decks import DeckError, load_file
from referee.games import registry
from referee.games import service as games
from referee.players import service as player_service
from referee.printing import readback
from referee.printing.sheets import deck_pdf
from referee.rules import RuleError
from referee.store import fold
from referee.web.context import close_connections
from tests.conftest import sign_in
from tests.games.coin import manifest as coin
from tests.games.coin import rules as coin_rules
from tests.games.test_random_play import play_randomly
from tests.stations.helpers import founder, joiner, rows


@pytest.fixture
def fifth(monkeypatch):
    """The registry with the coin toss as its fifth game: the one line."""
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, coin.GAME))


@pytest.fixture
def coin_app(fifth, db_path):
    app = create_app({"DATABASE": str(db_path), "TESTING": True})
    yield app
    close_connections(app)


@pytest.fixture
def two(coin_app):
    db = store.connect(coin_app.config["DATABASE"])
    ids = [player_service.create(db, None, {"character": name, "hp_max": 3,
                                            "chance_max": 1, "cartridges": 2, "suit": "H"})["id"]
           for name in ("Anna", "Boris")]
    yield db, ids
    db.close()


@pytest.fixture
def api(coin_app):
    client = coin_app.test_client()
    token = client.post("/api/v1/token", json={"name": "ref", "password": "ref-password"})
    headers = {"Authorization": f"Bearer {token.get_json()['token']}", "Accept-Language": "en"}
    return lambda method, url, **kw: client.open(url, method=method, headers=headers, **kw)


def test_the_coin_rules_refuse_a_toss_before_the_call_with_T1():
    with pytest.raises(RuleError) as err:
        coin_rules.apply(coin_rules.start({}), coin_rules.Toss("heads"))
    assert err.value.rule == "T1"


def test_the_api_lists_creates_gets_and_steps_the_fifth_game(api, two):
    _, (a, b) = two
    made = api("POST", "/api/v1/coin", json={"a": a, "b": b, "lives": 1})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    assert game["name"] == "Coin toss 1" and game["state"]["lives"] == [1, 1]
    refused = api("POST", "/api/v1/coin/1/actions", json={"type": "toss", "face": "heads"})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "T1"
    assert api("POST", "/api/v1/coin/1/actions",
               json={"type": "call", "face": "heads"}).status_code == 200
    done = api("POST", "/api/v1/coin/1/actions", json={"type": "toss", "face": "tails"})
    assert done.get_json()["state"]["lives"] == [0, 1]  # a called wrong
    assert done.get_json()["status"] == "finished"
    assert api("GET", "/api/v1/coin/1").get_json()["version"] == 2
    assert [g["name"] for g in api("GET", "/api/v1/coin").get_json()] == ["Coin toss 1"]
    assert api("GET", f"/api/v1/coin?player={b}").get_json()[0]["id"] == 1


def test_the_openapi_document_declares_the_fifth_games_calls(api):
    paths = api("GET", "/api/v1/openapi.json").get_json()["paths"]
    assert {"/api/v1/coin", "/api/v1/coin/{game_id}", "/api/v1/coin/{game_id}/actions"} \
        <= set(paths)
    assert set(paths["/api/v1/coin"]) == {"get", "post"}


def test_the_hub_and_the_list_filter_serve_the_fifth_game(coin_app, two):
    db, ids = two
    games.create(db, 1, "coin", {}, ids)
    browser = sign_in(coin_app.test_client())
    hub = browser.get("/games").get_data(as_text=True)
    assert "Coin tosses" in hub and "Heads or tails: a wrong call costs a life." in hub
    assert 'href="/coin"' in hub and 'href="/coin/1"' in hub  # its list, its running game
    listed = browser.get("/coin").get_data(as_text=True)
    assert '<p class="game">Coin toss 1</p>' in listed
    assert '<p class="filter">Anna</p>' in listed  # the players seated in a coin game
    assert "<h1>Coin toss 1</h1>" in browser.get("/coin/1").get_data(as_text=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_serves_the_fifth_game(fifth, seed):
    class Sample:
        setup = staticmethod(lambda rnd: {"lives": rnd.randint(1, 5)})
        invariants = staticmethod(lambda state: all(n >= 0 for n in state.lives))

    play_randomly(registry.kind("coin"), Sample, seed)


def test_its_games_and_its_table_travel_between_stations(tmp_path, monkeypatch):
    a = founder(tmp_path / "a.db")
    b = joiner(tmp_path / "b.db", a, "tavern")
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, coin.GAME))
    try:
        for station in (a, b):
            station.db.execute("CREATE TABLE coin_purses (id INTEGER PRIMARY KEY, "
                               "player_id INTEGER, coins INTEGER)")
        ids = [r["id"] for r in rows(a, "SELECT id FROM players ORDER BY id")][:2]
        game = games.create(a.db, None, "coin", {}, ids)
        games.act(a.db, None, "coin", game.id, {"type": "call", "face": "tails"})
        with store.write(a.db):
            fold.row(a.db, "coin_purses", {"id": 7, "player_id": ids[0], "coins": 3})
        a.send_to(b)
        assert rows(b, "SELECT * FROM coin_purses") == [
            {"id": 7, "player_id": ids[0], "coins": 3}]
        assert b.get("/api/v1/coin/1").get_data() == a.get("/api/v1/coin/1").get_data()
        assert b.get("/api/v1/coin/1").get_json()["state"]["called"] == "tails"
    finally:
        a.close()
        b.close()


def test_printing_reads_and_draws_the_fifth_games_deck_kind(fifth, tmp_path):
    path = tmp_path / "coins.toml"
    path.write_text('[deck]\nname = "coins"\nkind = "coin"\ntitle_en = "Coins"\n'
                    'title_ru = "Монеты"\n\n[[cards]]\ncode = "C1"\ncopies = 2\n'
                    'name_en = "Gold"\nname_ru = "Золото"\n', encoding="utf-8")
    deck = load_file(path)
    assert deck.kind == "coin" and [e.card.name_en for e in deck.cards] == ["Gold"]
    text = "\n".join(readback.page_texts(deck_pdf(deck)))
    assert text.count("Gold / Золото") == 2
    path.write_text(path.read_text(encoding="utf-8").replace('name_ru = "Золото"\n', ""),
                    encoding="utf-8")
    with pytest.raises(DeckError, match="name_ru is missing"):
        load_file(path)
