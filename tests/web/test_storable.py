"""Text that cannot be stored (a NUL, a lone surrogate) is refused where
it enters, in a JSON body, a form, the query string or a header, with a 4xx and a sentence
in the user's language, and nothing is written. A surrogate pair (an emoji) and Cyrillic
are kept as typed."""

from __future__ import annotations

import html
import io
import json
import re
from contextlib import contextmanager

import pytest

from referee.rules.text import unstorable
from tests.conftest import csrf_of, post

EN = "contains a character that cannot be stored (NUL or a broken Unicode surrogate); retype it."
RU = "есть символ, который нельзя сохранить (NUL или сломанный суррогат Юникода); наберите " \
     "текст заново."
HEADER_EN = "header contains a character that cannot be stored (NUL or a broken Unicode " \
            "surrogate); send the request again without it."
HEADER_RU = "есть символ, который нельзя сохранить (NUL или сломанный суррогат Юникода); " \
            "отправьте запрос ещё раз без него."
NEW = {"character": "Кощей", "hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "H"}


@contextmanager
def nothing_written(db):
    """Assert that no connection committed anything to the database meanwhile."""
    version = db.execute("PRAGMA data_version").fetchone()[0]
    players, events = db["players"].count, db["events"].count
    yield
    assert db.execute("PRAGMA data_version").fetchone()[0] == version, "something was written"
    assert (db["players"].count, db["events"].count) == (players, events)


def said(response) -> str:
    """The refusal's sentence: the JSON error, or the page's or fragment's alert."""
    if response.is_json:
        return response.get_json()["error"]
    found = re.search(r'class="alert"[^>]*>(.*?)</', response.get_data(as_text=True), re.DOTALL)
    assert found, response.get_data(as_text=True)[:500]
    return html.unescape(found.group(1)).strip()


# -- the JSON API --------------------------------------------------------------------------

@pytest.mark.parametrize("lone", [chr(0xDFFF), chr(0xD800)], ids=["udfff", "ud800"])
@pytest.mark.parametrize(("language", "sentence"), [("en", f"Character {EN}"),
                                                    ("ru", f"Персонаж: {RU}")],
                         ids=["en", "ru"])
def test_the_report_a_lone_surrogate_in_a_new_players_json_is_a_422_with_a_sentence(
        api, db, lone, language, sentence):
    with nothing_written(db):
        response = api("post", "/api/v1/players", json={**NEW, "character": lone},
                       headers={"Accept-Language": language})
    assert response.status_code == 422
    assert response.get_json() == {"error": sentence}  # the API's one error shape
    assert db["players"].count == 0


@pytest.mark.parametrize(("method", "url", "body", "sentence"), [
    ("post", "/api/v1/players", {**NEW, "notes": "free text, yet a\x00b"}, f"Notes {EN}"),
    ("post", "/api/v1/players", {**NEW, "reason": "\ude00 alone"}, f"Reason {EN}"),
    ("post", "/api/v1/players/{a}/adjust", {"hp": -1, "reason": "ранен\x00"}, f"Reason {EN}"),
    ("patch", "/api/v1/players/{a}", {"player": "Иван\ud83d"}, f"Player {EN}"),
    ("post", "/api/v1/duels/{duel}/rounds", {"a": {"table": "10S\x00"}, "b": {"table": "7H"}},
     f"a.table {EN}"),
    ("post", "/api/v1/coup", {"players": [1, 2, "\udfff"]}, f"players[2] {EN}"),
    ("post", "/api/v1/players", {**NEW, "\x00": 1}, "The text sent " + EN),
], ids=["notes", "reason", "adjust-reason", "edit-player", "duel-nested", "coup-list",
        "a-key"])
def test_unstorable_text_anywhere_in_a_json_body_is_refused_and_named(api, db, method, url,
                                                                       body, sentence):
    a = api("post", "/api/v1/players", json={**NEW, "character": "A"}).get_json()["id"]
    b = api("post", "/api/v1/players", json={**NEW, "character": "B"}).get_json()["id"]
    duel = api("post", "/api/v1/duels", json={"a": a, "b": b}).get_json()["id"]
    with nothing_written(db):
        response = api(method, url.format(a=a, duel=duel), json=body,
                       headers={"Accept-Language": "en"})
    assert (response.status_code, response.get_json()) == (422, {"error": sentence})


def test_a_token_request_with_a_lone_surrogate_is_a_400_as_any_malformed_one(client, db):
    with nothing_written(db):
        response = client.post("/api/v1/token", json={"name": "ref\udfff", "password": "x"})
    assert response.status_code == 400  # what this call answers a body it cannot read
    assert response.get_json() == {"error": f"Name {EN}"}


def test_a_surrogate_pair_and_cyrillic_are_stored_as_typed(api, referee, db):
    """Not a refusal: the guard must not take a valid emoji (sent as the escaped pair
    "\\ud83d\\ude00") or Cyrillic for broken text."""
    raw = '{"character": "\\ud83d\\ude00 Кощей", "notes": "Бессмертный \\ud83d\\udc80", ' \
          '"hp_max": 3, "chance_max": 1, "cartridges": 2, "suit": "H"}'
    response = api("post", "/api/v1/players", data=raw,
                   headers={"Content-Type": "application/json"})
    assert response.status_code == 201
    row = db["players"].get(response.get_json()["id"])
    assert (row["character"], row["notes"]) == ("😀 Кощей", "Бессмертный 💀")
    assert api("get", "/api/v1/players?q=Кощей").get_json()[0]["character"] == "😀 Кощей"
    form = post(referee, "/players/new", {**NEW, "character": "Баба-яга 🧹", "level": 1})
    assert form.status_code == 303
    assert db.execute("SELECT character FROM players ORDER BY id DESC").fetchone()[0] == \
        "Баба-яга 🧹"


# -- forms ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("language", "sentence"), [("en", f"Character {EN}"),
                                                    ("ru", f"Персонаж: {RU}")],
                         ids=["en", "ru"])
