"""Playwright with the system Chromium. Skipped where no Chromium is installed, unless
REFEREE_REQUIRE_BROWSER=1 (CI sets it), where a missing browser is a failure."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    """The system Chromium: $CHROMIUM, else chromium on the PATH."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or \
        shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session."""
    path = chromium_path()
    if not path:
        if os.environ.get("REFEREE_REQUIRE_BROWSER") == "1":
            pytest.fail("REFEREE_REQUIRE_BROWSER=1 but no Chromium found: install chromium")
        pytest.skip("no Chromium installed (apt-get install chromium) — browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized page (390×844, touch), English."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale="en-US", device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
