"""B14: a player's registered deck, on the screens and in the database: checked as a judge
checks a decklist, kept with every save, and the squads hired from it."""

from __future__ import annotations

import json
import re

import pytest

from referee.errors import Conflict
from referee.games.berserk import registered, squads
from referee.games.berserk import rules as berserk
from referee.games.berserk import service as battles
from referee.rules import RuleError
from tests.conftest import post
from tests.games.berserk.test_web import (
    build,
    counts,
    install_test_deck,
    new_player,
    picked,
    save_squad,
    text,
)

# The test deck's 11 cards: three of each, one of the unique U1 (31 cards in all).
FULL = {"F7": 3, "M5": 3, "N3": 3, "FL10": 3, "FL6": 3, "E20": 3, "U1": 1, "S234": 3,
        "S123": 3, "XC": 3, "ART": 3}
DECK = {"F7": 2, "M5": 3, "N3": 3, "FL10": 3, "FL6": 3, "E20": 3, "U1": 1, "S234": 3,
        "S123": 3, "XC": 3, "ART": 3}  # 30 cards: two Forest Lords only


@pytest.fixture
def deck_dir(tmp_path, monkeypatch):
    return install_test_deck(tmp_path, monkeypatch)


@pytest.fixture
def anna(db):
    return new_player(db, "Anna")


@pytest.fixture
def boris(db):
    return new_player(db, "Boris")


SMALL = berserk.Settings(deck_min=3, deck_max=10)  # an event's smaller decks


def register(db, player, counts=DECK, name="Main", settings=berserk.PUBLISHED, **kw):
    return registered.save(db, 1, None, player_id=player["id"], name=name,
                           deck="berserk-test", counts=counts, settings=settings, **kw)


def stored(db) -> tuple:
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("berserk_decks", "berserk_deck_edits", "berserk_squads"))


def form_of(counts: dict, **fields) -> dict:
    return {"deck": "berserk-test", "deck_was": "berserk-test",
            **{f"n_{code}": str(n) for code, n in counts.items()}, **fields}


def count_of(html: str, code: str) -> int:
    return int(re.search(rf'name="n_{code}" value="(\d+)"', html)[1])


# The service and the database ----------------------------------------------------------


def test_B14_a_registered_deck_is_stored_with_who_registered_it(db, deck_dir, anna):
    row = register(db, anna)
    assert (row["player_id"], row["deck"], row["version"], row["total"]) == (
        anna["id"], "berserk-test", 1, 30)
    assert registered.held(row) == DECK and registered.of_player(db, anna["id"]) == row
    edit = registered.edits(db, row["id"])[0]
    assert (edit["seq"], edit["referee"], edit["deck"]["cards"][0]) == (
        1, "ref", {"code": "F7", "count": 2})
    assert stored(db) == (1, 1, 0)


@pytest.mark.parametrize(("counts", "message"), [
    ({**DECK, "F7": 0, "M5": 2}, ("The deck has 27 cards; a deck needs 30 to 50 cards: add "
                                  "3 more.")),
    ({**DECK, "F7": 4}, "F7 appears 4 times; keep at most 3 copies of a card."),
    ({**DECK, "U1": 2}, "U1 is unique and appears 2 times; keep at most 1."),
])
def test_B14_a_deck_breaking_a_limit_is_refused_and_nothing_is_stored(db, deck_dir, anna,
                                                                     counts, message):
    with pytest.raises(RuleError) as e:
        register(db, anna, counts)
    assert (e.value.rule, e.value.text) == ("B14", message)
    assert stored(db) == (0, 0, 0)


def test_B14_one_registered_deck_a_player_changed_with_every_save_kept(db, deck_dir, anna):
    first = register(db, anna)
    with pytest.raises(RuleError) as e:
        register(db, anna, FULL)
    assert "Anna already has a registered deck (#1)" in e.value.text
    changed = registered.save(db, 1, first["id"], player_id=anna["id"], name="Main",
                              deck="berserk-test", counts=FULL, settings=berserk.PUBLISHED,
                              version=1)
    assert (changed["version"], changed["total"]) == (2, 31)
    assert [e["total"] for e in registered.edits(db, first["id"])] == [31, 30]
    with pytest.raises(Conflict) as stale:
        registered.save(db, 1, first["id"], player_id=anna["id"], name="Old",
                        deck="berserk-test", counts=DECK, settings=berserk.PUBLISHED,
                        version=1)
    assert stale.value.fresh["version"] == 2
    with pytest.raises(Exception, match="append-only"):
        db.execute("UPDATE berserk_deck_edits SET deck = '{}'")


