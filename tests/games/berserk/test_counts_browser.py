"""Counting cards on a phone: in the squad builder (B12–B14) and when a deck is
registered (B14), a tap on + or −, or a typed count, keeps the page where it was and the
row under the thumb in its place; the next count field keeps the cursor; and Enter in the
card search adds the one card it finds.

The counts are tapped and typed once, in the strictest look (360×740, dark, Russian: the
narrowest screen, the longer words); the same page then turns to the other look (390×844,
light, English), opens the screen again and counts once more there: a browser run costs
far more than a second look at one screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.games.berserk import registered
from referee.players import service as players
from tests.browser_fixtures import SETTLED, shoot, sign_in
from tests.games.berserk.test_battle_browser import COMBOS, OTHER, STRICT, in_look

pytestmark = pytest.mark.browser


# Where the page is scrolled to and where an element is on the screen.
PLACE = """sel => {
  const box = document.querySelector(sel).getBoundingClientRect();
  return {scrollY, top: box.top, bottom: box.bottom, height: innerHeight};
}"""


def anna(db) -> dict:
    return players.create(db, None, {"character": "Anna", "hp_max": 3, "chance_max": 1,
                                     "cartridges": 1, "suit": "H"})


def open_page(phone_of, live_server, combo, path: str):
    size, locale, scheme = combo
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to=path)
    return page


def place(page, selector: str) -> dict:
    return page.evaluate(PLACE, selector)


def row_in_reach(page, code: str) -> dict:
    """Scroll the card's row a third down the screen, the next row's fields above the bar
    of counts, as a thumb would; its place."""
    row = f"li[data-code='{code}']"
    page.evaluate("""sel => {
      const box = document.querySelector(sel).getBoundingClientRect();
      scrollTo(0, scrollY + box.top - innerHeight / 3);
    }""", row)
    page.wait_for_function("y => Math.abs(scrollY - y) < 1",
                           arg=page.evaluate("scrollY"))
    where = place(page, row)
    assert where["scrollY"] > 200, where  # well down the page, as in the field report
    return where


def kept(page, code: str, before: dict) -> None:
    """The page did not move and the row is where the thumb left it."""
    page.wait_for_function(SETTLED)
    after = place(page, f"li[data-code='{code}']")
    assert (after["scrollY"], after["top"]) == pytest.approx(
        (before["scrollY"], before["top"]), abs=1), (before, after)


def test_B12_B14_a_count_in_the_squad_builder_keeps_the_row_under_the_thumb(
        phone_of, live_server, db):
    combo, path = STRICT, f"/berserk/squads/new?player={anna(db)['id']}"
    page = open_page(phone_of, live_server, combo, path)
    before = row_in_reach(page, "B09")
    page.locator("li[data-code='B09'] button[name=plus]").tap()
    expect(page.locator("#squad-builder")).to_have_attribute("data-cards", "1")
    kept(page, "B09", before)
    shoot(page, f"builder-{combo[0]['width']}-{combo[2]}-plus")
    page.locator("li[data-code='B09'] button[name=plus]").tap()
    expect(page.locator("#squad-builder")).to_have_attribute("data-cards", "2")
    kept(page, "B09", before)
    page.locator("li[data-code='B09'] button[name=minus]").tap()
    expect(page.locator("#squad-builder")).to_have_attribute("data-cards", "1")
    kept(page, "B09", before)
    expect(page.locator("li[data-code='B09']")).to_have_attribute("data-count", "1")

    # The other look: the builder opened again by its address (the draft lives in its
    # form only, so it starts empty) and its last screen, one copy of B09, counted again
    # by one tap on +, which keeps the row under the thumb there too.
    combo = OTHER
    in_look(page, live_server, path, combo)
    before = row_in_reach(page, "B09")
    page.locator("li[data-code='B09'] button[name=plus]").tap()
    expect(page.locator("#squad-builder")).to_have_attribute("data-cards", "1")
    kept(page, "B09", before)
    expect(page.locator("li[data-code='B09']")).to_have_attribute("data-count", "1")
    shoot(page, f"builder-{combo[0]['width']}-{combo[2]}-plus")


def typed_then_moved_on(page, form) -> dict:
    """3 typed into B09's count, then a tap on B10's: the count counts, B09's row stays
    where it was, and the cursor is in B10's field. B09's place, as it stood."""
    count = page.locator("input[name=n_B09]")
    count.tap()
    count.fill("3")
    before = place(page, "li[data-code='B09']")  # once the browser has shown the field
    page.locator("input[name=n_B10]").tap()
    expect(form).to_have_attribute("data-cards", "3")
    kept(page, "B09", before)
    assert page.evaluate("document.activeElement.name") == "n_B10"
    return before


def test_B14_counts_typed_and_tapped_when_registering_keep_the_page_still(
        phone_of, live_server, db):
    player = anna(db)
    combo, path = STRICT, f"/berserk/registered-decks/new?player={player['id']}"
    page = open_page(phone_of, live_server, combo, path)
    form = page.locator("#deck-register")
    before = row_in_reach(page, "B09")
    page.locator("li[data-code='B09'] button[name=plus]").tap()
    expect(form).to_have_attribute("data-cards", "1")
    kept(page, "B09", before)
    page.locator("li[data-code='B09'] button[name=minus]").tap()
    expect(form).to_have_attribute("data-cards", "0")
    kept(page, "B09", before)
    # A typed count counts when the thumb moves on to the next card's field, which keeps
    # the cursor, so the next count is typed straight in; Enter counts it as well.
    before = typed_then_moved_on(page, form)
    page.keyboard.press("Backspace")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(form).to_have_attribute("data-cards", "4")
    kept(page, "B09", before)
    assert page.evaluate("document.activeElement.name") == "n_B10"
    shoot(page, f"register-{combo[0]['width']}-{combo[2]}-typed")

    # The other look: the form opened again by its address (nothing is stored before
    # Save, so it starts empty), its row brought under the thumb; a tap on + and a count
    # typed before moving on to the next field keep the page still there too, and the
    # cursor goes on to that field.
    combo = OTHER
    in_look(page, live_server, path, combo)
    form = page.locator("#deck-register")
    before = row_in_reach(page, "B09")
    page.locator("li[data-code='B09'] button[name=plus]").tap()
    expect(form).to_have_attribute("data-cards", "1")
    kept(page, "B09", before)
    typed_then_moved_on(page, form)
    shoot(page, f"register-{combo[0]['width']}-{combo[2]}-typed")
    assert registered.of_player(db, player["id"]) is None  # nothing stored before Save


@pytest.mark.parametrize("combo", COMBOS[1:2])  # a key, not a layout: the small phone
def test_B12_B14_enter_in_the_card_search_adds_the_one_card_it_finds(phone_of, live_server,
                                                                    db, combo):
    player = anna(db)
    russian = combo[1] == "ru-RU"
    page = open_page(phone_of, live_server, combo,
                     f"/berserk/squads/new?player={player['id']}")
    builder = page.locator("#squad-builder")
    search = page.locator("#squad-search")
    # A part of a name, in the screen's language: one card left in the list.
    search.tap()
    search.fill("шептун" if russian else "whisper")
    expect(page.locator("li.deck-card:visible")).to_have_count(1)
    expect(page.locator("li.deck-card:visible")).to_have_attribute("data-code", "B09")
    page.wait_for_function(SETTLED)
    before = page.evaluate("scrollY")
    search.press("Enter")
    expect(builder).to_have_attribute("data-cards", "1")
    page.wait_for_function(SETTLED)
    assert page.evaluate("scrollY") == before  # the page stays where it was
    expect(page.locator("li[data-code='B09']")).to_have_attribute("data-count", "1")
    # The search stays as typed, with the cursor: Enter again adds another copy.
    assert page.evaluate("document.activeElement.id") == "squad-search"
    search.press("Enter")
    expect(builder).to_have_attribute("data-cards", "2")
    page.wait_for_function(SETTLED)
    assert page.evaluate("scrollY") == before
    shoot(page, f"find-{combo[0]['width']}-{combo[2]}-squad")
    # A code typed in full finds its card alone (B1 is B01, not B10–B19 too).
    search.fill("b1")
    expect(page.locator("li.deck-card:visible").first).to_be_visible()
    search.press("Enter")
    expect(builder).to_have_attribute("data-cards", "3")
    expect(page.locator("li[data-code='B01']")).to_have_attribute("data-count", "1")
    # Several cards found: nothing is added, and the referee is told to tap one. Enter
    # comes before the search's own 200 ms delay runs out (the page's clock stands still
    # from typing until run_for): that search is dropped, not sent late to replace the
    # answer to Enter and its refusal.
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    search.fill("а" if russian else "e")
    search.press("Enter")
    refusal = page.locator(".alert.refusal")
    tap_one = "Нажмите + у нужной" if russian else "Tap + on the one you mean"
    expect(refusal).to_contain_text(tap_one)
    page.clock.run_for(1000)
    page.clock.resume()
    page.wait_for_function(SETTLED)
    expect(refusal).to_contain_text(tap_one)
    expect(builder).to_have_attribute("data-cards", "3")
    # Enter in another field (the squad's name) adds nothing.
    page.locator("input[name=name]").fill("Swamp")
    page.locator("input[name=name]").press("Enter")
    page.wait_for_function(SETTLED)
    expect(builder).to_have_attribute("data-cards", "3")

    # Registering a deck: Enter adds one copy of the card found, too (B14).
    page.goto(f"{live_server}/berserk/registered-decks/new?player={player['id']}")
    search = page.locator("#deck-search")
    search.tap()
    search.fill("B07")
    search.press("Enter")
    expect(page.locator("#deck-register")).to_have_attribute("data-cards", "1")
    expect(page.locator("input[name=n_B07]")).to_have_value("1")
    # Enter in a typed count counts it (before, it pressed the first card's −). The
    # search cleared asks the server for the whole list first (200 ms after typing): the
    # count is typed once that answer (the whole list: the server filters) is in.
    search.fill("")
    expect(page.locator("li.deck-card:visible")).to_have_count(18)
    page.wait_for_function(SETTLED)
    page.locator("input[name=n_B01]").fill("2")
    page.locator("input[name=n_B01]").press("Enter")
    expect(page.locator("#deck-register")).to_have_attribute("data-cards", "3")
    expect(page.locator("input[name=n_B07]")).to_have_value("1")
