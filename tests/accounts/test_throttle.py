"""Sign-ins cannot be guessed (limits per address and per account)."""

from __future__ import annotations

from referee.web import throttle
from tests.conftest import csrf_of


def _form_login(client, name, password, addr="10.0.0.5"):
    return client.post("/login", data={"name": name, "password": password,
                                       "csrf_token": csrf_of(client)},
                       environ_base={"REMOTE_ADDR": addr})


def _token(client, name, password, addr="10.0.0.5"):
    return client.post("/api/v1/token", json={"name": name, "password": password},
                       environ_base={"REMOTE_ADDR": addr})


def test_the_form_refuses_with_429_and_retry_after_after_five_failures_for_one_account(client):
    for _ in range(5):
        assert _form_login(client, "ref", "wrong").status_code == 401
    refused = _form_login(client, "ref", "ref-password")   # even the right one, for now
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 61   # the window is a minute; its end is counted in whole seconds
    page = refused.get_data(as_text=True)
    assert "Too many failed attempts" in page and "second" in page
    with client.session_transaction() as session:
        assert "sid" not in session      # not signed in


def test_the_token_call_shares_the_account_count_and_answers_json(client):
    for _ in range(3):
        assert _form_login(client, "ref", "wrong").status_code == 401
    for _ in range(2):
        assert _token(client, "REF", "wrong").status_code == 401   # names fold case
    refused = _token(client, "ref", "ref-password")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert "Too many failed attempts" in refused.get_json()["error"]


def test_another_account_is_not_slowed_by_guesses_at_the_first(client):
    for _ in range(5):
        _token(client, "ref", "wrong")
    assert _token(client, "ref", "ref-password").status_code == 429
    assert _token(client, "org", "org-password", addr="10.0.0.6").status_code == 200


def test_one_address_trying_many_names_is_stopped_by_the_address_limit(client):
    for n in range(10):
        assert _token(client, f"nobody{n}", "guess").status_code == 401
    assert _token(client, "fresh-name", "guess").status_code == 429
    # The same account from another address is still let through.
    assert _token(client, "ref", "ref-password", addr="10.0.0.9").status_code == 200


def test_successful_sign_ins_are_never_counted(client):
    for _ in range(30):
        assert _token(client, "ref", "ref-password").status_code == 200


def test_the_message_speaks_russian(client):
    for _ in range(5):
        _token(client, "ref", "wrong")
    refused = client.post("/api/v1/token", json={"name": "ref", "password": "x"},
                          headers={"Accept-Language": "ru"},
                          environ_base={"REMOTE_ADDR": "10.0.0.5"})
    assert refused.status_code == 429
    assert "Слишком много" in refused.get_json()["error"]


def test_the_delay_grows_past_the_first_tier(client, monkeypatch):
    """One wrong try a minute never fills the minute's allowance (5), but the hour's (20)
    fills at the 21st: that wait is counted in tens of minutes, not seconds."""
    clock = [1_000_000.0]
    monkeypatch.setattr(throttle.time, "time", lambda: clock[0])  # the limiter's clock too
    answers = []
    for _ in range(21):
        answers.append(_token(client, "ref", "wrong"))
        clock[0] += 61
    assert [a.status_code for a in answers[:20]] == [401] * 20
    assert answers[20].status_code == 429
    assert int(answers[20].headers["Retry-After"]) > 30 * 60
    assert "minutes" in answers[20].get_json()["error"]


def test_a_refusal_is_held_longer_each_time_and_only_so_many_at_once():
    """The tarpit: a guesser's connection sleeps instead of asking again at once."""
    tarpit = throttle.Tarpit(first=0.01, most=0.04, slots=1)
    assert [tarpit.hold("10.0.0.5") for _ in range(4)] == [0.01, 0.02, 0.04, 0.04]
    assert tarpit.hold("10.0.0.6") == 0.01          # another address starts afresh
    tarpit.slots.acquire()                          # the one slot is taken...
    try:
        assert tarpit.hold("10.0.0.7") == 0.0       # ...so this refusal is not held
    finally:
        tarpit.slots.release()


def test_the_served_refusal_waits_before_answering(app, client, monkeypatch):
    import time

    monkeypatch.setitem(app.extensions, "referee.tarpit", throttle.Tarpit(0.2, 0.2, 2))
    for _ in range(5):
        _token(client, "ref", "wrong")
    t0 = time.monotonic()
    assert _token(client, "ref", "wrong").status_code == 429
    assert time.monotonic() - t0 >= 0.2


class _NewStation:
    """Stands in for a station's runtime (it needs Syncthing): a new, empty station
    whose join refuses every code, as a wrong code is refused."""

    def status(self):
        from referee.stations.runtime import Link
        return Link()

    def here(self):
        return {"event": None, "name": "tavern"}

    def poke(self):
        pass

    def join(self, organizer, code, pin=""):
        from referee.rules import N_, RuleError
        raise RuleError(None, N_("The pairing code is wrong."))


def test_pairing_codes_cannot_be_guessed_either(app, client, monkeypatch):
    """A new station's join form: its code is the key, so wrong codes are limited too."""
    from referee.stations.web import EXTENSION
    monkeypatch.setitem(app.extensions, EXTENSION, _NewStation())
    assert client.get("/stations/join").status_code == 200   # the form, with its token
    with client.session_transaction() as session:
        csrf = session["csrf"]
    answers = [client.post("/stations/join", data={
        "organizer": "ABC", "code": f"{n:06d}", "csrf_token": csrf},
        environ_base={"REMOTE_ADDR": "10.0.0.5"}).status_code for n in range(11)]
    assert answers == [422] * 10 + [429]


def test_guesses_elsewhere_do_not_lock_a_referee_out_of_their_own_phone(app, client):
    """The account limit spares a browser that signed in as that account before; the
    guesser's own address is still held back."""
    phone = app.test_client()
    assert _form_login(phone, "ref", "ref-password", addr="10.0.0.20").status_code == 303
    assert phone.post("/logout", data={"csrf_token": csrf_of(phone)}).status_code == 303
    for _ in range(5):
        assert _form_login(client, "ref", "wrong", addr="10.0.0.66").status_code == 401
    assert _form_login(client, "ref", "ref-password", addr="10.0.0.67").status_code == 429
    assert _form_login(phone, "ref", "ref-password", addr="10.0.0.20").status_code == 303


def test_a_forged_known_cookie_is_ignored(app, client):
    client.set_cookie(throttle.KNOWN_COOKIE, '["account:ref"]')
    for _ in range(5):
        _form_login(client, "ref", "wrong")
    assert _form_login(client, "ref", "ref-password").status_code == 429


def test_an_app_with_the_limit_switched_off_still_builds_and_never_refuses(db_path):
    """RATELIMIT_ENABLED=False (benchmarks compare against it) leaves the views alone."""
    from referee.app import create_app
    off = create_app({"DATABASE": str(db_path), "RATELIMIT_ENABLED": False})
    client = off.test_client()
    answers = {_token(client, "ref", "wrong").status_code for _ in range(12)}
    assert answers == {401}
