"""Berserk-style screens through the Flask test client: the squad builder (B2, B12–B14)
and the battle tracker (B5–B11): what the referee sees, and what the database holds."""

from __future__ import annotations

import html as entities
import json
import re
import time
from pathlib import Path

import pytest

from referee.games import service as games
from referee.games.berserk import rules as berserk
from referee.games.berserk import service as battles
from referee.games.berserk import squads
from referee.players import service as player_service
from tests.conftest import csrf_of, post, sign_in

TEST_DECK = """
[deck]
name = "berserk-test"
kind = "berserk"
title_en = "Test set"
title_ru = "Тестовый набор"

[[cards]]
code = "F7"
name_en = "Forest Lord"
name_ru = "Лесной владыка"
cost = 7
elite = true
lives = 5
movement = 1
strike = [1, 2, 3]
elements = ["forest"]

[[cards]]
code = "M5"
name_en = "Mountain Guard"
name_ru = "Горный страж"
cost = 5
lives = 4
movement = 1
strike = [1, 2, 2]
elements = ["mountains"]

[[cards]]
code = "N3"
name_en = "Wanderer"
name_ru = "Странник"
cost = 3
lives = 3
movement = 1
strike = [1, 1, 2]
elements = []

[[cards]]
code = "FL10"
name_en = "Great Eagle"
name_ru = "Великий орёл"
cost = 10
lives = 3
movement = "flying"
strike = [1, 2, 3]
elements = ["steppe"]

[[cards]]
code = "FL6"
name_en = "Hawk"
name_ru = "Ястреб"
cost = 6
lives = 2
movement = "flying"
strike = [1, 1, 2]
elements = ["steppe"]

[[cards]]
code = "E20"
name_en = "Dragon"
name_ru = "Дракон"
cost = 20
elite = true
lives = 9
movement = 1
strike = [3, 4, 5]
elements = ["fire"]

[[cards]]
code = "U1"
name_en = "Lone Hero"
name_ru = "Одинокий герой"
cost = 2
lives = 2
movement = 1
strike = [1, 1, 1]
elements = ["forest"]
unique = true

[[cards]]
code = "S234"
name_en = "Champion"
name_ru = "Чемпион"
cost = 4
lives = 8
movement = 1
strike = [2, 3, 4]
elements = ["forest"]

[[cards]]
code = "S123"
name_en = "Defender"
name_ru = "Защитник"
cost = 4
lives = 8
movement = 1
strike = [1, 2, 3]
elements = ["forest"]

[[cards]]
code = "XC"
name_en = "Swarm"
name_ru = "Рой"
cost = "X"
lives = 2
movement = 1
strike = [1, 1, 1]
elements = ["swamps"]

[[cards]]
code = "ART"
name_en = "Banner"
name_ru = "Знамя"
kind = "artifact"
cost = 3
elite = true
lives = 4
"""


def install_test_deck(tmp_path, monkeypatch):
    """The worked examples' cards as an organizer's own deck file (REFEREE_DECKS)."""
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "berserk-test.toml").write_text(TEST_DECK, encoding="utf-8")
    monkeypatch.setenv("REFEREE_DECKS", str(folder))
    return folder


def new_player(db, character: str) -> dict:
    return player_service.create(db, None, {"character": character, "hp_max": 3,
                                            "chance_max": 1, "cartridges": 1, "suit": "H"})


def save_squad(db, player, codes, seat="first", name="", settings=berserk.PUBLISHED):
    picks = tuple(squads.Pick(*c) if isinstance(c, tuple) else squads.Pick(c) for c in codes)
    return squads.save(db, 1, None, player_id=player["id"], name=name, deck="berserk-test",
                       seat=seat, chosen=picks, settings=settings)


def start_battle(db, anna, boris):
    """a1 Champion 2-3-4, a2 Forest Lord, a3 Wanderer against b1 Defender 1-2-3 (8 lives),
    b2 Mountain Guard, b3 Banner (an artifact)."""
    a = save_squad(db, anna, ["S234", "F7", "N3"], name="Greens")
    b = save_squad(db, boris, ["S123", "M5", "ART"], seat="second", name="Hills")
    return battles.create(db, 1, a["id"], b["id"], berserk.PUBLISHED)


@pytest.fixture
def deck_dir(tmp_path, monkeypatch):
    return install_test_deck(tmp_path, monkeypatch)


@pytest.fixture
def anna(db):
    return new_player(db, 'Anna <b>"Bold"</b>')


@pytest.fixture
def boris(db):
    return new_player(db, "Boris")


@pytest.fixture
def battle(db, deck_dir, anna, boris):
    return start_battle(db, anna, boris)


def hx(client, url, data, target):
    """An htmx POST aimed at one element (htmx sends its id as HX-Target)."""
    return client.post(url, data={**data, "csrf_token": csrf_of(client)},
                       headers={"HX-Request": "true", "HX-Target": target})


def text(html: str) -> str:
    """What a person reads: tags dropped, spaces folded."""
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def counts(html: str) -> dict:
    """The builder's live counts, from its data attributes."""
    found = re.search(r'data-cards="(-?\d+)" data-gold-left="(-?\d+)" '
                      r'data-silver-left="(-?\d+)"', html)
    return {"cards": int(found[1]), "gold_left": int(found[2]), "silver_left": int(found[3])}


