"""The `referee` command: set up a database, add referees, load a demo, serve."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path

from sqlite_utils import Database

from referee import __version__, serving, store
from referee.rules import RuleError


def _db_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None,
                        help="SQLite file (default: $REFEREE_DB, else ./referee.db)")


def _path(args: argparse.Namespace) -> str:
    return args.db or store.default_path()


def _public_url(text: str) -> str:
    """--public-url: an http(s) address phones can open (as the Event settings check)."""
    from referee.players.settings import BAD_PUBLIC_URL, public_url_ok

    if text and not public_url_ok(text):
        raise argparse.ArgumentTypeError(BAD_PUBLIC_URL)
    return text


def _is_there(args: argparse.Namespace) -> bool:
    """Whether the database file is there; if not, says so (a typo in --db must not
    quietly make an empty event)."""
    path = _path(args)
    if Path(path).is_file():
        return True
    print(f"error: there is no database at {path}. Check the path, or create one with "
          f"`referee init --db {path}`.", file=sys.stderr)
    return False


def existing_database(command: Callable[[argparse.Namespace, Database], int]):
    """A command run on the existing database, upgraded; exit status 2 (having said so)
    when there is none."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        if not _is_there(args):
            return 2
        return command(args, store.init(_path(args)))

    return run


def _refused(err: RuleError) -> int:
    """A refusal said on stderr; the exit status of a command that did nothing."""
    print(f"error: {err.text}", file=sys.stderr)
    return 2


def cmd_init(args: argparse.Namespace) -> int:
    """Create or upgrade the database."""
    from referee.store.migrations import migrations

    db = store.init(_path(args))
    applied = [m.name for m in migrations.applied(db)]
    print(f"Database ready: {_path(args)} ({len(applied)} migrations applied)")
    return 0


