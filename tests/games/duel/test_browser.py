"""A referee on a phone settles a whole duel with an extension, counting every tap.

The tests of how the rounds fit a phone play once, on the smaller one (360×740; dark
where a scheme is tried), then turn the same page to the larger one (390×844, light) and
check the screen they ended on again: a browser run costs far more than a second look at
one screen. They read the screen's English sentences, so they stay in English; the
Russian look has a test of its own."""

from __future__ import annotations

import re

from referee.games.duel import service as duels
from referee.players import service
from referee.store import players as rows
from tests.browser_fixtures import PHONE, SMALL, shoot, sign_in


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

    # Keys a thumb can hit (nine a row, so both duelists' grids fit one screen: 36 px wide
    # and as tall as a 44 px target here), nothing scrolls sideways.
    box = phone.locator("label.key[data-side='a'][data-card='6S']").bounding_box()
    assert box["width"] >= 34 and box["height"] >= 44
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
    # Confirm before B's card is tapped: refused (D6), floating over the top of the screen;
    # nothing under the thumb moves and A's pick is kept.
    keys_y = phone.eval_on_selector_all(
        "label.key, .hand-cell, button.confirm", "els => els.map(e => e.getBoundingClientRect().y)")
    taps.confirm()
    refusal = phone.locator(f"#duel-{duel_id} .alert.refusal")
    refusal.wait_for()
    assert refusal.inner_text().startswith("D6: Tap the table card Brigadier B turned up")
    assert phone.evaluate(IN_VIEW, f"#duel-{duel_id} .alert.refusal")
    assert phone.eval_on_selector_all(
        "label.key, .hand-cell, button.confirm",
        "els => els.map(e => e.getBoundingClientRect().y)") == keys_y
    assert phone.locator("label.key[data-side='a'][data-card='6C'] input").is_checked()
    taps(hand("a", "AH"))  # D7: A lays AH over 6C
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


