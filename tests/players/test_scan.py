"""Scan in the app: what /scan/resolve says of a scanned code, for a signed-in
referee only, in the referee's language; a scan writes nothing."""

from __future__ import annotations

import html

import pytest

from referee.players import service
from referee.store import players
from tests.conftest import post

PUBLIC = "http://192.168.1.10:8080"  # the passport's printed address, not the test server's


def tally(db) -> tuple:
    """Everything a scan could have written."""
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("events", "games", "game_actions", "retired_passports"))


def resolve(client, code: str, **args):
    return client.get("/scan/resolve", query_string={"code": code, **args})


@pytest.fixture
def b(db):
    """Player B of duel.md's worked examples."""
    return service.create(db, None, {"character": "Brigadier B", "hp_max": 3,
                                      "chance_max": 1, "cartridges": 2, "suit": "C"})


@pytest.mark.parametrize("address", [
    PUBLIC + "/p/{t}",  # as printed, whatever the host
    "https://referee.example/event/p/{t}/",  # another scheme, a base with a path
    "  HTTP://127.0.0.1/p/{t}\n",  # a scanner's spaces, an upper-case scheme
    "{t}",  # a bare token, as typed
])
def test_a_passport_names_its_player_and_writes_nothing(referee, db, player, address):
    before = tally(db)
    response = resolve(referee, address.format(t=player["passport_token"]), slot="sheet")
    assert response.status_code == 200
    assert response.get_json() == {
        "player": {"id": player["id"], "character": "Captain A"},
        "sheet_url": f"/players/{player['id']}"}
    assert tally(db) == before


@pytest.mark.parametrize("code", [
    "https://example.com/some/page",  # a foreign QR code
    PUBLIC + "/p/" + "x" * 32,  # the shape of a passport, no player's token
    PUBLIC + "/players/1",
    "ftp://192.168.1.10/p/{t}",  # a passport token, but not a web address
    "javascript:alert(1)//p/{t}",
    "hello",
    "",
    "<b>{t}</b>",
    PUBLIC + "/p/{t}" + "x" * 3000,
])
def test_a_code_that_is_not_a_passport_of_this_event_opens_nothing(referee, db, player, code):
    before = tally(db)
    response = resolve(referee, code.format(t=player["passport_token"]))
    assert response.status_code == 404
    assert response.get_json() == {"error": "This code is not a passport of this event."}
    assert tally(db) == before


@pytest.mark.parametrize(("language", "sentence"), [
    ("en", "This passport was reissued: ask the player for the new one."),
    ("ru", "Этот паспорт перевыпущен: попросите у игрока новый."),
])
def test_a_reissued_passport_is_told_apart_and_opens_nothing(referee, db, player, language,
                                                              sentence):
    old = player["passport_token"]
    new = service.reissue(db, None, player["id"])["passport_token"]
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    before = tally(db)
    response = resolve(referee, f"{PUBLIC}/p/{old}", slot="duel")
    assert response.status_code == 410
    assert response.get_json() == {"error": sentence}
    assert "player" not in response.get_json()
    assert tally(db) == before
    # twice reissued: both older passports are refused the same way; the newest opens
    service.reissue(db, None, player["id"])
    for token in (old, new):
        assert resolve(referee, f"{PUBLIC}/p/{token}").status_code == 410
    assert resolve(referee, players.get(db, player["id"])["passport_token"]).status_code == 200


def test_the_old_token_itself_is_not_kept(db, player):
    service.reissue(db, None, player["id"])
    dump = "\n".join(str(r) for r in db.execute("SELECT * FROM retired_passports"))
    assert player["passport_token"] not in dump and str(player["id"]) in dump


def refusal_on_start(client, a_id: int, b_id: int) -> str:
    """The sentence the new-duel form shows when the duel is started with these two."""
    response = post(client, "/duels", {"a": a_id, "b": b_id})
    assert response.status_code == 422
    page = html.unescape(response.get_data(as_text=True))
    return page.split('<p class="alert" role="alert">', 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("state", ["no cartridge", "heavily wounded"])
def test_D4_a_player_who_may_not_duel_is_refused_a_duel_slot_as_the_start_refuses(
        referee, db, player, b, language, state):
    if state == "no cartridge":
        service.set_exact(db, None, b["id"], {"cartridges": 0})
    else:
        service.set_exact(db, None, b["id"], {"hp": 0})
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    before = tally(db)
    response = resolve(referee, f"{PUBLIC}/p/{b['passport_token']}", slot="duel")
    assert response.status_code == 422
    body = response.get_json()
    assert body["rule"] == "D4" and "player" not in body
    assert body["error"] == refusal_on_start(referee, player["id"], b["id"])
    assert body["error"].startswith("D4: ") and "Brigadier B" in body["error"]
    assert ("патрон" in body["error"]) == (language == "ru" and state == "no cartridge")
    assert tally(db) == before
    # the sheet is still theirs to open from the top bar
    assert resolve(referee, f"{PUBLIC}/p/{b['passport_token']}", slot="sheet").status_code == 200


@pytest.mark.parametrize("language", ["en", "ru"])
def test_D4_the_duelist_already_in_the_other_slot_is_refused(referee, db, player, language):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    code = f"{PUBLIC}/p/{player['passport_token']}"
    response = resolve(referee, code, slot="duel", other=str(player["id"]))
    assert response.status_code == 422
    assert response.get_json()["error"] == refusal_on_start(referee, player["id"], player["id"])
    assert resolve(referee, code, slot="duel", other="").status_code == 200


@pytest.mark.parametrize("language", ["en", "ru"])
def test_without_signing_in_a_scan_names_nobody(client, db, player, language):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    response = resolve(client, f"{PUBLIC}/p/{player['passport_token']}", slot="sheet")
    assert response.status_code == 401
    body = response.get_json()
    assert set(body) == {"error"}
    assert body["error"] == {"en": "Sign in as a referee first.",
                             "ru": "Сначала войдите как мастер."}[language]
    assert "Captain A" not in response.get_data(as_text=True)


def test_every_signed_in_page_offers_scan_and_fetches_no_decoder(referee, player):
    page = referee.get("/").get_data(as_text=True)
    assert 'data-scan="sheet"' in page and 'id="scan"' in page
    # the decoder is named for scan.js, but no tag loads it with the page
    assert 'data-decoder="/static/vendor/barcode-detector-3.2.2/ponyfill.js?v=' in page
    assert 'data-wasm="/static/vendor/zxing-wasm-3.1.3/zxing_reader.wasm?v=' in page
    assert 'src="/static/vendor/barcode' not in page and ".wasm\"" not in page
    assert 'src="/static/scan.js?v=' in page


def test_the_decoder_is_served_from_here_compressed_and_kept(referee):
    page = referee.get("/").get_data(as_text=True)
    wasm = page.split('data-wasm="', 1)[1].split('"', 1)[0]
    response = referee.get(wasm, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and response.mimetype == "application/wasm"
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert len(response.data) < 500_000  # 1.1 MB on disk
    csp = response.headers["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in csp
    assert "unsafe-eval'" not in csp.replace("'wasm-unsafe-eval'", "")
