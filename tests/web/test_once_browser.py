"""Back, then Start the table again: one table in the database, and
the screen says it was already started, at 390 × 844 and 360 × 740."""

from __future__ import annotations

import re

import pytest

from referee.players import service
from tests.browser_fixtures import PHONE, shoot, sign_in

pytestmark = pytest.mark.browser

SIZES = [PHONE, {"width": 360, "height": 740}]


def in_view(page, selector: str) -> bool:
    """Whether the element lies inside the window as it is scrolled now."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and \
        box["y"] + box["height"] <= page.evaluate("innerHeight")


# Each size once, one in each scheme: the notice's colours are the same at every width.
@pytest.mark.parametrize(("size", "scheme"), list(zip(SIZES, ["light", "dark"], strict=True)),
                         ids=lambda v: f"{v['width']}x{v['height']}" if isinstance(v, dict)
                         else v)
def test_back_and_start_again_opens_the_same_table(phone_of, live_server, db, size, scheme):
    ids = [service.create(db, None, {"character": name, "hp_max": 3, "chance_max": 1,
                                     "cartridges": 1, "suit": "S"})["id"]
           for name in ("Anna", "Boris")]
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
    notice = page.locator(".once-notice")
    assert notice.inner_text() == "This table was already started: here it is."
    assert in_view(page, ".once-notice")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert taps == 2  # one tap each time: nothing more to confirm
    shoot(page, f"once-{size['width']}-{scheme}")
