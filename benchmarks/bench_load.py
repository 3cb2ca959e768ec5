"""The load figures in one run: taps under load, the event grown to 10,000 players, and
the bytes a tap costs on the wire.

Runs, one after the other on this machine, each with its defaults unless told:
  bench_stats.py  stat changes at 1, 4 and 32 clients against bare Flask, side by side
  bench_scale.py  every page and API call at 100 against 10,000 players / 1,000,000 events
  bench_wire.py   a tap's bytes on the wire, gzip on and off, and a repeat page load

    .venv/bin/python benchmarks/bench_load.py [--quick]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

QUICK = {
    "bench_stats.py": ["--requests", "960", "--rounds", "2"],
    "bench_scale.py": ["--players", "10000", "--events", "1000000", "--rounds", "3",
                       "--repeat", "4"],
    "bench_wire.py": ["--taps", "60"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds of each")
    args = parser.parse_args()
    failed = []
    for script in ("bench_stats.py", "bench_scale.py", "bench_wire.py"):
        print(f"\n=== {script} ===", flush=True)
        t0 = time.perf_counter()
        extra = QUICK[script] if args.quick else []
        done = subprocess.run([sys.executable, str(HERE / script), *extra], check=False)
        print(f"({script}: {time.perf_counter() - t0:.0f} s)", flush=True)
        if done.returncode:
            failed.append(script)
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