@existing_database
def cmd_add_referee(args: argparse.Namespace, db: Database) -> int:
    """Add a referee or organizer account."""
    from referee.accounts.service import add_referee

    try:
        row = add_referee(db, args.name, args.password, args.organizer, by=None)
    except RuleError as err:
        return _refused(err)
    role = "organizer" if row["is_organizer"] else "referee"
    print(f"Added {role} {row['name']}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Load the demo event (idempotent: an existing demo is left as it is)."""
    from referee.demo import load

    db = store.init(_path(args))
    created = load(db)
    if created:
        print(f"Demo event loaded into {_path(args)}: {created} players. Sign in as demo / demo.")
    else:
        print(f"{_path(args)} already holds players; nothing loaded. Sign in as demo / demo.")
    return 0


def _joinrpg_map(text: str) -> tuple[str, str]:
    """--map OURS=THEIRS: one of our fields and a JoinRPG field's name."""
    ours, sep, theirs = text.partition("=")
    if not sep or not ours.strip() or not theirs.strip():
        raise argparse.ArgumentTypeError('write it as hp_max="Хиты"')
    return ours.strip(), theirs.strip().strip('"')


def cmd_import_joinrpg(args: argparse.Namespace, db, data: bytes) -> int:
    """A JoinRPG file: the plan printed (new, changed, left out), then applied unless
    --dry-run; every bad row by line or character id, and then nothing is imported."""
    from referee.players import joinrpg
    from referee.rules import RuleError

    try:
        export = joinrpg.read(data)
        mapping = joinrpg.mapping_for(db, export, dict(args.map or []))
        joinrpg.check_mapping(export, mapping)
    except RuleError as err:
        print(f"{args.file}: {err.text}", file=sys.stderr)
        return 2
    print("Fields: " + ", ".join(f"{k} = {v}" for k, v in sorted(mapping.items())))
    todo = joinrpg.plan(db, export, mapping, include_all=args.all)
    for ref, problem in todo.errors:
        print(f"{args.file}:{ref}: {problem.text}", file=sys.stderr)
    if todo.errors:
        print("Nothing was imported.", file=sys.stderr)
        return 2
    for row, changed in todo.changes:
        told = "; ".join(f"{k} {b} -> {a}" for k, (b, a) in changed.items())
        print(f"Change {row['character']} (JoinRPG {row['joinrpg_id']}): {told}")
    verb = "Would import" if args.dry_run else "Imported"
    if not args.dry_run:
        joinrpg.apply(db, None, todo, mapping)
    print(f"{verb} {len(todo.new)} new players, {len(todo.changes)} changed, "
          f"{todo.unchanged} unchanged; {todo.left_out} not in the game left out.")
    return 0


@existing_database
def cmd_import(args: argparse.Namespace, db: Database) -> int:
    """Import players from a CSV file (all rows, or none), or a JoinRPG file."""
    from referee.players.importing import import_players
    from referee.players.joinrpg import is_joinrpg

    data = Path(args.file).read_bytes()
    if args.map or is_joinrpg(data):
        return cmd_import_joinrpg(args, db, data)
    created, errors = import_players(db, None, data, args.encoding)
    for line, err in errors:
        print(f"{args.file}:{line}: {err.text}", file=sys.stderr)
    if errors:
        print("Nothing was imported.", file=sys.stderr)
        return 2
    print(f"Imported {len(created)} players.")
    return 0


@existing_database
def cmd_export(args: argparse.Namespace, db: Database) -> int:
    """Write every player with live values and passport links to a CSV file."""
    from referee.players.exporting import players_csv

    Path(args.output).write_text(players_csv(db, _public_base(args, db)), encoding="utf-8",
                                 newline="")
    print(f"Exported {db['players'].count} players to {args.output}")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """Copy the database safely while the server runs (SQLite's online backup)."""
    import sqlite3

    if not _is_there(args):
        return 2
    source = store.connect(_path(args))
    target = sqlite3.connect(args.output)
    with target:
        source.conn.backup(target)
    target.close()
    print(f"Backed up {_path(args)} to {args.output}")
    return 0


class ProgressBar:
    """A one-line progress bar on stderr for long print runs."""

    def __init__(self, label: str, stream=sys.stderr) -> None:
        self.label = label
        self.stream = stream

    def __call__(self, done: int, total: int) -> None:
        # Redrawing only makes sense on a terminal; a log gets the last line alone.
        if not self.stream.isatty() and done < total:
            return
        width = 30
        filled = width * done // max(total, 1)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                          f"{done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _write_pdf(path: str, data: bytes) -> None:
    Path(path).write_bytes(data)
    print(f"Wrote {path} ({len(data) // 1024} KiB)")


def _public_base(args: argparse.Namespace, db) -> str:
    """The passport links' base: --public-url, the Event setting, else this laptop's LAN
    address on the default port (said on stderr, as it may be wrong)."""
    from referee.store import settings

    base = args.public_url or settings.get(db, "public_url")
    if base:
        return base
    base = f"http://{serving.lan_address()}:8080"
    print(f"note: no public URL set; passport links point to {base} "
          "(use --public-url or the Event settings)", file=sys.stderr)
    return base


@existing_database
def cmd_print_passports(args: argparse.Namespace, db: Database) -> int:
    """Print passports for all players or the chosen ones."""
    from referee.printing import service

    base = _public_base(args, db)
    try:
        data = service.passports(db, base, args.player, args.lang,
                                  ProgressBar("passports"))
    except RuleError as err:
        return _refused(err)
    _write_pdf(args.output, data)
    return 0


def cmd_print_deck(args: argparse.Namespace) -> int:
    """Print a deck's card sheets."""
    from referee.decks import DeckError, UnknownDeck
    from referee.printing import service

    try:
        if args.print_shop:
            data = service.shop_deck(args.name, args.bleed, args.lang, ProgressBar(args.name))
        else:
            data = service.deck(args.name, args.backs, tuple(args.duplex_offset), args.lang,
                                 ProgressBar(args.name))
    except (DeckError, UnknownDeck, RuleError) as err:
        print(f"error: {getattr(err, 'text', err)}", file=sys.stderr)
        return 2
    _write_pdf(args.output, data)
    return 0


def cmd_print_decks(args: argparse.Namespace) -> int:
    """List the decks that can be printed, with their size."""
    from referee.decks import load_all

    errors: list = []
    for deck in load_all(errors=errors).values():
        print(f"{deck.name:<18} {deck.kind:<9} {deck.size:>3} cards  {deck.title_en}")
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    return 2 if errors else 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the app on the local network: waitress, or with --https cheroot over TLS."""
    return serving.serve(args, _path(args))


def build_parser() -> argparse.ArgumentParser:
    """All subcommands and their options.

    Long because it is a flat list: one block a command, read like the README's table."""
    parser = argparse.ArgumentParser(prog="referee", description=__doc__)
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("init", help="create or upgrade the database")
    _db_arg(p)
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("add-referee", help="add a referee account")
    p.add_argument("name")
    p.add_argument("--password", required=True)
    p.add_argument("--organizer", action="store_true", help="may manage referees and settings")
    _db_arg(p)
    p.set_defaults(func=cmd_add_referee)

    p = sub.add_parser("serve", help="serve the app on the local network (waitress; "
                                     "with --https, TLS through cheroot)")
    _db_arg(p)
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=None,
                   help="default 8080; with --https, 8443 (the HTTPS port)")
    p.add_argument("--https", action="store_true",
                   help="serve over TLS with a local certificate authority made once "
                        "beside the database (README: HTTPS)")
    p.add_argument("--http-port", type=int, default=8080,
                   help="with --https: the plain-HTTP port that hands out the authority "
                        "and sends everything else to HTTPS")
    p.add_argument("--public-url", default="", type=_public_url,
                   help="base URL in passport QR codes, e.g. http://192.168.1.10:8080")
    p.add_argument("--threads", type=int, default=16,
                   help="worker threads (default 16: up to half of them may be holding "
                        "refused sign-ins, the rest serve the referees)")
    p.add_argument("--station", metavar="NAME", default="",
                   help="run as a station of the event that merges with the others "
                        "through Syncthing (README: Stations)")
    p.add_argument("--sync-port", type=int, default=22000,
                   help="the port other stations reach this one's Syncthing on")
    p.add_argument("--sync-gui-port", type=int, default=8385,
                   help="the loopback port of this station's Syncthing REST API")
    p.add_argument("--no-lan-discovery", action="store_true",
                   help="find other stations only by the addresses pairing gave")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("demo", help="load a demo event (referee demo / demo)")
    _db_arg(p)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("import-players", help="import players from our CSV template, or "
                       "from a JoinRPG CSV, XLSX or saved API JSON (all or nothing)")
    p.add_argument("file")
    p.add_argument("--map", action="append", type=_joinrpg_map, metavar='OURS="THEIRS"',
                   help='JoinRPG: our field from a JoinRPG field, e.g. hp_max="Хиты" '
                   "(repeatable; others are suggested by name)")
    p.add_argument("--dry-run", action="store_true",
                   help="JoinRPG: show what would be added and changed, import nothing")
    p.add_argument("--all", action="store_true",
                   help="JoinRPG: also vacant, NPC and inactive characters")
    from referee.players.importing import ENCODINGS

    p.add_argument("--encoding", default=None, choices=list(ENCODINGS),
                   help="the file's encoding when it is not UTF-8 (never guessed)")
    _db_arg(p)
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("print", help="print passports or card sheets to PDF")
    what = p.add_subparsers(dest="what", required=True)
    q = what.add_parser("passports", help="passports with QR codes, 10 per A4 page")
    _db_arg(q)
    q.add_argument("-o", "--output", required=True, help="the PDF file to write")
    q.add_argument("--public-url", default="", type=_public_url,
                   help="base URL in the QR codes (default: the Event setting)")
    q.add_argument("--player", type=int, nargs="+", metavar="ID",
                   help="only these players (default: all)")
    q.add_argument("--lang", choices=("both", "ru", "en"), default="both")
    q.set_defaults(func=cmd_print_passports)
    q = what.add_parser("deck", help="a deck's cards, 3 x 3 per A4 page")
    q.add_argument("name", help="a deck name from `referee print decks`")
    q.add_argument("-o", "--output", required=True, help="the PDF file to write")
    q.add_argument("--backs", action="store_true", help="add mirrored back pages for duplex")
    q.add_argument("--duplex-offset", type=float, nargs=2, default=(0.0, 0.0),
                   metavar=("X_MM", "Y_MM"), help="shift the back pages to match the printer")
    q.add_argument("--print-shop", action="store_true",
                   help="one card a page with bleed, fronts and backs in turn (print shops)")
    q.add_argument("--bleed", type=float, default=3.175, metavar="MM",
                   help="with --print-shop: bleed on each side (default 3.175 = 1/8 in)")
    q.add_argument("--lang", choices=("both", "ru", "en"), default="both")
    q.set_defaults(func=cmd_print_deck)
    q = what.add_parser("decks", help="list the decks")
    q.set_defaults(func=cmd_print_decks)

    p = sub.add_parser("export-players",
                       help="write players with live values and passport links to CSV")
    p.add_argument("output")
    _db_arg(p)
    p.add_argument("--public-url", default="", type=_public_url,
                   help="base URL of the passport links (default: the Event setting)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("backup", help="copy the database to a file while serving")
    p.add_argument("output")
    _db_arg(p)
    p.set_defaults(func=cmd_backup)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
