"""The underworld screen in the field: the latest step first, a refusal that moves
nothing, the card picker behind a forgiving search, the inventory kept open, and what a
monster card held is for (U12)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.conftest import post
from tests.games.underworld.test_service import FILLER, FILLER_B, act, pid, seat, start
from tests.games.underworld.test_web import fresh, tap, text_of

TILES = r'<button class="uw-key[^"]*" type="submit" name="code" value="(\w+)"'


@pytest.fixture
def ab(db):
    return seat(db, "Anna"), seat(db, "Boris")


def words(html: str) -> str:
    """A piece of a page as a reader sees it: tags dropped, spaces squeezed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def found(client, game, q: str) -> list[str]:
    """The card tiles the drawn-card search offers for ``q``."""
    html = client.get(f"/underworld/{game.id}/cards", query_string={"q": q})
    return re.findall(TILES, html.get_data(as_text=True))


# --- the search forgives (U4 setup, U5 draw, U7 a modifier's card) ---------------------------

@pytest.mark.parametrize(("typed", "codes"), [
    ("m7", ["M07"]),  # the zero left out
    ("M07", ["M07"]),
    ("m07", ["M07"]),
    ("М07", ["M07"]),  # a Cyrillic М, as a Russian keyboard types it
    ("м7", ["M07"]),
    ("m 7", ["M07"]),
    ("s3", ["S03"]),
    ("с3", []),  # a Cyrillic с is the class deck's C: no class card is in the castle
    ("е1", ["E01", "E10", "E11", "E12", "E13", "E14"]),  # Cyrillic е; E1… by prefix too
    ("i1", ["I01", "I10", "I11", "I12", "I13", "I14", "I15", "I16", "I17"]),
])
def test_U5_the_drawn_card_search_forgives_case_zeros_and_cyrillic_letters(referee, db, ab,
                                                                           typed, codes):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    assert found(referee, game, typed) == codes


