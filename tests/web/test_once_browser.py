"""Back, then Start the table again: one table in the database, and
the screen says it was already started, at 390 × 844 and 360 × 740.

Played once on the smaller phone, dark; the screen it ends on is then turned to the larger
phone, light, as it stands: its notice is said once (a flashed message), so the page is
reflowed, not opened again. English throughout: the test reads the screen's sentences."""

from __future__ import annotations

import re

import pytest

from referee.players import service
from tests.browser_fixtures import PHONE, SMALL, shoot, sign_in

pytestmark = pytest.mark.browser

# (size, colour scheme): each size once, one in each scheme (the notice's colours are the
# same at every width); played in the first, its last screen seen in both.
SMALL_DARK = (SMALL, "dark")
PHONE_LIGHT = (PHONE, "light")


def in_view(page, selector: str) -> bool:
    """Whether the element lies inside the window as it is scrolled now."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and \
        box["y"] + box["height"] <= page.evaluate("innerHeight")


def test_back_and_start_again_opens_the_same_table(phone_of, live_server, db):
    ids = [service.create(db, None, {"character": name, "hp_max": 3, "chance_max": 1,
                                     "cartridges": 1, "suit": "S"})["id"]
           for name in ("Anna", "Boris")]
    size, scheme = SMALL_DARK
    page = phone_of(size, color_scheme=scheme)
    sign_in(page, live_server)
    page.goto(f"{live_server}/coup/new?" + "&".join(f"seat={i}" for i in ids))
    taps = 0
    page.get_by_role("button", name="Start the table").tap()
    taps += 1
    page.wait_for_url(re.compile(r".*/coup/\d+$"))
    first = page.url
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 1

    page.go_back()  # the setup again, fetched anew (no-store) with the same key
    page.wait_for_url(re.compile(r".*/coup/new\?.*once="))
    page.get_by_role("button", name="Start the table").tap()
    taps += 1
    page.wait_for_url(re.compile(r".*/coup/\d+$"))
    assert page.url == first
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    said_once(page, size, scheme)
    assert taps == 2  # one tap each time: nothing more to confirm

    # The larger phone, light, on the same screen: the page as it stands, reflowed.
    size, scheme = PHONE_LIGHT
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    said_once(page, size, scheme)


def said_once(page, size: dict, scheme: str) -> None:
    """The table's screen says it was already started, the notice in view, nothing wider
    than the screen (its clientWidth: a phone's innerWidth grows with a page too wide)."""
    notice = page.locator(".once-notice")
    assert notice.inner_text() == "This table was already started: here it is."
    assert in_view(page, ".once-notice")
    assert page.evaluate("document.documentElement.scrollWidth"
                         " <= document.documentElement.clientWidth")
    shoot(page, f"once-{size['width']}-{scheme}")
