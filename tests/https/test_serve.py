"""`referee serve --https` as a real process: TLS that verifies against the local
authority alone, Secure cookies, the plain door, a clean stop; plain HTTP by default."""

from __future__ import annotations

import gc
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from referee import cli
from referee.https import certs
from referee.https.server import https_location
from tests.conftest import free_port, wait_for_port

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
ORGANIZER = ("vera", "vera-password")


def new_event(folder: Path) -> Path:
    """A database as an organizer makes one: `referee init`, then an organizer."""
    db = folder / "event.db"
    assert cli.main(["init", "--db", str(db)]) == 0
    assert cli.main(["add-referee", ORGANIZER[0], "--password", ORGANIZER[1], "--organizer",
                     "--db", str(db)]) == 0
    gc.collect()  # the commands' connections close: the server is the file's only user
    return db


class Serving:
    """One `referee serve` process on free loopback ports."""

    def __init__(self, db: Path, *flags: str, host: str = "127.0.0.1") -> None:
        self.port, self.http_port = free_port(), free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", "serve", "--db", str(db),
             "--host", host, "--port", str(self.port),
             "--http-port", str(self.http_port), *flags],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output = ""
        try:
            wait_for_port(self.port, self.process, seconds=60)
            if "--https" in flags:
                wait_for_port(self.http_port, self.process)
        except BaseException:
            self.stop()
            raise
        self.url = f"https://127.0.0.1:{self.port}"
        self.plain = f"http://127.0.0.1:{self.http_port}"

    def stop(self) -> int:
        """SIGTERM, as a service manager stops it; its exit code."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.output += self.process.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.output += self.process.communicate()[0]
        return self.process.returncode


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One HTTPS server for the module's tests; always stopped."""
    db = new_event(tmp_path_factory.mktemp("https"))
    server = Serving(db, "--https")
    try:
        server.ca = str(certs.folder_for(db) / certs.CA_CERT)
        yield server
    finally:
        server.stop()


def only_the_local_authority(ca_file: str) -> ssl.SSLContext:
    """A client context whose one trust anchor is the generated authority."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies chain and host name
    context.load_verify_locations(cafile=ca_file)
    return context


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_the_chain_verifies_against_the_local_authority_alone(served, name):
    context = only_the_local_authority(served.ca)
    with socket.create_connection(("127.0.0.1", served.port), timeout=5) as raw, \
            context.wrap_socket(raw, server_hostname=name) as tls:
        cert = tls.getpeercert()
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
    assert ("IP Address", "127.0.0.1") in cert["subjectAltName"]
    assert ("DNS", "localhost") in cert["subjectAltName"]


def test_a_name_the_certificate_does_not_hold_is_refused(served):
    context = only_the_local_authority(served.ca)
    with socket.create_connection(("127.0.0.1", served.port), timeout=5) as raw, \
            pytest.raises(ssl.SSLCertVerificationError):
        context.wrap_socket(raw, server_hostname="evil.example")


def test_the_cookies_are_secure(served):
    login = requests.get(served.url + "/login", verify=served.ca, timeout=5)
    assert login.headers["Server"] == "referee"
    assert re.search(r"session=[^;]+;.*\bSecure\b", login.headers["Set-Cookie"])
    browser = sign_in(served.url, served.ca)
    switched = browser.get(served.url + "/lang/en", allow_redirects=False)
    assert re.search(r"lang=en;.*\bSecure\b", switched.headers["Set-Cookie"])
    page = browser.get(served.url + "/https").text
    assert certs.fingerprint(certs.authority(Path(served.ca).parent))[:23] in page


def test_the_plain_port_hands_out_the_authority(served):
    answer = requests.get(served.plain + "/https/referee-ca.crt", timeout=5)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
    assert answer.content == Path(served.ca).read_bytes()
    trust = requests.get(served.plain + "/https/trust", timeout=5)
    assert trust.status_code == 200 and 'href="/https/referee-ca.crt"' in trust.text


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/"), ("get", "/login?next=/players"), ("post", "/login"),
    ("get", "/p/AAAAAAAAAAAAAAAAAAAAAA"), ("get", "/api/v1/players")])
def test_the_plain_port_sends_everything_else_to_https(served, method, path):
    answer = getattr(requests, method)(served.plain + path, allow_redirects=False, timeout=5)
    assert answer.status_code == 307
    assert answer.headers["Location"] == served.url + path
    assert "Set-Cookie" not in answer.headers  # nothing asked for or given in clear


def sign_in(url: str, ca: str) -> requests.Session:
    """An organizer's browser signed in over HTTPS, trusting only the local authority."""
    browser = requests.Session()
    browser.trust_env = False  # REQUESTS_CA_BUNDLE would win over verify
    browser.verify = ca
    login = browser.get(url + "/login")
    signed_in = browser.post(url + "/login", allow_redirects=False, data={
        "name": ORGANIZER[0], "password": ORGANIZER[1],
        "csrf_token": CSRF.search(login.text).group(1)})
    assert signed_in.status_code == 303
    return browser


@pytest.mark.parametrize(("host", "path", "query", "port", "location"), [
    ("192.168.1.10:8080", "/p/abc", "", 8443, "https://192.168.1.10:8443/p/abc"),
    ("laptop.local:8080", "/players", "q=a%20b", 443, "https://laptop.local/players?q=a%20b"),
    ("[fe80::1]:8080", "/", "", 8443, "https://[fe80::1]:8443/"),
    ("192.168.1.10:8080", "/p/тест".encode().decode("latin-1"), "", 8443,
     "https://192.168.1.10:8443/p/%D1%82%D0%B5%D1%81%D1%82"),
], ids=["ip", "name-443", "ipv6", "utf-8-path"])
def test_the_redirect_keeps_the_host_the_phone_used(host, path, query, port, location):
    environ = {"HTTP_HOST": host, "PATH_INFO": path, "QUERY_STRING": query}
    assert https_location(environ, port) == location


