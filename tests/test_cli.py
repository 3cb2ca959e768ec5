"""The `referee` command, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys
import urllib.request

import pytest

from referee import store
from referee.accounts.service import authenticate
from referee.cli import main
from referee.games.duel import service as duels
from referee.qr import terminal_qr
from tests.conftest import free_port, wait_for_port


def test_init_then_add_referee(tmp_path, capsys):
    path = str(tmp_path / "e.db")
    assert main(["init", "--db", path]) == 0
    assert main(["add-referee", "Vera", "--password", "pw12pw12pw", "--organizer",
                 "--db", path]) == 0
    assert "Added organizer Vera" in capsys.readouterr().out
    db = store.connect(path)
    assert authenticate(db, "vera", "pw12pw12pw")["is_organizer"] == 1
    assert main(["add-referee", "VERA", "--password", "pw12pw12pw", "--db", path]) == 2
    assert "already exists" in capsys.readouterr().err


def test_database_path_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "env.db"))
    assert main(["init"]) == 0
    assert (tmp_path / "env.db").exists()


def test_demo_loads_once_with_the_demo_login(tmp_path, capsys):
    path = str(tmp_path / "demo.db")
    assert main(["demo", "--db", path]) == 0
    assert main(["demo", "--db", path]) == 0
    db = store.connect(path)
    assert db["players"].count == 12
    assert authenticate(db, "demo", "demo") is not None
    statuses = {r[0] for r in db.execute("SELECT status FROM players")}
    assert statuses == {"active", "heavy_wound", "dead"}
    # one finished duel (D11: won 2–1 on rounds)
    demo_duel = duels.load(db, 1).row
    assert (demo_duel["status"], demo_duel["winner"], demo_duel["reason"]) == \
        ("finished", "a", "rounds")
    reasons = [r[0] for r in db.execute("SELECT reason FROM events WHERE kind = 'duel'")]
    assert reasons[0] == "Duel 1, start" and reasons[-1] == "Duel 1, round 3"
    assert "nothing loaded" in capsys.readouterr().out


def test_import_players_all_or_nothing(tmp_path, capsys):
    path = str(tmp_path / "i.db")
    assert main(["init", "--db", path]) == 0
    bad = tmp_path / "bad.csv"
    bad.write_text("character,hp_max,chance_max,cartridges,suit\nA,3,1,1,S\nB,x,1,1,S\n")
    assert main(["import-players", str(bad), "--db", path]) == 2
    assert f"{bad}:3:" in capsys.readouterr().err
    assert store.connect(path)["players"].count == 0
    good = tmp_path / "good.csv"
    good.write_text("character,hp_max,chance_max,cartridges,suit\nA,3,1,1,S\n")
    assert main(["import-players", str(good), "--db", path]) == 0
    assert store.connect(path)["players"].count == 1


@pytest.mark.parametrize("command", [
    ["backup", "copy.db"], ["add-referee", "Vera", "--password", "pw12pw12pw"],
    ["import-players", "players.csv"], ["export-players", "out.csv"],
    ["print", "passports", "-o", "p.pdf"]])
def test_a_command_refuses_a_database_that_is_not_there(tmp_path, capsys, monkeypatch,
                                                        command):
    """A mistyped --db (`backup x.db --db typo.db`) is refused and makes no file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "players.csv").write_text("character,hp_max,chance_max,cartridges,suit\n")
    assert main([*command, "--db", "typo.db"]) == 2
    assert "there is no database at typo.db" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.csv"]  # nothing made


def test_backup_copies_the_database(tmp_path):
    path = str(tmp_path / "b.db")
    main(["demo", "--db", path])
    copy = tmp_path / "copy.db"
    assert main(["backup", str(copy), "--db", path]) == 0
    assert store.connect(copy)["players"].count == 12


