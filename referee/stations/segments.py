"""Segments: a station's facts as files in the folder Syncthing shares.

Each station writes only its own folder, ``<station>/<first>-<last>.jsonl``, one fact a
line. A segment is written complete in the outbox (outside the shared folder, on the
same disk), then renamed in, so no station ever sees half a line; it is never edited or
deleted afterwards. Reading takes every complete segment in any order, skips Syncthing's
temporary files and anything that is not a segment, and folds the facts in through
:func:`referee.store.merge.receive`, which takes each fact once. A segment that differs
from what was read before under its name, or whose facts do not fit its name and seal,
is refused and reported; it changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from referee.store import ledger, merge, write
from referee.store.db import fetch
from referee.store.events import now

NAME = re.compile(r"^(\d{10})-(\d{10})\.jsonl$")
SEGMENT_FACTS = 500  # facts a segment holds at most: an import is never one huge file
# Facts folded in one transaction: everything one look finds, so facts made apart are
# folded in with one rewind, yet a huge backlog is still taken in steps that each commit.
READ_BATCH = 50_000


def segment_name(first: int, last: int) -> str:
    return f"{first:010d}-{last:010d}.jsonl"


@dataclass
class Scan:
    """What one look at the shared folder found and did."""

    segments: int = 0  # new segments read
    applied: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    waiting: list[tuple[str, str]] = field(default_factory=list)
    rewound: int = 0


def exported_through(db: Database, folder: Path, station_id: str) -> int:
    """The last sequence number of this station already in the shared folder."""
    last = 0
    own = folder / station_id
    if own.is_dir():
        for entry in os.scandir(own):
            match = NAME.match(entry.name)
            if match:
                last = max(last, int(match.group(2)))
    return last


def export(db: Database, folder: Path, outbox: Path, restore_own: bool = True) -> int:
    """Write this station's facts not yet in the shared folder (and put back its own
    segments changed elsewhere); how many facts and segments that wrote."""
    here = ledger.station(db)
    if here is None:
        return 0
    own = folder / here["id"]
    own.mkdir(parents=True, exist_ok=True)
    outbox.mkdir(parents=True, exist_ok=True)
    written = len(restore(db, folder, outbox, here)) if restore_own else 0
    after = exported_through(db, folder, here["id"])
    while True:
        lines = ledger.lines(db, here["id"], after, SEGMENT_FACTS)
        if not lines:
            return written
        first, last = lines[0][0], lines[-1][0]
        name = segment_name(first, last)
        digest = _write(own / name, outbox / name, [text for _, text in lines])
        _remember(db, f"{here['id']}/{name}", here["id"], first, last, digest, "ok", "")
        after, written = last, written + len(lines)


def _write(path: Path, staged: Path, lines: list[str]) -> str:
    """Write the facts' lines to ``staged``, then rename it to ``path``; its sha256."""
    data = "".join(text + "\n" for text in lines).encode()
    # No fsync: the log in the database is the truth, and a segment a power cut left
    # short is put back from it by restore() (its digest no longer fits).
    staged.write_bytes(data)
    os.replace(staged, path)  # complete, or not there at all
    return _digest(data)


def restore(db: Database, folder: Path, outbox: Path, here: dict) -> list[str]:
    """Put back this station's own segments that were edited or deleted elsewhere.

    This station is the one writer of its folder and holds every fact in its log, so
    the true segment is always at hand; Syncthing carries it back to the others."""
    restored = []
    own = folder / here["id"]
    present = {e.name: e for e in os.scandir(own)} if own.is_dir() else {}
    for row in fetch(db, "SELECT * FROM segments WHERE station = ? AND status = 'ok'",
                     [here["id"]]):
        path = folder / row["path"]
        entry = present.get(path.name)
        if entry is not None and _cached_digest(entry) == row["sha256"]:
            continue
        lines = ledger.lines(db, here["id"], row["first"] - 1, row["last"] - row["first"] + 1)
        own.mkdir(parents=True, exist_ok=True)
        _write(path, outbox / path.name, [text for _, text in lines])
        _remember(db, row["path"], here["id"], row["first"], row["last"], row["sha256"], "ok",
                  "edited or deleted elsewhere; this station put it back")
        restored.append(row["path"])
    return restored


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_DIGESTS: dict[str, tuple[int, int, str]] = {}  # path -> (size, mtime, sha256)


def _cached_digest(entry: os.DirEntry) -> str:
    """A file's sha256, read again only when its size or time changed."""
    info = entry.stat()
    cached = _DIGESTS.get(entry.path)
    if cached and cached[:2] == (info.st_size, info.st_mtime_ns):
        return cached[2]
    digest = _digest(Path(entry.path).read_bytes())
    _DIGESTS[entry.path] = (info.st_size, info.st_mtime_ns, digest)
    return digest


def _remember(db: Database, path: str, station: str, first: int, last: int, digest: str,
              status: str, problem: str) -> None:
    with write(db):
        db.execute("INSERT INTO segments (path, station, first, last, sha256, status, "
                   "problem, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO "
                   "UPDATE SET sha256 = excluded.sha256, status = excluded.status, "
                   "problem = excluded.problem, seen_at = excluded.seen_at",
                   [path, station, first, last, digest, status, problem, now()])