def build(client, cards=(), add=None, remove=None, htmx=True, **fields):
    form = {"deck": "berserk-test", "deck_was": "berserk-test", "seat": "first",
            "card": list(cards), **fields}
    if add:
        form["plus"] = add
    if remove:
        form["minus"] = remove
    return post(client, "/berserk/squads/build", form, htmx=htmx)


def picked(html: str) -> list[str]:
    return re.findall(r'<input type="hidden" name="card" value="([^"]+)">', html)


# The squad builder ----------------------------------------------------------------------


def test_B12_B13_example_4_live_crystals_and_the_element_penalty(referee, deck_dir):
    html = build(referee, add="F7").get_data(as_text=True)
    assert counts(html) == {"cards": 1, "gold_left": 17, "silver_left": 22}
    html = build(referee, ["F7"], add="M5").get_data(as_text=True)
    # B13: the second element costs one gold; the ordinary card is paid with silver.
    assert counts(html) == {"cards": 2, "gold_left": 16, "silver_left": 17}
    assert "Elements (B13): 2, penalty 1 gold" in text(html)
    html = build(referee, ["F7", "M5"], add="N3").get_data(as_text=True)
    assert counts(html) == {"cards": 3, "gold_left": 16, "silver_left": 14}
    assert "penalty 1 gold" in text(html)  # a Neutral card adds no penalty
    assert picked(html) == ["F7", "M5", "N3"]


def test_B12_second_player_has_one_more_crystal_of_each(referee, deck_dir):
    html = build(referee, ["F7"], seat="second").get_data(as_text=True)
    assert counts(html) == {"cards": 1, "gold_left": 18, "silver_left": 23}


def test_B14_example_5_a_flyer_over_the_limit_is_refused_with_the_reason(referee, deck_dir):
    response = build(referee, ["FL10"], add="FL6")
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert ("B14: Flying creatures in the squad cost 16 crystals, more than 15; drop a "
            "flyer.") in text(html)
    assert picked(html) == ["FL10"]
    # The card that would break the limit is marked before it is tapped.
    row = html.split('data-code="FL6"')[1].split("</li>")[0]
    assert "flyer limit" in row


def test_B12_an_elite_card_cannot_be_paid_with_silver(referee, deck_dir):
    response = build(referee, ["F7"], add="E20")
    assert response.status_code == 422
    assert ("B12: Elite cards cost 27 and are paid with gold only, but there are 24 gold "
            "crystals; drop an elite card.") in text(response.get_data(as_text=True))
    assert picked(response.get_data(as_text=True)) == ["F7"]


def test_B14_too_many_copies_and_a_second_unique_card_are_refused(referee, deck_dir):
    response = build(referee, ["N3"] * 3, add="N3")
    assert response.status_code == 422
    assert "B14: N3 appears 4 times; keep at most 3 copies of a card." in text(
        response.get_data(as_text=True))
    response = build(referee, ["U1"], add="U1")
    assert response.status_code == 422
    assert "B14: U1 is unique and appears 2 times; keep at most 1." in text(
        response.get_data(as_text=True))


def test_remove_takes_away_the_last_copy(referee, deck_dir):
    html = build(referee, ["N3", "M5", "N3"], remove="N3").get_data(as_text=True)
    assert picked(html) == ["N3", "M5"]
    assert counts(html)["silver_left"] == 22 - 8


def test_B2_cost_x_is_fixed_while_building(referee, deck_dir):
    html = build(referee, ["F7"], add="XC", x_XC="4").get_data(as_text=True)
    assert picked(html) == ["F7", "XC:4"]
    assert counts(html) == {"cards": 2, "gold_left": 16, "silver_left": 18}
    assert "Swarm (X=4)" in text(html)
    refused = build(referee, ["F7"], add="XC", x_XC="999")
    assert refused.status_code == 422
    assert "B2: X of XC must be a whole number from 0 to 99" in text(refused.get_data(as_text=True))


def test_B14_the_event_may_raise_the_flyer_limit(referee, deck_dir):
    response = build(referee, ["FL10"], add="FL6", s_flyer_cost_limit="20")
    assert response.status_code == 200
    assert picked(response.get_data(as_text=True)) == ["FL10", "FL6"]
    bad = build(referee, ["FL10"], s_flyer_cost_limit="abc")
    assert bad.status_code == 422
    assert ("B14: Flying creatures may cost at most must be a whole number from 0 to 99, not "
            "abc.") in text(bad.get_data(as_text=True))