def test_U5_names_are_still_searched_and_a_number_alone_is_no_code(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    assert found(referee, game, "ТРОЛЛЬ") == ["M07"]
    assert found(referee, game, "gate troll") == ["M07"]
    assert found(referee, game, "7") == []


def test_U4_starting_cards_typed_m7_or_cyrillic_are_the_cards_meant(db, ab):
    a, b = ab
    game = start(db, [a, b], [["m7", "М07", "i1", "s 3"], FILLER_B])
    assert game.state.state.players[0].inventory == ("M07", "M07", "I01", "S03")


def test_U7_a_modifier_card_typed_m7_is_stored_as_M07(referee, db, ab):
    a, b = ab
    game = act(db, start(db, [a, b], [FILLER, FILLER_B]), {"kind": "draw", "code": "M07"})
    response = tap(referee, game, kind="adjust_monster", amount="+2", card="м7")
    assert response.status_code == 200
    assert fresh(db, game).state.state.encounter.modifiers == (("M07", 2),)


# --- the picker sits behind the search (U5) ------------------------------------------------

def test_U5_the_picker_shows_only_what_was_typed_or_every_card_behind_one_tap(referee, db,
                                                                              ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    picker = html.split(f'id="underworld-pick-{game.id}"', 1)[1].split("</form>", 1)[0]
    before, _, inside = picker.partition('<details class="uw-browse">')
    assert re.findall(TILES, before) == []  # no tile before the disclosure
    castle = game.state.state.castle
    by_kind = sorted(set(castle), key=lambda code: ("MISE".index(code[0]), code))
    assert re.findall(TILES, inside) == by_kind  # every card left, one tap away
    assert "Or browse every card left" in words(inside)
    typed = referee.get(f"/underworld/{game.id}?q=m7").get_data(as_text=True)
    assert "uw-browse" not in typed and re.findall(TILES, typed) == ["M07"]  # without JS


# --- the latest step first; a refusal floats (points 1 and 4) -------------------------------

def test_the_latest_step_is_the_first_thing_on_the_screen_also_after_an_undo(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    html = tap(referee, game, kind="draw", code="M07").get_data(as_text=True)
    assert 'hx-swap="outerHTML show:window:top"' in html  # the answer lands at the top
    last = html.index(f'id="underworld-last-{game.id}"')
    assert last < html.index('class="uw-turn"') < html.index('class="uw-now"')
    assert "Step 1: Anna meets Gate Troll (M07), strength 5." in words(
        html[last:html.index('class="uw-turn"')])
    response = post(referee, f"/underworld/{game.id}/undo",
                    {"version": fresh(db, game).version}, htmx=True)
    html = response.get_data(as_text=True)
    top = words(html[:html.index('class="uw-turn"')])
    assert "Undo of step 1: Step 1: Anna meets Gate Troll (M07)" in top


def test_a_plain_form_lands_on_the_game_with_its_latest_step_first(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    response = tap(referee, game, htmx=False, kind="draw", code="M07")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.endswith(f"#underworld-{game.id}")
    html = referee.get(location.split("#")[0]).get_data(as_text=True)
    section = html[html.index(f'id="underworld-{game.id}"'):]
    assert section.index("uw-last") < section.index('class="uw-turn"')
    assert "Anna meets Gate Troll (M07), strength 5." in words(
        section[:section.index('class="uw-turn"')])


def test_U15_a_refusal_floats_and_keeps_the_screen_where_it_was(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [FILLER, FILLER_B])
    game = act(db, game, {"kind": "draw", "code": "I01"}, {"kind": "end_turn"})
    assert game.state.state.phase == "cleanup"
    response = tap(referee, game, kind="discard")  # nothing ticked: one card too many
    assert response.status_code == 422
    assert response.headers["HX-Reswap"] == "outerHTML"  # no jump to the top
    html = response.get_data(as_text=True)
    assert re.search(r'<p class="alert refusal" role="alert">U15: ', html)
    ok = tap(referee, game, kind="discard", codes="I01")
    assert ok.status_code == 200 and "HX-Reswap" not in ok.headers


# --- the inventory (U10, U12) ----------------------------------------------------------------

def prep(html: str, row: dict) -> str:
    """The opening tag of a player's inventory panel."""
    return re.search(rf'<details class="uw-prep" data-player="{pid(row)}"[^>]*>', html)[0]


def test_U10_the_inventory_stays_open_while_it_holds_a_card_to_play(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [["I01", "I09", "M01", "M03"], FILLER_B])
    html = tap(referee, game, kind="play", player=pid(a), code="I01").get_data(as_text=True)
    assert prep(html, a).endswith(" open>")  # the second card without opening it again
    html = tap(referee, fresh(db, game), kind="play", player=pid(a),
               code="I09").get_data(as_text=True)
    assert not prep(html, a).endswith(" open>")  # only monsters left, nothing to play


def entry(html: str, code: str) -> str:
    return words(html.split(f'class="uw-entry" data-code="{code}"', 1)[1]
                        .split("</li>", 1)[0])


def test_U12_a_monster_card_held_says_what_it_is_for_and_offers_the_summoning(referee, db,
                                                                             ab):
    a, b = ab
    game = start(db, [a, b], [["M05", "I01", "M01", "M01"], FILLER_B])
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "Monster card (U12): a Summoning card brings it into a fight Anna fights or " \
           "helps in, adding its strength 3; Anna holds no Summoning card now." in \
           entry(html, "M05")

    game = start(db, [a, b], [["M05", "S03", "M01", "M01"], FILLER_B])
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "Monster card (U12): in a fight Anna fights or helps in, Summoning (S03) brings " \
           "it in, adding its strength 3." in entry(html, "M05")
    game = act(db, game, {"kind": "draw", "code": "M07"})
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "Summon into this fight with Summoning (S03) (U12)" in entry(html, "M05")
    assert "Monster card" not in entry(html, "M05")
    page = text_of(tap(referee, game, kind="summon", player=pid(a), skill="S03",
                       monster="M05"))
    assert "Mossy Slime, summoned ally +3" in page


def test_U12_the_monster_hint_in_russian(referee, db, ab):
    a, b = ab
    game = start(db, [a, b], [["M05", "I01", "M01", "M01"], FILLER_B])
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    assert "Карта монстра (U12)" in entry(html, "M05") and "силу 3" in entry(html, "M05")
    assert "Или выбрать из всех оставшихся карт" in html


@pytest.mark.parametrize("steps", [
    [],  # a step to draw, the trade panel
    [{"kind": "draw", "code": "M07"}],  # a fight: play, help, summon, modifier, confirm
    [{"kind": "draw", "code": "E02"}],  # an event: challenge, levels, cards
    [{"kind": "draw", "code": "I01"}, {"kind": "draw", "code": "I02"}, {"kind": "end_turn"}],
])
def test_every_write_of_the_screen_lands_at_its_top(referee, db, ab, steps):
    a, b = ab
    game = act(db, start(db, [a, b], [["S03", "M05", "I09", "M01"], FILLER_B]), *steps)
    html = referee.get(f"/underworld/{game.id}").get_data(as_text=True)
    section = re.search(r'<section class="underworld[^>]*>', html)[0]
    assert 'hx-target="this" hx-swap="outerHTML show:window:top"' in section
    writes = re.findall(r"<form [^>]*hx-post=[^>]*>", html)
    assert len(writes) >= 2 and not [f for f in writes if "hx-swap" in f or "hx-target" in f]
