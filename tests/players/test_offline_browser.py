"""The phone out of the station's Wi-Fi: it reads the list and the
sheets from its copy, keeps taps (through a closed and reopened browser), and sends them
once back in reach: each applied once, the last token spent twice held as a conflict."""

from __future__ import annotations

import pytest

from referee.players import service
from referee.store import conflicts
from tests.browser_fixtures import CHROMIUM_ARGS, shoot, sign_in

pytestmark = pytest.mark.browser

CASES = [({"width": 390, "height": 844}, "light", "en-US", "Send 3 changes"),
         ({"width": 360, "height": 740}, "dark", "ru-RU", "Отправить изменения: 3")]


def phone(browser, folder, size, scheme, locale):
    """A phone whose browser keeps its data in ``folder`` (closing it loses nothing)."""
    context = browser.browser_type.launch_persistent_context(
        str(folder), executable_path=browser_path(browser), args=CHROMIUM_ARGS,
        viewport=size, is_mobile=True, has_touch=True, locale=locale,
        color_scheme=scheme, device_scale_factor=2)
    context.set_default_timeout(15_000)
    return context


def browser_path(browser) -> str:
    from tests.browser_fixtures import chromium_path

    return chromium_path()


def ready_offline(page) -> None:
    """Wait until the service worker controls the page and the copy is on the phone."""
    page.wait_for_function("() => document.body.dataset.worker === 'ready'")
    if not page.evaluate("() => !!navigator.serviceWorker.controller"):
        page.reload()  # the first page was fetched before the worker took over
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.wait_for_function("() => document.body.dataset.copy === 'ready'")


def shown(page, player_id: int, stat: str) -> str:
    return page.locator(f"#player-{player_id} output[data-stat={stat}]").evaluate(
        "el => el.firstChild.textContent.trim()")


# Once, in Russian on the small phone; the damaged-entry test below runs in English.
@pytest.mark.parametrize(("size", "scheme", "locale", "send_label"), CASES[1:])
def test_read_and_tap_offline_then_each_tap_lands_once_and_a_broken_bound_is_held(
        browser, live_server, db, tmp_path, size, scheme, locale, send_label):
    hale = service.create(db, None, {"character": "Corporal Hale", "player": "Ivan",
                                     "hp_max": 3, "chance_max": 2, "cartridges": 4,
                                     "suit": "S"})
    service.create(db, None, {"character": "Атаманша Дуся", "hp_max": 5, "chance_max": 1,
                              "cartridges": 5, "suit": "H"})
    folder = tmp_path / "phone"
    context = phone(browser, folder, size, scheme, locale)
    page = context.new_page()
    sign_in(page, live_server)
    ready_offline(page)

    # Out of reach: the list (with search) and the sheet come from the copy.
    context.set_offline(True)
    page.goto(f"{live_server}/")
    page.wait_for_selector(".offline-banner")
    page.fill("#main input[type=search]", "дус")
    page.wait_for_function("() => document.querySelectorAll('#offline-list li').length === 1")
    page.goto(f"{live_server}/players/{hale['id']}")
    page.wait_for_selector(f"#player-{hale['id']}")
    assert shown(page, hale["id"], "hp") == "3"

    # Three taps kept: two HP and the last-but-one chance token.
    for label in ("HP −1", "HP −1"):
        page.get_by_role("button", name=label.replace("HP", "ХП") if locale == "ru-RU"
                         else label).tap()
    page.get_by_role("button", name=("Шанс −1" if locale == "ru-RU" else "Chance −1")).tap()
    page.wait_for_function("() => document.getElementById('pending').dataset.count === '3'")
    assert shown(page, hale["id"], "hp") == "1"
    assert page.locator("#pending .sr-only").text_content() == send_label
    # The count floats under the bar: nothing is pushed aside or past the screen's edge.
    assert page.evaluate("document.documentElement.scrollWidth") == size["width"]
    shoot(page, f"offline-sheet-{locale}")
    context.close()

    # Meanwhile a referee at the station spends Hale's last token but one: the kept
    # chance tap will find the last one gone.
    service.adjust(db, 2, hale["id"], {"chance": -2})

    # The browser closed and opened again, still out of reach: the taps are still there.
    context = phone(browser, folder, size, scheme, locale)
    context.set_offline(True)
    page = context.new_page()
    page.goto(f"{live_server}/players/{hale['id']}")
    page.wait_for_function("() => document.getElementById('pending').dataset.count === '3'")
    assert shown(page, hale["id"], "hp") == "1"

    # Back in reach: the browser's "online" brings the page back, which sends what waits;
    # each is applied once, the broken bound is held.
    context.set_offline(False)
    page.wait_for_url(lambda url: "/login" in url or url.endswith(f"/players/{hale['id']}"))
    page.wait_for_load_state()
    if "/login" in page.url:  # the browser forgot its session cookie on closing
        sign_in(page, live_server, to=f"/players/{hale['id']}")
    page.wait_for_selector("main[data-live]")
    page.wait_for_function("() => document.getElementById('pending').dataset.count === '0'")
    hp, chance = db.execute("SELECT hp, chance FROM players WHERE id = ?",
                            [hale["id"]]).fetchone()
    assert (hp, chance) == (1, 0)
    assert db.execute("SELECT count(*) FROM events WHERE tap IS NOT NULL").fetchone()[0] == 2
    (held,) = conflicts.find(db, "held")
    assert held["player_id"] == hale["id"] and held["change"]["changes"]["chance"]
    assert not page.locator("#pending").is_visible()  # nothing waits: nothing shown
    # Sending again (a reload) applies nothing twice.
    page.reload()
    page.wait_for_function("() => document.getElementById('pending').dataset.count === '0'")
    assert db.execute("SELECT hp FROM players WHERE id = ?", [hale["id"]]).fetchone()[0] == 1
    context.close()