def _read(path: Path, station: str, first: int, last: int,
          key: str) -> tuple[list[dict], str | None]:
    """A segment's facts, or why it cannot be one."""
    facts = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return [], f"unreadable: {err}"
    if not text.endswith("\n"):
        return [], "its last line is incomplete"
    for number, line in enumerate(text.splitlines(), 1):
        try:
            fact = json.loads(line)
        except ValueError:
            return [], f"line {number} is not JSON"
        if not isinstance(fact, dict) or fact.get("station") != station:
            return [], f"line {number} is a fact of another station"
        why = merge.check(fact, key)
        if why:
            return [], f"line {number}: {why}"
        facts.append(fact)
    if [f.get("seq") for f in facts] != list(range(first, last + 1)):
        return [], "its facts do not fit its name"
    return facts, None


_DIR_TIMES: dict[str, int] = {}  # station folder -> its mtime when last read through


def arriving(folder: Path, own: str) -> dict[str, int]:
    """The other stations' folders and their times: while Syncthing brings segments in
    (its temp files, then the renames), these move."""
    try:
        return {e.name: e.stat().st_mtime_ns for e in os.scandir(folder)
                if e.is_dir() and not e.name.startswith(".") and e.name != own}
    except OSError:
        return {}


def scan(db: Database, folder: Path, only_changed: bool = False) -> Scan:
    """Read every new segment of the other stations and fold their facts in.

    ``only_changed`` skips a station's folder whose time has not moved since it was last
    read through: Syncthing and :func:`export` add a segment by renaming it in, which
    moves it. A full look (the default) also finds a segment edited in place."""
    here = ledger.station(db)
    result = Scan()
    if here is None or not folder.is_dir():
        return result
    known = {r["path"]: r for r in fetch(db, "SELECT * FROM segments")}
    read_through: dict[str, tuple[str, int]] = {}
    batch: list[dict] = []
    batch_paths: list[tuple[str, str, int, int, str]] = []
    for station_dir in sorted(os.scandir(folder), key=lambda e: e.name):
        if not station_dir.is_dir() or station_dir.name.startswith("."):
            continue  # .stfolder, .stversions and the like
        if station_dir.name == here["id"] and only_changed:
            continue  # our own: written here
        moved = station_dir.stat().st_mtime_ns
        if only_changed and _DIR_TIMES.get(station_dir.path) == moved:
            continue
        read_through[station_dir.path] = (station_dir.name, moved)
        for entry in sorted(os.scandir(station_dir.path), key=lambda e: e.name):
            match = NAME.match(entry.name)
            if not match:
                continue  # Syncthing's .syncthing.*.tmp / ~syncthing~*.tmp, conflicts
            rel = f"{station_dir.name}/{entry.name}"
            digest = _cached_digest(entry)
            seen = known.get(rel)
            if seen is not None and seen["status"] in ("ok", "refused") and \
                    seen["sha256"] == digest:
                continue
            first, last = int(match.group(1)), int(match.group(2))
            if seen is not None and seen["status"] == "ok" and seen["sha256"] != digest:
                changed = "it changed after it was written (segments are never edited)"
                result.refused.append((rel, changed))
                _remember(db, rel, station_dir.name, first, last, seen["sha256"], "ok", changed)
                continue
            if station_dir.name == here["id"]:
                continue  # our own, written by export
            facts, why = _read(Path(entry.path), station_dir.name, first, last,
                               here["event_key"])
            if why:
                result.refused.append((rel, why))
                _remember(db, rel, station_dir.name, first, last, digest, "refused", why)
                continue
            batch.extend(facts)
            batch_paths.append((rel, station_dir.name, first, last, digest))
            result.segments += 1
            if len(batch) >= READ_BATCH:
                _fold(db, batch, batch_paths, result)
                batch, batch_paths = [], []
    if batch:
        _fold(db, batch, batch_paths, result)
    waiting = {path.split("/")[0] for path, _ in result.waiting}
    for path, (station, moved) in read_through.items():
        if station not in waiting:  # a gap or an unknown station: look again next time
            _DIR_TIMES[path] = moved
    return result


def _fold(db: Database, facts: list[dict], paths: list, result: Scan) -> None:
    report = merge.receive(db, facts)
    result.applied += report.applied
    result.rewound += report.rewound
    bad = dict(report.refused)
    waiting = {gid for gid, _ in report.waiting}
    for rel, station, first, last, digest in paths:
        gids = {f"{station}:{seq}" for seq in range(first, last + 1)}
        refused = sorted(why for gid, why in bad.items() if gid in gids)
        if refused:
            result.refused.append((rel, refused[0]))
            _remember(db, rel, station, first, last, digest, "refused", refused[0])
        elif gids & waiting:
            why = next(w for g, w in report.waiting if g in gids)
            result.waiting.append((rel, why))
            _remember(db, rel, station, first, last, digest, "waiting", why)
        else:
            _remember(db, rel, station, first, last, digest, "ok", "")


def problems(db: Database) -> list[dict]:
    """Segments refused or still waiting, for the organizer's Stations screen."""
    return fetch(db, "SELECT * FROM segments WHERE status != 'ok' OR problem != '' "
                     "ORDER BY seen_at DESC, path")
