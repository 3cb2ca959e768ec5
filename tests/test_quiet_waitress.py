"""referee.quiet_waitress: waitress whose loop does not spin while a request's answer is sent
and which still delivers every answer, small or streamed."""

from __future__ import annotations

import http.client
import socket
import threading

import pytest

from referee import quiet_waitress
from tests.conftest import stop_server


def _app(environ, start_response):
    """A small answer, or with ?big= a streamed one far larger than a socket buffer."""
    size = int(environ.get("QUERY_STRING", "").partition("=")[2] or 0)
    start_response("200 OK", [("Content-Type", "text/plain")])
    if not size:
        return [b"tap"]
    return (b"x" * 65536 for _ in range(size))


@pytest.fixture
def server():
    made = quiet_waitress.create(_app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=made.run, daemon=True)
    thread.start()
    yield made
    stop_server(made, thread)


def _get(server, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    assert response.status == 200
    return body


def test_the_server_answers_small_and_streamed_answers_whole(server):
    assert _get(server, "/") == b"tap"
    # 16 MB, sent while the request runs: the worker sends, the loop finishes the rest
    assert len(_get(server, "/?big=256")) == 256 * 65536


def test_a_running_request_does_not_ask_the_loop_to_write(server):
    ours, theirs = socket.socketpair()
    try:
        channel = quiet_waitress.QuietChannel(server, ours, ("127.0.0.1", 1), server.adj,
                                       map={})
        channel.outbufs[-1].append(b"HTTP/1.1 200 OK\r\n")  # written, not sent yet
        channel.total_outbufs_len = 17
        channel.requests = [object()]  # its request still runs: the worker sends
        assert not channel.writable()
        channel.requests = []  # the request ended: the loop sends what is left
        assert channel.writable()
        channel.requests = [object()]
        channel.total_outbufs_len = server.adj.outbuf_high_watermark + 1
        assert channel.writable()  # the worker waits for the loop past the mark
        channel.total_outbufs_len = 17
        channel.close_when_flushed = True
        assert channel.writable()
    finally:
        ours.close()
        theirs.close()


def test_referee_serve_hands_out_quiet_connections(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
    conn.request("GET", "/")
    conn.getresponse().read()  # kept alive: its channel is in the server's map
    channels = [c for c in server._map.values() if not isinstance(c, type(server))
                and hasattr(c, "requests")]
    conn.close()
    assert channels and all(isinstance(c, quiet_waitress.QuietChannel) for c in channels)