def test_sigterm_stops_it_cleanly(tmp_path):
    db = new_event(tmp_path)
    server = Serving(db, "--https")
    try:
        # a session is written; the browser then goes, as a phone leaves the Wi-Fi
        sign_in(server.url, str(certs.folder_for(db) / certs.CA_CERT)).close()
    finally:
        code = server.stop()  # SIGTERM, as a service manager or `kill` sends it
    assert code == 0 and "Traceback" not in server.output
    # every connection was closed on the way out: the WAL went into the database file
    assert not Path(str(db) + "-wal").exists()
    assert "Made a certificate authority" in server.output
    assert "https://127.0.0.1:" in server.output and "█" in server.output


def test_ctrl_c_while_it_starts_its_threads_still_stops_everything(tmp_path, monkeypatch):
    """cheroot listens, then starts its threads, then is "ready"; a Ctrl-C in between
    left the threads running (stop() ignores a server not ready) and the process hung."""
    import threading

    from cheroot.workers.threadpool import ThreadPool

    from referee.https import server

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are only handled on the main thread")
    start = ThreadPool.start

    def start_then_ctrl_c(pool):
        start(pool)
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(ThreadPool, "start", start_then_ctrl_c)
    made = certs.ensure(tmp_path / "tls", ["127.0.0.1"], "test")
    port, plain_port = free_port(), free_port()
    before = set(threading.enumerate())
    handler = signal.getsignal(signal.SIGINT)
    try:
        server.serve(lambda env, start_response: [], "127.0.0.1", port, plain_port, made, 2)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped serve() while its servers were starting")
    assert [t for t in set(threading.enumerate()) - before if t.is_alive()] == []
    for number in (port, plain_port):  # both closed again
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", number), timeout=1).close()
    assert signal.getsignal(signal.SIGINT) is handler  # Ctrl-C is the caller's again


def serve_in_process(monkeypatch, *argv: str):
    """Run `referee serve` here with its server replaced: the app and what it was given."""
    from referee import quiet_waitress
    from referee.https import server

    calls = []
    monkeypatch.setattr(quiet_waitress, "serve",
                        lambda app, **kw: calls.append(("waitress", app, kw)))
    monkeypatch.setattr(server, "serve", lambda app, *a: calls.append(("cheroot", app, a)))
    assert cli.main(["serve", "--host", "127.0.0.1", *argv]) == 0
    (call,) = calls
    return call


def test_plain_http_stays_the_default(tmp_path, monkeypatch):
    db = new_event(tmp_path)
    kind, app, options = serve_in_process(monkeypatch, "--db", str(db))
    assert kind == "waitress"
    assert options["port"] == 8080 and options["ident"] == "referee"
    assert not app.config["SESSION_COOKIE_SECURE"] and "TLS_DIR" not in app.config
    assert app.config["LAN_URL"] == "http://127.0.0.1:8080"
    assert "Secure" not in app.test_client().get("/login").headers["Set-Cookie"]
    assert not certs.folder_for(db).exists()


def test_a_restart_keeps_the_authority_and_the_certificate(tmp_path, monkeypatch, capsys):
    db = new_event(tmp_path)
    serve_in_process(monkeypatch, "--db", str(db), "--https")
    first = capsys.readouterr().out
    before = {p.name: p.read_bytes() for p in certs.folder_for(db).iterdir()}
    serve_in_process(monkeypatch, "--db", str(db), "--https")
    second = capsys.readouterr().out
    assert "Made a certificate authority" in first and "Issued" in first
    assert "Made a certificate authority" not in second and "Issued" not in second
    assert {p.name: p.read_bytes() for p in certs.folder_for(db).iterdir()} == before
    fingerprint = certs.fingerprint(certs.authority(certs.folder_for(db)))
    assert fingerprint in first and fingerprint in second


def test_with_https_the_passports_and_the_lan_address_are_https(tmp_path, monkeypatch):
    db = new_event(tmp_path)
    kind, app, (host, port, plain_port, made, _threads) = serve_in_process(
        monkeypatch, "--db", str(db), "--https")
    assert kind == "cheroot"
    assert (host, port, plain_port) == ("127.0.0.1", 8443, 8080)
    assert app.config["LAN_URL"] == "https://127.0.0.1:8443"
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert certs.covers(made.cert, ["127.0.0.1", "localhost"])


def test_https_and_the_plain_door_need_two_ports(tmp_path, capsys):
    db = new_event(tmp_path)
    assert cli.main(["serve", "--db", str(db), "--https", "--port", "8080"]) == 2
    assert "different ports" in capsys.readouterr().err
    assert not certs.folder_for(db).exists()


def test_a_station_serves_over_https_too(tmp_path):
    from tests.stations.test_syncthing import need_syncthing

    need_syncthing()
    db = new_event(tmp_path)
    server = Serving(db, "--https", "--station", "camp", "--no-lan-discovery",
                     "--sync-port", str(free_port()), "--sync-gui-port", str(free_port()))
    home = f"--home={db}.station/syncthing"
    try:
        browser = sign_in(server.url, str(certs.folder_for(db) / certs.CA_CERT))
        page = browser.get(server.url + "/stations").text
        assert "camp" in page and 'id="https-link"' in page
        browser.close()
        assert subprocess.run(["pgrep", "-f", "--", home], check=False).returncode == 0
    finally:
        code = server.stop()
    assert code == 0 and "Station camp" in server.output
    # Syncthing was stopped with the server
    assert subprocess.run(["pgrep", "-f", "--", home], check=False).returncode == 1