def test_saving_a_squad_stores_it_for_the_player_with_who_and_when(referee, db, deck_dir,
                                                                     anna):
    response = build(referee, ["F7", "M5", ("XC:2")], htmx=False)
    assert response.status_code == 200
    response = post(referee, "/berserk/squads", {
        "player": anna["id"], "name": "Greens", "deck": "berserk-test", "seat": "first",
        "card": ["F7", "M5", "XC:2"], "s_flyer_cost_limit": "12"})
    assert response.status_code == 303
    squad_id = int(response.headers["Location"].rsplit("/", 1)[1])
    row = db["berserk_squads"].get(squad_id)
    assert (row["player_id"], row["name"], row["seat"], row["version"]) == (
        anna["id"], "Greens", "first", 1)
    assert json.loads(row["cards"]) == [{"code": "F7"}, {"code": "M5"}, {"code": "XC", "x": 2}]
    assert json.loads(row["settings"])["flyer_cost_limit"] == 12
    edit = next(db["berserk_squad_edits"].rows_where("squad_id = ?", [squad_id]))
    assert edit["referee_id"] == db["referees"].get(1)["id"] and edit["at"]
    page = referee.get(f"/berserk/squads/{squad_id}").get_data(as_text=True)
    assert "v1 ·" in text(page) and "ref" in text(page)
    assert counts(page) == {"cards": 3, "gold_left": 15, "silver_left": 15}  # 3 elements: 2 gold


def test_saving_a_squad_says_so_once(referee, db, deck_dir, anna):
    response = post(referee, "/berserk/squads", {
        "player": anna["id"], "name": "Greens", "deck": "berserk-test", "card": ["F7"]})
    page = referee.get(response.headers["Location"]).get_data(as_text=True)
    assert '<p class="notice" role="status">The squad is saved.</p>' in page
    # A reload, or coming back later, does not say it again.
    assert "The squad is saved." not in referee.get(
        response.headers["Location"]).get_data(as_text=True)


def test_a_squad_breaking_the_rules_is_not_saved(referee, db, deck_dir, anna):
    response = post(referee, "/berserk/squads", {
        "player": anna["id"], "deck": "berserk-test", "seat": "first",
        "card": ["FL10", "FL6"]})
    assert response.status_code == 422
    assert "B14: Flying creatures in the squad cost 16 crystals" in text(
        response.get_data(as_text=True))
    assert db["berserk_squads"].count == 0 and db["berserk_squad_edits"].count == 0
    empty = post(referee, "/berserk/squads", {"player": anna["id"], "deck": "berserk-test"})
    assert empty.status_code == 422 and db["berserk_squads"].count == 0


def test_editing_a_squad_appends_a_save_and_a_stale_form_is_refused(referee, db, deck_dir,
                                                                   anna):
    squad = save_squad(db, anna, ["F7"], name="One")
    form = {"squad_id": squad["id"], "version": "1", "player": anna["id"], "name": "Two",
            "deck": "berserk-test", "seat": "first", "card": ["F7", "N3"]}
    assert post(referee, f"/berserk/squads/{squad['id']}", form).status_code == 303
    row = squads.get(db, squad["id"])
    assert (row["version"], row["name"], len(row["cards"])) == (2, "Two", 2)
    stale = post(referee, f"/berserk/squads/{squad['id']}", {**form, "name": "Three"})
    assert stale.status_code == 409
    assert "Someone else saved this squad first" in text(stale.get_data(as_text=True))
    assert squads.get(db, squad["id"])["name"] == "Two"
    assert [e["seq"] for e in squads.edits(db, squad["id"])] == [2, 1]


def test_builder_escapes_names(referee, db, deck_dir, anna):
    squad = save_squad(db, anna, ["F7"], name='<i>x</i>"')
    html = referee.get(f"/berserk/squads/{squad['id']}").get_data(as_text=True)
    assert '<b>"Bold"</b>' not in html and "&lt;b&gt;&#34;Bold&#34;&lt;/b&gt;" in html
    assert "<i>x</i>" not in html and "&lt;i&gt;x&lt;/i&gt;" in html


def test_pages_need_a_signed_in_referee(client, deck_dir):
    assert client.get("/berserk/squads/new").status_code == 302
    assert client.get("/berserk").status_code == 302


# Starting a battle ------------------------------------------------------------------------


def test_a_battle_starts_from_two_saved_squads(referee, db, deck_dir, anna, boris):
    a = save_squad(db, anna, ["S234", "F7"], name="Greens")
    b = save_squad(db, boris, ["S123"], seat="second", name="Hills")
    page = referee.get(f"/berserk/new?a={a['id']}&b={b['id']}").get_data(as_text=True)
    assert "Start the battle" in page and 'name="s_first_gold" value="24"' in page
    response = post(referee, "/berserk", {"a": a["id"], "b": b["id"], "s_first_gold": "24"})
    assert response.status_code == 303
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    row = db["games"].get(game_id)
    setup = json.loads(row["setup"])
    assert row["kind"] == "berserk" and row["status"] == "in_progress"
    assert [c["code"] for c in setup["a"]["cards"]] == ["S234", "F7"]
    assert setup["b"]["squad"] == b["id"]
    seats = db.execute("SELECT player_id FROM game_players WHERE game_id = ? ORDER BY seat",
                       [game_id]).fetchall()
    assert [s[0] for s in seats] == [anna["id"], boris["id"]]
    html = text(referee.get(f"/berserk/{game_id}").get_data(as_text=True))
    assert "a1 Champion" in html and "b1 Defender" in html


def test_B12_a_battle_is_refused_when_a_squad_breaks_the_event_numbers(referee, db, deck_dir,
                                                                      anna, boris):
    a = save_squad(db, anna, ["F7", "M5"])
    b = save_squad(db, boris, ["S123"], seat="second")
    response = post(referee, "/berserk", {"a": a["id"], "b": b["id"], "s_first_gold": "6"})
    assert response.status_code == 422
    assert "B12: Elite cards cost 7 and are paid with gold only, but there are 6" in text(
        response.get_data(as_text=True))
    same = post(referee, "/berserk", {"a": a["id"], "b": a["id"]})
    assert same.status_code == 422
    assert db["games"].count == 0


