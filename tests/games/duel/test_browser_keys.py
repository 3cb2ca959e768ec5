"""The duel's card keys on a phone are thumb-sized (44 px or taller) and the nine
of a row share its whole width, while both duelists' grids, their hand cards and Confirm
stay on one screen at 360 × 740."""

from __future__ import annotations

import itertools

import pytest

from referee.games.duel import service as duels
from referee.players import service
from tests.browser_fixtures import PHONE, shoot, sign_in
from tests.games.duel.test_browser import LONG

SMALL = {"width": 360, "height": 740}

# For each keypad and hand row: its inner box and its cells' boxes, row by row.
ROWS = """() => [...document.querySelectorAll('.keypad, .hand-row')].map(grid => {
  const g = grid.getBoundingClientRect();
  const cells = [...grid.children].map(c => c.getBoundingClientRect());
  const rows = [];
  for (let i = 0; i < cells.length; i += 9) rows.push(cells.slice(i, i + 9).map(
    b => ({left: b.left, right: b.right, top: b.top, bottom: b.bottom,
           width: b.width, height: b.height})));
  return {cls: grid.className, left: g.left + grid.clientLeft,
          right: g.left + grid.clientLeft + grid.clientWidth, rows};
})"""
# Every key and hand card: whole in the viewport and reached by a tap at its centre (not
# under the sticky confirm bar or the header).
UNREACHED = """() => [
  ...document.querySelectorAll('label.key, .hand-cell label.lay, button.confirm')]
  .filter(el => {
    const b = el.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return !(b.top >= 0 && b.bottom <= innerHeight && b.left >= 0 && b.right <= innerWidth
             && hit && (hit === el || el.contains(hit)));
  }).map(el => el.dataset.card || el.textContent.trim())"""


@pytest.mark.parametrize(("size", "scheme", "locale"), [
    (SMALL, "dark", "ru-RU"), (PHONE, "light", "en-US")],  # each size, scheme, language once
    ids=["360x740-dark-ru", "390x844-light-en"])
def test_D2_D6_card_keys_are_thumb_sized_and_fill_the_row_on_one_screen(
        phone_of, live_server, db, size, scheme, locale):
    a = service.create(db, None, {"character": LONG, "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "H"})
    b = service.create(db, None, {"character": "Brigadier B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    duel_id = duels.start(db, None, a["id"], b["id"]).id
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to=f"/duels/{duel_id}")
    page.wait_for_selector(f"#duel-{duel_id}[data-version='1']")
    shoot(page, f"duel-keys-{size['width']}-{scheme}-{locale}")

    grids = page.evaluate(ROWS)
    assert [g["cls"] for g in grids].count("keypad") == 2
    for grid in grids:
        for row in grid["rows"]:
            assert len(row) == 9
            # thumb-sized: 44 px tall at least, and wider than the 33 px of the report
            assert min(c["height"] for c in row) >= 44, (grid["cls"], row)
            assert min(c["width"] for c in row) >= 36, (grid["cls"], row)
            # the row's whole width: from the grid's inner left edge to its right edge,
            # with at most a hairline between two keys
            assert row[0]["left"] - grid["left"] <= 0.5, grid
            assert grid["right"] - row[-1]["right"] <= 0.5, grid
            gaps = [nxt["left"] - cur["right"] for cur, nxt in itertools.pairwise(row)]
            assert max(gaps) <= 1.01, (grid["cls"], gaps)
        # the grid itself nearly spans the screen (the duel runs edge to edge)
        assert grid["right"] - grid["left"] >= size["width"] - 12, grid
    # 72 table-deck keys, 18 hand cards and Confirm: all on the first screen, reachable
    assert page.evaluate(UNREACHED) == []
    assert page.evaluate("scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