def test_B14_the_event_may_register_smaller_decks(db, deck_dir, anna):
    row = register(db, anna, {"F7": 1, "M5": 1, "N3": 1}, settings=SMALL)
    assert row["total"] == 3 and row["settings"]["deck_min"] == 3
    assert registered.problems_of(row) == ()


# Squads hired from the registered deck -------------------------------------------------


def test_B14_a_squad_is_hired_only_from_what_the_registered_deck_holds(db, deck_dir, anna):
    register(db, anna)
    squad = save_squad(db, anna, ["F7", "F7", "N3"])  # two of the two Forest Lords held
    assert squad["cards"] == [{"code": "F7"}, {"code": "F7"}, {"code": "N3"}]
    with pytest.raises(RuleError) as e:
        save_squad(db, anna, ["F7", "F7", "F7"])
    assert (e.value.rule, e.value.text) == ("B14", (
        "The squad takes 3 copies of F7, but the deck registered for Anna holds 2; take "
        "out 1."))
    assert stored(db)[2] == 1


def test_B14_a_card_the_deck_does_not_hold_is_refused_for_the_squad(db, deck_dir, anna):
    register(db, anna, {"F7": 1, "M5": 1, "U1": 1}, settings=SMALL)
    with pytest.raises(RuleError) as e:
        save_squad(db, anna, ["N3"])
    assert "N3 is not in the deck registered for Anna" in e.value.text


def test_B14_a_squad_from_another_deck_file_is_refused(db, deck_dir, anna):
    register(db, anna)
    with pytest.raises(RuleError) as e:
        squads.save(db, 1, None, player_id=anna["id"], name="", deck="berserk-sample",
                    seat="first", chosen=(squads.Pick("B01"),), settings=berserk.PUBLISHED)
    assert e.value.text == ("The deck registered for Anna is made of berserk-test cards; "
                            "build the squad from berserk-test.")


def test_B14_a_squad_of_a_player_without_a_registered_deck_is_still_saved(db, deck_dir,
                                                                          anna):
    # Squads came before registration: old clients keep hiring them, flagged as unchecked.
    squad = save_squad(db, anna, ["F7", "F7", "F7"])
    assert squads.hire_problems(db, squad) == ()
    assert registered.of_player(db, anna["id"]) is None


def test_B14_a_battle_is_refused_once_a_squad_breaks_its_players_new_deck(db, deck_dir, anna,
                                                                         boris):
    a = save_squad(db, anna, ["F7", "F7", "F7"])  # saved before any deck was registered
    b = save_squad(db, boris, ["M5"], seat="second")
    register(db, anna)  # two Forest Lords only
    assert [p.params["card"] for p in squads.problems_of(a, db)] == ["F7"]
    with pytest.raises(RuleError) as e:
        battles.create(db, 1, a["id"], b["id"], berserk.PUBLISHED)
    assert e.value.rule == "B14" and "holds 2; take out 1" in e.value.text
    assert db["games"].count == 0


# The registration screen ---------------------------------------------------------------


def test_B14_the_registration_screen_counts_live_and_saves_the_deck(referee, db, deck_dir,
                                                                    anna):
    page = referee.get(f"/berserk/registered-decks/new?player={anna['id']}&deck=berserk-test")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="deck-register"' in html
    assert "B14: 30 to 50 cards, at most 3 copies of a card, at most 1 of a unique card." \
        in text(html)
    assert "The deck has 0 cards; a deck needs 30 to 50 cards: add 30 more." in text(html)
    html = post(referee, "/berserk/registered-decks/build",
                form_of({**DECK, "F7": 1}, player=anna["id"], plus="F7"),
                htmx=True).get_data(as_text=True)
    assert count_of(html, "F7") == 2 and 'data-cards="30" data-ok="1"' in html
    response = post(referee, "/berserk/registered-decks",
                    form_of(DECK, player=anna["id"], name="Main"))
    assert response.status_code == 303
    row = registered.of_player(db, anna["id"])
    assert response.headers["Location"].endswith(f"/berserk/registered-decks/{row['id']}")
    assert registered.held(row) == DECK
    shown = text(referee.get(response.headers["Location"]).get_data(as_text=True))
    assert "Registered deck #1" in shown and "v1" in shown and "30 cards" in shown


