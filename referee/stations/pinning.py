"""Pairing with an organizer's station that serves HTTPS with its own local authority.

A new station does not trust that authority yet, and must not take it on faith: the
pairing code's address carries the authority's SHA-256 (``pin``), shown by the
organizer's station with the code. The new station fetches the authority, checks it
against the pin, and then pairs over TLS verified against that authority alone, so the
event's key never crosses the air readable, and a device posing as the organizer's is
refused."""

from __future__ import annotations

import hashlib
import hmac
import ssl
import urllib.error
import urllib.request

from referee.rules import N_, RuleError

AUTHORITY_PATH = "/https/referee-ca.crt"  # where referee serve --https hands it out
NO_PIN = N_("The organizer's station speaks HTTPS with its own authority: scan the "
            "pairing QR code or open the pairing link its Stations page shows with the "
            "code (they carry the authority's fingerprint).")
WRONG_PIN = N_("The station at %(url)s is not the one that showed this pairing code: its "
               "certificate authority differs. Check the address, or make a new code.")
UNREACHABLE_AUTHORITY = N_("The organizer's station did not hand out its certificate "
                           "authority at %(url)s: check the address and that it runs "
                           "with --https.")


def pin_of(pem: bytes) -> str:
    """The pin of an authority: SHA-256 of its DER form, lower-case hex."""
    der = ssl.PEM_cert_to_DER_cert(pem.decode("ascii"))
    return hashlib.sha256(der).hexdigest()


def context_for(url: str, pin: str, timeout: float = 20) -> ssl.SSLContext | None:
    """The TLS context to pair with ``url``: None for plain HTTP; for HTTPS, one that
    trusts only the organizer's authority, once it matches ``pin``."""
    if not url.lower().startswith("https://"):
        return None
    pin = "".join(ch for ch in (pin or "").lower() if ch in "0123456789abcdef")
    if len(pin) != 64:
        raise RuleError(None, NO_PIN)
    source = url.rstrip("/") + AUTHORITY_PATH
    # Unverified on purpose: what arrives is checked against the pin before any use.
    blind = ssl.create_default_context()
    blind.check_hostname = False
    blind.verify_mode = ssl.CERT_NONE
    try:
        with urllib.request.urlopen(source, timeout=timeout, context=blind) as answer:
            pem = answer.read(64 * 1024)
        found = pin_of(pem)
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise RuleError(None, UNREACHABLE_AUTHORITY, url=url) from err
    if not hmac.compare_digest(found, pin):
        raise RuleError(None, WRONG_PIN, url=url)
    return ssl.create_default_context(cadata=pem.decode("ascii"))
