"""The underworld game's screens through the Flask test client: what the referee sees and taps,
and what the database holds afterwards."""

from __future__ import annotations

import re
import time
from collections import Counter
from html import unescape

import pytest

from referee.games import service as games
from referee.games.underworld import service as underworld
from referee.store import players as rows
from tests.conftest import post
from tests.games.underworld.test_service import (
    FILLER,
    FILLER_B,
    act,
    level_events,
    long_game,
    pid,
    seat,
    start,
)


def counts(db) -> tuple:
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("games", "game_actions", "events"))


def tap(client, game: games.Game, htmx: bool = True, **form):
    """Submit one action form of the table screen against the version shown."""
    data = {"version": str(game.version), **form}
    return post(client, f"/underworld/{game.id}/act", data, htmx=htmx)


def text_of(response) -> str:
    """The page as a reader sees it: tags dropped, spaces squeezed."""
    html = response.get_data(as_text=True)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def fresh(db, game: games.Game) -> games.Game:
    return underworld.load(db, game.id)


@pytest.fixture
def ab(db):
    return seat(db, "Anna"), seat(db, "Boris")


# --- setup ---------------------------------------------------------------------------------

def test_U4_setup_picks_players_then_four_cards_each(referee, db, ab):
    a, b = ab
    html = referee.get(f"/underworld/new?p={a['id']}&q=bor").get_data(as_text=True)
    assert "Anna" in html and f"p={a['id']}&amp;p={b['id']}" in html  # tap Boris to seat him
    html = referee.get(f"/underworld/new?p={a['id']}&p={b['id']}").get_data(as_text=True)
    assert html.count(f'name="start_{a["id"]}"') == 4 and 'list="castle-cards"' in html
    assert "M07 · Gate Troll" in html  # the datalist: code or name
    response = post(referee, "/underworld", {
        "p": [a["id"], b["id"]], "title": "Tavern",
        f"start_{a['id']}": ["M07", "gate troll", "I01", "heavy blow"],
        f"start_{b['id']}": ["rat", "M03", "M03", "палаш"]})
    assert response.status_code == 303
    game = underworld.load(db, int(response.headers["Location"].rsplit("/", 1)[1]))
    assert game.row["title"] == "Tavern" and game.row["player_ids"] == [a["id"], b["id"]]
    assert [p.inventory for p in game.state.state.players] == [
        ("M07", "M07", "I01", "S01"), ("M01", "M03", "M03", "I02")]
    assert [p.level for p in game.state.state.players] == [1, 1]


def test_U4_setup_refusal_keeps_what_was_typed_and_stores_nothing(referee, db, ab):
    a, b = ab
    before = counts(db)
    response = post(referee, "/underworld", {
        "p": [a["id"], b["id"]], f"start_{a['id']}": ["M07", "shield", "I01", "S01"],
        f"start_{b['id']}": ["M01", "M03", "M03", "I02"]})
    assert response.status_code == 422
    page = text_of(response)
    assert "U4: “shield” matches several cards (I10, I11); type the code instead." in page
    assert 'value="shield"' in response.get_data(as_text=True)
    assert counts(db) == before


def test_U4_setup_with_passport_levels_carries_them_in(referee, db):
    a, b = seat(db, "Anna", 4), seat(db, "Boris", 2)
    response = post(referee, "/underworld", {
        "p": [b["id"], a["id"]], "passport": "1",
        f"start_{a['id']}": FILLER, f"start_{b['id']}": FILLER_B})
    game = underworld.load(db, int(response.headers["Location"].rsplit("/", 1)[1]))
    assert [p.level for p in game.state.state.players] == [2, 4]  # Boris seated first
    assert game.row["setup"]["levels"] == {pid(a): 4, pid(b): 2}


# --- the turn on the phone -------------------------------------------------------------------

