"""Serving the app with waitress, without its loop spinning while answers are written.

Waitress's loop asks each connection whether it has something to send. A connection
whose request is still running says yes while the worker thread is itself sending the
answer (waitress sends from the worker, under the buffer's lock): the loop then wakes,
finds the lock taken, does nothing and asks again. Each send gives up the interpreter's
lock, so with sixteen threads sharing it the worker may wait a while to get it back, and
all that while the loop burns it: at 32 clients a tap cost 15 wake-ups of the loop and
200 questions to the connections, against under one for bare Flask.
:class:`QuietChannel` says no while its request runs, unless its buffer has passed the
high-water mark (the worker then waits for the loop to send). The worker still sends
what it writes at once; what it could not send is sent when its request ends (waitress
wakes the loop then), as before.
"""

from __future__ import annotations

import logging

from waitress import create_server
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer


class QuietChannel(HTTPChannel):
    """A waitress connection that does not ask to write what it would not send yet."""

    def writable(self) -> bool:
        if (self.requests and not self.will_close and not self.close_when_flushed
                and self.total_outbufs_len <= self.adj.outbuf_high_watermark):
            return False  # the worker sends; the request's end wakes the loop for the rest
        return super().writable()


def create(app, **options):
    """``waitress.create_server`` whose listening sockets open :class:`QuietChannel`
    connections (one server, or several for several addresses)."""
    server = create_server(app, **options)
    sockets = getattr(server, "map", None) or server._map
    for listener in list(sockets.values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = QuietChannel
    return server


def serve(app, **options) -> None:
    """What ``waitress.serve`` does, with :class:`QuietChannel` connections."""
    logging.basicConfig()  # as waitress.serve: its warnings are seen
    server = create(app, **options)
    server.print_listen("Serving on http://{}:{}")
    server.run()
