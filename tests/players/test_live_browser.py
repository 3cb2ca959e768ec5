"""A sheet left open shows another referee's change by itself, saying who made it,
at 390×844 light English and 360×740 dark Russian."""

from __future__ import annotations

import pytest

from referee.players import service
from tests.browser_fixtures import shoot, sign_in

pytestmark = pytest.mark.browser

SIZES = [({"width": 390, "height": 844}, "light", "en-US", "org changed this"),
         ({"width": 360, "height": 740}, "dark", "ru-RU", "org изменил(а) это")]
# A screen asks every 2.5 s: a change shows within 5 s on a quiet machine; the limit here
# leaves room for a loaded CI machine, the wait ends as soon as the value is there.
SHOWN_WITHIN_MS = 12_000


def hp_of(page, player_id: int) -> str:
    return page.locator(f"#player-{player_id} output[data-stat=hp]").evaluate(
        "el => el.firstChild.textContent.trim()")


@pytest.mark.parametrize(("size", "scheme", "locale", "said"), SIZES[1:])  # Russian, dark, 360
def test_another_referees_tap_shows_on_an_open_sheet_with_who_made_it(
        phone_of, live_server, db, size, scheme, locale, said):
    hale = service.create(db, None, {"character": "Corporal Hale", "hp_max": 3,
                                     "chance_max": 2, "cartridges": 4, "suit": "S"})
    mine = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(mine, live_server, to=f"/players/{hale['id']}")
    assert hp_of(mine, hale["id"]) == "3"
    mine.locator("input[name=reason]").first.fill("typed, not sent")
    y = mine.evaluate("window.scrollY")

    other = phone_of()
    sign_in(other, live_server, "org", "org-password", to=f"/players/{hale['id']}")
    other.get_by_role("button", name="HP −1").tap()
    other.wait_for_function(
        "([sel, v]) => document.querySelector(sel).firstChild.textContent.trim() === v",
        arg=[f"#player-{hale['id']} output[data-stat=hp]", "2"])

    mine.wait_for_function(
        "([sel, v]) => document.querySelector(sel).firstChild.textContent.trim() === v",
        arg=[f"#player-{hale['id']} output[data-stat=hp]", "2"], timeout=SHOWN_WITHIN_MS)
    notice = mine.locator("#live-notice")
    assert said in notice.inner_text()
    shoot(mine, f"live-{locale}")
    # The notice floats over the top: nothing moved, and what was typed is still there.
    assert notice.evaluate("el => getComputedStyle(el).position") == "fixed"
    assert mine.evaluate("window.scrollY") == y
    assert mine.locator("input[name=reason]").first.input_value() == "typed, not sent"


def test_the_players_own_passport_page_follows_a_referees_tap(phone_of, live_server, db):
    hale = service.create(db, None, {"character": "Corporal Hale", "hp_max": 3,
                                     "chance_max": 2, "cartridges": 4, "suit": "S"})
    passport = phone_of({"width": 360, "height": 740}, locale="ru-RU", color_scheme="dark")
    passport.goto(f"{live_server}/p/{hale['passport_token']}")
    service.adjust(db, 2, hale["id"], {"chance": -1})
    passport.wait_for_function(
        "() => document.body.innerText.includes('1/2')", timeout=SHOWN_WITHIN_MS)
    assert "org" not in passport.locator("#live-notice").inner_text()