def test_U5_U6_screen_says_whose_turn_the_step_and_what_is_allowed(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Anna's turn" in page and "Step 1 of 2" in page
    assert "Step 1: draw the top castle card and show it (U5)." in page
    assert "Allowed now: draw a castle card (Anna); trade cards." in page
    assert "End the turn" not in page  # U6: at least one step


def test_U5_the_drawn_card_is_one_tap_found_by_code_or_name(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    found = referee.get(f"/underworld/{game.id}/cards?q=troll").get_data(as_text=True)
    assert re.findall(r'name="code" value="(\w+)"', found) == ["M07"]
    found = referee.get(f"/underworld/{game.id}/cards?q=m0").get_data(as_text=True)
    assert "M07" in found and "M01" in found and "I01" not in found
    found = referee.get(f"/underworld/{game.id}/cards?q=тролль").get_data(as_text=True)
    assert re.findall(r'name="code" value="(\w+)"', found) == ["M07"]
    response = tap(referee, game, kind="draw", code="M07")
    assert response.status_code == 200
    page = text_of(response)
    assert "Anna meets Gate Troll (M07)" in page and "Confirm the fight" in page


def test_U7_the_fight_shows_its_breakdown_before_it_is_confirmed(referee, db):
    a, b = seat(db, "Anna", 3), seat(db, "Boris")
    game = start(db, [a, b], [["I02", "I06", "M01", "M01"], FILLER_B], passport=True)
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I02"},
               {"kind": "play", "player": pid(a), "code": "I06"}, {"kind": "draw", "code": "M07"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    lines = re.findall(r'data-source="(\w+)"><span class="grow">([^<]+)</span><b>([^<]+)</b>',
                       html)
    assert lines == [("level", "Level", "3"), ("card", "Broadsword", "+2"),
                     ("card", "Leather Jerkin", "+1"), ("strength", "Strength", "5")]
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Anna wins, 6 to 5." in page and "Anna: level 3 → 4" in page
    response = tap(referee, game, kind="fight")
    page = text_of(response)
    assert "Fight: Anna 6 against Gate Troll (M07) 5: won (U7)." in page
    assert rows.get(db, a["id"])["level"] == 4 and level_events(db, a) == [("underworld", 4)]
    assert "Step 1 is over: Anna may step into the castle again or end the turn (U6)." in page


def test_U10_a_refused_card_shows_the_reason_and_a_forced_post_is_422(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [["I01", "I02", "S09", "M01"], FILLER_B])
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I01"},
               {"kind": "draw", "code": "M02"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    entry = html.split('data-code="I02"', 1)[1].split("</li>", 1)[0]
    assert "Play, replacing Rusty Sword (I01)" in entry  # the allowed way
    magic = html.split('class="uw-entry" data-code="S09"', 1)[1].split("</li>", 1)[0]
    assert "U10: S09 is a magic card" in magic and "<button" not in magic
    before = counts(db)
    response = tap(referee, game, kind="play", player=pid(a), code="I02")
    assert response.status_code == 422
    assert "U10: A second weapon only for a class that may wield two weapons" in \
        text_of(response)
    assert counts(db) == before
    response = tap(referee, game, kind="play", player=pid(a), code="I02", replaces="I01")
    assert response.status_code == 200
    assert fresh(db, game).state.state.players[0].play_area == ("I02",)


def test_U11_a_help_offer_is_accepted_and_the_reward_handed_over_on_a_win(referee, db):
    a, b = seat(db, "Anna", 2), seat(db, "Boris", 3)
    game = start(db, [a, b], [["I06", "S01", "M01", "M01"], ["I02", "M01", "M03", "M03"]],
                 passport=True)
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I06"},
               {"kind": "draw", "code": "M11"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert f'<option value="{pid(a)}|S01">Heavy Blow (S01)</option>' in html
    response = tap(referee, game, kind="offer_help", helper=pid(b), target=f"{pid(a)}|S01")
    game = fresh(db, game)
    assert "Boris offers to help Anna for Heavy Blow (S01) and would add 3." in \
        text_of(response)
    game = act(db, game, {"kind": "play", "player": pid(b), "code": "I02"})
    page = text_of(tap(referee, game, kind="answer_help", helper=pid(b), accept="1"))
    assert "Helper Boris" in page and "Anna wins, 8 to 7." in page
    assert "Heavy Blow (S01) goes to Boris as the reward." in page
    game = fresh(db, game)
    tap(referee, game, kind="fight")
    anna, boris = fresh(db, game).state.state.players
    assert (anna.level, boris.level) == (3, 3) and "S01" in boris.inventory
    assert rows.get(db, b["id"])["level"] == 3 and level_events(db, b) == []


def test_U11_a_refused_offer_adds_nothing(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "M07"},
               {"kind": "offer_help", "helper": pid(b), "fighter": pid(a), "reward": "M01"})
    response = tap(referee, game, kind="answer_help", helper=pid(b), accept="0")
    assert "Anna refuses the help of Boris." in text_of(response)
    assert 'class="uw-helper"' not in response.get_data(as_text=True)
    assert underworld.rules.fight_breakdown(fresh(db, game).state.state).fighter.total == 1


def test_U12_summoning_the_monster_met_and_from_the_inventory(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [["S03", "M01", "M01", "M03"], FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "M07"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "Summon the monster met with Summoning (S03): no fight, no level change (U12)" in html
    assert "Summon into this fight with Summoning (S03) (U12)" in html  # M01/M03 held
    page = text_of(tap(referee, game, kind="summon", player=pid(a), skill="S03"))
    assert "Anna hypnotises Gate Troll (M07) with Summoning (S03)" in page
    state = fresh(db, game).state.state
    assert state.players[0].allies == ("M07",) and state.phase == "step_over"
    assert state.players[0].level == 1


def test_U12_a_monster_from_the_inventory_joins_the_fight(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [["S03", "M04", "M01", "M01"], FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "M07"})
    page = text_of(tap(referee, game, kind="summon", player=pid(a), skill="S03",
                       monster="M04"))
    assert "Rattling Skeleton, summoned ally +3" in page and "Gate Troll wins, 5 to 4." in page
    bd = underworld.rules.fight_breakdown(fresh(db, game).state.state)
    assert bd.fighter.total == 4 and bd.opponent.total == 5


def test_U9_U14_class_change_prompt_then_the_ability_powers_up(referee, db):
    a, b = seat(db, "Anna", 5), seat(db, "Boris")
    game = start(db, [a, b], [["M01", "M01", "I01", "S01"], FILLER_B], passport=True)
    game = act(db, game, {"kind": "draw", "code": "M02"}, {"kind": "fight"},
               {"kind": "draw", "code": "M04"}, {"kind": "fight"})
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Two fights won in a row (U9): draw a class card or keep the class." in page
    assert "Which class card was drawn?" in page and "Keep the current class" in page
    page = text_of(tap(referee, game, kind="change_class", code="C04"))
    assert "Anna becomes Vampire (C04) (U9)." in page
    game = fresh(db, game)
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "Characteristic ability (U14): Vampire" in html
    response = tap(referee, game, kind="power_up", player=pid(a), discards="M01")
    assert response.status_code == 422
    assert "U14: Discard exactly 2 inventory cards to power up; 1 were named." in \
        text_of(response)
    post(referee, f"/underworld/{game.id}/act", {"version": game.version, "kind": "power_up",
                                             "player": pid(a), "discards": ["M01", "M01"]},
         htmx=True)
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "⟳ powered" in html and "Characteristic ability (U14)" not in html
    game = act(db, fresh(db, game), {"kind": "end_turn"})
    assert not game.state.state.players[0].powered  # U14: until the end of the turn


def test_U14_too_few_inventory_cards_show_the_reason(referee, db):
    a, b = seat(db, "Anna", 5), seat(db, "Boris")
    game = start(db, [a, b], [["I01", "I06", "I09", "S01"], FILLER_B], passport=True)
    game = act(db, game, *[{"kind": "play", "player": pid(a), "code": c}
                           for c in ("I01", "I06", "I09")],
               {"kind": "draw", "code": "M02"}, {"kind": "fight"},
               {"kind": "draw", "code": "M04"}, {"kind": "fight"},
               {"kind": "change_class", "code": "C05"})
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "U14: Powering up needs 2 inventory cards to discard; Anna holds only 1." in page


def test_U15_cleanup_down_to_four(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "I01"}, {"kind": "draw", "code": "I02"},
               {"kind": "end_turn"})
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "End of the turn (U15): discard 2 cards to keep 4." in page
    response = post(referee, f"/underworld/{game.id}/act", {
        "version": game.version, "kind": "discard", "codes": ["M01", "M03"]}, htmx=True)
    assert response.status_code == 200
    state = fresh(db, game).state.state
    assert state.players[0].inventory == ("M01", "M03", "I01", "I02")
    assert "Boris's turn" in text_of(response)


def test_U13_an_event_starts_a_challenge_and_the_defender_plays_first(referee, db):
    b, a = seat(db, "Boris", 4), seat(db, "Anna", 5)
    game = start(db, [b, a], [["I06", "S01", "M01", "M01"], ["I06", "M01", "M03", "M03"]],
                 passport=True)
    game = act(db, game, {"kind": "play", "player": pid(b), "code": "I06"},
               {"kind": "draw", "code": "I09"}, {"kind": "end_turn"},
               {"kind": "play", "player": pid(a), "code": "I06"}, {"kind": "draw", "code": "E02"})
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Duel at Dawn" in page and "Challenge any other player to a fight." in page
    page = text_of(tap(referee, game, kind="challenge", challenger=pid(a), defender=pid(b)))
    assert "Anna challenges Boris" in page and "Boris plays from the inventory (U10)" in page
    assert "Anna wins, 6 to 5." in page
    game = act(db, fresh(db, game), {"kind": "play", "player": pid(b), "code": "S01"})
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Boris wins, 7 to 6." in page and "Compare the scores" in page
    page = text_of(tap(referee, game, kind="fight"))
    assert "Challenge: Anna 6 against Boris 7: Boris wins (U13)." in page
    assert (rows.get(db, a["id"])["level"], rows.get(db, b["id"])["level"]) == (4, 5)


def test_U9_U13_a_monster_beaten_then_a_challenge_won_gives_the_class_card(referee, db):
    a, b = seat(db, "Anna", 5), seat(db, "Boris", 2)
    game = start(db, [a, b], [FILLER, FILLER_B], passport=True)
    game = act(db, game, {"kind": "draw", "code": "M02"}, {"kind": "fight"},
               {"kind": "draw", "code": "E02"},
               {"kind": "challenge", "challenger": pid(a), "defender": pid(b)})
    page = text_of(tap(referee, game, kind="fight"))
    assert "Challenge: Anna 6 against Boris 2: Anna wins (U13)." in page
    assert "Two fights won in a row (U9): draw a class card or keep the class." in page
    game = fresh(db, game)
    page = text_of(tap(referee, game, kind="change_class", code="C01"))
    assert "Anna becomes" in page and "(C01) (U9)." in page
    assert "Read the event aloud and follow it, then end it (U5)." in page
    state = fresh(db, game).state.state
    assert (state.phase, state.players[0].class_card) == ("event", "C01")
    assert (rows.get(db, a["id"])["level"], rows.get(db, b["id"])["level"]) == (7, 1)


def test_U5_an_event_changes_a_level_then_is_discarded(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "E05"})
    page = text_of(tap(referee, game, kind="event_level", player=pid(a), delta="1"))
    assert "Event: Anna +1 level." in page and "Anna: level 1 → 2" in page
    page = text_of(tap(referee, fresh(db, game), kind="event_done"))
    assert "The event Secret Passage (E05) is followed and discarded." in page


def stored(db, game: games.Game) -> dict:
    """The latest action row as the database holds it."""
    return fresh(db, game).actions[-1]["action"]


def test_U5_event_discards_a_card_from_play_or_an_inventory(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [["I06", "M01", "M03", "M03"], FILLER_B])
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I06"},
               {"kind": "draw", "code": "E04"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "Discard one of your items in play." in text_of(referee.get(f"/underworld/{game.id}"))
    assert f'<option value="{pid(a)}|I06|play">Leather Jerkin (I06) · in play · Anna<' in html
    assert f'<option value="{pid(b)}|M06|">Kitchen Poltergeist (M06) · Boris<' in html
    response = tap(referee, game, kind="event_discard", held=f"{pid(a)}|I06|play")
    assert response.status_code == 200
    assert "Event: Anna discards Leather Jerkin (I06) from play." in text_of(response)
    state = fresh(db, game).state.state
    assert state.players[0].play_area == () and state.discard == ("I06",)
    assert stored(db, game) == {"kind": "event_discard", "player": pid(a), "code": "I06",
                                "in_play": True}
    response = tap(referee, fresh(db, game), htmx=False, kind="event_discard",
                   held=f"{pid(b)}|M06|")  # a plain form: 303, then the page
    assert response.status_code == 303
    assert fresh(db, game).state.state.players[1].inventory == ("M06", "M08", "M08")
    assert "Event: Boris discards Kitchen Poltergeist (M06) from the inventory." in \
        text_of(referee.get(f"/underworld/{game.id}"))


def test_U5_event_gives_a_card_one_way_to_the_chosen_player(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [["I06", "M01", "M03", "M03"], FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "E10"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert f'<option value="{pid(b)}" selected>Boris</option>' in html  # the next player
    response = tap(referee, game, kind="event_give", held=f"{pid(a)}|I06|", receiver=pid(b))
    assert response.status_code == 200
    assert "Event: Anna gives Leather Jerkin (I06) to Boris." in text_of(response)
    anna, boris = fresh(db, game).state.state.players
    assert anna.inventory == ("M01", "M03", "M03")  # nothing in return (unlike a trade)
    assert boris.inventory == ("M06", "M06", "M08", "M08", "I06")
    assert stored(db, game) == {"kind": "event_give", "giver": pid(a), "receiver": pid(b),
                                "code": "I06", "in_play": False}
    response = tap(referee, fresh(db, game), kind="event_give", held=f"{pid(a)}|M01|",
                   receiver=pid(a))
    assert response.status_code == 422
    assert "U5: Anna cannot give a card to themselves" in text_of(response)


def test_U5_event_draws_one_more_card_one_tap_like_the_normal_draw(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "E03"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "The event draws one more castle card for Anna" in html
    assert 'data-kind="event_draw"' in html and 'value="M07" data-code="M07"' in html
    found = referee.get(f"/underworld/{game.id}/cards?q=troll").get_data(as_text=True)
    assert re.findall(r'name="code" value="(\w+)"', found) == ["M07"]
    page = referee.get(f"/underworld/{game.id}?q=troll").get_data(as_text=True)
    assert '<details class="more uw-event-draw" open>' in page
    response = tap(referee, game, kind="event_draw", code="M07")
    page = text_of(response)
    assert "Event: Anna draws one more card, Gate Troll (M07), into the inventory." in page
    state = fresh(db, game).state.state
    assert state.players[0].inventory == ("M01", "M01", "M03", "M03", "M07")
    assert state.phase == "event" and state.encounter is None  # no fight, no step
    assert Counter(state.castle)["M07"] == 1 and stored(db, game) == {
        "kind": "event_draw", "code": "M07"}


def test_U6_event_ends_the_steps_then_only_the_turn_can_end(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "E12"})
    assert "The event ends the steps: no second step this turn" in text_of(
        referee.get(f"/underworld/{game.id}"))
    page = text_of(tap(referee, game, kind="event_no_second_step"))
    assert "Event: Anna takes no second step this turn (U6)." in page
    assert "No second step this turn (U6)." in page
    assert "The event ends the steps: no second step this turn" not in page
    page = text_of(tap(referee, fresh(db, game), kind="event_done"))
    assert "The event ended the steps: no second step this turn (U6); end the turn." in page
    assert "Second step: which castle card was drawn?" not in page
    response = tap(referee, fresh(db, game), kind="draw", code="M07")
    assert response.status_code == 422 and "an event ended the steps" in text_of(response)
    assert fresh(db, game).state.state.may_step is False


@pytest.mark.parametrize("form", [
    {"kind": "event_discard", "held": "{a}|M01|"},
    {"kind": "event_give", "held": "{a}|M01|", "receiver": "{b}"},
    {"kind": "event_draw", "code": "M07"},
    {"kind": "event_no_second_step"},
])
def test_U5_event_effects_outside_an_event_are_refused_and_store_nothing(referee, db, ab, form):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    form = {k: v.format(a=pid(a), b=pid(b)) for k, v in form.items()}
    for step in ([], [{"kind": "draw", "code": "M07"}]):  # before a step, during a fight
        current = act(db, fresh(db, game), *step)
        before = counts(db)
        response = tap(referee, current, **form)
        assert response.status_code == 422
        assert "U5: An event" in text_of(response) and "only while it is being followed" in \
            text_of(response)
        assert counts(db) == before and fresh(db, game).version == current.version
    stale = tap(referee, game, kind="event_draw", code="M01")  # version 0, the game is at 1
    assert stale.status_code == 409 and fresh(db, game).version == 1


def test_U5_event_effects_in_russian_and_names_escaped(referee, db):
    a, b = seat(db, 'Anna <b>"Q"'), seat(db, "Boris")
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "E10"},
               {"kind": "event_give", "giver": pid(a), "receiver": pid(b), "code": "M01"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "<b>\"Q\"" not in html and "Cellar Rat (M01) · Anna &lt;b&gt;&#34;Q&#34;<" in html
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert 'Событие: Anna <b>"Q" отдаёт Подвальная крыса (M01) игроку Boris.' in page
    assert "Событие сбрасывает или отдаёт карту" in page and "Отдать" in page
    response = tap(referee, fresh(db, game), kind="event_discard", held=f"{pid(b)}|M01|play")
    assert response.status_code == 422
    assert "U5: У игрока Boris нет M01 в игровой зоне" in text_of(response)


def test_U16_level_10_banner_then_U17_play_off_turn(referee, db):
    a, b = seat(db, "Anna", 9), seat(db, "Boris", 9)
    game = start(db, [a, b], [["I03", "S07", "M01", "M01"], ["I08", "M04", "M04", "M05"]],
                 passport=True)
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "I03"},
               {"kind": "draw", "code": "M02"}, {"kind": "fight"}, {"kind": "end_turn"})
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Anna reached level 10! They win when their next turn begins unless another " \
           "player reaches level 10 before then (U16)." in page
    game = act(db, game, {"kind": "play", "player": pid(b), "code": "I08"},
               {"kind": "draw", "code": "M05"}, {"kind": "fight"}, {"kind": "end_turn"})
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Play-off (U17): Anna challenges another level-10 player instead of stepping " \
           "into the castle." in page
    assert "Which castle card was drawn?" not in page and "Anna challenges Boris" in page
    game = act(db, game, {"kind": "play", "player": pid(a), "code": "S07"})
    tap(referee, game, kind="challenge", challenger=pid(a), defender=pid(b))
    page = text_of(tap(referee, fresh(db, game), kind="fight"))
    assert "Anna wins the game!" in page and "Anna wins the game." in page
    assert fresh(db, game).row["status"] == "finished"


def test_U10_trade_is_never_a_gift(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    response = post(referee, f"/underworld/{game.id}/act", {
        "version": game.version, "kind": "trade", "player": pid(a), "partner": pid(b),
        "cards": [f"{pid(a)}:M01"]}, htmx=True)
    assert response.status_code == 422 and "never a gift" in text_of(response)
    post(referee, f"/underworld/{game.id}/act", {
        "version": game.version, "kind": "trade", "player": pid(a), "partner": pid(b),
        "cards": [f"{pid(a)}:M01", f"{pid(b)}:M06"]}, htmx=True)
    anna, boris = fresh(db, game).state.state.players
    assert "M06" in anna.inventory and anna.inventory.count("M01") == 1
    assert "M01" in boris.inventory and "M06" in boris.inventory  # B held two M06
    assert "Anna gives Cellar Rat (M01) to Boris for Kitchen Poltergeist (M06) (U10)." in \
        text_of(referee.get(f"/underworld/{game.id}"))


# --- storage, undo, versions --------------------------------------------------------------

def test_undo_has_a_confirmation_and_the_record_keeps_the_undone_step(referee, db):
    a, b = seat(db, "Anna", 3), seat(db, "Boris")
    game = start(db, [a, b], [["I03", "M01", "M01", "M01"], FILLER_B], passport=True)
    game = act(db, game, {"kind": "draw", "code": "M02"}, {"kind": "fight"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert 'hx-confirm="Undo the last step? Fight: Anna 3 against Cellar Rat' not in html
    assert "hx-confirm=\"Undo the last step? Fight: Anna 3 against Dust Bat (M02) 1: won" \
           in html
    response = post(referee, f"/underworld/{game.id}/undo", {"version": game.version}, htmx=True)
    assert response.status_code == 200 and rows.get(db, a["id"])["level"] == 3
    html = response.get_data(as_text=True)
    assert 'class="uw-rec-item undone" data-seq="2"' in html
    assert "Undo of step 2: Fight: Anna 3 against Dust Bat (M02) 1: won (U7)." in \
        text_of(response)
    assert fresh(db, game).state.state.phase == "fight"


def test_a_stale_screen_gets_409_and_the_fresh_game(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    act(db, game, {"kind": "draw", "code": "I01"})
    response = tap(referee, game, kind="draw", code="I02")  # version 0, the game is at 1
    assert response.status_code == 409
    page = text_of(response)
    assert "Someone else changed this game first" in page and 'data-version="1"' in \
        response.get_data(as_text=True)
    assert fresh(db, game).version == 1


def test_a_plain_form_post_redirects_and_the_game_survives_a_reload(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    response = tap(referee, game, htmx=False, kind="draw", code="M07")
    assert response.status_code == 303
    # the page opens at the game, whose first line says what was just done
    assert response.headers["Location"].endswith(f"/underworld/{game.id}#underworld-{game.id}")
    response = tap(referee, fresh(db, game), htmx=False, kind="end_turn")
    assert response.status_code == 422 and "<html" in response.get_data(as_text=True)
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Anna meets Gate Troll (M07)" in page


def test_names_are_escaped_everywhere(referee, db):
    a, b = seat(db, 'Anna <b>"Q"'), seat(db, "Boris")
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "M07"},
               {"kind": "offer_help", "helper": pid(b), "fighter": pid(a), "reward": "M01"})
    for url in (f"/underworld/{game.id}", "/underworld", f"/underworld/new?p={a['id']}&p={b['id']}",
                f"/underworld/quick?player={a['id']}"):
        html = referee.get(url).get_data(as_text=True)
        assert "<b>\"Q\"" not in html and "&lt;b&gt;" in html, url


def test_index_lists_games_filters_by_player_and_the_hub_links_them(referee, db, ab):
    a, b = ab
    v = seat(db, "Vera")
    first = start(db, [a, b], [FILLER, FILLER_B], title="Tavern")
    start(db, [b, v], [FILLER, FILLER_B])
    page = text_of(referee.get("/underworld"))
    assert f"Castle game {first.id} · Tavern" in page and "Anna, Boris" in page
    page = text_of(referee.get(f"/underworld?player={v['id']}"))
    assert "Castle games of Vera" in page and "Tavern" not in page
    hub = referee.get("/games").get_data(as_text=True)
    assert "/underworld" in hub and f'href="/underworld/{first.id}"' in hub
    sheet = referee.get(f"/players/{a['id']}").get_data(as_text=True)
    assert f"/underworld/{first.id}" in sheet and "Quick fight" in sheet


def test_screens_need_a_referee(client, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    for url in ("/underworld", "/underworld/new", f"/underworld/{game.id}", "/underworld/quick"):
        assert client.get(url).status_code == 302
    assert client.post(f"/underworld/{game.id}/act", data={"kind": "end_turn"}).status_code == 400
    assert client.get("/underworld/999").status_code == 302


def test_missing_game_is_404(referee):
    assert referee.get("/underworld/999").status_code == 404
    assert post(referee, "/underworld/999/act", {"kind": "fight"}).status_code == 404


def test_the_table_in_russian(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "M07"})
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = text_of(referee.get(f"/underworld/{game.id}"))
    assert "Привратный тролль" in page and "Ход: Anna" in page
    assert "Confirm the fight" not in page and "Подтвердить бой" in page
    response = tap(referee, game, kind="draw", code="M01")
    assert response.status_code == 422
    assert "U5: Карту замка тянут только в начале шага" in text_of(response)


def test_a_long_game_renders_in_time_with_its_latest_steps(referee, db):
    game_id = long_game(db)
    referee.get(f"/underworld/{game_id}")  # warm
    began = time.perf_counter()
    response = referee.get(f"/underworld/{game_id}")
    took = time.perf_counter() - began
    html = response.get_data(as_text=True)
    total = len(underworld.load(db, game_id).history)
    assert response.status_code == 200 and took < 1.5, took
    assert html.count('class="uw-rec-item') == 60
    assert f"The whole record ({total} rows)" in html
    whole = referee.get(f"/underworld/{game_id}?record=all").get_data(as_text=True)
    assert whole.count('class="uw-rec-item') == total and "The whole record" not in whole


FIELDS = ("player", "code", "replaces", "helper", "fighter", "reward", "target", "accept",
          "skill", "monster", "discards", "amount", "card", "challenger", "defender", "delta",
          "codes", "partner", "cards", "held", "giver", "receiver", "in_play")


def test_no_form_a_screen_can_send_breaks_the_table(referee, db, ab):
    """Random forms (right and wrong kinds, fields and values) are applied or refused with
    a sentence, never a crash, and a refusal stores nothing."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    a, b = ab
    game = start(db, [a, b], [["I01", "I02", "S03", "M04"], FILLER_B])
    values = st.sampled_from(["", pid(a), pid(b), "999", "M07", "M04", "I01", "I02", "S03",
                              "1", "-1", "0", "x", f"{pid(a)}|M04", f"{pid(a)}:I01",
                              f"{pid(b)}:M06", f"{pid(a)}|I01|play", f"{pid(b)}|M06|",
                              "<b>"])
    kinds = st.sampled_from([*underworld.rules.ACTIONS, "", "fly"])
    forms = st.fixed_dictionaries({"kind": kinds}, optional={
        name: st.lists(values, min_size=1, max_size=2) for name in FIELDS})

    @settings(max_examples=40, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(forms)
    def check(form):
        current = fresh(db, game)
        before = counts(db)
        response = post(referee, f"/underworld/{game.id}/act",
                        {**form, "version": current.version}, htmx=True)
        assert response.status_code in (200, 422), response.status_code
        if response.status_code == 422:
            assert counts(db) == before and 'class="alert refusal"' in \
                response.get_data(as_text=True)

    check()


def test_old_castle_links_lead_to_the_underworld_screens(referee):
    response = referee.get("/castle/new?seat=3")
    assert response.status_code == 308
    assert response.headers["Location"].endswith("/underworld/new?seat=3")
    assert referee.get("/castle").headers["Location"].endswith("/underworld")


@pytest.mark.parametrize("kind", ["draw", "event_draw"])
def test_U5_enter_in_the_search_draws_the_one_card_it_finds(referee, db, ab, kind):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    if kind == "event_draw":
        game = act(db, game, {"kind": "draw", "code": "E03"})
    before = counts(db)
    # None, several or nothing typed: refused with the reason, nothing stored; the
    # screen shows the tiles the search found, the text as typed.
    for q, reason in (("kraken", "U5: No card left in the castle matches “kraken”"),
                      ("m0", "U5: “m0” matches M01, M02, M04, M05, M07, M09: tap the card drawn"),
                      (" ", "U5: Type the drawn card's code or a part of its name")):
        response = tap(referee, game, kind=kind, q=q)
        assert response.status_code == 422 and reason in text_of(response), q
        assert response.headers["HX-Reswap"] == "outerHTML"  # the page stays still
        assert counts(db) == before
    html = tap(referee, game, kind=kind, q="m0").get_data(as_text=True)
    assert 'value="m0"' in html and 'data-code="M01"' in html and 'data-code="I01"' not in html
    # A code with its zero left out finds its card alone, even where others start so.
    response = tap(referee, game, kind=kind, q="m1")
    assert response.status_code == 200
    assert stored(db, game) == {"kind": kind, "code": "M01"}
