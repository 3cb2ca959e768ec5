"""An answered write is on the disk (group commit), and reads
never wait behind writes."""

from __future__ import annotations

import os
import re
import threading
import time

from referee.players import service
from referee.store import db as store_db
from referee.store import players as rows
from referee.store import write


def _watch_fsyncs(monkeypatch, before=None):
    """Record each fsync the store makes: which file, and how many commits were made
    by then; ``before`` runs first (to hold or slow the flush)."""
    calls = []
    real = os.fsync

    def fsync(fd):
        if before:
            before()
        calls.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(store_db.os, "fsync", fsync)
    return calls


def test_a_write_ends_only_once_an_fsync_of_the_wal_after_its_commit_ended(db, monkeypatch,
                                                                            player):
    durable = store_db.durability_for(db)
    flushed_before = durable.flushed
    calls = _watch_fsyncs(monkeypatch)
    service.adjust(db, None, player["id"], {"cartridges": 1}, "")
    assert calls and calls[-1].endswith("referee.db-wal")
    assert durable.flushed >= durable.committed > flushed_before


def test_a_committed_write_is_not_answered_until_the_disk_holds_it(app, db, monkeypatch,
                                                                    player):
    held = threading.Event()
    _watch_fsyncs(monkeypatch, before=lambda: held.wait(10))
    done = threading.Event()

    def tap():
        service.adjust(db, None, player["id"], {"cartridges": 1}, "")
        done.set()

    worker = threading.Thread(target=tap)
    worker.start()
    try:
        time.sleep(0.3)
        assert not done.is_set()          # not answered: the flush has not finished...
        other = store_db.connect(app.config["DATABASE"])
        try:                              # ...though the commit is made (others see it)
            assert rows.get(other, player["id"])["cartridges"] == 4
        finally:
            other.close()
    finally:
        held.set()
        worker.join(10)
    assert done.is_set()


def test_one_flush_covers_the_writers_that_queue_behind_it(db, monkeypatch, player):
    """8 referees tapping at once: far fewer disk flushes than taps."""
    calls = _watch_fsyncs(monkeypatch, before=lambda: time.sleep(0.01))
    conns = [store_db.connect(db.referee_path) for _ in range(8)]

    def taps(conn):
        for _ in range(10):
            service.adjust(conn, None, player["id"], {"cartridges": 1}, "")

    threads = [threading.Thread(target=taps, args=(c,)) for c in conns]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in conns:
        c.close()
    assert rows.get(db, player["id"])["cartridges"] == 3 + 80
    assert len(calls) < 80 / 2, len(calls)


def test_a_write_that_fails_waits_for_no_flush(db, monkeypatch):
    calls = _watch_fsyncs(monkeypatch)
    try:
        with write(db):
            db.execute("INSERT INTO settings (key, value) VALUES ('x', 'y')")
            raise ValueError("refused")
    except ValueError:
        pass
    assert calls == []
    assert db.execute("SELECT count(*) FROM settings WHERE key = 'x'").fetchone()[0] == 0


def test_reads_never_wait_behind_a_write(app, referee, token, db, player):
    """Another writer holds the database's write lock (a long transaction); every page
    and API read still answers at once, with what was committed before it."""
    writer = store_db.connect(app.config["DATABASE"])
    writer.conn.execute("BEGIN IMMEDIATE")
    writer.conn.execute("UPDATE players SET cartridges = 99 WHERE id = ?", [player["id"]])
    try:
        bearer = {"Authorization": f"Bearer {token}"}
        for url, headers in (("/", {}), (f"/players/{player['id']}", {}), ("/events", {}),
                             ("/games", {}), ("/api/v1/players", bearer),
                             (f"/api/v1/players/{player['id']}", bearer),
                             ("/api/v1/events", bearer)):
            t0 = time.monotonic()
            answer = referee.get(url, headers=headers)
            assert answer.status_code == 200, url
            assert time.monotonic() - t0 < 2, url   # the busy wait would be 30 s
            # random tokens (CSRF, passport links) may hold "99": leave them out
            shown = re.sub(r"[A-Za-z0-9_-]{20,}", "", answer.get_data(as_text=True))
            assert not re.search(r"(?<![\w.-])99(?![\w.-])", shown), url
    finally:
        writer.conn.execute("ROLLBACK")
        writer.close()
