"""The per-thread connection cache: reused within an app, closed when the app goes."""

from __future__ import annotations

import gc
import os
import shutil
import threading

import pytest

from referee.app import create_app
from referee.web.context import close_connections, get_db

FD_FOLDER = "/proc/self/fd"


def open_files() -> int:
    """File descriptors this process holds, after dropped objects are really gone."""
    # Twice: a connection closed by the first pass still waits for its statements.
    gc.collect()
    gc.collect()
    return len(os.listdir(FD_FOLDER))


def use_an_app(path) -> None:
    """An app that answers requests from this thread and from a short-lived one."""
    app = create_app({"DATABASE": str(path), "TESTING": True})
    client = app.test_client()
    # An unknown passport is looked up in the players table: the app opens its connection.
    assert client.get("/p/" + "x" * 22).status_code == 404

    def in_a_server_thread():
        assert client.get("/p/" + "y" * 22).status_code == 404

    thread = threading.Thread(target=in_a_server_thread)
    thread.start()
    thread.join()


@pytest.mark.skipif(not os.path.isdir(FD_FOLDER), reason="needs /proc/self/fd (Linux)")
def test_10_apps_that_come_and_go_leave_no_open_files(tmp_path, _template_db):
    def fresh(name):
        path = tmp_path / name
        shutil.copyfile(_template_db, path)  # migrated already: only the app is built
        return path

    for i in range(2):  # imports, catalogs and the like open what they keep
        use_an_app(fresh(f"warm-{i}.db"))
    before = open_files()
    for i in range(10):  # a file left open by each would be 10, past the slack of 3
        use_an_app(fresh(f"app-{i}.db"))
    assert open_files() - before <= 3


def test_a_thread_reuses_its_connection_and_close_connections_frees_it(app):
    with app.test_request_context():
        first = get_db()
        assert get_db() is first
    close_connections(app)
    with pytest.raises(Exception, match="closed"):
        first.execute("SELECT 1")
    with app.test_request_context():
        assert get_db() is not first
        assert get_db().execute("SELECT count(*) FROM referees").fetchone()[0] == 2


def test_each_thread_has_its_own_connection(app):
    seen = []

    def in_a_server_thread():
        with app.test_request_context():
            seen.append(get_db())

    with app.test_request_context():
        mine = get_db()
    thread = threading.Thread(target=in_a_server_thread)
    thread.start()
    thread.join()
    assert seen and seen[0] is not mine