# The battle screen --------------------------------------------------------------------


def strike_form(version, attacker="a1", target="b1", a_die="5", d_die="1", **extra):
    return {"version": str(version), "attacker_id": attacker, "target_id": target, "a_die": a_die,
            "d_die": d_die, **extra}


def test_B11_example_1_both_outcomes_are_shown_before_confirming(referee, db, battle):
    response = hx(referee, f"/berserk/{battle.id}/strike/preview", strike_form(0),
                  f"strike-{battle.id}")
    html = text(response.get_data(as_text=True))
    assert response.status_code == 200
    # The panel names both just above; the outcomes give their numbers only.
    assert "As rolled: A 5 · D 1 · Δ +4 a1 → b1 : strong strike, 4 wounds; answer weak, 1 wound" \
        in html
    assert "Lowered: A 5 · D 1 · Δ +4 a1 → b1 : medium strike, 3 wounds; no answer" in html
    assert "a1, the stronger side, may lower both strikes" in html
    assert db["game_actions"].count == 0  # a preview stores nothing


@pytest.mark.parametrize(("a_die", "d_die", "expected"), [
    ("3", "3", "weak strike, 2 wounds; no answer"),
    ("6", "6", "no strike; answer weak, 1 wound"),
    ("2", "4", "no strike; no answer"),
    ("1", "6", "no strike; answer medium, 2 wounds"),
])
def test_B11_example_1_other_rolls(referee, battle, a_die, d_die, expected):
    html = text(post(referee, f"/berserk/{battle.id}/strike/preview",
                     strike_form(0, a_die=a_die, d_die=d_die), htmx=True).get_data(as_text=True))
    assert expected in html
    assert "Confirm lowered" not in html  # no exchange: nothing to lower


def test_B11_confirming_the_lowered_exchange_stores_it_and_wounds_at_once(referee, db, battle):
    response = post(referee, f"/berserk/{battle.id}/strike", strike_form(0, lower="1"),
                    htmx=True)
    assert response.status_code == 200
    stored = json.loads(db.execute("SELECT action FROM game_actions").fetchone()[0])
    assert stored["type"] == "strike" and stored["lower"] is True
    state = battles.load(db, battle.id).state
    assert (berserk.creature(state, "b1").wounds, berserk.creature(state, "a1").wounds) == (3, 0)
    assert berserk.creature(state, "a1").tapped  # B11 reading: the attacker taps
    html = text(response.get_data(as_text=True))
    assert "Last strike: a1 → b1 : medium strike, 3 wounds; no answer" in html


def test_B11_example_2_a_tapped_target_rolls_no_die(referee, db, battle):
    games.act(db, 1, "berserk", battle.id, {"type": "tap", "creature": "b1"})
    html = post(referee, f"/berserk/{battle.id}/strike/preview",
                strike_form(1, a_die="4", d_die=""), htmx=True).get_data(as_text=True)
    assert 'name="d_die"' not in html
    assert "The target is tapped: it does not roll" in text(html)
    assert "medium strike, 3 wounds; no answer" in text(html)
    post(referee, f"/berserk/{battle.id}/strike", strike_form(1, a_die="4", d_die="3"),
         htmx=True)  # a die sent by mistake for a tapped target is ignored
    assert berserk.creature(battles.load(db, battle.id).state, "b1").wounds == 3


def test_B11_an_open_target_awaits_its_die_and_an_artifact_never_rolls(referee, battle):
    html = text(post(referee, f"/berserk/{battle.id}/strike/preview",
                     strike_form(0, d_die=""), htmx=True).get_data(as_text=True))
    assert "Enter the target's die." in html
    html = text(post(referee, f"/berserk/{battle.id}/strike/preview",
                     strike_form(0, target="b3", d_die=""), htmx=True).get_data(as_text=True))
    assert "The target is an artifact: it does not roll" in html
    assert "medium strike, 3 wounds; no answer" in html  # A5 on a target that does not roll
    html = text(post(referee, f"/berserk/{battle.id}/strike/preview",
                     strike_form(0, d_die="none"), htmx=True).get_data(as_text=True))
    assert "no roll" in html and "medium strike, 3 wounds; no answer" in html


def test_B11_a_refused_strike_is_422_with_the_rule_and_nothing_is_stored(referee, db, battle):
    games.act(db, 1, "berserk", battle.id, {"type": "tap", "creature": "a1"})
    response = post(referee, f"/berserk/{battle.id}/strike", strike_form(1), htmx=True)
    assert response.status_code == 422
    assert "B11: a1 is tapped and cannot strike" in text(response.get_data(as_text=True))
    assert db["game_actions"].count == 1


