"""A battle on a phone as it is played in the field: from
the open battle a usual strike is four taps with nothing scrolled, its result is in view
at the top afterwards, undo shows what it took back, and a refused tap moves nothing
(B10, B11, B12).

The battle is played once on the small phone (360×740, dark), then the same page is
turned to the larger one (390×844, light) and its last screen checked again. English
throughout: the test reads the screen's sentences."""

from __future__ import annotations

import pytest

from referee.games.berserk import rules as berserk
from referee.games.berserk import service as battles
from referee.games.berserk import squads
from referee.players import service as players
from tests.browser_fixtures import PHONE, SETTLED, shoot, sign_in

pytestmark = pytest.mark.browser

# (size, colour scheme): the battle is played in the first, the last screen seen in both.
SMALL_DARK = ({"width": 360, "height": 740}, "dark")
PHONE_LIGHT = (PHONE, "light")


def settled(page) -> None:
    """The latest swap has settled: classes and scroll are the new screen's."""
    page.wait_for_function(SETTLED)

# Where an element is, and whether a tap at its middle lands on it (and not on the sticky
# Confirm bar, the top bar or anything else over it); how far the page is wider than the
# screen (its clientWidth: a phone's innerWidth grows with a page too wide for it).
SEEN = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {top: box.top, bottom: box.bottom, pageTop: box.top + scrollY,
          free: !!hit && el.contains(hit),
          below: document.querySelector('header.top').getBoundingClientRect().bottom,
          height: innerHeight, sideways: document.documentElement.scrollWidth
          - document.documentElement.clientWidth};
}"""


def seen(page, selector: str, top_bar: bool = False) -> dict:
    """Where the element is; it must be on the screen and below the top bar (or, for what
    floats, over it)."""
    where = page.evaluate(SEEN, selector)
    assert where is not None, selector
    top = 0 if top_bar else where["below"]
    assert top - 0.5 <= where["top"] and where["bottom"] <= where["height"] + 0.5, \
        (selector, where)
    assert where["sideways"] <= 0, (selector, where)  # nothing sticks out sideways
    return where


def six_a_side(db) -> int:
    """Anna's Steppe and Forest against Boris's Swamps and Darkness, six cards each, as
    squads are built (B12–B14); the battle's number."""
    anna = players.create(db, None, {"character": "Anna", "hp_max": 3, "chance_max": 1,
                                     "cartridges": 1, "suit": "H"})
    boris = players.create(db, None, {"character": "Boris", "hp_max": 3, "chance_max": 1,
                                      "cartridges": 1, "suit": "S"})
    ids = []
    for player, seat, codes in ((anna, "first", ("B01", "B02", "B01", "B03", "B04", "B13")),
                                (boris, "second", ("B07", "B08", "B07", "B09", "B13", "B14"))):
        ids.append(squads.save(db, None, None, player_id=player["id"], name=seat,
                               deck="berserk-sample", seat=seat,
                               chosen=tuple(squads.Pick(c) for c in codes),
                               settings=berserk.PUBLISHED)["id"])
    return battles.create(db, None, ids[0], ids[1], berserk.PUBLISHED).id


