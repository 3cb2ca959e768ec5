"""On a phone: a squad built from the shipped deck with a refusal on the way, a battle
started, a strike settled in at most 4 taps after attacker and target, a change of lives,
undo and a reload (B6, B11, B12–B14)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from referee.games.berserk import registered, squads
from referee.games.berserk import rules as berserk
from referee.games.berserk import service as battles
from referee.players import service
from tests.browser_fixtures import sign_in


def builder_counts(page) -> tuple[str, str, str]:
    form = page.locator("#squad-builder")
    return (form.get_attribute("data-cards"), form.get_attribute("data-gold-left"),
            form.get_attribute("data-silver-left"))


def wait_counts(page, cards: int) -> None:
    page.wait_for_selector(f"#squad-builder[data-cards='{cards}']")
    settled(page)


def settled(page) -> None:
    """htmx has finished swapping the builder (old and new form exist for a moment)."""
    expect(page.locator("#squad-builder")).to_have_count(1)
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def add_card(page, code: str) -> None:
    page.locator(f"li[data-code='{code}'] button[name=plus]").tap()


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_B12_B14_build_a_squad_then_B11_settle_a_strike_in_few_taps(phone, live_server, db):
    anna = service.create(db, None, {"character": "Anna", "hp_max": 3, "chance_max": 1,
                                     "cartridges": 1, "suit": "H"})
    boris = service.create(db, None, {"character": "Boris", "hp_max": 3, "chance_max": 1,
                                      "cartridges": 1, "suit": "S"})
    theirs = squads.save(db, None, None, player_id=boris["id"], name="Fire",
                         deck="berserk-sample", seat="second",
                         chosen=(squads.Pick("B12"), squads.Pick("B07")),
                         settings=berserk.PUBLISHED)
    phone.on("dialog", lambda dialog: dialog.accept())  # the undo's confirmation
    sign_in(phone, live_server)

    # The squad builder: live counts of gold and silver, a refusal with its reason.
    phone.goto(f"{live_server}/berserk/squads/new?player={anna['id']}")
    assert builder_counts(phone) == ("0", "24", "22")
    add_card(phone, "B03")  # Forest Warden, ordinary 4: paid with silver
    wait_counts(phone, 1)
    assert builder_counts(phone) == ("1", "24", "18")
    add_card(phone, "B06")  # Thunder Eagle, elite flyer 7, a second element (B13)
    wait_counts(phone, 2)
    assert builder_counts(phone) == ("2", "16", "18")
    add_card(phone, "B06")
    wait_counts(phone, 3)
    add_card(phone, "B11")  # Ember Imp, a flyer of 2: 16 > 15 (B14)
    phone.wait_for_selector(".alert.refusal")
    settled(phone)
    assert "B14: Flying creatures in the squad cost 16 crystals, more than 15" in \
        phone.locator(".alert.refusal").inner_text()
    assert builder_counts(phone)[0] == "3"
    assert no_sideways_scroll(phone)
    plus = phone.locator("li[data-code='B01'] button[name=plus]").bounding_box()
    assert plus["width"] >= 44 and plus["height"] >= 44
    add_card(phone, "B01")
    wait_counts(phone, 4)
    phone.fill("input[name=name]", "Eagles")
    phone.locator(".b-summary button.confirm").tap()
    phone.wait_for_url(re.compile(r".*/berserk/squads/\d+$"))
    mine = squads.get(db, int(phone.url.rsplit("/", 1)[1]))
    assert (mine["player_id"], mine["name"]) == (anna["id"], "Eagles")
    assert [p["code"] for p in mine["cards"]] == ["B03", "B06", "B06", "B01"]

    # A battle of the two squads, with the published numbers.
    phone.goto(f"{live_server}/berserk/new?a={mine['id']}&b={theirs['id']}")
    phone.get_by_role("button", name="Start the battle").tap()
    phone.wait_for_url(re.compile(r".*/berserk/\d+$"))
    game_id = int(phone.url.rsplit("/", 1)[1])
    assert phone.locator("details.cr").count() == 6
    assert no_sideways_scroll(phone)

    # The strike: attacker and target, then both dice and one confirm — 3 taps.
    phone.locator("label[data-attacker='a1']").tap()
    phone.wait_for_selector("label[data-target='b1']")
    phone.locator("label[data-target='b1']").tap()
    phone.wait_for_selector("label[data-target='b1'] input:checked")
    taps = 0
    for selector in ("label[data-a-die='5']", "label[data-d-die='1']"):
        phone.locator(selector).tap()
        taps += 1
        phone.wait_for_selector(f"{selector} input:checked")
    phone.wait_for_selector("text=Confirm lowered")
    preview = phone.locator(".s-preview").inner_text()
    assert "strong strike, 3 wounds; answer weak, 3 wounds" in preview  # as rolled
    assert "medium strike, 2 wounds; no answer" in preview  # lowered by a1
    die = phone.locator("label[data-a-die='3']").bounding_box()
    assert die["width"] >= 44 and die["height"] >= 44
    phone.get_by_role("button", name="Confirm lowered").tap()
    taps += 1
    phone.wait_for_selector(f"#battle-{game_id}[data-version='1']")
    assert taps <= 4, taps
    state = battles.load(db, game_id).state
    assert (berserk.creature(state, "b1").wounds, berserk.creature(state, "a1").wounds) == (2, 0)
    assert "wounds 2" in phone.locator("#cr-b1 .cr-sum").inner_text()
    assert "Tapped" in phone.locator("#cr-a1 .cr-sum").inner_text()

    # A change from the short list: −3 lives kills b1 at once (5 lives, 2 wounds → 2).
    phone.locator("#cr-b1 > summary").tap()
    phone.locator("#cr-b1 select[name=op]").select_option("lives")
    phone.locator("#cr-b1 input[name=value]").fill("-3")
    phone.locator("#cr-b1 button", has_text="Apply to b1").tap()
    phone.wait_for_selector(f"#battle-{game_id}[data-version='2']")
    assert "Dead" in phone.locator("#cr-b1 .cr-sum").inner_text()
    history = " ".join(phone.locator("#cr-b1 [data-prop='lives']").inner_text().split())
    assert history == "Lives 5 printed → 2 -3 lives"

    # Undo the change; a reload rebuilds the same battle from the database.
    phone.get_by_role("button", name="Undo").tap()
    phone.wait_for_selector(f"#battle-{game_id}[data-version='3']")
    assert "Dead" not in phone.locator("#cr-b1 .cr-sum").inner_text()
    phone.reload()
    assert phone.locator(f"#battle-{game_id}").get_attribute("data-version") == "3"
    assert "wounds 2" in phone.locator("#cr-b1 .cr-sum").inner_text()
    assert no_sideways_scroll(phone)


def test_B14_register_a_deck_on_a_360px_phone_then_hire_a_squad_from_it(phone_of,
                                                                       live_server, db):
    anna = service.create(db, None, {"character": "Anna", "hp_max": 3, "chance_max": 1,
                                     "cartridges": 1, "suit": "H"})
    phone = phone_of({"width": 360, "height": 740})
    sign_in(phone, live_server, to=f"/berserk/registered-decks/new?player={anna['id']}")
    form = phone.locator("#deck-register")
    assert form.get_attribute("data-cards") == "0"
    assert no_sideways_scroll(phone)
    for box in (phone.locator("li[data-code='B01'] button[name=plus]").bounding_box(),
                phone.locator("li[data-code='B01'] input.count").bounding_box()):
        assert box["width"] >= 44 and box["height"] >= 44
    # A decklist typed in: three of B01–B09, then taps for the rest (B14).
    for i in range(1, 10):
        phone.locator(f"input[name=n_B{i:02d}]").fill("3")
        phone.locator(f"input[name=n_B{i:02d}]").dispatch_event("change")
        phone.wait_for_selector(f"#deck-register[data-cards='{3 * i}']")
    for code, cards in (("B10", 28), ("B11", 29), ("B11", 30)):
        phone.locator(f"li[data-code='{code}'] button[name=plus]").tap()
        phone.wait_for_selector(f"#deck-register[data-cards='{cards}']")
    phone.locator("li[data-code='B10'] button[name=plus]").tap()  # a second unique card
    phone.wait_for_selector(".alert.refusal")
    assert "B14: B10 is unique and appears 2 times; keep at most 1." in \
        phone.locator(".alert.refusal").inner_text()
    assert phone.locator("#deck-register").get_attribute("data-cards") == "30"
    assert no_sideways_scroll(phone)
    phone.locator(".b-summary button.confirm").tap()
    phone.wait_for_url(re.compile(r".*/berserk/registered-decks/\d+$"))
    deck = registered.of_player(db, anna["id"])
    assert deck["total"] == 30 and registered.held(deck)["B10"] == 1

    # The squad builder offers only the deck's cards (B14), as many as it holds.
    phone.goto(f"{live_server}/berserk/squads/new?player={anna['id']}")
    assert "Hired from the deck registered for Anna" in phone.locator(
        "#squad-builder").inner_text()
    assert phone.locator("li[data-code='B12']").count() == 0  # not in the deck
    assert phone.locator("li[data-code='B01']").count() == 1
    assert no_sideways_scroll(phone)
