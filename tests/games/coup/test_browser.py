"""A referee on a phone seats three players and referees a Coup table, counting every tap:
a lost challenge, a blocked assassination and a forced coup, never a hidden card."""

from __future__ import annotations

import re

from referee.games.coup import service
from referee.players import service as player_service
from tests.browser_fixtures import CountedScreen, sign_in


class Table(CountedScreen):
    """Taps on the table screen, counted, each waiting for the next version."""

    def __init__(self, page, game_id: int):
        super().__init__(page, f"#coup-{game_id}")
        self.id = game_id

    def ask(self) -> str:
        return self.page.locator(f"#coup-{self.id}").get_attribute("data-question")

    def action(self, name: str) -> None:
        self.tap(f"button[data-action='{name}']")

    def targeted(self, name: str, target: int) -> None:
        self.tap(f"a[data-action='{name}']", writes=False)
        self.page.wait_for_selector(f"#coup-{self.id} button.seat.target")
        self.tap(f"button.seat.target[data-seat='{target}']")

    def nobody(self) -> None:
        self.tap("button[data-answer='nobody']")

    def player(self, pid: int) -> None:
        self.tap(f".ask button[data-player='{pid}']")

    def card(self, code: str, pid: int | None = None) -> None:
        who = f"[data-player='{pid}']" if pid else ""
        self.tap(f".ask button[data-card='{code}']{who}")

    def seat_text(self, pid: int) -> str:
        return self.page.locator(f"#coup-{self.id} [data-seat='{pid}']").inner_text()

    def coins(self, pid: int) -> int:
        return int(self.page.locator(
            f"#coup-{self.id} [data-seat='{pid}'] .seat-coins b").inner_text())

    def no_hidden_card_asked(self) -> None:
        # Only buttons, the CSRF token and the version: never a field for a hidden card.
        fields = self.page.locator(
            f"#coup-{self.id} input:not([type=hidden]), #coup-{self.id} select, "
            f"#coup-{self.id} textarea")
        assert fields.count() == 0


def test_C1_to_C10_three_player_table_on_a_phone(phone, live_server, db):
    ids = [player_service.create(db, None, {
        "character": name, "hp_max": 3, "chance_max": 1, "cartridges": 1, "suit": "S",
    })["id"] for name in ("Anna", "Boris", "Vera")]
    a, b, c = ids
    phone.on("dialog", lambda dialog: dialog.accept())  # the undo's confirmation
    sign_in(phone, live_server)

    # Seat the table: three taps on the players in seating order, one on Start.
    phone.goto(f"{live_server}/coup/new")
    for pid in ids:
        phone.locator(f"#coup-pick a[data-pick='{pid}']").tap()
        phone.wait_for_selector(f"#coup-seats [data-seat='{pid}']")
    assert phone.locator("#coup-seats li.row").count() == 3
    assert phone.get_by_text("3 players (C1): 3 copies of each of the five characters, "
                             "15 cards.").is_visible()
    phone.get_by_role("button", name="Start the table").tap()
    phone.wait_for_url(re.compile(r".*/coup/\d+$"))
    game_id = int(phone.url.rsplit("/", 1)[1])
    t = Table(phone, game_id)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator(f"#coup-{game_id} button[data-action='income']").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    # C4/C5: at 2 coins neither the Coup nor the Assassin is offered.
    assert phone.locator("[data-action='coup'], [data-action='assassinate']").count() == 0

    # Turn 1: Anna claims the Duchess; Boris challenges and loses (C7).
    t.action("tax")
    assert t.ask() == "challenge"
    t.player(b)
    assert t.ask() == "show_or_turn_up"
    t.no_hidden_card_asked()
    t.tap("button[data-answer='shown']")
    assert t.ask() == "lose_influence"
    t.card("captain")
    assert "Captain" in t.seat_text(b) and "●○" in t.seat_text(b)
    assert t.coins(a) == 5

    t.action("tax")            # Boris
    t.nobody()
    t.action("income")         # Vera

    # Turn 4: Anna assassinates Vera, who blocks with the Countess (C8): 3 coins lost.
    t.targeted("assassinate", c)
    t.nobody()
    assert t.ask() == "block"
    assert phone.locator(f"#coup-{game_id} .ask button[data-card]").count() == 1  # Countess
    t.card("countess", c)
    assert t.ask() == "challenge"
    t.nobody()
    assert "The block stands: the action fails." in phone.locator(".coup-log").inner_text()
    assert t.coins(a) == 2 and "●●" in t.seat_text(c)

    t.action("tax")            # Boris 8
    t.nobody()
    t.action("income")         # Vera 4
    t.action("income")         # Anna 3
    t.action("foreign_aid")    # Boris 10
    t.nobody()
    t.action("income")         # Vera 5
    t.action("income")         # Anna 4

    # Turn 11: Boris starts with 10 coins: only a coup, the seats are the targets (C6).
    assert phone.get_by_text("Boris must launch a coup (C6)").is_visible()
    assert phone.locator(f"#coup-{game_id} .ask button").count() == 0
    assert phone.locator(f"#coup-{game_id} button.seat.target").count() == 2
    t.tap(f"button.seat.target[data-seat='{a}']")
    t.card("assassin")
    assert "Assassin" in t.seat_text(a) and t.coins(b) == 3
    assert t.taps == 22, t.taps
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The stored table agrees with the screen.
    game = service.load(db, game_id)
    assert [p.coins for p in game.state.players] == [4, 3, 5]
    assert [p.influence for p in game.state.players] == [1, 1, 2]
    assert game.version == t.version == 21

    # Undo the last card turned up; a reload rebuilds the same screen from the database.
    phone.get_by_role("button", name="Undo").tap()
    phone.wait_for_selector(f"#coup-{game_id}[data-version='22']")
    assert t.ask() == "lose_influence"
    phone.reload()
    assert t.ask() == "lose_influence"
    assert phone.get_by_text("Which card does Anna turn face up?").is_visible()
