"""The pocket referee's server side: the copy of the event a phone keeps to read out of
reach, and the taps it kept meanwhile, merged as the stations' facts are.

A phone that leaves the station's Wi-Fi still shows the players list, every sheet (its
values and latest history) and the games, from the copy it fetched last
(:func:`snapshot`). Stat taps made there wait on the phone, each with an id the phone
made, the time by the phone's clock and the referee signed in. Back in reach, the phone
sends them (:func:`receive`); each is applied once:

- a tap already applied (sent again, here or to another station) is recognised by its
  id (``events.tap`` is unique, and a station receiving it twice holds the second);
- a tap is a delta: it adds to the values as they are now, whatever other referees did
  meanwhile; a typed value is that value again (``set``), as between stations;
- a tap whose bound breaks only now (the last chance token spent twice) is held as a
  conflict for a referee to apply anyway (clamped) or discard, never clamped or dropped
  silently; so is a tap of an account switched off since, or one the phone names
  another account for than the one sending it;
- the time it was made is kept, put right by the phone's clock error at sending.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlite_utils import Database

from referee.players import service
from referee.rules import N_, RuleError, stats
from referee.rules.stats import COUNTERS
from referee.store import fold, ledger, players
from referee.store.db import fetch, write

KINDS = ("adjust", "set")
HISTORY = 3  # the latest changes of each player the phone keeps
_ID = re.compile(r"[A-Za-z0-9-]{8,64}")
REASON_LIMIT = 200

MALFORMED = N_("This change kept on the phone is damaged (%(field)s): look at it and "
               "discard it, then tap again.")
NO_SUCH_PLAYER = N_("No player %(id)s at this station: the change was kept on the phone. "
                    "Send it where the player is, or discard it.")
ANOTHER_ACCOUNT = N_("Made on this phone by %(made)s and sent by %(sent)s: held for a "
                     "referee to apply or discard.")
SWITCHED_OFF = N_("Made by %(name)s, whose account has been switched off since: held for "
                  "a referee to apply or discard.")


@dataclass
class Outcome:
    """What became of one tap: ``applied`` (now or before: ``again``), ``held`` as a
    conflict, or ``refused`` (damaged, or no such player: it stays on the phone)."""

    id: str
    status: str
    message: str = ""
    params: dict = field(default_factory=dict)
    rule: str | None = None
    player_id: int | None = None
    again: bool = False

    def json(self, say) -> dict:
        return {"id": self.id, "status": self.status, "again": self.again,
                "rule": self.rule, "player": self.player_id,
                "message": say(self.message, **self.params) if self.message else ""}


@dataclass(frozen=True)
class Tap:
    """One tap as the phone kept it, its shape checked."""

    id: str
    player: int
    kind: str
    values: dict
    reason: str
    made: datetime  # by the phone's clock, put right
    referee: int


def _whole(value: object) -> int | None:
    return value if type(value) is int else None


def read_tap(raw: object, skew: timedelta, at: datetime) -> Tap:
    """A tap from its JSON; RuleError naming the damaged field."""
    def bad(name: str) -> RuleError:
        return RuleError(None, MALFORMED, field=name)

    if not isinstance(raw, dict):
        raise bad("tap")
    tap_id = raw.get("id")
    if not isinstance(tap_id, str) or not _ID.fullmatch(tap_id):
        raise bad("id")
    player, referee, made = (_whole(raw.get(k)) for k in ("player", "referee", "made"))
    if player is None or player < 1:
        raise bad("player")
    if referee is None:
        raise bad("referee")
    if made is None or made < 0:
        raise bad("made")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise bad("kind")
    values = raw.get("values")
    if not isinstance(values, dict) or not values or \
            any(k not in COUNTERS or _whole(v) is None or abs(v) > 10_000
                for k, v in values.items()):
        raise bad("values")
    reason = raw.get("reason", "")
    if not isinstance(reason, str) or len(reason) > REASON_LIMIT or "\x00" in reason:
        raise bad("reason")
    when = datetime.fromtimestamp(made / 1000, UTC) + skew
    return Tap(tap_id, player, kind, dict(values), reason.strip(), min(when, at), referee)


def skew_of(sent: object, at: datetime) -> timedelta:
    """How far behind the phone's clock is (its time when it sent, against ours)."""
    millis = _whole(sent)
    if millis is None or millis < 0:
        return timedelta(0)
    return at - datetime.fromtimestamp(millis / 1000, UTC)


def _rule(tap: Tap):
    if tap.kind == "set":
        return lambda s: stats.set_exact(s, tap.values)
    return lambda s: stats.adjust(s, tap.values)


def _already(db: Database, tap: Tap) -> Outcome | None:
    if fetch(db, "SELECT id FROM events WHERE tap = ?", [tap.id]):
        return Outcome(tap.id, "applied", player_id=tap.player, again=True)
    held = fetch(db, "SELECT rule, msg, params FROM conflicts WHERE id = ?", [f"tap-{tap.id}"])
    if held:
        return Outcome(tap.id, "held", held[0]["msg"], json.loads(held[0]["params"] or "{}"),
                       held[0]["rule"], tap.player, again=True)
    return None


