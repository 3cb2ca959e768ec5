"""The local certificate authority and the laptop's certificate, kept beside the database.

No public authority can vouch for 192.168.1.10, so the laptop makes its own, once: every
phone trusts it once, and from then on every certificate it issues. The server
certificate is issued again whenever the laptop's addresses change or it nears its end;
the authority stays the same, so the phones need not trust anything again. Only the
authority's certificate ever leaves the laptop: who holds its key can pass for any site
to every phone that trusts it.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import os
import re
import socket
import struct
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 3650
# Apple refuses a server certificate valid for longer than 398 days (HT211025).
CERT_DAYS = 397
RENEW_DAYS = 30
# Phones' clocks are often a little off: a certificate "not valid yet" is refused outright.
BACKDATE = timedelta(days=1)

CA_CERT, CA_KEY, CERT, KEY = "ca.crt", "ca.key", "server.crt", "server.key"
_DNS_NAME = re.compile(r"^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
                       r"(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$")


class TLSError(Exception):
    """The files in the folder cannot be used; the message says what to do."""


@dataclass(frozen=True)
class Certificates:
    """What ``ensure`` found or made in ``folder``."""

    folder: Path
    ca: x509.Certificate
    cert: x509.Certificate
    made_ca: bool  # a new authority: every phone must trust it (again)
    issued: bool  # a new server certificate (same authority: phones notice nothing)

    @property
    def cert_path(self) -> Path:
        return self.folder / CERT

    @property
    def key_path(self) -> Path:
        return self.folder / KEY

    @property
    def ca_path(self) -> Path:
        return self.folder / CA_CERT


def folder_for(db_path: str | os.PathLike) -> Path:
    """Where a database's certificates live: ``event.db`` → ``event.db.tls/``."""
    return Path(str(db_path) + ".tls")


def fingerprint(cert: x509.Certificate) -> str:
    """SHA-256 of the certificate, as phones show it: ``AB:CD:…`` (32 pairs)."""
    digest = hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2)).upper()


def authority(folder: Path) -> x509.Certificate | None:
    """The authority's certificate in ``folder``, or None when there is none yet."""
    try:
        return x509.load_pem_x509_certificate((folder / CA_CERT).read_bytes())
    except (OSError, ValueError):
        return None


def server_certificate(folder: Path) -> x509.Certificate | None:
    """The server certificate in ``folder``, or None."""
    try:
        return x509.load_pem_x509_certificate((folder / CERT).read_bytes())
    except (OSError, ValueError):
        return None


def common_name(cert: x509.Certificate) -> str:
    """The name a phone lists the certificate under."""
    found = cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(found[0].value) if found else ""


def names(cert: x509.Certificate) -> list[str]:
    """The addresses and host names a certificate is valid for (its SAN; iOS reads
    nothing else)."""
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    return ([str(ip) for ip in san.get_values_for_type(x509.IPAddress)]
            + [name.lower() for name in san.get_values_for_type(x509.DNSName)])


def covers(cert: x509.Certificate, hosts: list[str]) -> bool:
    """Whether the certificate is valid for every one of ``hosts``."""
    return {_canonical(h) for h in hosts} <= {_canonical(h) for h in names(cert)}


def ensure(folder: Path, hosts: list[str], ca_name: str,
           now: datetime | None = None) -> Certificates:
    """The authority and a server certificate for ``hosts``, made only where needed.

    The authority is made only when its files are not there. The server certificate
    is kept while it covers every host and has more than RENEW_DAYS left; else it is
    issued again by the same authority."""
    now = now or datetime.now(UTC)
    hosts = usable_hosts(hosts)
    if not hosts:
        raise TLSError("No address to make a certificate for.")
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    ca, ca_key, made_ca = _authority(folder, ca_name, now)
    if ca.not_valid_after_utc <= now + timedelta(days=RENEW_DAYS):
        raise TLSError(f"The certificate authority in {folder} ends on "
                       f"{ca.not_valid_after_utc:%Y-%m-%d}. Move the folder away and start "
                       "again to make a new one; every phone must then trust the new one.")
    cert = None if made_ca else _usable_cert(folder, ca, hosts, now)
    issued = cert is None
    if cert is None:
        key = ec.generate_private_key(ec.SECP256R1())
        cert = _issue(ca, ca_key, key, hosts, now)
        # The key first: a certificate is never beside a key it does not belong to.
        _write(folder / KEY, _key_pem(key), private=True)
        _write(folder / CERT, cert.public_bytes(serialization.Encoding.PEM))
    return Certificates(folder, ca, cert, made_ca, issued)


