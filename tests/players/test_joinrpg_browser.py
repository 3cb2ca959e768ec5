"""On a phone: a JoinRPG export uploaded on the Import page opens the
mapping step with the suggestions chosen, fits at 360 px, and Import brings the players."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_fixtures import PHONE, shoot, sign_in
from tests.players.test_joinrpg import MAP, joinrpg_xlsx

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("size", "scheme", "locale", "imported"), [
    (PHONE, "light", "en-US", "Imported from JoinRPG: 2 new, 0 changed."),
    ({"width": 360, "height": 740}, "dark", "ru-RU",
     "Импортировано из JoinRPG: новых — 2, изменённых — 0."),
], ids=["390-light-en", "360-dark-ru"])
def test_joinrpg_mapping_step_on_a_phone(phone_of, live_server, db, size, scheme, locale,
                                         imported):
    page = phone_of(size, locale=locale, color_scheme=scheme)
    sign_in(page, live_server, "org", "org-password", to="/players/import")
    page.set_input_files("input[name=file]", files=[{
        "name": "export.xlsx", "buffer": joinrpg_xlsx(),
        "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}])
    page.locator("form button[type=submit]").first.tap()
    expect(page.locator("#joinrpg-preview")).to_be_visible()
    for ours, theirs in MAP.items():
        expect(page.locator(f"select[name=map_{ours}]")).to_have_value(theirs)
    shoot(page, f"joinrpg-map-{size['width']}-{scheme}", full_page=True)
    fits = page.evaluate("""() => ({
        wide: document.documentElement.scrollWidth - innerWidth,
        small: [...document.querySelectorAll('#joinrpg-map select, #joinrpg-map button')]
            .map(el => el.getBoundingClientRect().height).filter(h => h < 44)})""")
    assert fits == {"wide": 0, "small": []}
    assert db["players"].count == 0  # the mapping step writes nothing
    page.locator("button[value=import]").tap()
    expect(page.locator("#joinrpg-done")).to_have_text(imported)
    shoot(page, f"joinrpg-done-{size['width']}-{scheme}")
    assert sorted(r["joinrpg_id"] for r in db.query("SELECT joinrpg_id FROM players")) == [
        "101", "102"]