# Where a control is, and whether a tap at its centre reaches it now: inside the viewport
# and not under the sticky confirm bar or anything else.
REACH = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {x, y, inside: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight
                        && box.right <= innerWidth,
          reached: !!hit && (hit === el || el.contains(hit))};
}"""
IN_VIEW = """sel => {
  const box = document.querySelector(sel).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
}"""
# How far the page is wider than the screen (its clientWidth: a phone's innerWidth grows
# with a page too wide for it).
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
# Everything inside the duel's panel that crosses its inner edges, and every box whose
# content runs out of it (a word wider than its cell, a label wider than its button),
# as "tag.class: px".
STICKS_OUT = """sel => {
  const panel = document.querySelector(sel), out = [];
  const box = panel.getBoundingClientRect();
  const left = box.left + panel.clientLeft, right = box.right - panel.clientLeft;
  for (const el of panel.querySelectorAll('*')) {
    const b = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (!b.width || style.position === 'fixed') continue;
    if (b.right > right + 0.5 || b.left < left - 0.5)
      out.push(el.tagName.toLowerCase() + '.' + el.className + ': ' + (b.right - right));
    else if (el.matches('th, td, button, label, a') && el.clientWidth
             && style.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1)
      out.push(el.tagName.toLowerCase() + '.' + el.className + ' runs over: '
               + (el.scrollWidth - el.clientWidth));
  }
  return out;
}"""


def key(side: str, card: str) -> str:
    return f"label.key[data-side='{side}'][data-card='{card}']"


def hand(side: str, card: str) -> str:
    return f".hand-cell[data-side='{side}'][data-hand='{card}'] label.lay"


def token(side: str) -> str:
    """The token button as it shows now (one label of the cycle is shown at a time)."""
    return f".tokens[data-side='{side}'] input:checked + label.tok"


CONFIRM = "button.confirm"
LONG = "Атаманша Дуся Непреклонная"


class Thumb:
    """Taps where the thumb would, at a control's centre on the screen: Playwright's own
    tap would scroll a control into view first and hide a round that does not fit."""

    def __init__(self, page):
        self.page, self.taps = page, 0

    def play_round(self, taps: list[str]) -> None:
        """Every control of the round is reachable as the round starts; none scrolls."""
        page = self.page
        spots = {}
        for selector in dict.fromkeys(taps):
            spot = page.evaluate(REACH, selector)
            assert spot and spot["inside"] and spot["reached"], (selector, spot)
            spots[selector] = spot
        scrolled = page.evaluate("scrollY")
        for selector in taps:
            before = page.evaluate(REACH, selector)
            assert before["x"] == spots[selector]["x"] and before["y"] == spots[selector]["y"]
            page.touchscreen.tap(before["x"], before["y"])
            self.taps += 1
        assert page.evaluate("scrollY") == scrolled


def test_D5_D7_D8_three_rounds_with_hand_cards_and_tokens_on_one_screen(
        phone_of, live_server, db):
    # duel.md's A (with a long name) and B; each lays one hand card (D7) and spends one
    # token (D8) once.
    a = service.create(db, None, {"character": LONG, "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "H"})
    b = service.create(db, None, {"character": "Brigadier B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    duel_id = duels.start(db, None, a["id"], b["id"]).id
    size = SMALL  # the rounds on the smaller phone, where they have the least room
    page = phone_of(size)
    sign_in(page, live_server, to=f"/duels/{duel_id}")
    thumb = Thumb(page)
    panel = f"#duel-{duel_id}"
    assert page.evaluate(OVERFLOW) <= 0 and page.evaluate(STICKS_OUT, panel) == []

    # R1: A lays AH (D7) over a table card the referee need not read, 14; B turns up
    # KC, 13.
    thumb.play_round([hand("a", "AH"), key("b", "KC"), CONFIRM])
    wait_version(page, duel_id, 2)
    assert page.evaluate(IN_VIEW, ".preview .last-round")
    assert f"Round 1: {LONG} won, 14 : 13" in page.locator(".preview").inner_text()
    assert "Brigadier B lost 1 HP." in page.locator(".preview .then").inner_text()
    assert page.evaluate(OVERFLOW) <= 0

    # R2: A 6D + 1 token = 7; B lays AC (14) over an unread card and spends a token: 15.
    thumb.play_round([key("a", "6D"), hand("b", "AC"), token("b"), token("a"), CONFIRM])
    wait_version(page, duel_id, 3)
    assert page.evaluate(IN_VIEW, ".preview .last-round")
    assert page.evaluate(STICKS_OUT, panel) == []
    assert "Round 2: Brigadier B won, 7 : 15" in page.locator(".preview").inner_text()
    assert page.evaluate(OVERFLOW) <= 0
    # D5, D8: AC has left B's hand and B's only token is spent.
    assert page.locator(".hand-cell[data-side='b'][data-hand='AC']").count() == 0
    assert page.locator(".tokens[data-side='b'] input").count() == 1

    # R3: A KH 13, B 8D 8: A wins the duel 2–1 (D11).
    thumb.play_round([key("a", "KH"), key("b", "8D"), CONFIRM])
    wait_version(page, duel_id, 4)
    the_end_fits(page, panel, size)

    # The larger phone, on the screen the duel ended on: the page as it stands, reflowed,
    # still at its top, where the last round's answer put it.
    size = PHONE
    page.set_viewport_size(size)
    assert page.evaluate("scrollY") == 0
    the_end_fits(page, panel, size)

    # Three rounds, two hand cards and two tokens (12 at most): a
    # counting card per side (the table card, or the hand card over an unread one, D7),
    # one tap per token decision (D8) and one Confirm a round (D7): 11.
    assert thumb.taps == 11, thumb.taps
    assert thumb.taps <= 12
    record = page.locator(f"{panel} .rec-round").all_inner_texts()
    assert [r.count("not read") for r in record] == [1, 1, 0]
    state = duels.load(db, duel_id).state
    assert [(r.a.table, r.a.hand, r.a.tokens, r.b.table, r.b.hand, r.b.tokens)
            for r in state.rounds] == [(None, "AH", 0, "KC", None, 0),
                                       ("6D", None, 1, None, "AC", 1),
                                       ("KH", None, 0, "8D", None, 0)]
    assert rows.get(db, a["id"])["chance"] == 2  # spent 1, restored by the win (D13)
    assert rows.get(db, b["id"])["chance"] == 0
    assert (rows.get(db, a["id"])["hp"], rows.get(db, b["id"])["hp"]) == (2, 1)


def the_end_fits(page, panel: str, size: dict) -> None:
    """The duel's last screen at this size: the result in view, the record there, nothing
    wider than the screen or its cell."""
    assert page.evaluate(IN_VIEW, f"{panel} .result")
    assert f"{LONG} wins the duel on rounds, 2–1." in page.locator(
        f"{panel} .result").inner_text()
    page.locator(f"{panel} details.more > summary").wait_for()  # the record, open
    shoot(page, f"duel-unread-{size['width']}")
    assert page.evaluate(OVERFLOW) <= 0 and page.evaluate(STICKS_OUT, panel) == []


def test_D6_a_screen_left_behind_answers_409_and_its_notice_floats_over_the_keys(
        phone_of, live_server, db):
    # Two referees on one duel: this phone still shows round 1 when the other one has
    # recorded it. Its round is refused as stale (409) with the duel as it stands, and
    # the notice floats like a refusal: the keys below stay where a reload puts them.
    # Played on the smaller phone, dark; then, on the screen it ended on, the same again
    # for round 2 on the larger phone, light.
    from referee.games.duel.rules.model import Play, Round

    a = service.create(db, None, {"character": "Captain A", "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "H"})
    b = service.create(db, None, {"character": "Brigadier B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    duel_id = duels.start(db, None, a["id"], b["id"]).id
    size, scheme = SMALL, "dark"
    phone = phone_of(size, color_scheme=scheme)
    sign_in(phone, live_server, to=f"/duels/{duel_id}")

    def left_behind(number: int, elsewhere: Round, here: tuple[str, str]) -> None:
        """Round ``number`` is recorded elsewhere while this phone taps its own: refused,
        the notice floating in view, the duel shown as it stands; a reload moves no key."""
        duels.record(db, None, duel_id, elsewhere, version=number)
        phone.locator(key("a", here[0])).tap()
        phone.locator(key("b", here[1])).tap()
        phone.locator(CONFIRM).tap()
        notice = phone.locator(f"#duel-{duel_id} .notice.floating")
        notice.wait_for()
        assert notice.inner_text().startswith("Someone else already recorded this round")
        assert phone.evaluate(IN_VIEW, f"#duel-{duel_id} .notice.floating")
        wait_version(phone, duel_id, number + 1)
        shoot(phone, f"duel-409-notice-{size['width']}-{scheme}")
        assert f"Round {number + 1} of 3" in phone.locator(
            f"#duel-{duel_id} .round-title").inner_text()

        where = "els => els.map(e => Math.round(e.getBoundingClientRect().y))"
        keys_y = phone.eval_on_selector_all("label.key, button.confirm", where)
        phone.reload()
        wait_version(phone, duel_id, number + 1)
        assert phone.locator(f"#duel-{duel_id} .notice").count() == 0
        assert phone.eval_on_selector_all("label.key, button.confirm", where) == keys_y

    left_behind(1, Round(Play("10S"), Play("7H")), ("6D", "QC"))
    # The stale round changed nothing: round 1 is the other referee's, B lost 1 HP once.
    assert [(r.a.table, r.b.table) for r in duels.load(db, duel_id).state.rounds] == [
        ("10S", "7H")]
    assert rows.get(db, b["id"])["hp"] == 2

    # The larger phone, light, on the screen the duel was left at (round 2): the other
    # referee records round 2 (B wins it: one round each, a third to play) while this
    # phone taps its own.
    size, scheme = PHONE, "light"
    phone.set_viewport_size(size)
    phone.emulate_media(color_scheme=scheme)
    left_behind(2, Round(Play("6D"), Play("QC")), ("7D", "8C"))
    assert [(r.a.table, r.b.table) for r in duels.load(db, duel_id).state.rounds] == [
        ("10S", "7H"), ("6D", "QC")]
    assert (rows.get(db, a["id"])["hp"], rows.get(db, b["id"])["hp"]) == (2, 2)


def test_D7_in_russian_a_hand_card_alone_settles_its_side_at_360_dark(phone_of, live_server,
                                                                      db):
    a = service.create(db, None, {"character": LONG, "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "H"})
    b = service.create(db, None, {"character": "Бригадир Б", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    duel_id = duels.start(db, None, a["id"], b["id"]).id
    page = phone_of({"width": 360, "height": 740}, locale="ru-RU", color_scheme="dark")
    sign_in(page, live_server, to=f"/duels/{duel_id}")
    panel = f"#duel-{duel_id}"
    assert "Нажмите по карте за каждого дуэлянта" in page.locator(".preview").inner_text()
    thumb = Thumb(page)
    thumb.play_round([hand("a", "AH"), key("b", "KC")])
    page.wait_for_selector(f"#duel-preview-{duel_id}-1 >> text={LONG}")
    assert "14" in page.locator(".preview .totals").inner_text()
    thumb.play_round([CONFIRM])
    wait_version(page, duel_id, 2)
    assert page.evaluate(IN_VIEW, ".preview .last-round")
    assert f"Раунд 1 выигрывает {LONG}, 14 : 13" in page.locator(".preview").inner_text()
    assert page.locator(".preview .then").inner_text() == "Бригадир Б потерял(а) 1 ХП."
    unread = page.locator(f"{panel} .rec-round .pc.unread").first
    assert unread.get_attribute("title") == (
        "Карта со стола не прочитана: поверх неё лежала карта из руки (D7)")
    assert unread.inner_text().replace("\n", "") in ("?не прочитана", "?")
    assert page.evaluate(OVERFLOW) <= 0 and page.evaluate(STICKS_OUT, panel) == []
    shoot(page, "duel-unread-ru-360-dark")
    state = duels.load(db, duel_id).state
    assert (state.rounds[0].a.table, state.rounds[0].a.hand) == (None, "AH")
    assert rows.get(db, a["id"])["duel_deck"] == "6H,7H,8H,9H,10H,JH,QH,KH"