def test_signing_out_clears_the_phones_copy(browser, live_server, db, tmp_path):
    service.create(db, None, {"character": "Corporal Hale", "hp_max": 3, "chance_max": 2,
                              "cartridges": 4, "suit": "S"})
    context = phone(browser, tmp_path / "phone", {"width": 360, "height": 740}, "dark",
                    "en-US")
    page = context.new_page()
    sign_in(page, live_server)
    ready_offline(page)
    page.locator("form[data-sign-out] button").click()
    page.wait_for_url(f"{live_server}/login*")
    page.wait_for_function("""() => new Promise((done) => {
        const r = indexedDB.open('referee-pocket', 1);
        r.onsuccess = () => { const db = r.result;
          const empty = !db.objectStoreNames.contains('copy');
          if (empty) { db.close(); return done(true); }
          const g = db.transaction('copy').objectStore('copy').get('event');
          g.onsuccess = () => { db.close(); done(!g.result); }; }; })""")
    page.wait_for_function("() => caches.keys().then((k) => k.length === 0)")
    context.close()


def test_the_app_can_be_installed_on_localhost(browser, live_server, db, tmp_path):
    """Chromium's own check: a manifest with name and icons, a service worker that
    answers pages out of reach, served from a secure origin (localhost here; an event's
    --https with its authority trusted, on a phone)."""
    context = phone(browser, tmp_path / "phone", {"width": 390, "height": 844}, "light",
                    "en-US")
    page = context.new_page()
    sign_in(page, live_server)
    ready_offline(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    colours = page.evaluate("() => [...document.querySelectorAll('meta[name=theme-color]')]"
                            ".map((m) => m.media)")
    assert colours == ["(prefers-color-scheme: light)", "(prefers-color-scheme: dark)"]
    context.close()


PUT = """(entries) => new Promise((done) => {
    const r = indexedDB.open('referee-pocket', 1);
    r.onsuccess = () => { const db = r.result; const tx = db.transaction('queue', 'readwrite');
      entries.forEach((e) => tx.objectStore('queue').put(e));
      tx.oncomplete = () => { db.close(); done(true); }; }; })"""
COUNT = """() => new Promise((done) => {
    const r = indexedDB.open('referee-pocket', 1);
    r.onsuccess = () => { const db = r.result;
      const g = db.transaction('queue').objectStore('queue').count();
      g.onsuccess = () => { db.close(); done(g.result); }; }; })"""


def test_a_damaged_entry_is_shown_and_discarded_and_a_failing_station_loses_nothing(
        browser, live_server, db, tmp_path):
    hale = service.create(db, None, {"character": "Corporal Hale", "hp_max": 3,
                                     "chance_max": 2, "cartridges": 4, "suit": "S"})
    context = phone(browser, tmp_path / "phone", {"width": 360, "height": 740}, "dark",
                    "en-US")
    page = context.new_page()
    sign_in(page, live_server)
    ready_offline(page)
    # A station that answers 500 while the phone sends: everything stays on the phone.
    page.route("**/offline/taps", lambda route: route.fulfill(status=500, body="oops"))
    page.evaluate(PUT, [{"id": "0b1e-kept-1", "player": hale["id"], "kind": "adjust",
                         "values": {"hp": -1}, "reason": "", "made": 1764660000000,
                         "referee": 1, "name": "Corporal Hale"},
                        {"id": "0b1e-damaged", "player": "?", "values": None}])
    page.reload()
    page.wait_for_selector("#pocket-notice")
    assert "Not sent" in page.locator("#pocket-notice").inner_text()
    assert page.evaluate(COUNT) == 2
    assert db.execute("SELECT hp FROM players WHERE id = ?", [hale["id"]]).fetchone()[0] == 3
    # The damaged one is shown for what it is, with its Discard; the top bar leads there.
    page.unroute("**/offline/taps")
    page.locator("#pending").click()
    page.wait_for_url(f"{live_server}/offline")
    damaged = page.locator("#pending-list li.damaged")
    assert "damaged" in damaged.inner_text()
    damaged.get_by_role("button").click()
    page.wait_for_function("() => document.querySelectorAll('#pending-list li').length === 1")
    assert page.evaluate(COUNT) == 1
    # Now the sound one goes, once.
    page.goto(f"{live_server}/players/{hale['id']}")
    # Counted empty once the station has answered (the button is hidden from the start).
    page.wait_for_function("() => document.getElementById('pending').dataset.count === '0'")
    assert db.execute("SELECT hp FROM players WHERE id = ?", [hale["id"]]).fetchone()[0] == 2
    context.close()


def test_a_game_in_progress_reads_offline_as_it_stood_and_read_only(
        browser, live_server, db, tmp_path):
    """Out of reach, in Russian on the small phone, dark. Then the other look: the referee
    turns the app to English and the larger phone, light; back in reach the page keeps
    the game's screen anew in English though the game did not move, and out of reach
    again it reads in that look. Last, the game moves at the station while the phone is
    away: back in reach the moved screen is kept, and read out of reach as it stood."""
    from referee.games.duel import service as duels
    from referee.games.duel.rules import Play, Round

    a = service.create(db, None, {"character": "Corporal Hale", "hp_max": 3,
                                  "chance_max": 2, "cartridges": 4, "suit": "S"})
    b = service.create(db, None, {"character": "Атаманша Дуся", "hp_max": 5,
                                  "chance_max": 1, "cartridges": 5, "suit": "H"})
    duel = duels.start(db, 1, a["id"], b["id"])
    size, scheme, locale = {"width": 360, "height": 740}, "dark", "ru-RU"
    context = phone(browser, tmp_path / "phone", size, scheme, locale)
    page = context.new_page()
    sign_in(page, live_server)
    ready_offline(page)
    page.wait_for_function("() => document.body.dataset.games === 'ready'")
    context.set_offline(True)
    page.goto(f"{live_server}/")
    page.wait_for_selector("#offline-games a")
    link = page.locator("#offline-games a")
    assert link.count() == 1
    link.click()
    page.wait_for_url(f"{live_server}/duels/{duel.id}")
    kept_read_only(page, duel.id, 1, locale)

    # The other look. Back in reach, the kept screen's page comes back by itself (the
    # browser's "online") and keeps the copy anew: the game's screen in English now.
    size, scheme, locale = {"width": 390, "height": 844}, "light", "en-US"
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    context.add_cookies([{"name": "lang", "value": "en", "url": live_server}])
    context.set_offline(False)
    page.wait_for_selector("body[data-games='ready']:not([data-kept-at])")
    context.set_offline(True)
    page.goto(f"{live_server}/duels/{duel.id}")
    kept_read_only(page, duel.id, 1, locale)

    duels.record(db, 1, duel.id, Round(Play("10S"), Play("7H")))  # at the station
    context.set_offline(False)
    page.wait_for_selector("body[data-games='ready']:not([data-kept-at])")
    context.set_offline(True)
    page.goto(f"{live_server}/duels/{duel.id}")
    kept_read_only(page, duel.id, 2, locale)
    context.close()


def kept_read_only(page, duel_id: int, version: int, locale: str) -> None:
    """The game's screen as the phone kept it (at ``version``), read-only, in this look."""
    page.wait_for_selector(".offline-banner")
    said = page.locator(".offline-banner").inner_text()
    assert ("read-only" in said) if locale == "en-US" else ("только для просмотра" in said)
    assert page.evaluate("document.getElementById('main').inert") is True
    assert page.locator(f"#duel-{duel_id}").get_attribute("data-version") == str(version)
    assert "Corporal Hale" in page.locator("#main").inner_text()
    shoot(page, f"offline-duel-{locale}")
    # Nothing can be recorded from the copy: the keys take no tap.
    assert page.locator("#main button").first.evaluate("b => b.closest('[inert]') !== null")


def test_another_referee_signing_in_on_the_phone_gets_none_of_the_last_ones_copy(
        browser, live_server, db, tmp_path):
    from referee.games.duel import service as duels

    a = service.create(db, None, {"character": "Corporal Hale", "hp_max": 3,
                                  "chance_max": 2, "cartridges": 4, "suit": "S"})
    b = service.create(db, None, {"character": "Атаманша Дуся", "hp_max": 5,
                                  "chance_max": 1, "cartridges": 5, "suit": "H"})
    duels.start(db, 1, a["id"], b["id"])
    context = phone(browser, tmp_path / "phone", {"width": 360, "height": 740}, "dark",
                    "en-US")
    page = context.new_page()
    sign_in(page, live_server)
    ready_offline(page)
    page.wait_for_function("() => document.body.dataset.games === 'ready'")
    context.clear_cookies()  # the session ended without signing out
    sign_in(page, live_server, "org", "org-password")
    page.wait_for_function("() => document.body.dataset.copy === 'ready'")
    page.wait_for_function("() => document.body.dataset.games === 'ready'")
    owner = page.evaluate("""() => new Promise((done) => {
        const r = indexedDB.open('referee-pocket', 1);
        r.onsuccess = () => { const g = r.result.transaction('copy').objectStore('copy')
          .get('event'); g.onsuccess = () => done(g.result.referee.name); }; })""")
    assert owner == "org"
    # The game's screen kept now is the one rendered for org, not for ref.
    kept = page.evaluate("""() => caches.open('referee-games').then((c) => c.keys())
        .then((keys) => Promise.all(keys.map((k) => caches.match(k).then((r) => r.text()))))""")
    assert kept and all("Signed in as org" in html and "Signed in as ref" not in html
                        for html in kept)
    context.close()