def test_a_nul_in_a_form_field_is_a_422_with_a_sentence(referee, db, language, sentence):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    form = {**NEW, "character": "Ко\x00щей", "level": 1}
    with nothing_written(db):
        response = post(referee, "/players/new", form)
    assert response.status_code == 422
    assert said(response) == sentence


@pytest.mark.parametrize(("language", "sentence"), [("en", f"Reason {EN}"),
                                                    ("ru", f"Причина: {RU}")],
                         ids=["en", "ru"])
def test_a_nul_in_a_taps_free_text_reason_floats_as_a_refusal(referee, db, player, language,
                                                               sentence):
    """Free text too: the reason is refused, not stripped, and the tap changes nothing."""
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    with nothing_written(db):
        response = post(referee, f"/players/{player['id']}/adjust",
                        {"hp": "-1", "reason": "пуля\x00"}, htmx=True)
    assert response.status_code == 422
    assert response.get_data(as_text=True).startswith('<p class="alert"')  # app.js's toast
    assert said(response) == sentence
    assert db["players"].get(player["id"])["hp"] == 3


def test_a_nul_in_the_settings_form_changes_no_setting(organizer, db):
    with nothing_written(db):
        response = post(organizer, "/settings", {"event_name": "Бал\x00", "death_minutes": "5"})
    assert response.status_code == 422
    assert said(response) == f"Event name {EN}"


@pytest.mark.parametrize(("language", "sentence"), [
    ("en", ("The file's name contains a character that cannot be stored (NUL or a broken "
            "Unicode surrogate); rename the file and upload it again.")),
    ("ru", ("В имени файла есть символ, который нельзя сохранить (NUL или сломанный суррогат "
            "Юникода); переименуйте файл и загрузите его снова.")),
], ids=["en", "ru"])
def test_a_nul_in_an_uploads_name_imports_nothing(organizer, db, language, sentence):
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    good = "character,hp_max,chance_max,cartridges,suit\nКощей,3,1,1,H\n".encode()
    with nothing_written(db):
        response = post(organizer, "/players/import", {"file": (io.BytesIO(good), "p\x00.csv")},
                        content_type="multipart/form-data")
    assert response.status_code == 422 and said(response) == sentence


# -- the query string ----------------------------------------------------------------------

@pytest.mark.parametrize(("url", "language", "sentence"), [
    ("/api/v1/players?q=a%00b", "en", f"Search {EN}"),
    ("/api/v1/players?q=a%00b", "ru", f"Поиск: {RU}"),
    ("/api/v1/players?limit=5%00", "en", f"limit {EN}"),
    ("/api/v1/events?before=%00", "ru", f"before: {RU}"),
], ids=["search-en", "search-ru", "limit", "before"])
def test_a_nul_in_the_apis_query_string_is_a_422(api, db, url, language, sentence):
    with nothing_written(db):
        response = api("get", url, headers={"Accept-Language": language})
    assert (response.status_code, response.get_json()) == (422, {"error": sentence})


