"""Sessions and API tokens end."""

from __future__ import annotations

from referee.accounts import service as accounts
from referee.store import referees
from tests.conftest import csrf_of, post, sign_in

REF_ID = 1  # the template database's referee "ref" (conftest), "org" is 2


def copy_of(app, client):
    """Another browser holding the same cookie (copied off a phone, say)."""
    other, cookie = app.test_client(), client.get_cookie("session")
    other.set_cookie("session", cookie.value, domain=cookie.domain)
    return other


def can_read(client) -> bool:
    return client.get("/").status_code == 200  # the players' list; else sign in


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


ACTIVE = "SELECT count(*) FROM sessions WHERE ended_at IS NULL"


def test_signing_out_ends_every_copy_of_the_session(app, client, db, player):
    before = db.execute(ACTIVE).fetchone()[0]  # the template's own sign-ins (conftest)
    sign_in(client)
    assert db.execute(ACTIVE).fetchone()[0] == before + 1
    thief = copy_of(app, client)
    assert can_read(thief)
    client.post("/logout", data={"csrf_token": csrf_of(client)})
    assert not can_read(thief)
    answer = thief.post(f"/players/{player['id']}/adjust",
                        data={"hp": "-1", "csrf_token": csrf_of(thief)})
    assert answer.status_code in (400, 401)  # no session: no referee, no write
    assert db["players"].get(player["id"])["hp"] == 3
    assert db.execute(ACTIVE).fetchone()[0] == before  # ended here, not only in the cookie


def test_a_password_reset_ends_the_sessions_and_api_tokens(app, client, db, organizer,
                                                           player):
    ref = sign_in(app.test_client())
    token = referees.issue_token(db, REF_ID)
    assert client.get("/api/v1/players", headers=bearer(token)).status_code == 200
    answer = post(organizer, "/referees", {"action": "password", "referee_id": str(REF_ID),
                                           "password": "a-new-long-one"})
    assert answer.status_code in (200, 303)
    assert not can_read(ref)
    assert client.get("/api/v1/players", headers=bearer(token)).status_code == 401
    assert sign_in(app.test_client(), "ref", "a-new-long-one")  # the new password works


def test_switching_an_account_off_and_on_does_not_revive_its_tokens(app, client, db):
    ref = sign_in(app.test_client())
    token = referees.issue_token(db, REF_ID)
    accounts.set_active(db, REF_ID, False, by=2)
    accounts.set_active(db, REF_ID, True, by=2)
    assert client.get("/api/v1/players", headers=bearer(token)).status_code == 401
    assert not can_read(ref)
    fresh = client.post("/api/v1/token", json={"name": "ref", "password": "ref-password"})
    assert client.get("/api/v1/players",
                      headers=bearer(fresh.get_json()["token"])).status_code == 200


def test_an_api_token_expires(client, db):
    token = referees.issue_token(db, REF_ID)
    assert client.get("/api/v1/players", headers=bearer(token)).status_code == 200
    with db.conn:
        db.execute("UPDATE api_tokens SET expires_at = '2000-01-01T00:00:00+00:00'")
    answer = client.get("/api/v1/players", headers=bearer(token))
    assert answer.status_code == 401 and answer.headers["WWW-Authenticate"] == "Bearer"


def test_a_new_token_lasts_thirty_days(db):
    referees.issue_token(db, REF_ID)
    row = db.execute("SELECT julianday(expires_at) - julianday(created_at) FROM api_tokens"
                     ).fetchone()
    assert round(row[0]) == referees.TOKEN_DAYS == 30


def test_an_organizer_lists_the_working_tokens_and_revokes_one(client, db, organizer):
    kept, lost = referees.issue_token(db, REF_ID), referees.issue_token(db, REF_ID)
    page = organizer.get("/referees").get_data(as_text=True)
    assert page.count('name="action" value="revoke"') == 2
    assert lost not in page and kept not in page  # only their hashes are ever shown
    lost_hash = referees._digest(lost)
    answer = post(organizer, "/referees", {"action": "revoke", "token": lost_hash,
                                           "referee_id": str(REF_ID)})
    assert answer.status_code == 200
    assert client.get("/api/v1/players", headers=bearer(lost)).status_code == 401
    assert client.get("/api/v1/players", headers=bearer(kept)).status_code == 200
    assert organizer.get("/referees").get_data(as_text=True).count('value="revoke"') == 1
    event = db.execute("SELECT changes FROM events WHERE kind = 'referee' "
                       "ORDER BY id DESC LIMIT 1").fetchone()[0]
    assert '"revoked"' in event and lost not in event and lost_hash not in event
    again = post(organizer, "/referees", {"action": "revoke", "token": lost_hash,
                                          "referee_id": str(REF_ID)})
    assert again.status_code == 404  # already revoked: a stale screen, nothing changes


def test_a_referee_cannot_see_or_revoke_tokens(referee, db):
    token = referees.issue_token(db, REF_ID)
    assert referee.get("/referees").status_code == 403
    assert post(referee, "/referees", {"action": "revoke",
                                       "token": referees._digest(token)}).status_code == 403