def usable_hosts(hosts: list[str]) -> list[str]:
    """``hosts`` without repeats, wildcards or names a certificate cannot hold, in order."""
    seen: dict[str, str] = {}
    for host in hosts:
        host = host.strip().lower().rstrip(".")
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            if _DNS_NAME.match(host):
                seen.setdefault(host, host)
            continue
        if not ip.is_unspecified:
            seen.setdefault(str(ip), str(ip))
    return list(seen.values())


def local_hosts(*first: str) -> list[str]:
    """The names phones and the laptop may use for it: ``first`` (the address the CLI
    found), every IPv4 address of its interfaces, loopback, localhost and its host name."""
    hostname = socket.gethostname().lower()
    found = [*first, *_interface_addresses(), "127.0.0.1", "localhost"]
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(hostname, None, socket.AF_INET)]
    found.append(hostname)
    if "." not in hostname:
        found.append(hostname + ".local")  # what mDNS answers for on most Wi-Fi
    return usable_hosts(found)


def _interface_addresses() -> list[str]:
    """Each interface's IPv4 address (Linux; elsewhere the caller's address and the host
    name's stand in)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            try:
                request = struct.pack("256s", name.encode()[:15])
                answer = fcntl.ioctl(sock.fileno(), 0x8915, request)  # SIOCGIFADDR
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _canonical(host: str) -> str:
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host.lower().rstrip(".")


def _authority(folder: Path, name: str, now: datetime):
    """The authority's certificate and key: read, or made when its files are gone."""
    cert_file, key_file = folder / CA_CERT, folder / CA_KEY
    if cert_file.exists() and key_file.exists():
        try:
            cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
            key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
        except (OSError, ValueError, TypeError) as err:
            raise TLSError(f"The certificate authority in {folder} cannot be read ({err}). "
                           "Put back the files from a backup, or move the folder away to "
                           "make a new one; every phone must then trust the new one.") from err
        if _public(cert.public_key()) != _public(key.public_key()):
            raise TLSError(f"{cert_file} and {key_file} do not belong together. Put back the "
                           "pair from a backup, or move the folder away to make a new one.")
        return cert, key, False
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name[:64]),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Referee")])
    public = key.public_key()
    cert = (x509.CertificateBuilder()
            .subject_name(subject).issuer_name(subject)
            .public_key(public)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - BACKDATE)
            .not_valid_after(now + timedelta(days=CA_DAYS))
            # path_length 0: it signs server certificates only, never another authority
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=False, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True,
                crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
            .sign(key, hashes.SHA256()))
    _write(key_file, _key_pem(key), private=True)
    _write(cert_file, cert.public_bytes(serialization.Encoding.PEM))
    return cert, key, True


def _usable_cert(folder: Path, ca: x509.Certificate, hosts: list[str],
                 now: datetime) -> x509.Certificate | None:
    """The server certificate on disk if it can serve on: signed by this authority,
    beside its own key, covering ``hosts`` and not ending within RENEW_DAYS."""
    cert = server_certificate(folder)
    try:
        key = serialization.load_pem_private_key((folder / KEY).read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return None
    if cert is None or _public(cert.public_key()) != _public(key.public_key()):
        return None
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return None
    if not (cert.not_valid_before_utc <= now
            and cert.not_valid_after_utc > now + timedelta(days=RENEW_DAYS)):
        return None
    return cert if covers(cert, hosts) else None


def _issue(ca: x509.Certificate, ca_key, key, hosts: list[str],
           now: datetime) -> x509.Certificate:
    """A server certificate for ``hosts``, signed by the authority."""
    alt: list[x509.GeneralName] = []
    for host in hosts:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            alt.append(x509.DNSName(host))
    start = now - BACKDATE
    end = min(start + timedelta(days=CERT_DAYS), ca.not_valid_after_utc)
    ski = ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    return (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0])]))
            .issuer_name(ca.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(end)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=False,
                crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski),
                critical=False)
            .sign(ca_key, hashes.SHA256()))


def _public(key) -> bytes:
    return key.public_bytes(serialization.Encoding.DER,
                            serialization.PublicFormat.SubjectPublicKeyInfo)


def _key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _write(path: Path, data: bytes, private: bool = False) -> None:
    """Write whole or not at all (beside it, then renamed in); a key readable by its
    owner only, from the moment it exists."""
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as out:
        if private:
            os.fchmod(fd, 0o600)  # a .tmp left over from a crash may have had other bits
        out.write(data)
        out.flush()
        os.fsync(fd)
    os.replace(temporary, path)
