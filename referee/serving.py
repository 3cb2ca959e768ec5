"""`referee serve`: the certificates for HTTPS, the station beside the app, the signals,
and the server (waitress, or cheroot over TLS). :mod:`referee.cli` reads the options."""

from __future__ import annotations

import argparse
import socket
import sys

from referee import __version__, qr
from referee.rules import RuleError


class Refused(Exception):
    """The server cannot start: the text says why (printed as ``error: ...``)."""


def lan_address() -> str:
    """This machine's address on the local network, as phones will reach it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # UDP connect sends nothing; it only asks the OS which interface would be used.
        sock.connect(("10.255.255.255", 1))
        return sock.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        sock.close()


def certificates(args: argparse.Namespace, path: str, address: str):
    """With --https: the local authority and this laptop's certificate (made once,
    reissued when its addresses change)."""
    from referee.https import certs

    folder = certs.folder_for(path)
    hosts = certs.local_hosts(address, *([] if args.host in ("0.0.0.0", "") else [args.host]))
    try:
        made = certs.ensure(folder, hosts, f"Referee local CA ({socket.gethostname()})")
    except (certs.TLSError, OSError) as err:
        raise Refused(str(err)) from err
    if made.made_ca:
        print(f"Made a certificate authority in {folder}/: every phone must trust it once "
              "(the organizers' page /https shows how). Keep ca.key on this laptop only.")
    if made.issued:
        print("Issued this laptop's certificate for " + ", ".join(certs.names(made.cert)))
    print(f"Certificate authority SHA-256: {certs.fingerprint(made.ca)}")
    return made


def start_station(args: argparse.Namespace, path: str, address: str):
    """With --station NAME: this database's station, its Syncthing started."""
    import logging

    logging.basicConfig(level=logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    from referee.stations.runtime import Runtime
    from referee.stations.syncthing import SyncthingError, available

    if not available():
        raise Refused("a station needs Syncthing (the Debian package syncthing)")
    sync_host = "127.0.0.1" if address.startswith("127.") else "0.0.0.0"
    station = Runtime(path, args.station, sync_port=args.sync_port,
                      gui_port=args.sync_gui_port, sync_host=sync_host,
                      advertise=f"tcp://{address}:{args.sync_port}",
                      lan_discovery=not args.no_lan_discovery)
    try:
        station.start()
    except (SyncthingError, RuleError) as err:
        station.stop()
        raise Refused(str(getattr(err, "text", err))) from err
    print(f"Station {station.name}: Syncthing on port {args.sync_port}")
    return station


def stop_on_sigterm() -> None:
    """SIGTERM ends the server as Ctrl-C does: Syncthing stopped and the WAL
    checkpointed on the way out."""
    import signal

    def stop(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)


def run(app, args: argparse.Namespace, port: int, made) -> None:
    """The server: cheroot over TLS with certificates, else waitress."""
    if made is not None:
        from referee.https import server

        server.serve(app, args.host, port, args.http_port, made, args.threads)
    else:
        from referee import quiet_waitress
        from referee.logs import quieten_queue_warnings

        quieten_queue_warnings()
        quiet_waitress.serve(app, host=args.host, port=port, threads=args.threads,
                             ident="referee")


def serve(args: argparse.Namespace, path: str) -> int:
    """Serve the app on the local network: waitress, or with --https cheroot over TLS."""
    try:
        return _serve(args, path)
    except Refused as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace, path: str) -> int:
    from referee.app import create_app
    from referee.web.context import close_connections

    address = lan_address() if args.host in ("0.0.0.0", "") else args.host
    scheme = "https" if args.https else "http"
    port = args.port if args.port is not None else (8443 if args.https else 8080)
    if args.https and args.http_port == port:
        raise Refused(f"--port and --http-port are both {port}; give HTTPS and the plain "
                      "door different ports.")
    made = certificates(args, path, address) if args.https else None
    public = args.public_url or f"{scheme}://{address}:{port}"
    station = start_station(args, path, address) if args.station else None
    # LAN_URL: what passports use when the organizer browses from the laptop itself
    config = {"DATABASE": path, "PUBLIC_URL": args.public_url or "",
              "LAN_URL": f"{scheme}://{address}:{port}", "STATION": station,
              # Half the threads may hold a refused sign-in a while (web/throttle.py).
              "SIGN_IN_SLOTS": max(1, args.threads // 2)}
    if made is not None:
        config.update(SESSION_COOKIE_SECURE=True, PREFERRED_URL_SCHEME="https",
                      TLS_DIR=str(made.folder), HTTPS_PORT=port, HTTP_PORT=args.http_port)
    app = create_app(config)
    if station is not None or made is not None:
        stop_on_sigterm()
    print(f"Referee {__version__} on {public}  (database: {path})")
    if made is not None:
        print(f"Phones that do not trust it yet: http://{address}:{args.http_port}"
              "/https/trust (plain HTTP hands out the authority, sends the rest to HTTPS)")
    print("Referees: scan this to open it on your phone:")
    print(qr.terminal_qr(public))
    sys.stdout.flush()
    try:
        run(app, args, port, made)
    finally:
        if station is not None:
            station.stop()
        # The last connection to close checkpoints the WAL into the database file.
        close_connections(app)
    return 0
