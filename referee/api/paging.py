"""Lists of the JSON API a page at a time: ?limit= and a cursor, the total, a Link.

Every list keeps its array body; ``X-Total-Count`` says how many there are in all and,
when more follow, ``Link: <...>; rel="next"`` is the next page's address, so nothing is
cut without saying so."""

from __future__ import annotations

from collections.abc import Callable

from flask import jsonify, request, url_for

from referee.api.models import SQLITE_MAX
from referee.rules import N_, RuleError, whole

LIMIT_MAX = 1000
BAD_LIMIT = N_("limit must be a whole number from 1 to %(most)s.")


def limit(default: int) -> int:
    """The page size the call asked for (?limit=), else ``default``."""
    raw = request.args.get("limit")
    if raw is None:
        return default
    number = whole(raw)
    if number is None or not 1 <= number <= LIMIT_MAX:
        raise RuleError(None, BAD_LIMIT, most=LIMIT_MAX)
    return number


def id_arg(name: str) -> int | None:
    """An id from the query (one too large for SQLite names nothing, as in paths)."""
    value = request.args.get(name, type=int)
    return None if value is None else max(-SQLITE_MAX - 1, min(value, SQLITE_MAX))


def paged(found: list, limit: int, total: int, cursor: str, to_json: Callable,
          key: str = "id"):
    """The page as a JSON array (``found``: up to ``limit`` + 1 rows, the last one only
    saying that more follow), with `X-Total-Count` and, when more follow, a `Link` to the
    next page: the same call with ``cursor`` set to the page's last ``key``."""
    response = jsonify([to_json(row) for row in found[:limit]])
    response.headers["X-Total-Count"] = str(total)
    if len(found) > limit:
        args = {**request.args.to_dict(), cursor: found[limit - 1][key], "limit": limit}
        url = url_for(str(request.endpoint), **(request.view_args or {}), **args)
        response.headers["Link"] = f'<{url}>; rel="next"'
    return response
