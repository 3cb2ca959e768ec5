"""A tap's token and the public URL of its answer come from memory while no
account, token or setting changed (store.migrations.m018_config_tally). Each case uses
the token first, so that it is remembered, then changes what it hangs on: the very next
call must see the change, whoever made it (the app, another process's plain SQL)."""

from __future__ import annotations

import pytest

from referee.accounts import service as accounts
from referee.store import referees, settings, write

REF_ID = 1  # the template database's referee "ref" (conftest), "org" is 2


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def works(client, token) -> bool:
    return client.get("/api/v1/players", headers=bearer(token)).status_code == 200


@pytest.mark.parametrize("change", [
    pytest.param(lambda db: accounts.reset_password(db, REF_ID, "a-new-long-one", by=2),
                 id="password-reset"),
    pytest.param(lambda db: accounts.set_active(db, REF_ID, False, by=2), id="switched-off"),
    pytest.param(lambda db: accounts.revoke_token(
        db, referees.live_tokens(db)[0]["token_hash"], by=2), id="revoked"),
    pytest.param(lambda db: db.conn.execute(
        "UPDATE api_tokens SET expires_at = '2000-01-01T00:00:00+00:00'"), id="expired-by-sql"),
    pytest.param(lambda db: db.conn.execute(
        "UPDATE referees SET epoch = epoch + 1 WHERE id = 1"), id="epoch-by-sql"),
])
def test_a_remembered_token_ends_at_once(client, db, change):
    token = referees.issue_token(db, REF_ID)
    assert works(client, token) and works(client, token)  # the second from memory
    with db.conn:
        change(db)
    assert not works(client, token)


def test_a_remembered_token_stays_with_its_account(client, db):
    """The memory answers with the account the token names, not another's."""
    mine, theirs = referees.issue_token(db, REF_ID), referees.issue_token(db, 2)
    for _ in range(2):
        assert referees.by_token(db, mine)["id"] == REF_ID
        assert referees.by_token(db, theirs)["id"] == 2
    assert referees.by_token(db, mine + "x") is None


def passport_url(client, token, player) -> str:
    answer = client.post(f"/api/v1/players/{player['id']}/adjust", headers=bearer(token),
                         json={"hp": -1 if player["hp"] > 1 else 1})
    assert answer.status_code == 200
    return answer.get_json()["passport_url"]


@pytest.mark.parametrize("how", ["store", "sql"])
def test_a_tap_names_the_public_url_set_a_moment_ago(client, db, player, how):
    token = referees.issue_token(db, REF_ID)
    passport_url(client, token, player)
    passport_url(client, token, db["players"].get(player["id"]))  # the URL remembered
    if how == "store":
        with write(db):
            settings.put(db, "public_url", "http://10.1.2.3:8080")
    else:
        with db.conn:
            db.conn.execute("INSERT INTO settings (key, value) VALUES "
                            "('public_url', 'http://10.9.9.9:8080') ON CONFLICT(key) "
                            "DO UPDATE SET value = excluded.value")
    url = passport_url(client, token, db["players"].get(player["id"]))
    host = "10.1.2.3" if how == "store" else "10.9.9.9"
    assert url == f"http://{host}:8080/p/{player['passport_token']}"
