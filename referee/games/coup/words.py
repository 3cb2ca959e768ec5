"""What the Coup screens and its API both say: the stale notice, and gettext bound to
the request's catalog for the table's log."""

from __future__ import annotations

from flask_babel import get_translations

from referee.games.coup import service
from referee.rules import N_

STALE = N_("Someone else recorded a step at this table first; the screen now shows it as "
           "it stands.")


def translator() -> service.Translate:
    """gettext bound to this request's catalog once: a long log has hundreds of lines."""
    translations = get_translations()

    def tr(message: str, _plural: str | None = None, _count: int = 1,
           **params: object) -> str:
        if _plural is None:
            text = translations.ugettext(message)
        else:
            text = translations.ungettext(message, _plural, _count)
        return text % params if params else text

    return tr
