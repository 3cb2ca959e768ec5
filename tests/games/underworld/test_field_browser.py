"""An underworld turn on small phones: two inventory cards
played in a row, the drawn card found by a forgiving search, a refused modifier, a
summoning from the inventory and the fight confirmed. After every tap the latest step is
in view, nothing sticks out sideways, and a refusal leaves the controls where they were.

The turn is played once on the small phone (360×740, dark), then the same page is turned
to the larger one (390×844, light) and its last screen checked again. English throughout:
the test reads the screen's sentences."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.store import players as rows
from tests.browser_fixtures import PHONE, CountedScreen, shoot, sign_in
from tests.games.underworld.test_service import pid, seat, start

pytestmark = pytest.mark.browser

# (size, colour scheme): the turn is played in the first, the last screen seen in both.
SMALL_DARK = ({"width": 360, "height": 740}, "dark")
PHONE_LIGHT = (PHONE, "light")

# Where an element is on the screen now, and whether the page is wider than the screen
# (its clientWidth: a phone's innerWidth grows with a page too wide for it).
PLACE = """sel => {
  const box = document.querySelector(sel).getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, pageTop: box.top + scrollY, scrollY,
          height: innerHeight, sideways: document.documentElement.scrollWidth
          - document.documentElement.clientWidth};
}"""

# True once nothing is settling: htmx has taken its settling classes off the screen.
SETTLED = """sel => document.querySelector(sel) !== null
  && document.querySelector('.htmx-settling, .htmx-swapping') === null"""


class Turn(CountedScreen):
    """Taps on one underworld screen, counted; each write waits for the next game version."""

    def __init__(self, page, game_id: int):
        super().__init__(page, f"#underworld-{game_id}")
        self.id = game_id

    def place(self, selector: str) -> dict:
        return self.page.evaluate(PLACE, f"{self.root} {selector}")

    def latest_in_view(self, text: str) -> None:
        """The latest step says ``text``, whole inside the screen; nothing sideways."""
        expect(self.page.locator(f"#underworld-last-{self.id}")).to_contain_text(text)
        # htmx scrolls (show:window:top) as the swap settles, a moment after the new
        # screen is in: wait for that moment, then measure.
        self.page.wait_for_function(SETTLED, arg=f"#underworld-last-{self.id}", timeout=3000)
        box = self.place(f"#underworld-last-{self.id}")
        assert box["top"] >= 0 and box["bottom"] <= box["height"], box
        assert box["sideways"] <= 0, box

    def in_view(self, selector: str) -> None:
        box = self.place(selector)
        assert box["top"] >= 0 and box["bottom"] <= box["height"], (selector, box)


def test_U5_U7_U10_U12_an_underworld_turn_with_the_latest_step_always_in_view(phone_of, live_server,
                                                                         db):
    a, b = seat(db, "Anna"), seat(db, "Boris")
    game = start(db, [a, b], [["I01", "I09", "S03", "M05"], ["I02", "I07", "M04", "M03"]],
                 passport=True)
    size, scheme = SMALL_DARK
    page = phone_of(size, color_scheme=scheme)
    sign_in(page, live_server, to=f"/underworld/{game.id}")
    t, w = Turn(page, game.id), size["width"]
    assert t.place("")["sideways"] <= 0
    # U10: the inventory is open while it holds cards to play: two in a row, no reopening
    inventory = page.locator(f"{t.root} details.uw-prep[data-player='{pid(a)}']")
    expect(inventory).to_have_attribute("open", "")
    t.tap(".uw-entry[data-code='I01'] form[data-kind='play'] button")
    t.latest_in_view("Anna plays Rusty Sword (I01).")
    t.tap(".uw-entry[data-code='I09'] form[data-kind='play'] button")
    t.latest_in_view("Anna plays Iron Helmet (I09).")
    shoot(page, f"underworld-{w}-played")
    expect(page.locator(f"{t.root} .uw-entry[data-code='M05'] .uw-hint")).to_have_text(
        "Monster card (U12): in a fight Anna fights or helps in, Summoning (S03) brings it "
        "in, adding its strength 3.")  # U12, no fight yet

    # U5: the picker sits behind the search, which forgives the zero: "m7" is M07
    assert page.locator(f"{t.root} .uw-pick button.uw-key:visible").count() == 0
    t.tap("input[name=q]", writes=False)
    page.fill(f"{t.root} input[name=q]", "m7")
    expect(page.locator(f"#underworld-pick-{game.id} button.uw-key")).to_have_count(1)
    t.tap("button.uw-key[data-code='M07']")
    t.latest_in_view("Step 1: Anna meets Gate Troll (M07), strength 5.")
    t.in_view("button.confirm")  # and the next step with it
    expect(page.locator(f"{t.root} .uw-verdict")).to_have_text("Gate Troll wins, 5 to 3.")
    flow = t.taps

    # U7, point 4: a refused modifier floats; the Apply button stays under the thumb.
    t.tap("details.uw-adjust > summary", writes=False)
    page.fill(f"{t.root} input[name=amount]", "0")
    apply = page.locator(f"{t.root} form[data-kind='adjust_monster'] button")
    apply.scroll_into_view_if_needed()  # where the thumb finds it, as the tap will
    before = t.place("form[data-kind='adjust_monster'] button")
    t.tap("form[data-kind='adjust_monster'] button", writes=False)
    refusal = page.locator(f"{t.root} .alert.refusal")
    expect(refusal).to_contain_text("U7: The adjustment must be a whole number")
    box = refusal.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"]
    after = t.place("form[data-kind='adjust_monster'] button")
    assert abs(after["top"] - before["top"]) <= 1  # on the screen, not only the page
    assert abs(after["pageTop"] - before["pageTop"]) <= 1 and after["sideways"] <= 0
    assert page.input_value(f"{t.root} input[name=amount]") == "0"  # as typed
    shoot(page, f"underworld-{w}-refused")
    refused_taps, t.taps = t.taps - flow, flow

    # U12: the monster card held says what it is for, and is summoned into the fight.
    t.tap(".uw-entry[data-code='M05'] form[data-kind='summon'] button")
    t.latest_in_view("Anna summons Mossy Slime (M05)")
    expect(page.locator(f"{t.root} .uw-verdict")).to_have_text("Anna wins, 6 to 5.")
    shoot(page, f"underworld-{w}-summoned")
    t.in_view("button.confirm")
    t.tap("button.confirm")
    won(t)
    shoot(page, f"underworld-{w}-won")
    # The larger phone, light, on the same screen: the page as it stands, reflowed.
    size, scheme = PHONE_LIGHT
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    won(t)
    shoot(page, f"underworld-{size['width']}-won")
    assert rows.get(db, a["id"])["level"] == 2

    # 6 taps from the screen opening to the fight won (8 before, the inventory opened
    # twice), and 2 more for the refused modifier
    assert (t.taps, refused_taps) == (6, 2)


def won(t: Turn) -> None:
    """The turn's last screen in this look: the fight won and the level it brought, whole
    on the screen, nothing sideways."""
    t.latest_in_view("Fight: Anna 6 against Gate Troll (M07) 5: won (U7).")
    expect(t.page.locator(f"#underworld-last-{t.id}")).to_contain_text("Anna: level 1 → 2")