def qr_text_of(art: str) -> str:
    """Reads a QR code drawn with half blocks the way a phone reads it off the screen:
    each character is two modules, top and bottom; light text on a dark terminal."""
    import zxingcpp
    from PIL import Image

    halves = {" ": (0, 0), "\xa0": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}
    rows = [line for line in art.splitlines() if line]
    width = max(len(line) for line in rows)
    image = Image.new("L", (width + 8, 2 * len(rows) + 8), 0)  # the terminal's dark
    for y, line in enumerate(rows):
        for x, char in enumerate(line):
            top, bottom = halves[char]
            image.putpixel((x + 4, 2 * y + 4), 255 * top)
            image.putpixel((x + 4, 2 * y + 5), 255 * bottom)
    image = image.resize((image.width * 8, image.height * 8), Image.NEAREST)
    (code,) = zxingcpp.read_barcodes(image)
    return code.text


def test_terminal_qr_reads_back_as_the_address():
    art = terminal_qr("http://10.0.0.2:8080")
    assert qr_text_of(art) == "http://10.0.0.2:8080"


def test_serve_prints_the_address_and_a_qr_code_and_answers(tmp_path):
    path = str(tmp_path / "s.db")
    main(["demo", "--db", path])
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--db", path, "--host", "127.0.0.1",
         "--port", str(port), "--public-url", "http://192.168.1.10:8080"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_port(port, process)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login") as response:
            assert response.status == 200
            assert response.headers["Server"] == "referee"  # waitress, our ident
    finally:
        process.terminate()
        out = process.communicate(timeout=10)[0]
    assert "http://192.168.1.10:8080" in out
    drawn = [line for line in out.splitlines()
             if len(line) > 10 and set(line) <= set(" \xa0▀▄█")]
    assert qr_text_of("\n".join(drawn)) == "http://192.168.1.10:8080"


def test_a_public_url_with_markup_is_refused_on_the_command_line(tmp_path, capsys):
    path = str(tmp_path / "u.db")
    main(["init", "--db", path])
    with pytest.raises(SystemExit) as refused:
        main(["export-players", str(tmp_path / "o.csv"), "--db", path,
              "--public-url", 'http://10.0.0.1/"><b>x</b>'])
    assert refused.value.code == 2
    assert "no spaces, quotes or markup" in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()


def test_the_queue_depth_warning_is_said_once_a_minute_with_what_was_held_back():
    import logging

    from referee.logs import QUEUE_LOGGER, Sparse, quieten_queue_warnings

    now = [100.0]
    sparse = Sparse(60, clock=lambda: now[0])
    logger = logging.getLogger("tests.sparse")
    logger.propagate = False
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger.addHandler(handler)
    logger.addFilter(sparse)
    try:
        for depth in (1, 5, 9, 3):  # a burst: only the first is said
            logger.warning("Task queue depth is %d", depth)
            now[0] += 1
        assert seen == ["Task queue depth is 1"]
        now[0] = 170.0
        logger.warning("Task queue depth is %d", 2)
        assert seen[1] == ("Task queue depth is 2 (and 3 more like it in the last 70 s, "
                           "the highest 9)")
        now[0] = 300.0
        logger.warning("Task queue depth is %d", 4)
        assert seen[2] == "Task queue depth is 4"  # nothing held back this time
    finally:
        logger.removeHandler(handler)
    # serve installs it on waitress's own logger, once however often it is asked
    first, again = quieten_queue_warnings(), quieten_queue_warnings()
    assert first is again
    assert sum(isinstance(f, Sparse) for f in logging.getLogger(QUEUE_LOGGER).filters) == 1
    logging.getLogger(QUEUE_LOGGER).removeFilter(first)


def test_the_app_starts_without_loading_the_pdf_machinery(tmp_path):
    # fpdf2 is ~0.2 s of every start (a station's, `serve` on a phone); it loads when the
    # first PDF is made
    code = ("import sys; from referee.app import create_app; "
            f"create_app({{'DATABASE': {str(tmp_path / 'a.db')!r}}}); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'fpdf'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
