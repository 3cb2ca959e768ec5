"""Pairing with an organizer's station that serves --https: the new station trusts
only the authority whose fingerprint came with the pairing code."""

from __future__ import annotations

import re
import ssl
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from referee.https import certs
from referee.rules import RuleError
from referee.stations import pinning
from tests.conftest import free_port, wait_for_port


@pytest.fixture(scope="module")
def organizer_https(tmp_path_factory):
    """A real `referee serve --https` (no station: the authority and TLS are enough)."""
    folder = tmp_path_factory.mktemp("pairing")
    db = folder / "event.db"
    subprocess.run([sys.executable, "-m", "referee.cli", "init", "--db", str(db)],
                   check=True, capture_output=True)
    port, door = free_port(), free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--db", str(db), "--host",
         "127.0.0.1", "--port", str(port), "--http-port", str(door), "--https"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, seconds=60)
        pem = (certs.folder_for(db) / certs.CA_CERT).read_bytes()
        yield f"https://127.0.0.1:{port}", pem
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_right_pin_gives_a_context_that_verifies_the_organizer(organizer_https):
    url, pem = organizer_https
    context = pinning.context_for(url, pinning.pin_of(pem))
    with urllib.request.urlopen(url + "/login", timeout=20, context=context) as answer:
        assert answer.status == 200          # TLS verified against that authority alone
    with pytest.raises(urllib.error.URLError) as refused:  # the system's trust refuses
        urllib.request.urlopen(url + "/login", timeout=20)
    assert isinstance(refused.value.reason, ssl.SSLCertVerificationError)


def test_a_wrong_or_missing_pin_is_refused_before_anything_is_sent(organizer_https):
    url, _pem = organizer_https
    with pytest.raises(RuleError) as wrong:
        pinning.context_for(url, "0" * 64)
    assert wrong.value.message == pinning.WRONG_PIN
    with pytest.raises(RuleError) as missing:
        pinning.context_for(url, "")
    assert missing.value.message == pinning.NO_PIN
    assert pinning.context_for("http://127.0.0.1:1", "") is None  # plain HTTP needs no pin


def test_the_pairing_link_carries_the_authority_s_fingerprint(app, organizer, tmp_path,
                                                              monkeypatch):
    """The organizer's code page (with --https) puts the pin in the join link."""
    from referee.stations.web import EXTENSION

    class Organizer:  # the code page needs only a new code from the runtime
        def status(self):
            from referee.stations.runtime import Link
            return Link(joined=True)

        def here(self):
            return {"event": "e", "name": "org"}

        def new_code(self):
            return "ABCD-EFGH"

        def poke(self):
            pass

    made = certs.ensure(tmp_path / "tls", ["127.0.0.1"], "Referee local CA (test)")
    monkeypatch.setitem(app.extensions, EXTENSION, Organizer())
    monkeypatch.setitem(app.config, "TLS_DIR", str(made.folder))
    from tests.conftest import post
    page = post(organizer, "/stations/code").get_data(as_text=True)
    pin = pinning.pin_of((made.folder / certs.CA_CERT).read_bytes())
    assert re.search(rf'<a href="[^"]*pin={pin}', page)