def test_B14_a_fourth_copy_is_refused_with_the_reason_and_marked_before(referee, deck_dir,
                                                                        anna):
    response = post(referee, "/berserk/registered-decks/build",
                    form_of({"F7": 3, "U1": 1}, plus="F7"), htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "B14: F7 appears 4 times; keep at most 3 copies of a card." in text(html)
    assert count_of(html, "F7") == 3
    for code, hint in (("F7", "copies limit"), ("U1", "unique card")):
        row = html.split(f'data-code="{code}"')[1].split("</li>")[0]
        assert f"✗ {hint}" in text(row)
    response = post(referee, "/berserk/registered-decks/build",
                    form_of({"F7": 3}, minus="F7"), htmx=True)
    assert count_of(response.get_data(as_text=True), "F7") == 2


def test_B14_a_typed_count_is_recounted_and_a_wrong_one_refused(referee, deck_dir):
    html = post(referee, "/berserk/registered-decks/build", form_of({**DECK, "F7": 3}),
                htmx=True).get_data(as_text=True)
    assert 'data-cards="31" data-ok="1"' in html
    response = post(referee, "/berserk/registered-decks/build", form_of({"F7": "many"}),
                    htmx=True)
    assert response.status_code == 422
    assert "B14: The count of F7 must be a whole number from 0 to 99, not many." in text(
        response.get_data(as_text=True))


def test_B14_a_refused_registration_is_422_and_stores_nothing(referee, db, deck_dir, anna):
    response = post(referee, "/berserk/registered-decks",
                    form_of({**DECK, "F7": 0}, player=anna["id"]))
    assert response.status_code == 422
    assert "B14: The deck has 28 cards; a deck needs 30 to 50 cards: add 2 more." in text(
        response.get_data(as_text=True))
    assert stored(db) == (0, 0, 0)
    response = post(referee, "/berserk/registered-decks", form_of(DECK))
    assert response.status_code == 422
    assert "Choose the player whose deck this is." in text(response.get_data(as_text=True))


def test_B14_a_stale_save_is_409_with_the_deck_as_it_stands(referee, db, deck_dir, anna):
    row = register(db, anna)
    registered.save(db, 1, row["id"], player_id=anna["id"], name="New", deck="berserk-test",
                    counts=FULL, settings=berserk.PUBLISHED)
    response = post(referee, f"/berserk/registered-decks/{row['id']}",
                    form_of(DECK, deck_id=row["id"], version=1, name="Mine"))
    html = response.get_data(as_text=True)
    assert response.status_code == 409 and "Someone else saved this deck first" in text(html)
    assert count_of(html, "F7") == 3 and registered.get(db, row["id"])["name"] == "New"


def test_B14_a_player_who_has_a_deck_is_shown_it_instead_of_a_new_one(referee, db, deck_dir,
                                                                       anna):
    row = register(db, anna)
    response = referee.get(f"/berserk/registered-decks/new?player={anna['id']}")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/berserk/registered-decks/{row['id']}")


def test_B14_the_list_of_registered_decks_and_the_player_sheet(referee, db, deck_dir, anna,
                                                                boris):
    register(db, anna)
    page = text(referee.get("/berserk/registered-decks").get_data(as_text=True))
    assert "#1 · Anna" in page and "30 cards · berserk-test" in page
    sheet = text(referee.get(f"/players/{anna['id']}").get_data(as_text=True))
    assert "Registered deck #1" in sheet
    sheet = text(referee.get(f"/players/{boris['id']}").get_data(as_text=True))
    assert "+ Register a deck" in sheet


def test_B14_the_registration_screen_in_russian(referee, db, deck_dir, anna):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = text(referee.get(f"/berserk/registered-decks/new?player={anna['id']}"
                            "&deck=berserk-test").get_data(as_text=True))
    assert "Зарегистрировать колоду" in page
    assert "В колоде 0 карт; в колоде должно быть от 30 до 50 карт: добавьте ещё 30." in page


# The squad builder with a registered deck -----------------------------------------------


def test_B14_the_builder_offers_only_the_registered_cards_as_many_as_held(referee, db,
                                                                          deck_dir, anna):
    register(db, anna, {"F7": 1, "M5": 2, "U1": 1}, settings=SMALL)
    html = build(referee, ["M5"], player=anna["id"]).get_data(as_text=True)
    assert "Hired from the deck registered for Anna (B14): 4 cards." in text(html)
    assert 'data-code="N3"' not in html  # the deck holds no Wanderer
    row = html.split('data-code="M5"')[1].split("</li>")[0]
    assert "in the deck: 2" in text(row) and "✗" not in text(row)
    html = build(referee, ["M5", "M5"], player=anna["id"]).get_data(as_text=True)
    row = html.split('data-code="M5"')[1].split("</li>")[0]
    assert "✗ all copies in the squad" in text(row)  # marked before it is tapped
    response = build(referee, ["M5", "M5"], add="M5", player=anna["id"])
    assert response.status_code == 422
    assert ("B14: The squad takes 3 copies of M5, but the deck registered for Anna holds 2; "
            "take out 1.") in text(response.get_data(as_text=True))
    assert picked(response.get_data(as_text=True)) == ["M5", "M5"]


def test_B14_choosing_a_player_with_a_deck_takes_the_builder_to_that_deck(referee, db,
                                                                          deck_dir, anna):
    register(db, anna)
    html = post(referee, "/berserk/squads/build", {
        "deck": "berserk-sample", "deck_was": "berserk-sample", "seat": "first",
        "card": ["B01"], "player": anna["id"]}, htmx=True).get_data(as_text=True)
    assert ("Anna has registered a deck of berserk-test cards: the squad is hired from it "
            "(B14) and starts empty.") in text(html)
    assert picked(html) == [] and 'value="berserk-test" selected' in html


def test_B14_a_squad_without_a_registered_deck_is_flagged_not_refused(referee, db, deck_dir,
                                                                      anna):
    html = build(referee, ["F7"], player=anna["id"]).get_data(as_text=True)
    assert ("Anna has registered no deck: this squad is not checked against one (B14)."
            in text(html))
    save_squad(db, anna, ["F7"])
    page = text(referee.get("/berserk/squads").get_data(as_text=True))
    assert "no registered deck" in page


def test_B14_a_saved_squad_breaking_a_later_deck_shows_the_problem(referee, db, deck_dir,
                                                                   anna):
    squad = save_squad(db, anna, ["F7", "F7", "F7"])
    register(db, anna)
    html = referee.get(f"/berserk/squads/{squad['id']}").get_data(as_text=True)
    assert picked(html) == ["F7", "F7", "F7"]  # shown as saved, not emptied
    assert "B14: The squad takes 3 copies of F7" in text(html)
    deck_page = text(referee.get("/berserk/registered-decks/1").get_data(as_text=True))
    assert f"Squad #{squad['id']}" in deck_page and "holds 2; take out 1" in deck_page
    listed = text(referee.get("/berserk/squads").get_data(as_text=True))
    assert "B14" in listed


def test_B14_odd_registration_forms_never_answer_a_5xx(app, db, deck_dir, anna):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.conftest import sign_in
    from tests.web.test_form_fuzz import VALUES

    row = register(db, anna)
    browser = sign_in(app.test_client())
    fields = {name: VALUES for name in (
        "player", "name", "deck", "deck_was", "plus", "minus", "version", "deck_id",
        "s_deck_min", "s_deck_max", "s_max_copies", "s_max_unique_copies")}
    fields.update({f"n_{code}": VALUES for code in FULL})
    urls = ["/berserk/registered-decks/build", "/berserk/registered-decks",
            f"/berserk/registered-decks/{row['id']}"]

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(form=st.fixed_dictionaries({}, optional=fields), url=st.sampled_from(urls),
           htmx=st.booleans())
    def answers_without_a_crash(form, url, htmx):
        with browser.session_transaction() as session:
            token = session["csrf"]
        answer = browser.post(url, data={**form, "csrf_token": token},
                              headers={"HX-Request": "true"} if htmx else {})
        assert answer.status_code < 500, (url, form, answer.get_data(as_text=True)[:300])

    answers_without_a_crash()


# Stations ---------------------------------------------------------------------------------


def test_B14_a_registered_deck_travels_to_another_station(tmp_path, monkeypatch):
    from tests.stations.helpers import founder, joiner, rows

    install_test_deck(tmp_path, monkeypatch)
    master = founder(tmp_path / "master.db")
    hero = rows(master, "SELECT * FROM players ORDER BY id")[0]
    registered.save(master.db, None, None, player_id=hero["id"], name="Main",
                    deck="berserk-test", counts=DECK, settings=berserk.PUBLISHED)
    tavern = joiner(tmp_path / "tavern.db", master, "tavern")  # the founding snapshot
    assert registered.held(registered.of_player(tavern.db, hero["id"])) == DECK
    other = rows(master, "SELECT * FROM players ORDER BY id")[1]
    registered.save(tavern.db, None, None, player_id=other["id"], name="Tavern",
                    deck="berserk-test", counts=FULL, settings=berserk.PUBLISHED)
    tavern.send_to(master)
    here = registered.of_player(master.db, other["id"])
    assert here["total"] == 31 and len(registered.edits(master.db, here["id"])) == 1
    with pytest.raises(RuleError):  # the deck that came over the wire limits the squads
        squads.save(master.db, None, None, player_id=hero["id"], name="", deck="berserk-test",
                    seat="first", chosen=(squads.Pick("F7"),) * 3, settings=berserk.PUBLISHED)
    assert json.loads(rows(master, "SELECT cards FROM berserk_decks WHERE player_id = ?",
                           [other["id"]])[0]["cards"])[0] == {"code": "F7", "count": 3}
    master.close()
    tavern.close()


# Enter in the card search -------------------------------------------------------------------------


def test_B12_B14_enter_in_the_squad_builders_search_adds_the_one_card_found(referee, db,
                                                                           deck_dir, anna):
    # A name in either language or a code, forgiving case and zeros: one card, one copy.
    for q, code in (("hawk", "FL6"), ("ЯСТРЕБ", "FL6"), ("fl6", "FL6"), ("swarm", "XC")):
        html = build(referee, find="1", q=q, x_XC="2").get_data(as_text=True)
        assert picked(html) == [f"{code}:2" if code == "XC" else code], q
        assert counts(html)["cards"] == 1
    # The rows the search does not find are hidden, not gone: one tap away once cleared.
    html = build(referee, q="hawk").get_data(as_text=True)
    assert re.search(r'data-code="F7" data-count="0" hidden>', html)
    assert re.search(r'data-code="FL6" data-count="0">', html)
    # Two cards found (FL10 and FL6 start with "fl"), or none: nothing added, and why.
    for q, reason in (("fl", "Cards matching “fl”: 2. Tap + on the one you mean."),
                      ("kraken", "No card of the deck matches “kraken”.")):
        response = build(referee, cards=["F7"], find="1", q=q)
        html = response.get_data(as_text=True)
        assert response.status_code == 422 and reason in text(html)
        assert picked(html) == ["F7"]
    # Enter anywhere else, or in a blank search, counts again and adds nothing.
    for fields in ({"enter": "1", "q": "hawk"}, {"find": "1", "q": " "}):
        response = build(referee, cards=["F7"], **fields)
        assert response.status_code == 200 and picked(response.get_data(as_text=True)) == ["F7"]
    # B14: from a registered deck, the search finds only what the deck holds.
    register(db, anna, {"F7": 3, "M5": 3}, settings=SMALL)
    response = build(referee, find="1", q="hawk", player=anna["id"])
    assert response.status_code == 422
    assert "No card of the deck matches “hawk”." in text(response.get_data(as_text=True))


def test_B14_enter_in_the_registrations_search_adds_one_copy_of_the_card_found(referee,
                                                                              deck_dir):
    html = post(referee, "/berserk/registered-decks/build",
                form_of({"E20": 1}, find="1", q="dragon"), htmx=True).get_data(as_text=True)
    assert count_of(html, "E20") == 2 and 'data-cards="2"' in html
    response = post(referee, "/berserk/registered-decks/build",
                    form_of({"E20": 3}, find="1", q="e20"), htmx=True)
    assert response.status_code == 422  # B14: the copies limit refuses it, as + would
    assert "B14: E20 appears 4 times" in text(response.get_data(as_text=True))
    response = post(referee, "/berserk/registered-decks/build",
                    form_of({"E20": 1}, find="1", q="er"), htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and "Tap + on the one you mean." in text(html)
    assert count_of(html, "E20") == 1
