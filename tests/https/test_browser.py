"""On a phone: only HTTPS makes the app a secure context at the laptop's network address
(what the camera, installing as an app and keeping the screen awake need), and the
organizers' page fits 360 px in dark mode with a QR code that scans."""

from __future__ import annotations

import io

import pytest

from referee.serving import lan_address
from tests.https.test_serve import ORGANIZER, Serving, new_event

pytestmark = pytest.mark.browser

FEATURES = """() => ({secure: window.isSecureContext, wakeLock: 'wakeLock' in navigator,
                      camera: !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia),
                      worker: 'serviceWorker' in navigator})"""


@pytest.fixture(scope="module")
def on_the_lan(tmp_path_factory):
    """`serve --https` on every interface, reached at this machine's network address."""
    lan = lan_address()
    if lan.startswith("127."):
        pytest.skip("no network address other than loopback here")
    server = Serving(new_event(tmp_path_factory.mktemp("lan")), "--https", host="0.0.0.0")
    try:
        yield lan, server
    finally:
        server.stop()


@pytest.fixture
def dark_phone(phone_of):
    # The browser is told to accept the certificate: whether phones can trust it is
    # test_serve's part (Python's ssl with the authority as the only anchor).
    return phone_of({"width": 360, "height": 740}, locale="ru-RU", color_scheme="dark",
                    ignore_https_errors=True)


def test_only_https_gives_a_phone_the_camera_the_app_and_the_awake_screen(on_the_lan,
                                                                          dark_phone):
    lan, server = on_the_lan
    dark_phone.goto(f"http://{lan}:{server.http_port}/https/trust")
    assert dark_phone.evaluate(FEATURES) == {"secure": False, "wakeLock": False,
                                             "camera": False, "worker": False}
    dark_phone.goto(f"https://{lan}:{server.port}/login")
    assert dark_phone.evaluate(FEATURES) == {"secure": True, "wakeLock": True,
                                             "camera": True, "worker": True}


def test_the_https_page_on_a_dark_phone(on_the_lan, dark_phone, tmp_path):
    import zxingcpp
    from PIL import Image

    lan, server = on_the_lan
    base = f"https://{lan}:{server.port}"
    dark_phone.goto(base + "/login")
    dark_phone.fill("input[name=name]", ORGANIZER[0])
    dark_phone.fill("input[name=password]", ORGANIZER[1])
    dark_phone.click("button[type=submit]")
    dark_phone.wait_for_url(base + "/")
    dark_phone.goto(base + "/https")
    assert "HTTPS включён" in dark_phone.inner_text("#https-on")
    dark_phone.screenshot(path=str(tmp_path / "https-360-dark.png"), full_page=True)
    # nothing wider than the phone: no sideways scrolling
    assert dark_phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot = Image.open(io.BytesIO(dark_phone.locator(".pair-qr svg").screenshot()))
    (code,) = zxingcpp.read_barcodes(shot.convert("L"))
    assert code.text == f"http://{lan}:{server.http_port}/https/referee-ca.crt"
