"""Segments on disk: written complete then renamed in, read in any order, each once,
Syncthing's temporary files skipped, edited or foreign segments refused."""

from __future__ import annotations

import os
import shutil

import pytest

from referee.players import service as players
from referee.stations import segments
from referee.store import ledger
from referee.store import players as player_rows
from tests.stations.helpers import dump, founder, joiner, rows


@pytest.fixture
def pair(tmp_path):
    a = founder(tmp_path / "a.db")
    b = joiner(tmp_path / "b.db", a, "tavern")
    yield a, b
    a.close()
    b.close()


def carry(src, dst):
    """What Syncthing does: every file of one folder appears in the other."""
    for path in src.rglob("*"):
        if path.is_file():
            target = dst / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                shutil.copyfile(path, target)


def test_a_station_writes_its_facts_as_complete_segments_of_its_own(pair, tmp_path):
    a, _ = pair
    folder, outbox = tmp_path / "shared-a", tmp_path / "outbox-a"
    total = len(ledger.facts(a.db, a.here["id"]))
    assert segments.export(a.db, folder, outbox) == total
    assert segments.export(a.db, folder, outbox) == 0
    files = sorted((folder / a.here["id"]).iterdir())
    assert files[0].name == segments.segment_name(1, min(total, segments.SEGMENT_FACTS))
    assert all(f.read_text().endswith("\n") for f in files)
    assert list(outbox.iterdir()) == []  # staged files were renamed in, none left behind
    players.adjust(a.db, None, 1, {"hp": -1})
    assert segments.export(a.db, folder, outbox) == 1
    assert max(f.name for f in (folder / a.here["id"]).iterdir()) == \
        segments.segment_name(total + 1, total + 1)


def test_segments_arrive_in_any_order_and_apply_once(pair, tmp_path):
    a, b = pair
    fa, fb = tmp_path / "fa", tmp_path / "fb"
    segments.export(a.db, fa, tmp_path / "oa")
    for stat in ("hp", "cartridges"):
        players.adjust(a.db, None, 1, {stat: -1})
        segments.export(a.db, fa, tmp_path / "oa")
    own = sorted((fa / a.here["id"]).iterdir())
    (fb / a.here["id"]).mkdir(parents=True)
    shutil.copyfile(own[-1], fb / a.here["id"] / own[-1].name)  # the last one first
    first = segments.scan(b.db, fb)
    assert first.applied == 0 and "have not arrived yet" in first.waiting[0][1]
    carry(fa, fb)
    second = segments.scan(b.db, fb)
    assert second.applied == 2 and not second.refused
    assert segments.scan(b.db, fb).applied == 0
    row = player_rows.get(b.db, 1)
    assert (row["hp"], row["cartridges"]) == (2, 1)
    assert dump(a.answers()) == dump(b.answers())


def test_syncthing_temporary_files_and_strangers_are_skipped(pair, tmp_path):
    a, b = pair
    fb = tmp_path / "fb"
    theirs = fb / a.here["id"]
    theirs.mkdir(parents=True)
    (theirs / ".syncthing.0000000100-0000000100.jsonl.tmp").write_text("{half")
    (theirs / "~syncthing~0000000100-0000000100.jsonl.tmp").write_text("{half")
    (fb / ".stfolder").mkdir()
    (theirs / "notes.txt").write_text("hello")
    before = dump(b.answers())
    result = segments.scan(b.db, fb)
    assert (result.segments, result.applied, result.refused) == (0, 0, [])
    assert dump(b.answers()) == before


def test_a_tampered_segment_is_refused_and_changes_nothing(pair, tmp_path):
    a, b = pair
    fa, fb = tmp_path / "fa", tmp_path / "fb"
    players.adjust(a.db, None, 1, {"hp": -1})
    segments.export(a.db, fa, tmp_path / "oa")
    carry(fa, fb)
    last = max((fb / a.here["id"]).iterdir())
    last.write_text(last.read_text().replace('"after":2', '"after":0'))
    result = segments.scan(b.db, fb)
    assert result.applied == 0
    assert "seal does not match" in result.refused[0][1]
    assert player_rows.get(b.db, 1)["hp"] == 3
    assert segments.problems(b.db)[0]["status"] == "refused"


