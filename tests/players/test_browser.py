"""A referee on a phone: sign in, find a player, tap −HP three times, undo once."""

from __future__ import annotations

from referee.players import service
from tests.browser_fixtures import sign_in, sign_in_through_the_form


def test_tap_minus_hp_three_times_and_undo_once(phone, live_server, db):
    dusya = service.create(db, None, {"character": "Атаманша Дуся", "player": "Ольга",
                                      "hp_max": 5, "chance_max": 1, "cartridges": 5,
                                      "suit": "S"})
    service.create(db, None, {"character": "Corporal Hale", "hp_max": 3, "chance_max": 2,
                              "cartridges": 4, "suit": "S"})
    sign_in_through_the_form(phone, live_server)

    # Active search narrows the list without a page load.
    phone.fill("input[type=search]", "дус")
    phone.wait_for_selector("#player-list >> text=Corporal Hale", state="detached")
    phone.click("#player-list >> text=Атаманша Дуся")
    phone.wait_for_url(f"{live_server}/players/{dusya['id']}")

    hp = phone.locator(f"#player-{dusya['id']} output[data-stat=hp]")
    minus = phone.get_by_role("button", name="HP −1")
    for expected in ("4", "3", "2"):
        minus.tap()
        phone.wait_for_function(
            "([sel, v]) => document.querySelector(sel).firstChild.textContent.trim() === v",
            arg=[f"#player-{dusya['id']} output[data-stat=hp]", expected])
    phone.get_by_role("button", name="Undo").first.tap()
    phone.wait_for_function(
        "([sel, v]) => document.querySelector(sel).firstChild.textContent.trim() === v",
        arg=[f"#player-{dusya['id']} output[data-stat=hp]", "3"])

    assert hp.inner_text().startswith("3")
    assert db["players"].get(dusya["id"])["hp"] == 3
    kinds = [r[0] for r in db.execute(
        "SELECT kind FROM events WHERE player_id = ? ORDER BY id", [dusya["id"]])]
    assert kinds == ["create", "adjust", "adjust", "adjust", "undo"]
    # The history below the card followed along without a reload.
    assert phone.locator(f"#history-{dusya['id']} li").count() == 5
    # Nothing scrolls sideways at phone width, and the tap targets are thumb-sized.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = minus.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44


def test_refusal_shows_the_rule_on_the_phone(phone, live_server, db):
    row = service.create(db, None, {"character": "Vera", "hp_max": 3, "chance_max": 2,
                                    "cartridges": 0, "suit": "H"})
    sign_in(phone, live_server, to=f"/players/{row['id']}")
    phone.get_by_role("button", name="Cartridges −1").tap()
    alert = phone.locator(f"#player-{row['id']} .alert")
    alert.wait_for()
    assert alert.inner_text() == "D4: Cartridges cannot go below 0; they would be -1."
    assert db["players"].get(row["id"])["cartridges"] == 0


def test_player_sees_their_passport_read_only(phone, live_server, db):
    row = service.create(db, None, {"character": "<b>Орлов</b>", "hp_max": 4,
                                    "chance_max": 1, "cartridges": 2, "suit": "C"})
    phone.goto(f"{live_server}/p/{row['passport_token']}")
    assert phone.locator("h1.character").inner_text() == "<b>Орлов</b>"
    assert phone.locator("button").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def rows_shown(phone, player_id: int) -> list[list]:
    """The history as the screen shows it: each row's id and whether it is marked undone."""
    return phone.eval_on_selector_all(
        f"#history-{player_id} li",
        "items => items.map(li => [li.id, li.classList.contains('undone')])")


def test_history_follows_taps_and_undos_as_after_a_reload(phone, live_server, db):
    row = service.create(db, None, {"character": "Vera", "hp_max": 5, "chance_max": 1,
                                    "cartridges": 5, "suit": "H"})
    sign_in(phone, live_server, to=f"/players/{row['id']}")
    value = "([sel, v]) => document.querySelector(sel).firstChild.textContent.trim() === v"
    phone.get_by_role("button", name="HP −1").tap()
    phone.wait_for_function(value, arg=[f"#player-{row['id']} output[data-stat=hp]", "4"])
    phone.get_by_role("button", name="Cartridges +1").tap()
    phone.wait_for_function(value, arg=[f"#player-{row['id']} output[data-stat=cartridges]",
                                        "6"])
    hp, cartridges = (r[0] for r in db.execute(
        "SELECT id FROM events WHERE player_id = ? AND kind = 'adjust' ORDER BY id",
        [row["id"]]))
    # Each tap's row went on top, once.
    assert [r[0] for r in rows_shown(phone, row["id"])][:2] == \
        [f"event-{cartridges}", f"event-{hp}"]

    # Undo the older tap from its row in the history, not the card's latest change.
    phone.locator(f"#event-{hp} button").tap()
    phone.locator(f"#event-{hp}.undone").wait_for()
    undo = db.execute("SELECT id FROM events WHERE undoes = ?", [hp]).fetchone()[0]
    shown = rows_shown(phone, row["id"])
    ids = [r[0] for r in shown]
    assert len(ids) == len(set(ids)) == 4  # create, two taps, the undo: no row twice
    assert shown[0] == [f"event-{undo}", False]
    assert [f"event-{hp}", True] in shown
    assert phone.locator(f"#event-{hp} button").count() == 0
    assert phone.locator(f"#player-{row['id']} .undo").count() == 1  # the cartridges tap
    assert phone.locator(f"#player-{row['id']} .last form").get_attribute("action") == \
        f"/events/{cartridges}/undo"

    phone.reload()
    assert rows_shown(phone, row["id"]) == shown


def test_a_full_history_keeps_the_latest_50_as_taps_come_as_after_a_reload(phone, live_server,
                                                                           db):
    row = service.create(db, None, {"character": "Vera", "hp_max": 5, "chance_max": 1,
                                    "cartridges": 5, "suit": "H"})
    for n in range(50):  # with its creation, 51 changes: one more than the sheet shows
        service.adjust(db, None, row["id"], {"cartridges": 1 if n % 2 == 0 else -1})
    sign_in(phone, live_server, to=f"/players/{row['id']}")
    before = rows_shown(phone, row["id"])
    assert len(before) == 50
    phone.get_by_role("button", name="HP −1").tap()
    phone.locator(f"#player-{row['id']} output[data-stat=hp]", has_text="4").wait_for()
    phone.wait_for_function("sel => document.querySelectorAll(sel).length === 50",
                            arg=f"#history-{row['id']} li")
    shown = rows_shown(phone, row["id"])
    assert shown[1:] == before[:49]  # the tap on top, the oldest gone
    phone.reload()
    assert rows_shown(phone, row["id"]) == shown
