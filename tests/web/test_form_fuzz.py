"""A fuzz of every HTML form route. Whatever a form sends, the answer is never
a 5xx: a wrong value is a 4xx with a sentence, or the form again. A
field or query value holding a NUL is refused with a sentence, and nothing is written."""

from __future__ import annotations

import html
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.coup import service as coup
from referee.games.duel import service as duels
from referee.players import service as players
from tests.accounts.test_security import write_routes
from tests.conftest import sign_in
from tests.games.berserk.test_web import install_test_deck, start_battle
from tests.games.underworld import test_service as castle

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# Every field name a form of the app sends, read off the templates.
FIELDS = sorted({name for path in TEMPLATES.rglob("*.html")
                 for name in re.findall(r'name="([A-Za-z_][A-Za-z0-9_]*)"', path.read_text())}
                - {"csrf_token"})
NASTY = ["", "0", "-1", "1", "2", "99999999999999999999", "9" * 5000, "²", "٣", "+-1", "1e3",
         "<b>x</b>", "'; DROP TABLE players; --", "\u202e", "H", "10S", "M07", "a,b,,c", " "]
VALUES = st.one_of(st.sampled_from(NASTY), st.sampled_from(NASTY),
                   st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
# Any of the fields, each with a value or left out: whatever field a route reads, it gets
# something odd in most examples.
FORMS = st.fixed_dictionaries({}, optional={name: VALUES for name in FIELDS})
EXAMPLES_PER_ROUTE = 5


def form_routes(app) -> list[tuple[str, str]]:
    """Every (method, url) a browser's form posts to (the JSON API is fuzzed apart)."""
    return [(method, url) for method, url, endpoint in write_routes(app)
            if not endpoint.startswith("api") and endpoint != "static"]


def test_the_fuzz_reaches_the_forms(app):
    urls = {url for _m, url in form_routes(app)}
    assert {"/players/1/adjust", "/players/1/set", "/referees", "/settings", "/coup",
            "/duels/1/rounds", "/berserk/1/strike", "/underworld/1/act",
            "/players/import"} <= urls
    assert {"hp", "reason", "password", "character", "version"} <= set(FIELDS)


def fuzz(browser, method: str, url: str) -> None:
    """Post EXAMPLES_PER_ROUTE odd forms to one route; none may answer a 5xx."""

    @settings(max_examples=EXAMPLES_PER_ROUTE, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(form=FORMS, htmx=st.booleans())
    def answers_without_a_crash(form, htmx):
        with browser.session_transaction() as session:  # no page load for the token
            token = session["csrf"]
        answer = browser.open(url, method=method, data={**form, "csrf_token": token},
                              headers={"HX-Request": "true"} if htmx else {})
        assert answer.status_code < 500, (method, url, form,
                                          answer.get_data(as_text=True)[:300])

    answers_without_a_crash()


def seed_every_game(db, monkeypatch, tmp_path) -> None:
    """Game 1 of every kind is a real game in play, so that the fuzz of /duels/1/...,
    /coup/1/..., /underworld/1/... and /berserk/1/... reaches the games' own code."""
    a = players.create(db, None, {"character": "A", "hp_max": 3, "chance_max": 2,
                                  "cartridges": 3, "suit": "H"})
    b = players.create(db, None, {"character": "B", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "C"})
    c = players.create(db, None, {"character": "C", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 2, "suit": "S"})
    duels.start(db, None, a["id"], b["id"])
    coup.create(db, None, [a["id"], b["id"], c["id"]])
    castle.start(db, [a, c], [["I02", "I06", "M01", "M01"], castle.FILLER_B])
    install_test_deck(tmp_path, monkeypatch)
    start_battle(db, a, c)


def test_the_seeded_games_are_there(app, db, monkeypatch, tmp_path):
    seed_every_game(db, monkeypatch, tmp_path)
    kinds = {row[0]: row[1] for row in db.execute(
        "SELECT kind, count(*) FROM games GROUP BY kind")}
    assert set(kinds) >= {"coup", "underworld", "berserk"}, kinds


def test_no_form_answers_a_5xx(app, db, monkeypatch, tmp_path):
    seed_every_game(db, monkeypatch, tmp_path)
    browser = sign_in(app.test_client(), "org", "org-password")
    for method, url in form_routes(app):
        if url != "/logout":  # it would only sign the fuzzing browser out
            fuzz(browser, method, url)


# A form cannot carry a lone surrogate (the browser, like the test
# client, encodes it as UTF-8 first, and bytes that decode to none read as U+FFFD): the
# text that cannot be stored a form can bring is a NUL, amid any text.
AROUND = st.text(st.sampled_from("aZ9 -кЖё😀<&"), max_size=3)
WITH_NUL = st.builds(lambda a, b: f"{a}\x00{b}", AROUND, AROUND)
NUL_EXAMPLES_PER_ROUTE = 3  # 45 routes: every field of FIELDS has its turn (a few s)
STORED_NOT = "contains a character that cannot be stored (NUL or a broken Unicode surrogate)"


def refuses_nul(browser, db, method: str, url: str, turns: list[str]) -> None:
    """Post odd forms with one field (in ``turns``' order), or the query, holding a NUL:
    each is a 422 with the sentence, and the database is not written to."""
    def version() -> int:
        return db.execute("PRAGMA data_version").fetchone()[0]
    done: list[str] = []

    @settings(max_examples=len(turns), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(form=FORMS, bad=WITH_NUL, htmx=st.booleans(), in_query=st.booleans())
    def refused(form, bad, htmx, in_query):
        field = turns[len(done) % len(turns)]
        done.append(field)
        with browser.session_transaction() as session:
            token = session["csrf"]
        target = f"{url}?{field}=%00" if in_query else url
        data = {**form, "csrf_token": token, **({} if in_query else {field: bad})}
        before = version()
        answer = browser.open(target, method=method, data=data,
                              headers={"HX-Request": "true"} if htmx else {})
        text = html.unescape(answer.get_data(as_text=True))
        assert (answer.status_code, STORED_NOT in text) == (422, True), (method, target, field)
        assert version() == before, (method, target, field, "wrote to the database")

    refused()
    assert set(turns) <= set(done)


def test_a_nul_in_any_form_field_is_refused_and_nothing_is_written(app, db, monkeypatch,
                                                                   tmp_path):
    seed_every_game(db, monkeypatch, tmp_path)
    browser = sign_in(app.test_client(), "org", "org-password")
    browser.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    routes = [(m, u) for m, u in form_routes(app) if u != "/logout"]
    # Route i takes fields i*n … i*n+n-1 of FIELDS (around again): each field has a turn.
    n = NUL_EXAMPLES_PER_ROUTE
    assert len(routes) * n >= len(FIELDS)
    for i, (method, url) in enumerate(routes):
        turns = [FIELDS[(i * n + j) % len(FIELDS)] for j in range(n)]
        refuses_nul(browser, db, method, url, turns)
