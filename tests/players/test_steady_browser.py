"""Nothing moves under the thumb, and Undo takes back what it names, on small
phones, light and dark, in Russian and English.

A double tap is two taps at one point of the screen: the tests tap points, not controls,
and read the database afterwards."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.accounts.service import add_referee
from referee.games.duel import service as duels
from referee.games.duel.rules import Play, Round
from referee.players import service
from referee.store import players
from tests.browser_fixtures import PHONE, SMALL, shoot, sign_in, to_look

pytestmark = pytest.mark.browser

# (size, colour scheme, browser language): every size, scheme and language at least once,
# in two looks (four took a tenth of the suite's time for no more found). The double tap on
# Undo, the duel's Undo on the sheet and the Undo in the feed play once, in the strict look
# (the narrowest screen, the longer words), then turn their page to the other look for one
# more look at their screen.
TWO = [(PHONE, "light", "en-US"), (SMALL, "dark", "ru-RU")]
OTHER, STRICT = TWO


def combo_id(combo) -> str:
    size, scheme, locale = combo
    return f"{size['width']}x{size['height']}-{scheme}-{locale[:2]}"


def referee_id(db, name: str) -> int:
    return db.execute("SELECT id FROM referees WHERE name = ?", [name]).fetchone()[0]


def centre(page, selector: str) -> tuple[float, float]:
    """A control's centre on the screen (viewport pixels), where a thumb taps it."""
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# The control a tap at (x, y) would reach now: its row's id, tag and text; null for none.
CONTROL_AT = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  const c = el && el.closest('button, a[href], input, select, textarea, summary, label');
  return c && [(c.closest('[id]') || {}).id || '', c.tagName, c.textContent.trim()];
}"""

# Every control of a player's card, as where it lies on the screen (viewport top).
CONTROLS_Y = """sel => [...document.querySelectorAll(sel + ' .tap, ' + sel + ' .btn.undo')]
  .map(el => Math.round(el.getBoundingClientRect().top))"""


def stats_of(db, player_id: int) -> dict:
    row = players.get(db, player_id)
    return {k: row[k] for k in ("hp", "chance", "cartridges", "level", "status")}


def wait_version(page, player_id: int, version: int) -> None:
    page.wait_for_selector(f"#player-{player_id}[data-version='{version}']")


def asks_over_the_sheet(page, card: str, controls: list, point: tuple, combo):
    """anna's change asks before it is undone: the question floats over the sheet, nothing
    below it moved, and the point tapped reaches no control (the backdrop takes it)."""
    question = page.locator(f"{card} .confirm-undo")
    question.wait_for()
    shoot(page, f"steady-undo-{combo_id(combo)}-question")
    assert page.evaluate(CONTROLS_Y, card) == controls
    assert "anna" in question.inner_text()
    assert question.evaluate("el => getComputedStyle(el).position") == "fixed"
    assert page.evaluate(CONTROL_AT, list(point)) is None
    return question


def test_a_double_tap_on_undo_never_reaches_another_control(phone_of, live_server, db):
    combo = STRICT
    size, scheme, locale = combo
    add_referee(db, "anna", "anna-password", False, by=None)
    row = service.create(db, None, {"character": "Атаманша Дуся", "player": "Ольга",
                                    "hp_max": 5, "chance_max": 2, "cartridges": 3,
                                    "level": 3, "suit": "S"})
    pid = row["id"]
    service.adjust(db, referee_id(db, "anna"), pid, {"hp": -1})  # anna's change first
    service.adjust(db, referee_id(db, "ref"), pid, {"cartridges": -1})  # then our own
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to=f"/players/{pid}")
    card = f"#player-{pid}"
    version = players.get(db, pid)["version"]
    controls = page.evaluate(CONTROLS_Y, card)
    x, y = centre(page, f"{card} .last .btn")
    shoot(page, f"steady-undo-{combo_id(combo)}-before")

    # First tap: our own change goes back at once; the card's Undo now offers anna's.
    page.touchscreen.tap(x, y)
    wait_version(page, pid, version + 1)
    assert stats_of(db, pid)["cartridges"] == 3
    assert page.evaluate(CONTROLS_Y, card) == controls

    # Second tap at the same point: anna's change asks first, floating over the sheet.
    page.touchscreen.tap(x, y)
    question = asks_over_the_sheet(page, card, controls, (x, y), combo)

    # A third tap at that point (the double tap's second half) changes nothing; "Keep it"
    # closes the question, and nothing was undone.
    page.touchscreen.tap(x, y)
    page.get_by_role("link", name="Оставить" if locale == "ru-RU" else "Keep it").tap()
    question.wait_for(state="detached")
    assert players.get(db, pid)["version"] == version + 1
    assert page.evaluate(CONTROLS_Y, card) == controls
    # Asked again, and answered yes: anna's change goes back too.
    page.locator(f"{card} .last .btn").tap()
    question.wait_for()
    page.get_by_role("button", name="Да, отменить" if locale == "ru-RU" else "Yes, undo it").tap()
    wait_version(page, pid, version + 2)
    assert stats_of(db, pid) == {"hp": 5, "chance": 2, "cartridges": 3, "level": 3,
                                 "status": "active"}
    kinds = [r[0] for r in db.execute(
        "SELECT kind FROM events WHERE player_id = ? ORDER BY id", [pid])]
    assert kinds == ["create", "adjust", "adjust", "undo", "undo"]
    assert page.evaluate(CONTROLS_Y, card)[:8] == controls[:8]  # the −/+ keys stayed
    shoot(page, f"steady-undo-{combo_id(combo)}-after")

    # The other look, on the card as it was left: anna changes it once more, and the page
    # turns to the larger phone, light, in English. Her change's Undo asks over the sheet
    # there too, over the point tapped, moving nothing; its answers read in English (their
    # taps were the strict run's).
    service.adjust(db, referee_id(db, "anna"), pid, {"hp": -1})
    combo = OTHER
    to_look(page, live_server, f"/players/{pid}", *combo)
    version = players.get(db, pid)["version"]
    wait_version(page, pid, version)
    controls = page.evaluate(CONTROLS_Y, card)
    x, y = centre(page, f"{card} .last .btn")
    page.touchscreen.tap(x, y)
    asks_over_the_sheet(page, card, controls, (x, y), combo)
    expect(page.get_by_role("link", name="Keep it")).to_be_visible()
    expect(page.get_by_role("button", name="Yes, undo it")).to_be_visible()


def test_D10_after_a_duel_the_sheet_undo_names_the_duel_and_never_heals(phone_of, live_server,
                                                                         db):
    combo = STRICT
    size, scheme, locale = combo
    ref = referee_id(db, "ref")
    a = service.create(db, None, {"character": "Captain A", "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "S"})
    b = service.create(db, None, {"character": "Brigadier B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    service.adjust(db, ref, b["id"], {"hp": -1})
    service.adjust(db, ref, b["id"], {"hp": -1})  # "tap: HP 2 → 1"
    duel = duels.start(db, ref, a["id"], b["id"])
    duels.record(db, ref, duel.id, Round(a=Play("KS"), b=Play("6C")))  # D10: B at 0 HP
    wounded = stats_of(db, b["id"])
    assert (wounded["hp"], wounded["status"]) == (0, "heavy_wound")

    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to=f"/players/{b['id']}")
    x, y = latest_names_the_duel(page, b["id"], combo)
    # The sheet's latest control leads to the duel, whose Undo takes the round back.
    page.touchscreen.tap(x, y)
    page.wait_for_url(f"{live_server}/duels/{duel.id}")
    assert stats_of(db, b["id"]) == wounded  # nothing healed, the heavy wound stands
    kinds = [r[0] for r in db.execute(
        "SELECT kind FROM events WHERE player_id = ? ORDER BY id", [b["id"]])]
    assert kinds == ["create", "adjust", "adjust", "duel", "duel"]

    # The other look, on the sheet the tap left: it names the duel there too, in English,
    # and a tap at its control's centre would reach that control, the duel's address.
    combo = OTHER
    to_look(page, live_server, f"/players/{b['id']}", *combo)
    x, y = latest_names_the_duel(page, b["id"], combo)
    assert page.evaluate(CONTROL_AT, [x, y]) == [f"last-{b['id']}", "A", "Open Duel 1"]
    assert page.locator(f"#player-{b['id']} .last .btn").get_attribute("href") == \
        f"/duels/{duel.id}"
    assert stats_of(db, b["id"]) == wounded


def latest_names_the_duel(page, player_id: int, combo) -> tuple[float, float]:
    """The sheet's latest change, in this look, is the duel's round, not the tap before
    it; its control, brought into view, is where a thumb taps it."""
    latest = page.locator(f"#player-{player_id} .last")
    shoot(page, f"steady-duel-{combo_id(combo)}-sheet")
    text = latest.inner_text()
    round_name = "Дуэль №1, раунд 1" if combo[2] == "ru-RU" else "Duel 1, round 1"
    assert round_name in text and "2 → 1" not in text
    page.locator(f"#player-{player_id} .last .btn").scroll_into_view_if_needed()
    return centre(page, f"#player-{player_id} .last .btn")


def test_an_undo_in_the_feed_leaves_no_other_undo_under_the_finger(phone_of, live_server, db):
    combo = STRICT
    size, scheme, locale = combo
    ref = referee_id(db, "ref")
    for n in range(4):
        row = service.create(db, None, {"character": f"Player {n}", "hp_max": 3,
                                        "chance_max": 1, "cartridges": 3, "suit": "H"})
        service.adjust(db, ref, row["id"], {"cartridges": -1})
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, to="/events")
    taps = [e for (e,) in db.execute("SELECT id FROM events WHERE kind = 'adjust' "
                                     "ORDER BY id DESC")]
    undo_in_feed(page, taps[1], combo)
    assert db.execute("SELECT count(*) FROM events WHERE kind = 'undo'").fetchone()[0] == 1

    # The other look, on the feed as it was left (its second tap undone): the third tap's
    # Undo, tapped there, leaves no other Undo under the finger either.
    combo = OTHER
    to_look(page, live_server, "/events", *combo)
    assert page.locator(f"#event-{taps[1]}.undone").count() == 1
    undo_in_feed(page, taps[2], combo)
    assert db.execute("SELECT count(*) FROM events WHERE kind = 'undo'").fetchone()[0] == 2


def undo_in_feed(page, event_id: int, combo) -> None:
    """A tap on the event's Undo in the feed: the row is undone, and is still what lies
    under the finger; no other row's Undo came there."""
    row = f"#event-{event_id}"
    x, y = centre(page, f"{row} button")
    page.touchscreen.tap(x, y)
    page.wait_for_selector(f"{row}.undone")
    shoot(page, f"steady-feed-{combo_id(combo)}")
    assert page.evaluate(CONTROL_AT, [x, y]) in (None, [f"event-{event_id}", "BUTTON", ""])
    top = page.locator(row).bounding_box()["y"]
    assert top <= y <= top + page.locator(row).bounding_box()["height"]


