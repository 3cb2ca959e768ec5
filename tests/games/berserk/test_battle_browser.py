"""The battle screen in the field, at 390×844 and 360×740, light and dark,
English and Russian: a tapped creature is unmistakable and two copies of a card stay apart
(B7, B11); a strike takes at most four taps whichever side strikes, and its outcome never
covers the dice just picked (B11, B12).

Each test plays once, in the strictest look (360×740, dark, Russian: the narrowest screen
and the longer words), then turns the same page to the other look (390×844, light,
English) and checks the screen it ended on again: a browser run costs far more than a
second look at one screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.games import service as games
from referee.games.berserk import rules as berserk
from referee.games.berserk import service as battles
from tests.browser_fixtures import (
    PHONE,
    SETTLED,
    SMALL,
    CountedScreen,
    shoot,
    sign_in,
    to_look,
)
from tests.games.berserk.test_field_browser import six_a_side

pytestmark = pytest.mark.browser

# (size, language, colour scheme): every size, scheme and language once. This file's tests
# play in the strict look and check their last screen in the other, in one run, and so do
# the squad builder's (test_counts_browser).
STRICT = (SMALL, "ru-RU", "dark")  # the narrowest screen, the longer words
OTHER = (PHONE, "en-US", "light")
COMBOS = [
    pytest.param(OTHER, id="390-light-en"),
    pytest.param(STRICT, id="360-dark-ru"),
]


# Whether ``word`` is written inside the element and shows whole: its letters lie inside
# every box that clips them (a line clamp, an ellipsis, a visually hidden span).
SHOWS = """([sel, word]) => {
  const root = document.querySelector(sel);
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const at = node.data.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    const r = range.getBoundingClientRect();
    let inside = r.width > 1 && r.height > 1;
    for (let el = node.parentElement; inside && el; el = el.parentElement) {
      const cs = getComputedStyle(el);
      const clips = cs.overflowX !== 'visible' || cs.overflowY !== 'visible'
        || cs.clip !== 'auto' || cs.textOverflow === 'ellipsis';
      if (clips) {
        const box = el.getBoundingClientRect();
        inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5
          && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
          && !(cs.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth
               && r.right > box.right - el.scrollWidth + el.clientWidth);
      }
      if (el === root) break;
    }
    if (inside) return true;
  }
  return false;
}"""

# The contrast ratio of an element's text against its own background (WCAG).
CONTRAST = """sel => {
  const el = document.querySelector(sel);
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => {
    const [r, g, b] = rgb(c).map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const cs = getComputedStyle(el);
  const [a, b] = [lum(cs.color), lum(cs.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""

# Where an element is, and whether a tap at its middle lands on it; how far the page is
# wider than the screen (its clientWidth: a phone's innerWidth grows with a page too wide).
PLACE = """sel => {
  const el = document.querySelector(sel);
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {top: box.top, bottom: box.bottom, free: !!hit && el.contains(hit),
          height: innerHeight, scrollY, sideways: document.documentElement.scrollWidth
          - document.documentElement.clientWidth};
}"""


def open_battle(phone_of, live_server, combo, game_id: int):
    size, locale, scheme = combo
    page = phone_of(size, locale=locale, color_scheme=scheme)
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server, to=f"/berserk/{game_id}")
    return page


def in_look(page, base: str, path: str, combo) -> None:
    """:func:`to_look` with this file's (size, language, colour scheme)."""
    size, locale, scheme = combo
    to_look(page, base, path, size, scheme, locale)


def shows(page, selector: str, word: str) -> bool:
    return page.evaluate(SHOWS, [selector, word])


def test_B7_B11_a_tapped_creature_is_unmistakable_and_two_copies_stay_apart(
        phone_of, live_server, db):
    game_id = six_a_side(db)  # b1 and b3 are both Bog Crawlers
    games.act(db, None, "berserk", game_id, berserk.Tap("b1"), 0)
    page = open_battle(phone_of, live_server, STRICT, game_id)
    tapped_and_apart(page, STRICT)
    in_look(page, live_server, f"/berserk/{game_id}", OTHER)
    tapped_and_apart(page, OTHER)


def tapped_and_apart(page, combo) -> None:
    """b1 is tapped, b3 (its copy) open: each reads so, and apart, in this look."""
    russian = combo[1] == "ru-RU"
    tapped = "закрыто" if russian else "tapped"
    b1, b3 = "label[data-target='b1']", "label[data-target='b3']"
    # The state is written on the tapped one, whole, however long its name.
    assert shows(page, b1, tapped), f"'{tapped}' is cut off"
    assert not shows(page, b3, tapped)
    # Each copy's number shows whole: b1 and b3 read apart.
    assert shows(page, b1, "b1") and shows(page, b3, "b3")
    # Its own look: dashed and hatched where an open one is solid and plain.
    looks = page.evaluate("""([t, o]) => [t, o].map(sel => {
      const cs = getComputedStyle(document.querySelector(sel));
      return [cs.borderTopStyle, cs.backgroundImage !== 'none'];
    })""", [b1, b3])
    assert looks == [["dashed", True], ["solid", False]], looks
    # The state reads in either scheme: its badge against its own background.
    assert page.evaluate(CONTRAST, f"{b1} .cc-state") >= 4.5
    # The creatures below say so too.
    tile = page.locator("#cr-b1")
    expect(tile).to_have_class("cr side-b tapped")
    assert shows(page, "#cr-b1 > summary", "Закрыто" if russian else "Tapped")
    assert page.evaluate("sel => getComputedStyle(document.querySelector(sel)).borderTopStyle",
                         "#cr-b1") == "dashed"
    assert page.evaluate("sel => getComputedStyle(document.querySelector(sel)).borderTopStyle",
                         "#cr-b3") == "solid"
    size, scheme = combo[0]["width"], combo[2]
    shoot(page, f"battle-tapped-{size}-{scheme}-{combo[1][:2]}")
    page.locator("#cr-b1").scroll_into_view_if_needed()
    shoot(page, f"battle-tapped-{size}-{scheme}-{combo[1][:2]}-tiles")


class Strikes(CountedScreen):
    """Taps on the battle, counted: picks wait for the strike panel's answer; Confirm
    waits for the battle's next version."""

    def pick(self, selector: str) -> None:
        self.free(selector)
        self.tap(selector, writes=False)
        self.page.wait_for_selector(f"{self.root} {selector} input:checked")

    def free(self, selector: str) -> dict:
        """On the screen, below the top bar, and a tap at its middle lands on it."""
        where = self.page.evaluate(PLACE, f"{self.root} {selector}")
        assert where["free"] and where["top"] >= 0 and where["bottom"] <= where["height"], \
            (selector, where)
        assert where["sideways"] <= 0
        return where

    def outcome_ready(self, picked: list[str]) -> None:
        """The outcome has come up; it covers none of the picks."""
        self.page.wait_for_selector(f"{self.root} .s-preview.ready button.confirm")
        self.page.wait_for_function(SETTLED)
        preview = self.page.evaluate(PLACE, f"{self.root} .s-preview")
        for selector in picked:
            where = self.free(selector)
            assert where["bottom"] <= preview["top"] + 0.5, (selector, where, preview)
        assert preview["bottom"] <= preview["height"] + 0.5, preview  # Confirm in view
        # A Confirm that has just come up under the thumb takes taps a moment later only.
        self.page.wait_for_function(
            "sel => [...document.querySelectorAll(sel)].every("
            "b => getComputedStyle(b).pointerEvents === 'auto')",
            arg=f"{self.root} .s-preview button.confirm")

    def confirm(self, lowered: bool = False) -> None:
        button = f".s-preview button.confirm[value='{1 if lowered else 0}']"
        self.free(button)
        self.tap(button)
        self.page.wait_for_function(SETTLED)
        assert self.page.evaluate("scrollY") == 0  # the whole strike at the top


def test_B11_B12_either_side_strikes_in_four_taps_and_the_outcome_leaves_the_dice_in_view(
        phone_of, live_server, db):
    game_id = six_a_side(db)
    combo = STRICT
    page = open_battle(phone_of, live_server, combo, game_id)
    t = Strikes(page, f"#battle-{game_id}")
    w = combo[0]["width"]

    def strike(*picks: str, lowered: bool = False) -> int:
        start = t.taps
        for selector in picks:
            t.pick(selector)
        t.outcome_ready(list(picks))
        shoot(page, f"battle-strike-{w}-{combo[2]}-{combo[1][:2]}-v{t.version + 1}")
        t.confirm(lowered)
        return t.taps - start

    # B12: side a strikes first, a1 chosen. B11, Δ +3: a medium strike, no answer.
    expect(page.locator("label[data-attacker='a1'] input")).to_be_checked()
    assert strike("label[data-target='b1']", "label[data-a-die='5']",
                  "label[data-d-die='2']") <= 4
    # a2 next. B11, Δ +2: both strike; the exchange's two Confirms come up under the dice,
    # covering none; a2, the stronger, lowers it: a weak strike, no answer.
    expect(page.locator("label[data-attacker='a2'] input")).to_be_checked()
    assert strike("label[data-target='b2']", "label[data-a-die='5']",
                  "label[data-d-die='3']", lowered=True) <= 4
    # The other side strikes (the field's five taps): a tap on a3 as the target makes b's
    # first open creature the attacker. B11, Δ 0 with A ≤ 4: b1's weak strike.
    t.free("label[data-turn='a3']")
    t.tap("label[data-turn='a3']", writes=False)
    expect(page.locator("label[data-attacker='b1'] input")).to_be_checked()
    expect(page.locator("label[data-target='a3'] input")).to_be_checked()
    assert 1 + strike("label[data-a-die='4']", "label[data-d-die='4']") <= 4
    # Side b goes on with b2. B11, Δ +3: a medium strike of its 2-3-4, no answer.
    expect(page.locator("label[data-attacker='b2'] input")).to_be_checked()
    assert strike("label[data-target='a4']", "label[data-a-die='5']",
                  "label[data-d-die='2']") <= 4
    assert t.taps <= 16
    rows = battles.load(db, game_id).history
    assert [(r["action"]["attacker"], r["action"]["target"], r["action"]["lower"])
            for r in rows] == [("a1", "b1", False), ("a2", "b2", True), ("b1", "a3", False),
                               ("b2", "a4", False)]
    state = battles.load(db, game_id).state
    assert [berserk.creature(state, c).wounds for c in ("b1", "b2", "a3", "a4")] == [2, 1, 1, 3]
    assert all(berserk.creature(state, c).tapped for c in ("a1", "a2", "b1", "b2"))

    # The other look, on the screen the strikes ended on: side b's next strike, picked as
    # an exchange (Δ +2, its two Confirms the tallest outcome), leaves the dice in view.
    # Only picked, not confirmed: nothing is written.
    in_look(page, live_server, f"/berserk/{game_id}", OTHER)
    expect(page.locator("label[data-attacker='b3'] input")).to_be_checked()
    picks = ["label[data-target='a5']", "label[data-a-die='5']", "label[data-d-die='3']"]
    for selector in picks:
        t.pick(selector)
    t.outcome_ready(picks)
    expect(page.locator(f"{t.root} .s-preview button.confirm")).to_have_count(2)
    shoot(page, f"battle-strike-{PHONE['width']}-light-en-exchange")
    assert battles.load(db, game_id).version == 4