def test_B11_a_usual_strike_in_four_taps_with_its_result_in_view(phone_of, live_server, db):
    game_id = six_a_side(db)
    size, scheme = SMALL_DARK
    page = phone_of(size, color_scheme=scheme)
    page.on("dialog", lambda dialog: dialog.accept())  # the undo's confirmation
    battle = f"#battle-{game_id}"
    w = size["width"]

    def tap(selector: str) -> None:
        """One tap on what is on the screen now: never scrolled to, never covered."""
        assert seen(page, selector)["free"], f"{selector} is covered"
        page.locator(selector).tap()

    def strike(target: str, a_die: int, d_die: int, version: int) -> int:
        """Target, both dice, Confirm: the taps, none of them after a scroll."""
        taps = 0
        for selector in (f"label[data-target='{target}']", f"label[data-a-die='{a_die}']",
                         f"label[data-d-die='{d_die}']"):
            tap(selector)
            taps += 1
            page.wait_for_selector(f"{selector} input:checked")
        page.wait_for_selector(".s-preview button.confirm")
        # A Confirm that has just come up under the thumb takes taps a moment later only.
        page.wait_for_function("() => getComputedStyle(document.querySelector("
                               "'.s-preview button.confirm')).pointerEvents === 'auto'")
        tap(".s-preview button.confirm")
        taps += 1
        page.wait_for_selector(f"{battle}[data-version='{version}']")
        settled(page)
        assert page.evaluate("scrollY") == 0  # the whole strike, and after it, at the top
        return taps

    sign_in(page, live_server, to=f"/berserk/{game_id}")
    shoot(page, f"battle-{w}-open")
    # B12: the first player strikes first; its first open creature is chosen.
    assert page.locator("label[data-attacker='a1'] input").is_checked()

    # B11, Δ +3: a medium strike of a1's 1-2-2, no answer.
    assert strike("b1", 5, 2, version=1) <= 4
    state = battles.load(db, game_id).state
    assert berserk.creature(state, "b1").wounds == 2
    assert berserk.creature(state, "a1").tapped  # B11: a creature that strikes is tapped
    seen(page, ".b-result")
    result = page.locator(".b-result").inner_text()
    assert "Last strike: a1 → b1: medium strike, 2 wounds; no answer" in " ".join(
        result.split())
    shoot(page, f"battle-{w}-struck")

    # The next open creature of side a is chosen; the result above does not push the
    # dice under the Confirm bar. B11, Δ 0 with A ≤ 4: a weak strike, no answer.
    assert page.locator("label[data-attacker='a2'] input").is_checked()
    assert strike("b2", 3, 3, version=2) <= 4
    assert berserk.creature(battles.load(db, game_id).state, "b2").wounds == 1
    seen(page, ".b-result")

    # Undo, one tap: what it took back is said at the top, and a2 may strike again.
    tap(".b-result button.undo")
    page.wait_for_selector(f"{battle}[data-version='3']")
    # Until the swap settles the result keeps the class it had (htmx), so wait for its own.
    page.wait_for_selector(f"{battle} .b-result.undone")
    settled(page)
    seen(page, ".b-result.undone")
    assert "Undone:" in page.locator(".b-result").inner_text()
    state = battles.load(db, game_id).state
    assert berserk.creature(state, "b2").wounds == 0 and berserk.creature(state, "a2").open
    assert page.locator("label[data-attacker='a2'] input").is_checked()
    shoot(page, f"battle-{w}-undone")

    button = "#cr-b1 .wound-form button"

    def refused(width: int) -> None:
        """A refused tap (B10: wounds from 1 to 99) floats its reason and moves nothing."""
        if not page.locator("#cr-b1").evaluate("details => details.open"):
            page.locator("#cr-b1 > summary").tap()
        page.locator("#cr-b1 input[name=amount]").fill("0")
        page.locator(button).scroll_into_view_if_needed()
        before = seen(page, button)
        scrolled = page.evaluate("scrollY")
        # A refusal already up is the last tap's: the one to wait for is a new one.
        page.evaluate("() => document.querySelectorAll('.alert.refusal')"
                      ".forEach(old => { old.dataset.old = ''; })")
        tap(button)
        page.wait_for_selector(f"{battle} .alert.refusal:not([data-old])")
        settled(page)
        refusal = seen(page, ".alert.refusal", top_bar=True)
        assert refusal["top"] < before["top"]
        assert "B10: Wounds must be a whole number from 1 to 99" in page.locator(
            ".alert.refusal").inner_text()
        after = seen(page, button)
        assert (page.evaluate("scrollY"), after["pageTop"]) == pytest.approx(
            (scrolled, before["pageTop"]), abs=1)
        assert battles.load(db, game_id).version == 3  # nothing was written
        shoot(page, f"battle-{width}-refused")

    refused(w)

    # The larger phone, light, on the screen the battle ended on: the page as it stands,
    # reflowed. At the top the result still says what the undo took back; the refused
    # tap, tapped again, floats its reason there too and moves nothing.
    size, scheme = PHONE_LIGHT
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("scrollY === 0")
    seen(page, ".b-result.undone")
    assert "Undone:" in page.locator(".b-result").inner_text()
    assert page.locator("label[data-attacker='a2'] input").is_checked()
    refused(size["width"])
