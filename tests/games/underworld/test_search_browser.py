"""The drawn castle card found by typing (U5): Enter in the search, when it finds
one card, draws it; when it finds several, nothing is drawn, the reason floats and their
tiles are left to tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.games.underworld import service as underworld
from tests.browser_fixtures import PHONE, SETTLED, SMALL, shoot, sign_in
from tests.games.underworld.test_service import seat, start

pytestmark = pytest.mark.browser

COMBOS = [
    pytest.param((PHONE, "en-US", "light"), id="390-light-en"),
    pytest.param((SMALL, "ru-RU", "dark"), id="360-dark-ru"),
    pytest.param((SMALL, "en-US", "light"), id="360-light-en"),
]



@pytest.mark.parametrize("combo", COMBOS)
def test_U5_enter_in_the_castle_search_draws_the_one_card_it_finds(phone_of, live_server, db,
                                                                   combo):
    size, locale, scheme = combo
    russian = locale == "ru-RU"
    a, b = seat(db, "Anna"), seat(db, "Boris")
    game = start(db, [a, b], [["I01", "I09", "S03", "M05"], ["I02", "I07", "M04", "M03"]])
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to=f"/underworld/{game.id}")
    screen = page.locator(f"#underworld-{game.id}")
    search = page.locator(f"#underworld-{game.id} input[name=q]")

    # Two cards found: Enter draws nothing, says why, and leaves their tiles to tap.
    search.tap()
    search.fill("кры" if russian else "rat")
    expect(page.locator(f"#underworld-pick-{game.id} button.uw-key")).to_have_count(2)
    search.press("Enter")
    refusal = page.locator(f"#underworld-{game.id} .alert.refusal")
    expect(refusal).to_contain_text("U5: Под «кры» подходят M01, M" if russian
                                    else "U5: “rat” matches M01, M")
    page.wait_for_function(SETTLED)
    assert underworld.load(db, game.id).version == 0
    expect(page.locator(f"#underworld-pick-{game.id} button.uw-key")).to_have_count(2)
    assert page.input_value(f"#underworld-{game.id} input[name=q]") == ("кры" if russian
                                                                     else "rat")
    shoot(page, f"underworld-find-{size['width']}-{scheme}-many")

    # One card found, by name, or (on the small light phone) by a code with its zero
    # left out: Enter draws it.
    search = page.locator(f"#underworld-{game.id} input[name=q]")
    search.fill("тролль" if russian else "m7" if size == SMALL else "troll")
    expect(page.locator(f"#underworld-pick-{game.id} button.uw-key")).to_have_count(1)
    search.press("Enter")
    expect(screen).to_have_attribute("data-version", "1")
    expect(page.locator(f"#underworld-last-{game.id}")).to_contain_text(
        "Привратный тролль (M07)" if russian else "Anna meets Gate Troll (M07)")
    state = underworld.load(db, game.id).state.state
    assert state.encounter is not None and state.encounter.monster == "M07"
    shoot(page, f"underworld-find-{size['width']}-{scheme}-drawn")
