"""The HTTPS page, the trust steps and the authority download, through the test client."""

from __future__ import annotations

import pytest
from cryptography import x509

from referee.accounts.service import add_referee
from referee.https import certs
from referee.qr import qr_svg
from referee.store import settings
from referee.store import write as store_write
from tests.conftest import sign_in

LAN = "192.168.1.10"
VERA = ("vera", "vera-password")  # an organizer of these tests' own
SECURE = f"https://{LAN}:8443"


@pytest.fixture
def https_app(app, tmp_path):
    """The app as `serve --https` configures it, certificates made for the LAN address."""
    made = certs.ensure(tmp_path / "event.db.tls", [LAN, "127.0.0.1", "localhost"],
                        "Referee local CA (test)")
    app.config.update(TLS_DIR=str(made.folder), HTTPS_PORT=8443, HTTP_PORT=8080,
                      SESSION_COOKIE_SECURE=True, PREFERRED_URL_SCHEME="https",
                      LAN_URL=SECURE)
    return made


def over_https(client, path, host=f"{LAN}:8443"):
    """GET ``path`` as a phone on the Wi-Fi reaching the HTTPS port."""
    return client.get(path, base_url=f"https://{host}")


def over_plain(client, path):
    """GET ``path`` over plain HTTP, as the plain door passes it on."""
    return client.get(path, base_url=f"http://{LAN}:8080")


@pytest.fixture
def vera(db):
    add_referee(db, *VERA, True, by=None)


@pytest.fixture
def organizer(client, vera, https_app):
    """An organizer's phone signed in over HTTPS at the LAN address (cookies are kept
    per host, so a sign-in at localhost would not be seen here)."""
    base = f"https://{LAN}:8443"
    client.get("/login", base_url=base)
    with client.session_transaction(base_url=base) as session:
        token = session["csrf"]
    answer = client.post("/login", base_url=base, data={
        "name": VERA[0], "password": VERA[1], "csrf_token": token})
    assert answer.status_code == 303
    return client


def test_the_https_page_is_for_organizers(client, https_app):
    assert client.get("/https").status_code == 302  # to sign in


def test_a_referee_may_not_open_it(referee, https_app):
    assert referee.get("/https").status_code == 403


def test_https_off_says_how_to_turn_it_on(client, vera):
    organizer = sign_in(client, *VERA)
    page = organizer.get("/https").get_data(as_text=True)
    assert "HTTPS is off" in page and "referee serve --https" in page
    assert "<svg" not in page
    assert organizer.get("/https/referee-ca.crt").status_code == 404
    assert organizer.get("/https/trust").status_code == 404


def test_https_on_shows_the_qr_code_the_fingerprint_and_the_steps(organizer, https_app):
    page = over_https(organizer, "/https").get_data(as_text=True)
    ca_url = f"http://{LAN}:8080/https/referee-ca.crt"
    assert qr_svg(ca_url).decode() in page  # the QR code is the download's address
    assert f'href="{ca_url}"' in page
    pairs = certs.fingerprint(https_app.ca).split(":")
    assert ":".join(pairs[:8]) in page and ":".join(pairs[24:]) in page
    assert "Encryption & credentials" in page and "Certificate Trust Settings" in page
    assert "Referee local CA (test)" in page  # the name to switch on in iOS
    assert f'href="{SECURE}/"' in page
    assert "is not in the certificate" not in page


def test_the_page_is_in_russian(organizer, https_app):
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = over_https(organizer, "/https").get_data(as_text=True)
    assert "HTTPS включён" in page and "Сертификат ЦС" in page and "Доверие сертификатам" in page


def test_an_address_the_certificate_does_not_cover_is_pointed_out(organizer, https_app):
    (https_app.folder / certs.CERT).unlink()  # the laptop has moved to another network
    certs.ensure(https_app.folder, ["10.9.9.9"], "unused")
    page = over_https(organizer, "/https").get_data(as_text=True)
    assert f"This address, {LAN}, is not in the certificate" in page


def test_a_public_url_still_on_http_is_pointed_out(organizer, https_app, db):
    with store_write(db):
        settings.put(db, "public_url", f"http://{LAN}:8080")
    assert "set it to an https:// address" in over_https(organizer, "/https").get_data(
        as_text=True)


def test_on_the_laptop_itself_the_page_gives_the_network_address(client, vera, https_app):
    organizer = sign_in(client, *VERA)  # at localhost
    page = over_https(organizer, "/https", host="localhost:8443").get_data(as_text=True)
    assert f"http://{LAN}:8080/https/referee-ca.crt" in page


def test_the_authority_is_downloaded_without_signing_in(client, https_app):
    answer = client.get("/https/referee-ca.crt")
    assert answer.status_code == 200
    assert answer.mimetype == "application/x-x509-ca-cert"
    assert 'filename="referee-ca.crt"' in answer.headers["Content-Disposition"]
    served = x509.load_pem_x509_certificate(answer.data)
    assert certs.fingerprint(served) == certs.fingerprint(https_app.ca)
    assert b"PRIVATE KEY" not in answer.data


def test_the_trust_steps_open_without_signing_in(client, https_app):
    page = over_plain(client, "/https/trust").get_data(as_text=True)
    assert 'href="/https/referee-ca.crt"' in page
    assert "Certificate Trust Settings" in page and "Install a certificate" in page
    assert f'href="https://{LAN}:8443/"' in page  # HTTPS at the host the phone used
    assert "SHA-256" not in page  # a fingerprint sent in clear proves nothing


def test_the_stations_page_links_to_it_for_organizers_only(app, organizer):
    page = over_https(organizer, "/stations").get_data(as_text=True)
    assert 'id="https-link"' in page
    referee = sign_in(app.test_client())
    assert 'id="https-link"' not in referee.get("/stations").get_data(as_text=True)


def test_the_language_cookie_is_secure_over_https_only(client, https_app):
    secure = over_https(client, "/lang/en?next=/https/trust")
    assert "; Secure" in secure.headers["Set-Cookie"]
    # on the plain door a Secure cookie would be dropped and the switch would not stick
    plain = over_plain(client, "/lang/en?next=/https/trust")
    assert "lang=en" in plain.headers["Set-Cookie"]
    assert "Secure" not in plain.headers["Set-Cookie"]


def test_the_session_cookie_is_secure_in_https_mode(client, https_app):
    answer = over_https(client, "/login")
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("session=") and "; Secure" in cookie and "HttpOnly" in cookie
