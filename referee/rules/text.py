"""Text the database can keep: no NUL, no lone surrogate.

SQLite keeps text as UTF-8. A lone UTF-16 surrogate (JSON's ``"\\udfff"``) has no UTF-8
form at all: writing one crashed deep inside an insert. A NUL is UTF-8, but it ends a
string for SQLite's C functions (the search index refused ``q=a%00b`` with a crash) and
for every program an export or a printed passport reaches. Both are refused where text
enters (web.storable for requests, players.importing for CSV cells), with a sentence
that names where, and never silently stripped: a referee's note with a character taken
out is not what the referee typed. A surrogate *pair* (``"\\ud83d\\ude00"``, 😀) is one
character once decoded and is kept as it is.
"""

from __future__ import annotations

import re

from referee.rules import N_, RuleError

UNSTORABLE = N_("%(field)s contains a character that cannot be stored (NUL or a broken "
                "Unicode surrogate); retype it.")
# Where no field can be named: a field's own name, or a body that is a bare string.
UNSTORABLE_TEXT = N_("The text sent contains a character that cannot be stored (NUL or a "
                     "broken Unicode surrogate); retype it.")
UNSTORABLE_HEADER = N_("The %(header)s header contains a character that cannot be stored "
                       "(NUL or a broken Unicode surrogate); send the request again without "
                       "it.")
UNSTORABLE_FILE = N_("The file's name contains a character that cannot be stored (NUL or a "
                     "broken Unicode surrogate); rename the file and upload it again.")

# Decoded text holds a surrogate code point only when it came alone: a pair is decoded
# into the one character it encodes.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_NAME_SHOWN = 60  # a field's name is repeated in the refusal, cut to this length


def storable(text: str) -> bool:
    """Whether ``text`` can be stored: it has no NUL and no lone surrogate."""
    return _UNSTORABLE.search(text) is None


def refusal(field: str | None) -> RuleError:
    """The refusal of unstorable text in ``field`` (None: no field can be named)."""
    if field is None or not field:
        return RuleError(None, UNSTORABLE_TEXT)
    if len(field) > _NAME_SHOWN:
        field = field[:_NAME_SHOWN] + "…"
    return RuleError(None, UNSTORABLE, field=field)


def unstorable(value: object) -> RuleError | None:
    """The refusal of the first unstorable text in a decoded JSON value, naming its
    place ("character", "a.table", "players[2]"); None when every text can be stored.

    The walk keeps its own stack: a body nested as deep as the JSON parser allows must
    not run out of Python's."""
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            if not storable(item):
                return refusal(path)
        elif isinstance(item, dict):
            inner = []
            for key, child in item.items():
                if not storable(key):
                    return refusal(None)  # never repeat the broken name itself
                if isinstance(child, (str, dict, list)):
                    inner.append((f"{path}.{key}" if path else key, child))
            stack.extend(reversed(inner))  # the first field is looked at first
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", child) for i, child in reversed(list(enumerate(item)))
                         if isinstance(child, (str, dict, list)))
    return None
