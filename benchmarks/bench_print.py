"""Printing benchmark: time and peak memory for 100 and 1,000 passports and for the full
castle deck with backs.

    .venv/bin/python benchmarks/bench_print.py [--repeat 3] [--out FOLDER]

Each case runs in a fresh Python process, so its peak resident memory (ru_maxrss) is its
own; "base" is the same process after the imports, before printing. Time is the best
of ``--repeat`` runs. The target: 1,000 passports in under 10 s, and the time per
passport about the same at 100 and at 1,000 (linear).
"""

from __future__ import annotations

import argparse
import json
import resource
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ["passports:10", "passports:100", "passports:1000", "deck:castle-sample"]


def _players(count: int) -> list[dict]:
    names = ["Капитан Вера Соколова", "Штабс-ротмистр Орлов", "Corporal Hale",
             "Сестра милосердия Ксения", "Madame Renard"]
    return [{"id": i + 1, "character": f"{names[i % 5]} {i + 1}", "player": f"Игрок {i + 1}",
             "hp_max": 3, "chance_max": 2, "cartridges": 4, "suit": "SHDC"[i % 4],
             "level": 1, "passport_token": secrets.token_urlsafe(24)} for i in range(count)]


def _rss_mb() -> float:
    # Linux reports ru_maxrss in kilobytes, macOS in bytes
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20


def run_case(case: str, repeat: int, out: Path | None) -> dict:
    """Run one case in this process and return its figures."""
    sys.path.insert(0, str(ROOT))
    from referee.decks import load_deck
    from referee.printing import deck_pdf, passports_pdf

    kind, arg = case.split(":")
    base = _rss_mb()
    best, pdf, items = float("inf"), b"", 0
    for _ in range(repeat):
        if kind == "passports":
            players = _players(int(arg))
            items = len(players)
            start = time.perf_counter()
            pdf = passports_pdf(players, "http://192.168.1.10:8080", "Осенний бал")
        else:
            items = load_deck(arg).size
            start = time.perf_counter()
            pdf = deck_pdf(arg, backs=True)
        best = min(best, time.perf_counter() - start)
    if out:
        (out / f"{kind}-{arg}.pdf").write_bytes(pdf)
    return {"case": case, "items": items, "seconds": best, "base_mb": base,
            "peak_mb": _rss_mb(), "pdf_kb": len(pdf) / 1024}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="also write the PDFs into this folder")
    parser.add_argument("--case", help=argparse.SUPPRESS)  # one case, in a child process
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.repeat, args.out)))
        return 0
    rows = []
    for case in CASES:
        command = [sys.executable, __file__, "--case", case, "--repeat", str(args.repeat)]
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            command += ["--out", str(args.out)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        rows.append(json.loads(done.stdout))
    print(f"{'case':<22}{'items':>7}{'seconds':>10}{'ms/item':>10}{'base MB':>10}"
          f"{'peak MB':>10}{'PDF KB':>10}")
    for row in rows:
        print(f"{row['case']:<22}{row['items']:>7}{row['seconds']:>10.2f}"
              f"{row['seconds'] / row['items'] * 1000:>10.2f}{row['base_mb']:>10.1f}"
              f"{row['peak_mb']:>10.1f}{row['pdf_kb']:>10.0f}")
    small, large = rows[1], rows[2]
    ratio = (large["seconds"] / large["items"]) / (small["seconds"] / small["items"])
    # t(n) = fixed + n × each: the fixed part is loading the fonts and writing the file
    each = (large["seconds"] - small["seconds"]) / (large["items"] - small["items"])
    fixed = small["seconds"] - small["items"] * each
    print(f"time per passport, 1,000 vs 100: {ratio:.2f}× "
          "(1.00 = proportional; below 1 because of the fixed part)")
    print(f"linear fit: t(n) = {fixed:.2f} s + n × {each * 1000:.2f} ms; "
          f"predicts {fixed + 10 * each:.2f} s for 10 passports, "
          f"measured {rows[0]['seconds']:.2f} s")
    print(f"1,000 passports: {large['seconds']:.2f} s "
          f"({'within' if large['seconds'] < 10 else 'OVER'} the 10 s target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
