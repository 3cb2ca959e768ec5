"""A bare Flask endpoint served by waitress exactly as `referee serve` serves the app:
the floor that the benchmark compares Referee against."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flask import Flask, jsonify, request

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from referee import quiet_waitress  # noqa: E402  (this checkout's, as `referee serve` runs it)

app = Flask(__name__)


@app.post("/api/v1/players/<int:player_id>/adjust")
def adjust(player_id: int):
    """Parse the same JSON body and answer a small JSON document, touching nothing."""
    body = request.get_json()
    return jsonify({"id": player_id, "cartridges": body.get("cartridges", 0)})


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    quiet_waitress.serve(app, host="127.0.0.1", port=args.port, threads=args.threads, ident="bare")
