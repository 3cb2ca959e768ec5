"""A referee on a phone referees a short underworld game from setup to a winner: one fight
won, one lost, a help offer, a class change, an undo and a reload, counting taps."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from referee.games.underworld import service as underworld
from referee.players import service
from referee.store import players as rows
from tests.browser_fixtures import CountedScreen, sign_in


class Table(CountedScreen):
    """Taps on the underworld screen, counted, each waiting for the next game version."""

    def __init__(self, page, game_id: int):
        super().__init__(page, f"#underworld-{game_id}")
        self.game_id = game_id

    @property
    def screen(self):
        return self.page.locator(f"#underworld-{self.game_id}")

    def draw(self, search: str, code: str) -> None:
        """Find the drawn card by code or name, then one tap on it."""
        self.tap("input[name=q]", writes=False)
        self.page.fill(f"#underworld-{self.game_id} input[name=q]", search)
        expect(self.page.locator(f"#underworld-pick-{self.game_id} button.uw-key")).to_have_count(1)
        self.tap(f"button.uw-key[data-code='{code}']")

    def level(self, pid: int) -> str:
        return self.screen.locator(f"li.uw-seat[data-player='{pid}'] .uw-level").inner_text()


def test_U4_to_U16_a_short_underworld_game_from_setup_to_a_winner_on_a_phone(phone, live_server,
                                                                        db):
    a = service.create(db, None, {"character": "Anna", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 1, "suit": "S", "level": 8})
    b = service.create(db, None, {"character": "Boris", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 1, "suit": "H"})
    phone.on("dialog", lambda dialog: dialog.accept())  # the undo's confirmation
    sign_in(phone, live_server)

    # Setup (U4): seat Anna then Boris by search, carry the passport levels, 4 cards each.
    phone.goto(f"{live_server}/games")
    phone.get_by_role("link", name=re.compile("Underworld castle games")).tap()
    phone.get_by_role("link", name="+ New castle game").tap()
    phone.fill("input[type=search]", "ann")
    phone.locator(f"#underworld-candidates a[data-player='{a['id']}']").tap()
    phone.fill("input[type=search]", "bor")
    phone.locator(f"#underworld-candidates a[data-player='{b['id']}']").tap()
    phone.wait_for_selector("text=Starting cards (U4)")
    phone.check("input[name=passport]")
    for pid, cards in ((a["id"], ["I01", "leather", "S01", "M03"]),
                       (b["id"], ["I02", "I07", "M04", "M05"])):
        for i, card in enumerate(cards):
            phone.locator(f"input[name=start_{pid}]").nth(i).fill(card)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_role("button", name="Start the castle game").tap()
    phone.wait_for_url(re.compile(r".*/underworld/\d+$"))
    game_id = int(phone.url.rsplit("/", 1)[1])
    t = Table(phone, game_id)
    expect(t.screen.locator(".uw-turn")).to_contain_text("Anna's turn")
    expect(t.screen.locator(".uw-turn")).to_contain_text("Step 1 of 2")
    assert t.level(a["id"]) == "level\n8"

    # Anna: two fights won in a row (U7, U8), then the class change prompt (U9).
    t.draw("cellar", "M01")  # search by name, one tap on the card
    expect(t.screen.locator(".uw-board")).to_contain_text("Level")
    expect(t.screen.locator(".uw-verdict")).to_have_text("Anna wins, 8 to 1.")
    t.tap("button.confirm")
    assert rows.get(db, a["id"])["level"] == 9  # the passport follows at once
    taps_before = t.taps
    t.draw("m02", "M02")
    t.tap("button.confirm")
    assert t.taps - taps_before == 3  # search box, card, confirm: a fight in three taps
    expect(t.screen).to_contain_text("Two fights won in a row (U9)")
    t.tap("button.uw-class-pick[data-code='C01']")
    expect(t.screen.locator(f"li.uw-seat[data-player='{a['id']}'] .uw-class")).to_have_text(
        "Warrior")
    expect(t.screen.locator(".uw-banner")).to_contain_text("Anna reached level 10!")
    t.tap("form[data-kind='end_turn'] button")

    # Boris meets the Gate Troll; Anna offers help for a card, Boris accepts (U11).
    t.draw("troll", "M07")
    expect(t.screen.locator(".uw-verdict")).to_have_text("Gate Troll wins, 5 to 1.")
    t.screen.locator("select[name=target]").select_option(f"{b['id']}|M04")
    t.tap("form[data-kind='offer_help'] button")
    expect(t.screen.locator(".uw-offer")).to_contain_text("would add 10")
    t.tap("form[data-kind='answer_help'] button.good")
    expect(t.screen.locator(".uw-helper")).to_have_text("Helper Anna")
    expect(t.screen.locator(".uw-verdict")).to_have_text("Boris wins, 11 to 5.")
    t.tap("button.confirm")
    assert rows.get(db, b["id"])["level"] == 2 and rows.get(db, a["id"])["level"] == 10
    state = underworld.load(db, game_id).state.state
    assert "M04" in state.players[0].inventory  # the reward went to the helper

    # Boris's second step: the Iron Golem wins (U8); undo once, reload, confirm again.
    t.draw("golem", "M16")
    t.tap("button.confirm")
    assert rows.get(db, b["id"])["level"] == 1
    t.tap("form.undo-bar button")
    assert rows.get(db, b["id"])["level"] == 2
    phone.reload()
    expect(t.screen.locator(".uw-verdict")).to_have_text("Iron Golem wins, 10 to 2.")
    t.tap("button.confirm")
    assert rows.get(db, b["id"])["level"] == 1
    expect(t.screen).to_contain_text("No further step after a lost fight (U6)")
    t.tap("form[data-kind='end_turn'] button")

    # Nobody else reached 10 before Anna's turn came back: Anna wins (U16).
    expect(t.screen.locator(".uw-banner.win")).to_have_text("Anna wins the game!")
    assert underworld.load(db, game_id).row["status"] == "finished"
    record = t.screen.locator(".uw-rec-item")
    expect(record.first).to_contain_text("Anna wins the game.")
    assert record.count() == 15  # 13 actions, the undone fight and its undo row
    expect(t.screen.locator(".uw-rec-item.undone")).to_contain_text("Fight: Boris 2 against")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = t.screen.locator("form.undo-bar button").bounding_box()
    assert box["height"] >= 44