def test_B11_the_panel_opens_with_the_next_attacker_chosen(referee, db, battle):
    html = referee.get(f"/berserk/{battle.id}").get_data(as_text=True)
    assert 'name="attacker_id" value="a1" checked' in html  # B12: the first player first
    assert "Choose the target." in text(html)
    post(referee, f"/berserk/{battle.id}/strike", strike_form(0), htmx=True)  # a1 taps
    html = referee.get(f"/berserk/{battle.id}").get_data(as_text=True)
    assert 'name="attacker_id" value="a2" checked' in html
    assert 'name="attacker_id" value="a1"' not in html  # B11: tapped, it cannot strike
    # The other side is one tap away: a chosen b2 makes side b the striking one.
    html = post(referee, f"/berserk/{battle.id}/strike/preview",
                {"version": "1", "attacker_id": "b2"}, htmx=True).get_data(as_text=True)
    assert 'name="attacker_id" value="b2" checked' in html
    assert 'data-target="a1"' in html and 'data-target="b1"' not in html


def test_B11_an_only_target_is_chosen_too(referee, db, battle):
    for cid in ("b2", "b3"):
        games.act(db, 1, "berserk", battle.id, {"type": "wound", "creature": cid, "amount": 9})
    html = referee.get(f"/berserk/{battle.id}").get_data(as_text=True)
    assert 'name="target_id" value="b1" checked' in html
    assert "Enter the attacker's die." in text(html)


def test_the_result_and_its_undo_come_first_then_the_next_strike(referee, db, battle):
    html = post(referee, f"/berserk/{battle.id}/strike", strike_form(0),
                htmx=True).get_data(as_text=True)
    assert html.index('class="b-result notice"') < html.index(f'id="strike-{battle.id}"')
    result = text(html.split('class="b-result')[1].split("</form>")[0])
    assert "Last strike: a1 → b1 : strong strike, 4 wounds; answer weak, 1 wound" in result
    assert "A5 · D1 · ref" in result and "↶ Undo" in result
    assert 'hx-swap="outerHTML show:window:top"' in html
    html = post(referee, f"/berserk/{battle.id}/undo", {"version": "1"},
                htmx=True).get_data(as_text=True)
    result = text(html.split('class="b-result')[1].split(f'id="strike-{battle.id}"')[0])
    assert "Undone: A5 · D1 a1 → b1 : strong strike" in result
    assert "↶" not in result  # nothing is left to undo
    assert 'name="attacker_id" value="a1" checked' in html  # a1 is open again


def test_a_refusal_floats_and_leaves_the_page_where_it_was(referee, db, battle):
    response = post(referee, f"/berserk/{battle.id}/creatures/b1/modify",
                    {"version": "0", "op": "lives", "value": "many"}, htmx=True)
    assert response.status_code == 422 and response.headers["HX-Reswap"] == "outerHTML"
    assert '<p class="alert refusal" role="alert">B6: Enter a whole number' in \
        response.get_data(as_text=True)
    done = post(referee, f"/berserk/{battle.id}/creatures/b1/modify",
                {"version": "0", "op": "lives", "value": "2"}, htmx=True)
    assert done.status_code == 200 and "HX-Reswap" not in done.headers
    # Without JavaScript the step lands on the top of the page, where its result is.
    plain = post(referee, f"/berserk/{battle.id}/creatures/b1/act", {"version": "1", "do": "tap"})
    assert plain.status_code == 303 and "#" not in plain.headers["Location"]
    page = text(referee.get(plain.headers["Location"]).get_data(as_text=True))
    assert "Last step: b1 Defender : tapped" in page


def test_B3_each_creature_and_artifact_shows_its_starting_lives(referee, db, battle):
    html = referee.get(f"/berserk/{battle.id}").get_data(as_text=True)
    for cid, lives in (("a1", 8), ("a2", 5), ("b1", 8), ("b2", 4), ("b3", 4)):
        tile = html.split(f'id="cr-{cid}"')[1].split("</summary>")[0]
        assert f"Lives ♥{lives}" in text(tile) and "wounds 0" in text(tile), cid
    post(referee, f"/berserk/{battle.id}/creatures/b3/act",
         {"version": "0", "do": "wound", "amount": "4"}, htmx=True)
    banner = berserk.creature(battles.load(db, battle.id).state, "b3")
    assert (banner.props.lives, banner.wounds, banner.dead) == (4, 4, True)  # B10


def test_B10_example_3_lowering_lives_kills_at_once(referee, db, battle):
    games.act(db, 1, "berserk", battle.id, {"type": "wound", "creature": "b1", "amount": 5})
    response = post(referee, f"/berserk/{battle.id}/creatures/b1/modify",
                    {"version": "1", "op": "lives", "value": "-3"}, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'<details class="cr side-b dead" id="cr-b1"', html)
    assert "b1 dies" in text(html)
    state = battles.load(db, battle.id).state
    assert berserk.creature(state, "b1").dead and berserk.creature(state, "b1").props.lives == 5


