"""Hardening: bad input gets a clear 4xx and changes nothing, and no redirect leaves
the site."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules import whole
from referee.rules.stats import CARTRIDGES_MAX
from referee.web.security import local_path
from tests.conftest import csrf_of, post


# What a browser does to a Location before following it (WHATWG URL parsing): tabs and
# newlines go, a backslash is a slash.
def as_a_browser_reads(target: str) -> str:
    return target.translate({9: None, 10: None, 13: None}).replace("\\", "/")


LEAVING = ["/\t/evil.example/x", "/\n/evil.example", "//evil.example",
           "/\\evil.example", "\\/evil.example", "https://evil.example", "http:/evil.example",
           "/ /evil.example", "javascript:alert(1)", " /players", "/players\x7f"]


@pytest.mark.parametrize("target", LEAVING)
def test_a_next_that_would_leave_the_site_is_refused(target):
    assert local_path(target) is None


def test_a_path_on_this_site_is_kept():
    assert local_path("/players/7?tab=history#h") == "/players/7?tab=history#h"
    assert local_path("/%09evil") == "/%09evil"  # escaped: a path segment, not a tab


@given(st.text(alphabet=st.sampled_from("/\\\t\n:.%09ae h@?#"), max_size=12))
def test_whatever_is_kept_stays_on_the_site_as_a_browser_reads_it(target):
    kept = local_path(target)
    if kept is not None:
        read = urlsplit(as_a_browser_reads(kept))
        assert not read.scheme and not read.netloc and read.path.startswith("/")
        assert not as_a_browser_reads(kept).startswith("//")


@pytest.mark.parametrize("query", ["next=/%09/evil.example/x", "next=/%5Cevil.example",
                                   "next=//evil.example", "next=/%0A/evil.example"])
def test_the_language_switch_goes_back_only_to_this_site(client, query):
    answer = client.get(f"/lang/en?{query}")  # as the audit sent it: %09 is a tab here
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    assert client.get("/lang/en?next=/players/3").headers["Location"] == "/players/3"


def test_signing_in_goes_on_only_to_this_site(client):
    answer = client.post("/login", data={"name": "ref", "password": "ref-password",
                                         "next": "/\t/evil.example", "csrf_token": csrf_of(client)})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


@pytest.mark.parametrize("text, number", [("7", 7), (" 12 ", 12), ("0", 0), ("-3", None),
                                          ("+3", None), ("²", None), ("٣", None), ("+-1", None),
                                          ("1" * 19, None), ("", None), ("1e3", None)])
def test_whole_numbers_are_plain_digits_that_fit(text, number):
    assert whole(text) == number


def test_a_signed_whole_number():
    assert whole("-3", signed=True) == -3 and whole("+3", signed=True) == 3
    assert whole("+-1", signed=True) is None and whole("--1", signed=True) is None


@pytest.mark.parametrize("value", ["²", "+-1", "9" * 5000, "٣"])
def test_a_tap_with_a_number_no_one_typed_is_a_400_and_changes_nothing(referee, db, player,
                                                                         value):
    events = db["events"].count
    answer = post(referee, f"/players/{player['id']}/adjust", {"hp": value})
    assert answer.status_code == 400
    assert db["players"].get(player["id"])["hp"] == 3 and db["events"].count == events


@pytest.mark.parametrize("value", ["²", "+-1", "9" * 5000])
def test_set_exact_with_a_number_no_one_typed_says_so_and_changes_nothing(referee, db,
                                                                         player, value):
    answer = post(referee, f"/players/{player['id']}/set", {"cartridges": value}, htmx=True)
    assert answer.status_code == 422
    assert "Cartridges must be a whole number." in answer.get_data(as_text=True)
    assert db["players"].get(player["id"])["cartridges"] == 3


def test_json_nested_fifty_thousand_deep_is_refused_as_unreadable(api, db, player):
    events = db["events"].count
    answer = api("post", f"/api/v1/players/{player['id']}/adjust",
                 data="[" * 50_000 + "]" * 50_000, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422
    assert answer.get_json() == {"error": "Send a JSON object in the request body."}
    assert db["events"].count == events


def test_cartridges_past_the_passport_limit_are_refused_with_the_limit(api, db, player):
    for delta in (2**63 - 1, CARTRIDGES_MAX):  # once a crash (SQLite's INTEGER overflowed)
        answer = api("post", f"/api/v1/players/{player['id']}/adjust",
                     json={"cartridges": delta})
        assert answer.status_code == 422
        assert f"at most {CARTRIDGES_MAX} cartridges" in answer.get_json()["error"]
    assert db["players"].get(player["id"])["cartridges"] == 3
    answer = api("post", f"/api/v1/players/{player['id']}/adjust",
                 json={"cartridges": CARTRIDGES_MAX - 3})
    assert answer.status_code == 200 and answer.get_json()["cartridges"] == CARTRIDGES_MAX


def test_the_cartridge_limit_is_said_in_russian(api, player):
    answer = api("post", f"/api/v1/players/{player['id']}/adjust", json={"cartridges": 5000},
                 headers={"Accept-Language": "ru"})
    assert answer.status_code == 422
    assert "не больше 999 патронов" in answer.get_json()["error"]


def test_a_reason_too_long_is_refused_not_cut(referee, db, player):
    """A reason too long is refused by the form as by the API, never cut silently."""
    events = db["events"].count
    answer = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1", "reason": "x" * 201},
                  htmx=True)
    assert answer.status_code == 422
    assert "A reason is at most 200 characters; this one has 201." in \
        answer.get_data(as_text=True)
    assert db["players"].get(player["id"])["hp"] == 3 and db["events"].count == events
    ok = post(referee, f"/players/{player['id']}/adjust", {"hp": "-1", "reason": "x" * 200},
              htmx=True)
    assert ok.status_code == 200 and db["players"].get(player["id"])["hp"] == 2
