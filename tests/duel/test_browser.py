"""A referee on a phone settles a whole duel with an extension, counting every tap."""

from __future__ import annotations

import re

from referee.games.duel import service as duels
from referee.players import service
from referee.store import players as rows


def sign_in(page, base, name="ref", password="ref-password"):
    page.goto(base + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")


class Taps:
    """Taps on the duel screen, counted: the issue allows 12 for three plain rounds."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, selector: str) -> None:
        self.page.locator(selector).tap()
        self.count += 1

    def card(self, side: str, card: str) -> None:
        self(f"label.key[data-side='{side}'][data-card='{card}']")

    def confirm(self) -> None:
        self("button.confirm")


def wait_version(page, duel_id: int, version: int) -> None:
    page.wait_for_selector(f"#duel-{duel_id}[data-version='{version}']")


def test_D4_to_D14_full_duel_with_an_extension_in_few_taps(phone, live_server, db):
    a = service.create(db, None, {"character": "Captain A", "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "H"})
    b = service.create(db, None, {"character": "Brigadier B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    phone.on("dialog", lambda dialog: dialog.accept())  # the undo's confirmation
    sign_in(phone, live_server)

    # From A's sheet (where a scanned passport lands), pick B by search and start.
    phone.goto(f"{live_server}/players/{a['id']}")
    phone.get_by_role("link", name="Start a duel").tap()
    phone.fill("input[type=search]", "brig")
    phone.locator("#duel-pick >> text=Brigadier B").tap()
    phone.wait_for_selector("text=Start the duel")
    assert phone.locator("#slot-b dd").first.inner_text() == "2"  # B's cartridges, shown
    phone.get_by_role("button", name="Start the duel: each pays a cartridge").tap()
    phone.wait_for_url(re.compile(r".*/duels/\d+$"))
    duel_id = int(phone.url.rsplit("/", 1)[1])
    assert rows.get(db, b["id"])["cartridges"] == 1

    # Thumb-sized keys, nothing scrolls sideways.
    box = phone.locator("label.key[data-side='a'][data-card='6S']").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.locator("label.key[data-side='a']").count() == 36

    taps = Taps(phone)
    taps.card("a", "10S")
    taps.card("b", "7H")
    phone.wait_for_selector(f"#duel-preview-{duel_id}-1 >> text=Captain A wins the round")
    taps.confirm()
    wait_version(phone, duel_id, 2)
    # D6: A's 10S is spent from A's table deck, still free in B's.
    assert phone.locator("label.key[data-side='a'][data-card='10S'] input").is_disabled()
    assert not phone.locator("label.key[data-side='b'][data-card='10S'] input").is_disabled()
    taps.card("a", "6D")
    taps.card("b", "QC")
    taps.confirm()
    wait_version(phone, duel_id, 3)
    taps.card("a", "9D")
    taps.card("b", "9S")
    taps.confirm()
    wait_version(phone, duel_id, 4)
    assert taps.count <= 12, taps.count  # the budget for three rounds
    assert taps.count == 9

    # D12: round wins 1–1, both continue and pay; then an extra round with a hand card.
    phone.wait_for_selector("text=Extension (D12)")
    taps("button[value=both]")
    wait_version(phone, duel_id, 5)
    assert rows.get(db, b["id"])["cartridges"] == 0
    phone.wait_for_selector("text=Extra round 4")
    taps.card("a", "6C")
    phone.locator("fieldset.side-a details.extras > summary").tap()
    taps("label.chip[data-side='a'][data-hand='AH']")
    taps.card("b", "KS")
    phone.wait_for_selector(f"#duel-preview-{duel_id}-5 >> text=This is the last round.")
    taps.confirm()
    wait_version(phone, duel_id, 6)

    result = phone.locator(f"#duel-{duel_id} .result").inner_text()
    assert "Captain A wins the duel on rounds, 2–1." in result
    assert phone.locator(f"#duel-{duel_id} .rec-round").count() == 4
    assert rows.get(db, a["id"])["duel_deck"] == "6H,7H,8H,9H,10H,JH,QH,KH"
    assert rows.get(db, b["id"])["hp"] == 1
    assert duels.load(db, duel_id).status == "finished"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # Undo the last round: the duel is back at round 4 and AH is in A's deck again.
    phone.get_by_role("button", name="Undo").tap()
    wait_version(phone, duel_id, 7)
    phone.wait_for_selector("text=Extra round 4")
    assert rows.get(db, a["id"])["duel_deck"] == "6H,7H,8H,9H,10H,JH,QH,KH,AH"
    assert rows.get(db, b["id"])["hp"] == 2

    # A reload rebuilds the same screen from the database.
    phone.reload()
    phone.wait_for_selector("text=Extra round 4")
    assert phone.locator(f"#duel-{duel_id}").get_attribute("data-version") == "7"


def test_D4_scanning_two_passports_sets_up_their_duel(phone, live_server, db):
    a = service.create(db, None, {"character": "Captain A", "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "H"})
    b = service.create(db, None, {"character": "Brigadier B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    sign_in(phone, live_server)
    # The phone's camera opens each passport's URL; a referee gets the editable sheet.
    for row in (a, b):
        phone.goto(f"{live_server}/p/{row['passport_token']}")
        phone.get_by_role("link", name="Start a duel").tap()
        phone.wait_for_url(re.compile(r".*/duels/new\?a=.*"))
    assert phone.locator("#slot-a").inner_text().count("Captain A") == 1
    assert "Brigadier B" in phone.locator("#slot-b").inner_text()
    phone.get_by_role("button", name="Start the duel: each pays a cartridge").tap()
    phone.wait_for_url(re.compile(r".*/duels/\d+$"))
    assert (rows.get(db, a["id"])["cartridges"], rows.get(db, b["id"])["cartridges"]) == (2, 1)