def test_a_segment_edited_after_it_was_read_is_reported(pair, tmp_path):
    a, b = pair
    fa, fb = tmp_path / "fa", tmp_path / "fb"
    players.adjust(a.db, None, 1, {"hp": -1})
    segments.export(a.db, fa, tmp_path / "oa")
    carry(fa, fb)
    segments.scan(b.db, fb)
    last = max((fb / a.here["id"]).iterdir())
    last.write_text(last.read_text() + "\n")
    result = segments.scan(b.db, fb)
    assert result.refused == [(f"{a.here['id']}/{last.name}",
                               "it changed after it was written (segments are never edited)")]
    assert player_rows.get(b.db, 1)["hp"] == 2


def test_a_segment_of_a_station_never_admitted_waits_and_changes_nothing(pair, tmp_path):
    _a, b = pair
    stranger = founder(tmp_path / "x.db")
    fx, fb = tmp_path / "fx", tmp_path / "fb"
    segments.export(stranger.db, fx, tmp_path / "ox")
    carry(fx, fb)
    result = segments.scan(b.db, fb)
    assert result.applied == 0 and result.refused  # sealed with another event's key
    assert len(rows(b, "SELECT * FROM players")) == 3
    stranger.close()


def test_a_station_puts_back_its_own_segment_edited_or_deleted_elsewhere(pair, tmp_path):
    a, _ = pair
    fa = tmp_path / "fa"
    segments.export(a.db, fa, tmp_path / "oa")
    files = sorted((fa / a.here["id"]).iterdir())
    true = [f.read_bytes() for f in files]
    files[0].write_text(files[0].read_text().replace('"ref"', '"bad"'))
    files[-1].unlink()
    segments.export(a.db, fa, tmp_path / "oa")
    assert [f.read_bytes() for f in sorted((fa / a.here["id"]).iterdir())] == true


def test_the_loop_reads_a_heal_once_it_has_arrived_but_waits_not_for_ever(pair):
    """While the other stations' folders still move, the loop waits (up to
    SETTLE_AT_MOST seconds) so that a heal is folded in one go, not segment by segment."""
    from referee.stations import runtime as runtime_module

    a, b = pair
    station = runtime_module.Runtime(str(b.path), "tavern")
    here = b.here
    assert station._settled(here, 0.0)  # nothing there: nothing arriving
    theirs = station.shared / a.here["id"]
    theirs.mkdir(parents=True)
    moves = iter(range(1, 100))

    def moved(name):  # a file comes in: the folder's time moves (coarse clocks aside)
        (theirs / name).write_text("")
        tick = next(moves) * 10**9
        os.utime(theirs, ns=(tick, tick))

    moved(".syncthing.0000000001-0000000002.jsonl.tmp")  # Syncthing is bringing one in
    assert not station._settled(here, 1.0)
    assert station._settled(here, 1.5)  # quiet since the last look: read now
    moved("0000000001-0000000002.jsonl")
    assert not station._settled(here, 2.0)
    for t in (2.5, 3.0, 3.5, 4.0, 4.5):  # it keeps moving: wait, but not for ever
        moved(f"x{t}")
        settled = station._settled(here, t)
        assert settled == (t - 2.0 >= runtime_module.SETTLE_AT_MOST)
    assert not settled
    moved("x5.0")
    assert station._settled(here, 5.0)


def test_a_segment_line_is_the_canonical_spelling_of_its_fact(pair):
    """Lines are made from the log's stored text; they must read exactly as
    canonical(fact) does, or a put-back segment would differ from the one it replaces."""
    a, b = pair
    players.adjust(a.db, None, 1, {"hp": -1}, reason='<b>"Ёж"</b> \\ \u2028')
    a.send_to(b)
    for station in (a, b):
        for who in {f["station"] for f in ledger.facts(station.db)}:
            facts = ledger.facts(station.db, who)
            lines = ledger.lines(station.db, who)
            assert [text for _, text in lines] == [ledger.canonical(f) for f in facts]
            for fact in facts:
                assert ledger.mac(station.here["event_key"], fact) == fact["mac"]