def test_a_tap_on_a_card_htmx_has_not_readied_yet_is_still_answered_in_place(phone_of,
                                                                            live_server, db):
    """htmx readies what it swaps in only when the swap settles (20 ms; later on a busy
    phone). The second tap of a double tap on Undo can come in between: it must still be
    sent by htmx and answered in place, not send the new card's form the old way and load
    a whole page. The settle is held for two seconds here, so the tap surely comes first."""
    ref = referee_id(db, "ref")
    pid = service.create(db, None, {"character": "Атаманша Дуся", "hp_max": 5,
                                    "chance_max": 2, "cartridges": 3, "suit": "S"})["id"]
    service.adjust(db, ref, pid, {"hp": -1})
    service.adjust(db, ref, pid, {"cartridges": -1})  # our own two changes: no question
    page = phone_of(SMALL, locale="ru-RU", color_scheme="dark")
    sign_in(page, live_server, to=f"/players/{pid}")
    card = f"#player-{pid}"
    version = players.get(db, pid)["version"]
    wait_version(page, pid, version)
    page.evaluate("() => { htmx.config.defaultSettleDelay = 2000; window.samePage = 1; }")
    x, y = centre(page, f"{card} .last .btn")

    page.touchscreen.tap(x, y)  # the cartridge goes back; the new card is not readied yet
    wait_version(page, pid, version + 1)
    assert page.locator(f"{card}.htmx-settling").count() == 1
    page.touchscreen.tap(x, y)  # the HP goes back too, answered in place
    wait_version(page, pid, version + 2)

    assert page.evaluate("window.samePage") == 1  # no page was loaded
    assert stats_of(db, pid)["hp"] == 5 and stats_of(db, pid)["cartridges"] == 3
    assert page.url == f"{live_server}/players/{pid}"
