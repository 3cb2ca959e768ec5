"""Scan in the app on a phone: Chromium's fake camera films a page of a real
passport PDF made by the app, and the scan lands on the sheet, fills a duel slot, or
refuses a reissued passport. The decoder is fetched on the first Scan only, from here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from referee.players import service
from referee.printing import passports_pdf
from referee.printing.readback import page_images
from referee.store import players
from tests.browser_fixtures import CHROMIUM_ARGS, chromium_path, shoot, sign_in

PUBLIC = "http://192.168.1.10:8080"  # the printed address: not the one the phone opens
FRAME = (640, 480)
DECODER = ("/static/vendor/barcode-detector-3.2.2/", "/static/vendor/zxing-wasm-3.1.3/")
LOOKS = [  # (viewport, colour scheme, locale)
    pytest.param({"width": 390, "height": 844}, "light", "en-US", id="390-light-en"),
    pytest.param({"width": 360, "height": 740}, "dark", "ru-RU", id="360-dark-ru"),
]
REISSUED = {"en": "This passport was reissued: ask the player for the new one.",
            "ru": "Этот паспорт перевыпущен: попросите у игрока новый."}


def passport_picture(player: dict, width: int = 300):
    """The QR code of the player's passport, cut from page 1 of the PDF the app prints,
    as a phone held over it sees it: large in a 640×480 frame."""
    import zxingcpp
    from PIL import Image

    pdf = passports_pdf([player], PUBLIC, "Осенний бал")
    dpi = 300
    (page,) = page_images(pdf, dpi, pages=[0])
    (code,) = zxingcpp.read_barcodes(page.convert("L"))
    assert code.text == f"{PUBLIC}/p/{player['passport_token']}"
    xs = [p.x for p in (code.position.top_left, code.position.bottom_right)]
    ys = [p.y for p in (code.position.top_left, code.position.bottom_right)]
    margin = (xs[1] - xs[0]) // 3  # some of the card around it
    crop = page.crop((xs[0] - margin, ys[0] - margin, xs[1] + margin, ys[1] + margin))
    frame = Image.new("RGB", FRAME, (200, 196, 186))  # a table under the passport
    crop = crop.convert("RGB").resize((width, width))
    frame.paste(crop, ((FRAME[0] - width) // 2, (FRAME[1] - width) // 2))
    return frame


def y4m(picture, path: Path, frames: int = 3) -> Path:
    """A Y4M video (4:2:0) of the picture, held still: Chromium's fake camera loops it."""
    w, h = picture.size
    y, u, v = picture.convert("YCbCr").split()
    half = (w // 2, h // 2)
    frame = b"FRAME\n" + y.tobytes() + u.resize(half).tobytes() + v.resize(half).tobytes()
    path.write_bytes(f"YUV4MPEG2 W{w} H{h} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * frames)
    return path


@pytest.fixture
def camera(browser, tmp_path):
    """``camera(picture, size, scheme, locale)``: a phone page whose camera films the
    picture, in a Chromium of its own (the fake camera is a launch argument)."""
    launched = []

    def make(picture, size, scheme, locale):
        video = y4m(picture, tmp_path / f"camera{len(launched)}.y4m")
        own = browser.browser_type.launch(executable_path=chromium_path(), args=[
            *CHROMIUM_ARGS, "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
        launched.append(own)
        context = own.new_context(viewport=size, is_mobile=True, has_touch=True, locale=locale,
                                  device_scale_factor=2, color_scheme=scheme)
        page = context.new_page()
        page.set_default_timeout(20_000)
        return page

    yield make
    for own in launched:
        own.close()


class Requests:
    """Every address the page asks for."""

    def __init__(self, page):
        self.urls: list[str] = []
        page.on("request", lambda request: self.urls.append(request.url))

    def decoder(self) -> list[str]:
        return [u for u in self.urls if any(part in u for part in DECODER)]

    def foreign(self, base: str) -> list[str]:
        return [u for u in self.urls if u.startswith(("http:", "https:"))
                and not u.startswith(base + "/")]


def make_player(db, name="Captain A", cartridges=3):
    return service.create(db, None, {"character": name, "hp_max": 3, "chance_max": 2,
                                     "cartridges": cartridges, "suit": "H"})


def scan_button(page, lang):
    return page.get_by_role("button", name={"en": "Scan", "ru": "Сканировать"}[lang],
                            exact=True)


def camera_on(page):
    """The camera screen is up and the fake camera's frames are playing."""
    expect(page.locator("#scan")).to_be_visible()
    page.wait_for_function("() => { const v = document.querySelector('#scan video');"
                           " return v && v.srcObject && v.readyState >= 2; }")


@pytest.mark.parametrize(("size", "scheme", "locale"), LOOKS)
def test_the_top_bar_scan_lands_on_the_scanned_players_sheet(camera, live_server, db, size,
                                                              scheme, locale):
    make_player(db, "Brigadier B")
    player = make_player(db)
    page = camera(passport_picture(player), size, scheme, locale)
    seen = Requests(page)
    sign_in(page, live_server, to="/games")
    assert seen.decoder() == []  # a page in: nothing of the decoder yet
    # Scan joins a top bar that still fits: the language switch is on the screen
    assert page.locator(".top .lang").bounding_box()["x"] + 30 <= size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") == size["width"]
    assert scan_button(page, locale[:2]).bounding_box()["width"] >= 44

    scan_button(page, locale[:2]).tap()
    page.wait_for_url(f"{live_server}/players/{player['id']}")
    expect(page.locator("h1").first).to_contain_text("Captain A")
    decoder = seen.decoder()
    assert any(u.endswith(".wasm") or ".wasm?" in u for u in decoder)
    assert any("ponyfill.js" in u for u in decoder)
    assert seen.foreign(live_server) == []


@pytest.mark.parametrize(("size", "scheme", "locale"), LOOKS[1:])  # the top bar's covers 390
def test_D4_a_duel_slot_scan_fills_the_slot(camera, live_server, db, size, scheme, locale):
    a = make_player(db)
    b = make_player(db, "Brigadier B")
    page = camera(passport_picture(a), size, scheme, locale)
    seen = Requests(page)
    sign_in(page, live_server, to=f"/duels/new?b={b['id']}")
    expect(page.locator("#slot-a h2")).not_to_contain_text("Captain A")
    assert seen.decoder() == []

    page.locator("#slot-a [data-scan]").tap()
    page.wait_for_url(re.compile(rf".*/duels/new\?.*a={a['id']}"))
    expect(page.locator("#slot-a h2")).to_contain_text("Captain A")
    expect(page.locator("#slot-b h2")).to_contain_text("Brigadier B")
    assert page.locator("form[action='/duels'] button[type=submit]").is_enabled()
    assert seen.foreign(live_server) == []


@pytest.mark.parametrize(("size", "scheme", "locale"), LOOKS[1:])  # the top bar's covers 390
def test_a_reissued_passport_is_refused_and_nothing_opens(camera, live_server, db, size, scheme,
                                                          locale):
    player = make_player(db)
    picture = passport_picture(player)  # printed before the reissue
    service.reissue(db, None, player["id"])
    page = camera(picture, size, scheme, locale)
    seen = Requests(page)
    sign_in(page, live_server, to="/duels/new")
    here = page.url

    page.locator("#slot-a [data-scan]").tap()
    refusal = page.locator("#scan .alert.refusal")
    expect(refusal).to_have_text(REISSUED[locale[:2]])
    box = refusal.bounding_box()
    assert box["y"] < 100 and box["width"] <= size["width"]  # floats over the top
    # the camera stays on for another try; nothing opened, nothing was written
    camera_on(page)
    assert page.url == here
    assert players.by_token(db, player["passport_token"]) is None
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    if locale == "ru-RU":
        shoot(page, "scan-refused-360-dark-ru")
        page.evaluate("document.querySelector('#scan .alert.refusal').remove()")
        shoot(page, "scan-overlay-360-dark-ru")  # as it looks while it looks

    page.locator("#scan .scan-cancel").tap()
    expect(page.locator("#scan")).to_be_hidden()
    page.wait_for_function("() => !document.querySelector('#scan video').srcObject")
    assert page.url == here
    assert seen.foreign(live_server) == []


@pytest.mark.parametrize(("size", "scheme", "locale"), LOOKS[1:])  # the camera's tests
def test_without_a_camera_a_photo_is_read_the_same_way(phone_of, live_server, db, tmp_path, size,
                                                       scheme, locale):
    player = make_player(db)
    photo = tmp_path / "passport.png"
    passport_picture(player, width=420).save(photo)
    page = phone_of(size, locale=locale, color_scheme=scheme)
    # as on a phone over plain HTTP: no camera API at all
    page.add_init_script("Object.defineProperty(navigator, 'mediaDevices', {value: undefined})")
    sign_in(page, live_server)

    scan_button(page, locale[:2]).tap()
    expect(page.locator("#scan.no-camera")).to_be_visible()
    expect(page.locator("#scan .scan-hint")).to_contain_text(
        {"en": "take a photo", "ru": "сфотографируйте"}[locale[:2]])
    photo_button = page.locator("#scan .scan-photo")
    assert photo_button.bounding_box()["height"] >= 44
    if locale == "ru-RU":
        shoot(page, "scan-no-camera-360-dark-ru")
    page.locator("#scan input[type=file]").set_input_files(str(photo))
    page.wait_for_url(f"{live_server}/players/{player['id']}")


@pytest.mark.parametrize(("picker", "size", "scheme", "locale"), [
    pytest.param("/coup/new?seat={other}", *LOOKS[0].values, id="coup-seat"),
    pytest.param("/underworld/new?p={other}", *LOOKS[1].values, id="castle-seat"),
    pytest.param("/berserk/squads/new", *LOOKS[0].values, id="squad-owner"),
])
def test_a_scan_beside_a_player_picker_picks_the_player(camera, live_server, db, picker, size,
                                                       scheme, locale):
    other = make_player(db, "Brigadier B")
    player = make_player(db)
    page = camera(passport_picture(player), size, scheme, locale)
    sign_in(page, live_server, to=picker.format(other=other["id"]))
    page.locator("main [data-scan]").tap()
    if "berserk" in picker:
        # the owner's <select> takes the player, and the builder is drawn again for them
        page.wait_for_function("id => document.querySelector('#squad-builder "
                               "select[name=player]').value === String(id)", arg=player["id"])
        # (B14: drawn for Captain A, who has no registered deck yet)
        expect(page.locator(f"#squad-builder .unregistered a[href$='player={player['id']}']")
               ).to_be_visible()
        expect(page.locator("#scan")).to_be_hidden()
    else:
        # one more seat, after the one taken already
        seats = page.locator("ol.rows li.row strong")
        expect(seats).to_have_text(["Brigadier B", "Captain A"])
