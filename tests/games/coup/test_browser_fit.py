"""A Coup table of 4 or 8 seats on 360 × 740 and 390 × 844 phones. Every answer of a block
and challenge turn is in view when it is tapped, and nothing scrolls: the seats are a
compact strip above the question, and an answer keeps the window where it was.

Two looks, each played through once: 8 seats in the strictest (360 × 740, dark, Russian:
the narrowest screen, the longest strip, the longer words) and 4 seats in the other
(390 × 844, light, English). Each run then turns its page to the other look and checks
the screen it ended on again, so every table is seen in both looks."""

from __future__ import annotations

import pytest

from referee.games.coup import service as coup
from referee.players import service as players
from tests.browser_fixtures import PHONE, shoot, sign_in, to_look

SMALL = {"width": 360, "height": 740}
NAMES = ["Атаманша Дуся Непреклонная", "Boris", "Vera Longname-Petrovskaya", "Gleb",
         "Dana", "Yegor the Quiet", "Zhanna", "Ilya"]

# Where a control is, and whether a tap at its centre reaches it now: inside the
# viewport, and not under the sticky header or anything else.
REACH = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {x, y, top: box.top, bottom: box.bottom, height: box.height,
          inside: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight
                  && box.right <= innerWidth,
          reached: !!hit && (hit === el || el.contains(hit))};
}"""


class Thumb:
    """Taps where the thumb would, at the centre of a control on the screen as it is:
    Playwright's own tap would scroll a control into view first and hide one that is not.
    Before each tap, every answer of the question on screen must be in reach."""

    def __init__(self, page, game_id: int):
        self.page, self.id, self.taps, self.version = page, game_id, 0, 0
        self.root = f"#coup-{game_id}"

    def answers_in_reach(self) -> int:
        """Every button of the question (and a target seat) is whole in the viewport and
        not covered; returns how many there are."""
        found = self.page.evaluate("""root => {
          const out = [];
          const panel = document.querySelector(root);
          for (const el of panel.querySelectorAll('.ask button, .ask a.btn, button.seat.target')) {
            const b = el.getBoundingClientRect();
            const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
            out.push({text: el.textContent.trim(), top: b.top, bottom: b.bottom,
                      left: b.left, right: b.right, height: b.height,
                      reached: !!hit && (hit === el || el.contains(hit))});
          }
          return out;
        }""", self.root)
        size = self.page.viewport_size
        for box in found:
            assert box["top"] >= 0 and box["bottom"] <= size["height"], box
            assert box["left"] >= 0 and box["right"] <= size["width"], box
            assert box["reached"] and box["height"] >= 44, box
        assert found
        return len(found)

    def tap(self, selector: str, writes: bool = True, scrolled: int = 0) -> None:
        """One tap; the window is (and stays) ``scrolled`` down."""
        page = self.page
        size = page.viewport_size
        shoot(page, f"coup-tap{self.taps + 1}-{size['width']}")
        assert page.evaluate("scrollY") == scrolled
        self.answers_in_reach()
        ask_top = page.evaluate(
            f"document.querySelector('{self.root} .ask').getBoundingClientRect().top")
        spot = page.evaluate(REACH, f"{self.root} {selector}")
        assert spot and spot["inside"] and spot["reached"], (selector, spot)
        page.touchscreen.tap(spot["x"], spot["y"])
        self.taps += 1
        if writes:
            self.version += 1
            page.wait_for_selector(f"{self.root}[data-version='{self.version}']")
        else:
            page.wait_for_selector(f"{self.root} button.seat.target")
        page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping')")
        # the next question comes up where this one was, and the window stayed put
        assert page.evaluate("scrollY") == scrolled
        assert page.evaluate(
            f"document.querySelector('{self.root} .ask').getBoundingClientRect().top"
        ) == ask_top

    def ask(self) -> str:
        return self.page.locator(self.root).get_attribute("data-question")


STRICT = (SMALL, "dark", "ru-RU")
OTHER = (PHONE, "light", "en-US")


# The most seats in the strictest look, where a long strip and long words leave the least
# room; the fewer seats in the other look, where the answers are English.
@pytest.mark.parametrize(("seats", "look", "other"), [(8, STRICT, OTHER), (4, OTHER, STRICT)],
                         ids=["8-360x740-dark-ru", "4-390x844-light-en"])
def test_C7_C8_a_block_and_challenge_turn_is_answered_without_scrolling(
        phone_of, live_server, db, seats, look, other):
    size, scheme, locale = look
    ids = [players.create(db, None, {"character": name, "hp_max": 3, "chance_max": 1,
                                     "cartridges": 1, "suit": "S"})["id"]
           for name in NAMES[:seats]]
    a, b, c = ids[:3]
    game_id = coup.create(db, None, ids).id
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to=f"/coup/{game_id}")
    t = Thumb(page, game_id)
    t.version = coup.load(db, game_id).version
    shoot(page, f"coup-{seats}-start-{size['width']}-{scheme}-{locale}")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

    # The first player takes foreign aid; the second blocks claiming the Duchess and is
    # challenged by the first; the Duchess is shown, so the first turns a card up (C7, C8).
    t.tap("button[data-action='foreign_aid']")
    assert t.ask() == "block"
    shoot(page, f"coup-{seats}-block-{size['width']}-{scheme}-{locale}")
    t.tap(f".ask button[data-player='{b}']")
    assert t.ask() == "challenge"
    t.tap(f".ask button[data-player='{a}']")
    assert t.ask() == "show_or_turn_up"
    t.tap("button[data-answer='shown']")
    assert t.ask() == "lose_influence"
    t.tap(".ask button[data-card='captain']")
    assert t.ask() == "declare"

    # The second player steals from the third, who blocks as the Captain; the block is
    # challenged by the second player, and the third turns up a card: the steal stands.
    t.tap("a[data-action='steal']", writes=False)
    shoot(page, f"coup-{seats}-target-{size['width']}-{scheme}-{locale}")
    t.tap(f"button.seat.target[data-seat='{c}']")
    assert t.ask() == "challenge"
    t.tap("button[data-answer='nobody']")
    assert t.ask() == "block"
    t.tap(f".ask button[data-player='{c}'][data-card='captain']")
    assert t.ask() == "challenge"
    t.tap(f".ask button[data-player='{b}']")
    assert t.ask() == "show_or_turn_up"
    t.tap(".ask button[data-card='assassin']")
    assert t.ask() == "declare"
    shoot(page, f"coup-{seats}-after-{size['width']}-{scheme}-{locale}")

    # Scrolled down a little (towards Undo, say), an answer leaves the window there: the
    # next question comes up where the last one was, no jump to the top.
    page.evaluate("window.scrollTo(0, 40)")
    page.wait_for_function("scrollY === 40")
    t.tap("button[data-action='income']", scrolled=40)
    assert t.ask() == "declare"

    # Two turns, each answer one tap where it was: 5 for the foreign aid, 6 for the steal;
    # then an income.
    assert t.taps == 12, t.taps
    state = coup.load(db, game_id).state
    coins = {p.id: p.coins for p in state.players}
    assert (coins[str(a)], coins[str(b)], coins[str(c)]) == (2, 4, 1)
    influence = {p.id: p.influence for p in state.players}
    assert (influence[str(a)], influence[str(b)], influence[str(c)]) == (1, 2, 1)
    the_end_in_view(t, c, size, locale)

    # The other look, on the same screen: the question's answers in reach, the strip.
    size, scheme, locale = other
    to_look(page, live_server, f"/coup/{game_id}", size, scheme, locale)
    shoot(page, f"coup-{seats}-after-{size['width']}-{scheme}-{locale}")
    assert t.ask() == "declare"
    the_end_in_view(t, c, size, locale)


def the_end_in_view(t: Thumb, c: int, size: dict, locale: str) -> None:
    """The turn's last screen in this look: the next question's every answer in reach,
    the third seat's face-up card on the strip, nothing wider than the screen."""
    page = t.page
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("scrollY === 0")
    t.answers_in_reach()
    # The strip shows it: the third seat's face-up card, everyone's coins.
    strip = page.locator(f"{t.root} [data-seat='{c}']").inner_text()
    assert ("Assassin" if locale == "en-US" else "Убийца") in strip
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
