"""The local authority and the laptop's certificate (referee.https.certs), on disk."""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import ssl
import stat

import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID

from referee.https import certs

HOSTS = ["192.168.1.10", "127.0.0.1", "localhost", "laptop"]
NOW = dt.datetime(2026, 7, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def folder(tmp_path):
    return certs.folder_for(tmp_path / "event.db")


def make(folder, hosts=HOSTS, now=NOW):
    return certs.ensure(folder, hosts, "Referee local CA (laptop)", now=now)


def files(folder) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes()
            for name in (certs.CA_CERT, certs.CA_KEY, certs.CERT, certs.KEY)}


def test_the_folder_is_beside_the_database(tmp_path):
    assert certs.folder_for(tmp_path / "event.db") == tmp_path / "event.db.tls"


def test_the_authority_signs_server_certificates_and_nothing_else(folder):
    ca = make(folder).ca
    constraints = ca.extensions.get_extension_for_class(x509.BasicConstraints)
    assert constraints.critical and constraints.value.ca and constraints.value.path_length == 0
    usage = ca.extensions.get_extension_for_class(x509.KeyUsage)
    assert usage.critical and usage.value.key_cert_sign and usage.value.crl_sign
    assert not usage.value.digital_signature
    assert certs.common_name(ca) == "Referee local CA (laptop)"
    years = (ca.not_valid_after_utc - ca.not_valid_before_utc).days / 365
    assert 9.9 < years < 10.1


def test_the_server_certificate_names_every_address_in_its_san(folder):
    made = make(folder)
    san = made.cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    # iOS reads the SAN only, never the common name; addresses as IP entries, not DNS
    assert ipaddress.ip_address("127.0.0.1") in san.get_values_for_type(x509.IPAddress)
    assert ipaddress.ip_address("192.168.1.10") in san.get_values_for_type(x509.IPAddress)
    assert set(san.get_values_for_type(x509.DNSName)) == {"localhost", "laptop"}
    usage = made.cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert not made.cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    made.cert.verify_directly_issued_by(made.ca)


def test_the_server_certificate_stays_within_apples_limit(folder):
    cert = make(folder).cert
    assert cert.not_valid_after_utc - cert.not_valid_before_utc <= dt.timedelta(days=397)
    # a phone whose clock is a little behind still accepts it
    assert cert.not_valid_before_utc < NOW - dt.timedelta(hours=12)


def test_the_keys_are_readable_by_their_owner_only(folder):
    make(folder)
    for name in (certs.CA_KEY, certs.KEY):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert not list(folder.glob("*.tmp"))


def test_made_once_then_used_as_it_is(folder):
    first = make(folder)
    before = files(folder)
    second = make(folder, now=NOW + dt.timedelta(days=30))
    assert (first.made_ca, first.issued) == (True, True)
    assert (second.made_ca, second.issued) == (False, False)
    assert files(folder) == before


@pytest.mark.parametrize(("hosts", "now"), [
    (["10.0.0.7", "127.0.0.1", "localhost", "laptop"], NOW),  # another Wi-Fi network
    (HOSTS + ["laptop.local"], NOW),  # a name the certificate does not hold
    (HOSTS, NOW + dt.timedelta(days=370)),  # 27 days left: within RENEW_DAYS
    (HOSTS, NOW + dt.timedelta(days=500)),  # expired
], ids=["new-address", "new-name", "ends-soon", "expired"])
def test_reissued_by_the_same_authority_when_it_no_longer_serves(folder, hosts, now):
    first = make(folder)
    before = files(folder)
    again = make(folder, hosts, now)
    assert (again.made_ca, again.issued) == (False, True)
    after = files(folder)
    # the phones trusted the authority: it is the very same one
    assert after[certs.CA_CERT] == before[certs.CA_CERT]
    assert after[certs.CA_KEY] == before[certs.CA_KEY]
    assert after[certs.CERT] != before[certs.CERT] and after[certs.KEY] != before[certs.KEY]
    again.cert.verify_directly_issued_by(first.ca)
    assert certs.covers(again.cert, hosts)
    assert again.cert.not_valid_after_utc > now + dt.timedelta(days=300)


def test_a_certificate_that_covers_more_than_asked_is_kept(folder):
    make(folder)
    assert not make(folder, ["127.0.0.1", "localhost"]).issued


def test_a_server_certificate_not_beside_its_own_key_is_reissued(folder, tmp_path):
    make(folder)
    other = make(tmp_path / "other.tls")
    (folder / certs.KEY).write_bytes((other.folder / certs.KEY).read_bytes())
    again = make(folder)
    assert again.issued and not again.made_ca


def test_a_server_certificate_of_another_authority_is_reissued(folder, tmp_path):
    make(folder)
    other = make(tmp_path / "other.tls")
    for name in (certs.CERT, certs.KEY):
        (folder / name).write_bytes((other.folder / name).read_bytes())
    again = make(folder)
    assert again.issued
    again.cert.verify_directly_issued_by(again.ca)


@pytest.mark.parametrize("gone", [certs.CA_CERT, certs.CA_KEY])
def test_the_authority_is_made_again_only_when_its_files_are_gone(folder, gone):
    first = make(folder)
    (folder / gone).unlink()
    again = make(folder)
    assert again.made_ca and again.issued
    assert certs.fingerprint(again.ca) != certs.fingerprint(first.ca)
    again.cert.verify_directly_issued_by(again.ca)


def test_an_unreadable_authority_is_refused_not_replaced(folder):
    make(folder)
    (folder / certs.CA_CERT).write_bytes(b"not a certificate")
    before = files(folder)
    with pytest.raises(certs.TLSError, match="cannot be read"):
        make(folder)
    assert files(folder) == before  # the phones' trust is not thrown away silently


def test_the_fingerprint_is_the_sha256_of_the_certificate_as_phones_show_it(folder):
    made = make(folder)
    der = ssl.PEM_cert_to_DER_cert((folder / certs.CA_CERT).read_text())
    expected = hashlib.sha256(der).hexdigest().upper()
    shown = certs.fingerprint(made.ca)
    assert shown.replace(":", "") == expected and len(shown.split(":")) == 32


def test_only_names_a_certificate_can_hold_are_kept():
    assert certs.usable_hosts(["0.0.0.0", "LAPTOP.", "laptop", "*.evil", "bad name",
                               "10.0.0.1", "10.0.0.1", "under_score", "x" * 64]) == \
        ["laptop", "10.0.0.1"]


def test_the_laptops_names_start_with_the_address_given_and_hold_loopback():
    hosts = certs.local_hosts("192.168.1.10")
    assert hosts[0] == "192.168.1.10"
    assert {"127.0.0.1", "localhost"} <= set(hosts)
    assert hosts == certs.usable_hosts(hosts)
