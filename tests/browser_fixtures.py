"""Playwright with the system Chromium. Skipped where no Chromium is installed, unless
REFEREE_REQUIRE_BROWSER=1 (CI sets it), where a missing browser is a failure."""

from __future__ import annotations

import os
import re
import shutil

import pytest
import requests

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 740}
# htmx keeps a swapped element's old class until the swap settles, and scrolls only then:
# read classes and places once nothing is waiting, swapping or settling.
SETTLED = """() => document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')
  === null"""


def chromium_path() -> str | None:
    """The system Chromium: $CHROMIUM, else Chromium's headless shell on the PATH, else
    the whole browser. The shell is Chromium's own engine without the browser's windows
    and profile machinery; the same tests run on it in half the CPU time (Debian's
    ``chromium-headless-shell``), which keeps the suite within its three minutes."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium-headless-shell") or \
        shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session."""
    path = chromium_path()
    if not path:
        if os.environ.get("REFEREE_REQUIRE_BROWSER") == "1":
            pytest.fail("REFEREE_REQUIRE_BROWSER=1 but no Chromium found: "
                        "install chromium-headless-shell")
        pytest.skip("no Chromium installed (apt-get install chromium-headless-shell) — "
                    "browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone_of(browser):
    """Make phone pages: ``phone_of(size, locale=..., **options)`` is a fresh touch page
    of that size (390×844 and English by default; options as Playwright's new_context
    takes them, e.g. color_scheme). Each is closed after the test."""
    contexts = []

    def make(size: dict = PHONE, locale: str = "en-US", **options):
        context = browser.new_context(viewport=size, is_mobile=True, has_touch=True,
                                      locale=locale, device_scale_factor=2, **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def phone(phone_of):
    """A fresh phone-sized page (390×844, touch), English."""
    return phone_of()


def sign_in_through_the_form(page, base: str, name: str = "ref",
                             password: str = "ref-password") -> None:
    """Sign in as a referee would: the login page, its form, then the list of players."""
    page.goto(base + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")


def sign_in(page, base: str, name: str = "ref", password: str = "ref-password",
            to: str | None = "/") -> None:
    """Sign the page's browser in, then open ``to`` (None: stay where it is).

    The sign-in goes through the live server's own login form over HTTP, and the page
    is handed the session cookie it answers with: the form's own two pages in Chromium
    (tested by sign_in_through_the_form's callers) would cost each test two page loads.
    """
    http = requests.Session()
    form = http.get(base + "/login", timeout=10).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert token, "the login page has no CSRF token"
    answer = http.post(base + "/login", allow_redirects=False, timeout=10, data={
        "name": name, "password": password, "csrf_token": token.group(1)})
    assert answer.status_code == 303, answer.text
    page.context.add_cookies([{"name": c.name, "value": c.value or "", "url": base}
                              for c in http.cookies])
    if to is not None:
        page.goto(base + to)


def to_look(page, base: str, path: str, size: dict, scheme: str, locale: str) -> None:
    """Turn a page to another look: the phone's size and colour scheme, then the language
    as the page's own switch keeps it (its cookie), and the screen at ``path`` opened
    again by its own address (the switch goes back to the page's address, which may be a
    form's). A test plays its flow in one look and checks where it ended in another."""
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    page.context.add_cookies([{"name": "lang", "value": locale[:2], "url": base}])
    page.goto(base + path)
    assert page.evaluate("document.documentElement.lang") == locale[:2]


def shoot(page, name: str, full_page: bool = False) -> None:
    """A screenshot to look at, when REFEREE_SCREENSHOTS names a folder."""
    folder = os.environ.get("REFEREE_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name + ".png"), full_page=full_page)


class CountedScreen:
    """Taps on one game screen (``root``: its panel's selector), counted; a tap that
    writes waits until the panel shows the game's next version."""

    def __init__(self, page, root: str):
        self.page, self.root, self.taps, self.version = page, root, 0, 0

    def tap(self, selector: str, writes: bool = True) -> None:
        self.page.locator(f"{self.root} {selector}").first.tap()
        self.taps += 1
        if writes:
            self.version += 1
            self.page.wait_for_selector(f"{self.root}[data-version='{self.version}']")