def _hold(db: Database, tap: Tap, row: dict, err: RuleError) -> Outcome:
    """Keep the tap as a conflict: the change as it would land, for "apply anyway"."""
    at = tap.made.isoformat(timespec="seconds")
    if tap.kind == "set":
        changes = {k: {"before": row[k], "after": v} for k, v in tap.values.items()}
    else:
        changes = {k: {"before": row[k], "after": row[k] + v} for k, v in tap.values.items()}
    tx = ledger.current(db)
    event_id = ledger.new_id(db, "events")
    part = {"t": "event", "id": event_id, "player": tap.player, "kind": tap.kind,
            "referee": tap.referee, "changes": changes, "reason": tap.reason,
            "note": None, "undoes": None, "at": at, "sheet": True, "tap": tap.id,
            "replay": True}
    params = {k: str(v) for k, v in err.params.items()}
    fold.row(db, "conflicts", {
        "id": f"tap-{tap.id}", "gid": f"tap:{tap.id}", "part": 0,
        "ord": ledger.part_ord(db, tx) if tx.station is not None else f"0|{event_id:012d}",
        "station": tx.station["id"] if tx.station is not None else "",
        "player_id": tap.player, "kind": tap.kind, "rule": err.rule, "msg": err.message,
        "params": json.dumps(params, ensure_ascii=False, sort_keys=True), "status": "held",
        "resolved_by": None, "resolved_at": None, "resolver_id": None, "at": at,
        "held": json.dumps(part, ensure_ascii=False, sort_keys=True)})
    return Outcome(tap.id, "held", err.message, params, err.rule, tap.player)


def receive_one(db: Database, sender: dict, raw: object, skew: timedelta,
                at: datetime) -> Outcome:
    """Apply one tap the phone kept, once; hold it when it no longer fits."""
    try:
        tap = read_tap(raw, skew, at)
    except RuleError as err:
        tap_id = raw["id"] if isinstance(raw, dict) and isinstance(raw.get("id"), str) \
            else ""
        return Outcome(tap_id[:64], "refused", err.message, err.params)
    with write(db):
        done = _already(db, tap)
        if done is not None:
            return done
        row = players.get(db, tap.player)
        if row is None:
            return Outcome(tap.id, "refused", NO_SUCH_PLAYER, {"id": tap.player})
        made_by = fetch(db, "SELECT name, active FROM referees WHERE id = ?", [tap.referee])
        maker = made_by[0]["name"] if made_by else f"#{tap.referee}"
        if made_by and not made_by[0]["active"]:
            return _hold(db, tap, row, RuleError(None, SWITCHED_OFF, name=maker))
        if tap.referee != sender["id"]:
            return _hold(db, tap, row, RuleError(None, ANOTHER_ACCOUNT, made=maker,
                                                 sent=sender["name"]))
        try:
            service.change_in_write(db, tap.referee, tap.player, tap.kind, _rule(tap),
                                    tap.reason, at=tap.made.isoformat(timespec="seconds"),
                                    tap=tap.id)
        except RuleError as err:
            if err.message == service.NOTHING_CHANGES:  # typed what it already was
                return Outcome(tap.id, "applied", player_id=tap.player)
            return _hold(db, tap, row, err)
    return Outcome(tap.id, "applied", player_id=tap.player)


def receive(db: Database, sender: dict, taps: object, sent: object) -> list[Outcome]:
    """Every tap of one sending, in the order the phone made them."""
    at = datetime.now(UTC)
    skew = skew_of(sent, at)
    if not isinstance(taps, list):
        return [Outcome("", "refused", MALFORMED, {"field": "taps"})]
    return [receive_one(db, sender, raw, skew, at) for raw in taps[:1000]]


# --- the copy a phone keeps ---------------------------------------------------------------

PLAYER_FIELDS = ("id", "character", "player", "hp", "hp_max", "chance", "chance_max",
                 "cartridges", "level", "status", "suit", "version")


def running_games(db: Database, limit: int) -> list[dict]:
    """The games still going on, the one moved latest first: kind, number, version."""
    return fetch(db, "SELECT kind, number, version FROM games WHERE status IN "
                     "('in_progress', 'extension') ORDER BY updated_at DESC, id DESC "
                     "LIMIT ?", [limit])


def now_iso() -> str:
    """When a copy was made: the phone says "offline since" from it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def snapshot(db: Database) -> dict:
    """The event as a phone keeps it to read out of reach: every player's values and
    latest changes, and every game's name and standing, as compact lists."""
    listed = fetch(db, f"SELECT {', '.join(PLAYER_FIELDS)} FROM players "
                       "ORDER BY character COLLATE NOCASE, id")
    history: dict[int, list] = {}
    for e in fetch(db, """
            SELECT e.player_id, e.at, e.kind, e.changes, e.undoes, r.name AS referee FROM (
              SELECT *, row_number() OVER (PARTITION BY player_id ORDER BY ord DESC) AS n
              FROM events WHERE player_id IS NOT NULL) e
            LEFT JOIN referees r ON r.id = e.referee_id
            WHERE e.n <= ? ORDER BY e.player_id, e.ord DESC""", [HISTORY]):
        changes = json.loads(e["changes"])
        history.setdefault(e["player_id"], []).append([
            e["at"], e["referee"] or "", e["kind"],
            [[k, c.get("before"), c.get("after")] for k, c in changes.items()
             if k in (*COUNTERS, "status")]])
    return {
        "fields": [*PLAYER_FIELDS, "history"],
        "players": [[p[f] for f in PLAYER_FIELDS] + [history.get(p["id"], [])]
                    for p in listed],
    }

