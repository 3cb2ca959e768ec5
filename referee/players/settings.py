"""The event's settings as the organizer edits them: checked, then written with an event."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from sqlite_utils import Database

from referee.rules import N_, RuleError, whole
from referee.store import events, settings, write

DEATH_MINUTES_MAX = 24 * 60
TOKEN_DAYS_MAX = 365
TOKEN_DAYS_DEFAULT = 30
EVENT_NAME_LIMIT = 120
PUBLIC_URL_LIMIT = 200
BAD_PUBLIC_URL = N_("The public URL must be an address such as http://192.168.1.10:8080: "
                    "http:// or https://, a host, and no spaces, quotes or markup.")


def public_url_ok(text: str) -> bool:
    """An http(s) address with a host and nothing a page or a QR code could misread."""
    if not text or len(text) > PUBLIC_URL_LIMIT or not text.isprintable() or any(
            ch <= " " or ch in "\"'<>\\`{}|^\x7f" for ch in text):
        return False
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and \
        not parts.username and not parts.password


def submitted(form: Mapping[str, str]) -> dict[str, str]:
    """The editable settings as sent, trimmed; missing ones are empty."""
    return {key: str(form.get(key, "")).strip() for key in settings.EDITABLE}


def check(new: Mapping[str, str]) -> None:
    """Refuse values the app cannot use, with a sentence saying what to type."""
    minutes = whole(new["death_minutes"])
    if minutes is None or minutes > DEATH_MINUTES_MAX:
        raise RuleError(None, N_("Minutes until death must be a whole number from 0 to 1440."))
    days = whole(new.get("token_days", str(TOKEN_DAYS_DEFAULT)))
    if days is None or not 1 <= days <= TOKEN_DAYS_MAX:
        raise RuleError(None, N_("An API token's life must be a whole number of days "
                                 "from 1 to 365."))
    if new["public_url"] and not public_url_ok(new["public_url"]):
        raise RuleError(None, BAD_PUBLIC_URL)
    if len(new["event_name"]) > EVENT_NAME_LIMIT:
        raise RuleError(None, N_("The event name is longer than 120 characters."))


def save(db: Database, referee_id: int | None, new: Mapping[str, str]) -> dict[str, str]:
    """Check and store the changed settings with one event naming them; every value after."""
    with write(db):
        values = settings.get_all(db)
        # A form or a caller from before the token setting existed keeps its value.
        new = {**new, "token_days": new.get("token_days") or values["token_days"]}
        check(new)
        changes = {key: {"before": values[key], "after": value} for key, value in new.items()
                   if values[key] != value}
        if changes:
            for key in changes:
                settings.put(db, key, new[key])
            events.record(db, referee_id=referee_id, player_id=None, kind="settings",
                          changes=changes)
    values.update(new)
    return values