@pytest.mark.parametrize(("form", "prop", "steps"), [
    ({"op": "lives", "value": "+3"}, "lives", "8 printed → 11 +3 lives"),
    ({"op": "set_strike", "value": "1-1-1"}, "strike",
     "1-2-3 printed → 1-1-1 strike becomes 1-1-1"),
    ({"op": "set_cost", "value": "1"}, "cost", "4 printed → 1 cost becomes 1"),
    ({"op": "halve", "halve": ["lives", "strike"], "round": "up"}, "lives",
     "8 printed → 4 halved, rounding up: Lives, Simple strike"),
])
def test_B6_a_modification_from_the_short_list_shows_in_the_history(referee, db, battle, form,
                                                                   prop, steps):
    response = post(referee, f"/berserk/{battle.id}/creatures/b1/modify",
                    {"version": "0", "source": "a2", **form}, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="cr-b1" data-creature="b1" open' in html  # the creature stays open
    row = html.split('id="cr-b1"')[1].split(f'data-prop="{prop}"')[1].split("</div>")[0]
    assert steps in text(row) and "(source a2)" in text(row)
    stored = json.loads(db.execute("SELECT action FROM game_actions").fetchone()[0])
    assert stored["type"] == "modify" and stored["modification"]["source"] == "a2"


def test_B6_seed_glasion_one_overwrite_of_three_then_halving_in_two_taps(referee, db, battle):
    url = f"/berserk/{battle.id}/creatures/b1/modify"
    html = post(referee, url, {"version": "0", "op": "set_base", "value": "13, 1, 3-3-4",
                               "source": "glasion"}, htmx=True).get_data(as_text=True)
    assert ("b1 Defender : lives become 13, movement becomes 1, strike becomes 3-3-4 "
            "(source glasion)") in text(html)
    post(referee, url, {"version": "1", "op": "halve", "halve": ["lives", "strike"],
                        "round": "up", "source": "glasion"}, htmx=True)
    props = berserk.creature(battles.load(db, battle.id).state, "b1").props
    assert (props.lives, props.movement, str(props.strike)) == (7, 1, "2-2-2")
    stored = [json.loads(r[0]) for r in db.execute("SELECT action FROM game_actions ORDER BY id")]
    assert stored[0]["modification"] == {"op": "overwrite", "lives": 13, "movement": 1,
                                         "strike": [3, 3, 4], "source": "glasion"}
    assert len(stored) == 2  # one effect, one step: one undo takes it back


@pytest.mark.parametrize(("value", "expected"), [
    ("1, 1, 1-1-1", (1, 1, "1-1-1")),
    ("1 1 1 1 1", (1, 1, "1-1-1")),
    ("2/3/1-2-2", (2, 3, "1-2-2")),
    ("13, 3-3-4", (13, 1, "3-3-4")),  # four numbers: lives and strike (for a flyer)
])
def test_B6_seed_one_life_movement_one_strike_111_in_one_step(referee, db, battle, value,
                                                                expected):
    response = post(referee, f"/berserk/{battle.id}/creatures/b1/modify",
                    {"version": "0", "op": "set_base", "value": value}, htmx=True)
    assert response.status_code == 200
    props = berserk.creature(battles.load(db, battle.id).state, "b1").props
    assert (props.lives, props.movement, str(props.strike)) == expected
    assert props.cost == 4  # the cost is not one of the three


@pytest.mark.parametrize(("op", "element", "expected"), [
    ("gain", "fire", ["forest", "fire"]),
    ("become", "fire", ["fire"]),
    ("lose", "forest", []),
])
def test_B9_element_changes(referee, db, battle, op, element, expected):
    response = post(referee, f"/berserk/{battle.id}/creatures/b1/modify",
                    {"version": "0", "op": op, "element": element}, htmx=True)
    assert response.status_code == 200
    props = berserk.creature(battles.load(db, battle.id).state, "b1").props
    assert sorted(map(str, props.elements)) == sorted(expected)
    tile = response.get_data(as_text=True).split('id="cr-b1"')[1].split("</summary>")[0]
    for e in expected or ["neutral"]:
        assert f'class="el el-{e}"' in tile


@pytest.mark.parametrize(("form", "message"), [
    ({"op": "lives", "value": "many"}, "B6: Enter a whole number for this change"),
    ({"op": "set_strike", "value": "1-1"}, "B5: Enter the new strike as three numbers X-Y-Z"),
    ({"op": "set_base", "value": "1, 1-1"}, "B6: Enter lives, movement and strike, such as 1"),
    ({"op": "gain"}, "B9: Choose the element first."),
    ({"op": "halve"}, "B6: Tick what is halved"),
    ({"op": "lives", "value": "0"}, ("B6: Lives change by a whole number from -99 to 99 "
                                     "other than 0, not 0.")),
])
def test_a_wrong_modification_is_refused_and_nothing_is_stored(referee, db, battle, form,
                                                              message):
    response = post(referee, f"/berserk/{battle.id}/creatures/b1/modify",
                    {"version": "0", **form}, htmx=True)
    assert response.status_code == 422
    assert message in text(response.get_data(as_text=True))
    assert db["game_actions"].count == 0


def test_B7_B10_B11_wounds_tap_open_and_the_end_of_a_sources_effects(referee, db, battle):
    url = f"/berserk/{battle.id}/creatures/b2/act"
    assert post(referee, url, {"version": "0", "do": "wound", "amount": "2"},
                htmx=True).status_code == 200
    assert post(referee, url, {"version": "1", "do": "tap"}, htmx=True).status_code == 200
    post(referee, f"/berserk/{battle.id}/creatures/b2/modify",
         {"version": "2", "op": "lives", "value": "3", "source": "a2"}, htmx=True)
    html = post(referee, url, {"version": "3", "do": "end_effects", "source": "a2"},
                htmx=True).get_data(as_text=True)
    c = berserk.creature(battles.load(db, battle.id).state, "b2")
    assert (c.wounds, c.tapped, c.props.lives, c.mods) == (2, True, 4, ())
    assert "effects of a2 end" in text(html)
    assert post(referee, url, {"version": "4", "do": "untap"}, htmx=True).status_code == 200
    again = post(referee, url, {"version": "5", "do": "untap"}, htmx=True)
    assert again.status_code == 422 and "B11: b2 is already open" in text(
        again.get_data(as_text=True))


def test_undo_takes_back_the_latest_step_and_the_record_keeps_it(referee, db, battle):
    post(referee, f"/berserk/{battle.id}/strike", strike_form(0), htmx=True)
    html = post(referee, f"/berserk/{battle.id}/undo", {"version": "1"},
                htmx=True).get_data(as_text=True)
    state = battles.load(db, battle.id).state
    assert berserk.creature(state, "b1").wounds == 0 and berserk.creature(state, "a1").open
    assert re.search(r'<li class="b-entry undone" data-type="strike">', html)
    assert "undone by ref" in text(html)
    rows = db.execute("SELECT undoes FROM game_actions ORDER BY seq").fetchall()
    assert rows[0][0] is None and rows[1][0] is not None
    nothing = post(referee, f"/berserk/{battle.id}/undo", {"version": "2"}, htmx=True)
    assert nothing.status_code == 422 and "Nothing to undo" in text(
        nothing.get_data(as_text=True))


def test_a_stale_step_is_409_with_the_fresh_screen(referee, db, battle):
    games.act(db, 1, "berserk", battle.id, {"type": "wound", "creature": "b2", "amount": 1})
    response = post(referee, f"/berserk/{battle.id}/strike", strike_form(0), htmx=True)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Someone else changed this battle first" in text(html)
    assert 'data-version="1"' in html
    assert db["game_actions"].count == 1
    preview = hx(referee, f"/berserk/{battle.id}/strike/preview", strike_form(0),
                 f"strike-{battle.id}")
    assert preview.status_code == 409 and preview.headers["HX-Retarget"] == f"#battle-{battle.id}"


def test_plain_forms_work_without_javascript(referee, db, battle):
    response = post(referee, f"/berserk/{battle.id}/strike", strike_form(0, lower="0"))
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/berserk/{battle.id}")
    page = referee.get(response.headers["Location"]).get_data(as_text=True)
    # The result is the first thing under the title, then the next strike (B11: a2).
    assert page.index("Last strike:") < page.index(f'id="strike-{battle.id}"')
    assert 'name="attacker_id" value="a2" checked' in page
    assert "Show the outcome" in page  # for a phone without JavaScript
    response = post(referee, f"/berserk/{battle.id}/creatures/b2/act",
                    {"version": "1", "do": "tap"})
    assert response.status_code == 303 and "c=b2" in response.headers["Location"]
    page = referee.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="cr-b2" data-creature="b2" open' in page
    preview = post(referee, f"/berserk/{battle.id}/strike/preview",
                   strike_form(2, attacker="a2", target="b1"))
    assert preview.status_code == 200 and "<html" in preview.get_data(as_text=True)


def test_the_battle_survives_a_reload_and_another_referee_continues(client, app, db, battle):
    first = app.test_client()
    first.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    sign_in(first)
    post(first, f"/berserk/{battle.id}/strike", strike_form(0), htmx=True)
    other = sign_in(client, "org", "org-password")
    html = text(other.get(f"/berserk/{battle.id}").get_data(as_text=True))
    assert "wounds 4" in html and "wounds 1" in html  # b1 took 4, a1 1 back
    assert post(other, f"/berserk/{battle.id}/undo", {"version": "1"}).status_code == 303
    assert battles.load(db, battle.id).state.creatures[3].wounds == 0


def test_the_battle_ends_when_one_side_has_no_living_creature(referee, db, battle):
    for cid in ("b1", "b2", "b3"):
        games.act(db, 1, "berserk", battle.id, {"type": "wound", "creature": cid, "amount": 9})
    html = text(referee.get(f"/berserk/{battle.id}").get_data(as_text=True))
    assert 'Anna <b>"Bold"</b> wins: the other side has no living creature.' in html
    assert db["games"].get(battle.id)["status"] == "finished"
    assert "No creature can strike now" in html and "Confirm the strike" not in html


def test_battle_screen_escapes_names_and_lists_battles(referee, db, battle, anna):
    html = referee.get(f"/berserk/{battle.id}").get_data(as_text=True)
    assert "<b>\"Bold\"</b>" not in html and "&lt;b&gt;&#34;Bold&#34;&lt;/b&gt;" in html
    listing = referee.get(f"/berserk?player={anna['id']}").get_data(as_text=True)
    assert f"/berserk/{battle.id}" in listing and "&lt;b&gt;" in listing
    hub = referee.get("/games").get_data(as_text=True)
    assert "/berserk" in hub and f"/berserk/{battle.id}" in hub


def test_screens_in_russian(referee, battle):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    html = text(referee.get(f"/berserk/{battle.id}").get_data(as_text=True))
    assert "Бой №" in html and "Чемпион" in html and "Удар" in html
    assert "Champion" not in html


def test_a_long_battle_renders_quickly(referee, db, battle):
    # 120 actions written straight to the store (each games.act would replay them all).
    from referee.store import games as game_rows
    from referee.store import write

    state = battles.load(db, battle.id).state
    with write(db):
        for i in range(120):
            cid = ("a2", "a3", "b2", "b1")[i % 4]
            c = berserk.creature(state, cid)
            if i % 6 == 5:
                action = {"type": "modify", "creature": cid,
                          "modification": {"op": "lives", "amount": 1}}
            else:
                action = {"type": "untap" if c.tapped else "tap", "creature": cid}
            state = berserk.apply(state, battles.read_action(action))
            game_rows.append(db, battle.id, action=action, referee_id=1)
        game_rows.touch(db, battle.id, version=120, status="in_progress")
    referee.get(f"/berserk/{battle.id}")  # templates compiled once
    start = time.perf_counter()
    response = referee.get(f"/berserk/{battle.id}")
    elapsed = time.perf_counter() - start
    assert response.status_code == 200 and 'data-version="120"' in response.get_data(as_text=True)
    assert elapsed < 1.0, elapsed  # ~0.05 s on the dev machine; generous for a slow CI


def test_B8_element_badges_use_the_printed_colours():
    css = (Path(__file__).resolve().parents[3] / "static" / "app.css").read_text()
    section = css.split("/* ---- berserk ---- */")[1]
    for element, look in berserk.ELEMENT_LOOK.items():
        assert f".el-{element} {{ background: {look.hex};" in section, element


def test_the_player_sheet_lists_their_squads_and_battles(referee, db, battle, anna):
    html = text(referee.get(f"/players/{anna['id']}").get_data(as_text=True))
    assert "Squad #1 Greens" in html and f"Battle {battle.id}" in html
    assert "Build a squad" in html


@pytest.mark.parametrize(("url", "form"), [
    ("/berserk/{id}/strike", {"attacker_id": "a1", "target_id": "b1", "a_die": "x"}),
    ("/berserk/{id}/strike", {"attacker_id": "zz", "target_id": "a2", "a_die": "7",
                              "d_die": "0"}),
    ("/berserk/{id}/strike", {"attacker_id": "a1", "target_id": "b1", "a_die": "5",
                              "d_die": "1", "a_mod": "999"}),
    ("/berserk/{id}/strike/preview", {"attacker_id": "a1", "target_id": "b1", "a_die": "-",
                                      "s_mod": "1.5"}),
    ("/berserk/{id}/creatures/zz/modify", {"op": "lives", "value": "2"}),
    ("/berserk/{id}/creatures/b3/modify", {"op": "set_strike", "value": "1-1-1"}),
    ("/berserk/{id}/creatures/b1/modify", {"op": "set_movement", "value": "1e9"}),
    ("/berserk/{id}/creatures/b1/modify", {"op": "nonsense", "value": "1"}),
    ("/berserk/{id}/creatures/b1/act", {"do": "wound", "amount": "1000"}),
    ("/berserk/{id}/creatures/b1/act", {"do": "end_effects", "source": "x" * 500}),
    ("/berserk/{id}/creatures/b1/act", {"do": "explode"}),
    ("/berserk/squads/build", {"deck": "nope", "card": ["B01:abc", "??"], "plus": "ZZ"}),
    ("/berserk/squads/build", {"deck": "berserk-test", "card": ["F7"] * 200}),
    ("/berserk/squads/build", {"deck": "berserk-test", "s_unknown": "1", "seat": "third"}),
    ("/berserk/squads", {"player": "abc", "deck": "berserk-test", "card": ["F7"]}),
    ("/berserk/squads", {"player": "1", "deck": "berserk-test", "card": ["F7"],
                         "name": "x" * 200}),
    ("/berserk", {"a": "x", "b": "", "s_first_gold": "1000"}),
])
def test_malformed_forms_are_refused_never_a_crash(referee, db, battle, url, form):
    response = post(referee, url.format(id=battle.id), {"version": "0", **form}, htmx=True)
    assert response.status_code in (200, 422), response.get_data(as_text=True)[:500]
    assert db["game_actions"].count == 0 and db["berserk_squads"].count == 2


@pytest.mark.parametrize("typed", ["0", "x"])
def test_B10_a_refused_wound_keeps_what_was_typed_and_changes_nothing(referee, db, battle,
                                                                      typed):
    url = f"/berserk/{battle.id}/creatures/b2/act"
    response = post(referee, url, {"version": "0", "do": "wound", "amount": typed}, htmx=True)
    assert response.status_code == 422 and "B10" in text(response.get_data(as_text=True))
    field = re.search(r'<details[^>]*id="cr-b2"[^>]*>.*?<input name="amount" value="([^"]*)"',
                      response.get_data(as_text=True), re.DOTALL)
    assert field and field.group(1) == typed  # the field as typed, to correct it
    other = re.search(r'<details[^>]*id="cr-b1"[^>]*>.*?<input name="amount" value="([^"]*)"',
                      response.get_data(as_text=True), re.DOTALL)
    assert other and other.group(1) == "1"  # another creature's field as always
    assert berserk.creature(battles.load(db, battle.id).state, "b2").wounds == 0
    assert db["game_actions"].count == 0
