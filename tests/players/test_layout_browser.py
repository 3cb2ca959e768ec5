"""The sheet on small phones: nothing sticks out of the card, and a refused tap leaves every
control where the thumb left it."""

from __future__ import annotations

import pytest

from referee.players import service
from tests.browser_fixtures import PHONE, shoot, sign_in

pytestmark = pytest.mark.browser

SIZES = [PHONE, {"width": 360, "height": 740}]

# Every element inside a card whose right edge passes the card's inner right edge (or the
# screen's, for what floats), as "tag.class: px"; and the page's own sideways overflow.
OVERFLOW = """() => {
  const out = [];
  for (const card of document.querySelectorAll('.card')) {
    const right = card.getBoundingClientRect().right - card.clientLeft;
    for (const el of card.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      // What floats over the screen (a refusal) has the viewport for its edge instead.
      const edge = getComputedStyle(el).position === 'fixed' ? innerWidth : right;
      if (box.width && (box.right > edge + 0.5 || box.left < -0.5))
        out.push(el.tagName.toLowerCase() + '.' + el.className + ': ' + (box.right - edge));
    }
  }
  return {page: document.documentElement.scrollWidth - innerWidth, inside: out};
}"""


def open_sheet(phone_of, live_server, db, size, scheme="light", locale="ru-RU"):
    """A signed-in phone of this size on a sheet whose chance and cartridges are 0."""
    row = service.create(db, None, {"character": "Атаманша Дуся Непреклонная",
                                    "player": "Ольга", "hp_max": 10, "chance_max": 10,
                                    "cartridges": 0, "suit": "S", "level": 10})
    db["players"].update(row["id"], {"chance": 0})
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to=f"/players/{row['id']}")
    return page, row


def buttons_y(page, player_id: int) -> list[float]:
    """The top of every −/+ button and of the Reason field on the sheet."""
    return page.eval_on_selector_all(
        f"#player-{player_id} .tap, #player-{player_id} .reason-field input",
        "els => els.map(el => el.getBoundingClientRect().top + scrollY)")


def tap_and_wait(page, player_id: int, selector: str) -> None:
    """Tap a button on the sheet and wait until the answer has replaced the card."""
    card = f"#player-{player_id}"
    page.eval_on_selector(card, "el => { el.dataset.old = '1'; }")
    page.locator(f"{card} {selector}").tap()
    page.wait_for_function("sel => !document.querySelector(sel).dataset.old", arg=card)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize(("scheme", "locale"), [("light", "en-US"), ("dark", "ru-RU")])
def test_a_refused_tap_moves_nothing_and_nothing_sticks_out(phone_of, live_server, db, size,
                                                             scheme, locale):
    page, row = open_sheet(phone_of, live_server, db, size, scheme, locale)
    assert page.evaluate(OVERFLOW) == {"page": 0, "inside": []}
    before = buttons_y(page, row["id"])
    shoot(page, f"sheet-{size['width']}-{scheme}-before", full_page=True)

    for name in ("chance", "cartridges"):
        tap_and_wait(page, row["id"], f"button[name={name}][value='-1']")
        page.locator(f"#player-{row['id']} [role=alert]").wait_for()
        assert buttons_y(page, row["id"]) == pytest.approx(before, abs=1)
    shoot(page, f"sheet-{size['width']}-{scheme}-refused", full_page=True)

    assert "D4:" in page.locator(f"#player-{row['id']} [role=alert]").inner_text()
    assert page.evaluate(OVERFLOW) == {"page": 0, "inside": []}
    # The next allowed tap still works and the sheet is still in place.
    page.locator(f"#player-{row['id']} button[name=hp][value='-1']").tap()
    page.wait_for_function(
        "sel => document.querySelector(sel).firstChild.textContent.trim() === '9'",
        arg=f"#player-{row['id']} output[data-stat=hp]")
    assert buttons_y(page, row["id"]) == pytest.approx(before, abs=1)