@pytest.mark.parametrize(("url", "htmx", "language", "sentence"), [
    ("/?q=%D0%9A%00", True, "ru", f"Поиск: {RU}"),
    ("/?q=%D0%9A%00", False, "en", f"Search {EN}"),
    ("/?after=%00", True, "en", f"after {EN}"),
], ids=["search-htmx-ru", "search-page-en", "paging"])
def test_a_nul_in_the_search_box_or_paging_is_a_422(referee, db, player, url, htmx, language,
                                                    sentence):
    headers = {"HX-Request": "true", "HX-Target": "player-list"} if htmx else {}
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    with nothing_written(db):
        response = referee.get(url, headers=headers)
    assert response.status_code == 422
    assert said(response) == sentence


# -- headers -------------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "value", "language", "sentence"), [
    ("Accept-Language", "en, x\x00", "en", f"The Accept-Language {HEADER_EN}"),
    ("Accept-Language", "ru, x\x00", "ru", f"В заголовке Accept-Language {HEADER_RU}"),
    ("Idempotency-Key", "key\x00", "en", f"The Idempotency-Key {HEADER_EN}"),
    ("X-Anything", "\x00", "ru", f"В заголовке X-Anything {HEADER_RU}"),
], ids=["accept-language-en", "accept-language-ru", "idempotency-key", "any"])
def test_a_nul_in_an_api_header_is_a_422(api, db, header, value, language, sentence):
    headers = {"Accept-Language": language, header: value}
    with nothing_written(db):
        response = api("post", "/api/v1/players", json=NEW, headers=headers)
    assert (response.status_code, response.get_json()) == (422, {"error": sentence})
    assert db["players"].count == 0


@pytest.mark.parametrize(("language", "sentence"), [
    ("en", f"The Cookie {HEADER_EN}"), ("ru", f"В заголовке Cookie {HEADER_RU}")],
    ids=["en", "ru"])
def test_a_nul_in_a_cookie_or_the_host_is_a_422_on_the_screens(referee, db, player,
                                                               language, sentence):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    token = csrf_of(referee)
    referee.set_cookie("lang", "e\x00n")  # sent quoted as "e\\000n": a NUL once read
    with nothing_written(db):
        response = referee.post(f"/players/{player['id']}/adjust",
                                data={"hp": "-1", "csrf_token": token})
    assert response.status_code == 422 and said(response) == sentence
    referee.delete_cookie("lang")
    with nothing_written(db):
        response = referee.get("/", headers={"Host": "local\x00host"})
    assert response.status_code == 422 and "Host" in said(response)


def test_a_nul_in_the_token_csrf_or_path_keeps_its_answer(client, api, referee, db, player):
    """A NUL in the token, the CSRF token or the path keeps its own 4xx (the token and the
    CSRF guard come first, so their own sentence is said): no NUL gets past them."""
    with nothing_written(db):
        bearer = client.get("/api/v1/players", headers={"Authorization": "Bearer a\x00b"})
        csrf = referee.post(f"/players/{player['id']}/adjust", data={"hp": "-1"},
                            headers={"X-CSRF-Token": "a\x00", "HX-Request": "true"})
        passport = referee.get("/p/a%00b")
        conflict = api("post", "/api/v1/conflicts/a%00b", json={"decision": "apply"})
    assert bearer.status_code == 401 and said(bearer) == "Sign in as a referee first."
    assert csrf.status_code == 400 and said(csrf).startswith("This screen has expired.")
    assert passport.status_code == 404 and conflict.status_code == 404


# -- the walk ------------------------------------------------------------------------------

def test_the_walk_names_the_place_and_survives_the_deepest_body():
    assert unstorable({"a": [1, {"b": "ok"}, {"c": "x\x00"}]}).params == {"field": "a[2].c"}
    assert unstorable("\udfff").message.startswith("The text sent")
    # JSON's escaped pair is decoded into the one character it encodes
    assert unstorable(json.loads('{"ok": ["Кощей", "\\ud83d\\ude00"]}')) is None
    assert unstorable(json.loads('["\\ud83d"]')).params == {"field": "[0]"}
    deep: object = "\x00"
    for _ in range(100_000):  # far deeper than Python's recursion limit
        deep = [deep]
    assert unstorable(deep) is not None
