"""Reasons the app writes itself ("duel #3, round 2"), kept as message and values.

A note is ``{"msg": msgid, "params": {...}}``; a value may itself be a note (an undo
names the reason it undoes). Stored as data, a note is rendered when it is read, so a
Russian player and an English referee each see it in their own language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

Note = dict[str, Any]


def note(msg: str, **params: object) -> Note:
    """A note of msgid ``msg`` (marked with ``N_``) and its values."""
    return {"msg": msg, "params": params}


def is_note(value: object) -> TypeGuard[dict[str, Any]]:
    """Whether a stored value has the shape of a note."""
    return isinstance(value, dict) and isinstance(value.get("msg"), str) and \
        isinstance(value.get("params", {}), dict)


def render(value: object, translate: Callable[[str], str] = lambda s: s) -> str:
    """The note's text through ``translate`` (gettext), values rendered first; plain
    values are shown as they are."""
    if not is_note(value):
        return "" if value is None else str(value)
    params = {k: render(v, translate) for k, v in value.get("params", {}).items()}
    text = translate(value["msg"])
    try:
        return text % params if params else text
    except (KeyError, TypeError, ValueError):  # a catalog that no longer fits: English
        return value["msg"] % params if params else value["msg"]
