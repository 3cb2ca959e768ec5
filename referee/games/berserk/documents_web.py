"""What the squad builder and the deck registration share: one stored document's form,
refreshed by htmx on each tap, saved against the version it was opened at (a stale save
shows the fresh document, 409), a refusal shown in the form (422)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import abort, render_template
from flask_babel import gettext
from werkzeug.wrappers import Response

from referee.decks import Deck
from referee.errors import Conflict
from referee.games.berserk import rules
from referee.games.berserk.documents import Store, fresh_of
from referee.games.berserk.files import decks
from referee.games.berserk.game import read_settings
from referee.games.berserk.view import localized
from referee.games.berserk.web import settings_or_error
from referee.rules import N_, RuleError
from referee.web.context import get_db
from referee.web.screens import is_htmx

NO_DECKS = N_("There is no deck of Berserk-style cards; add one to printables/decks.")
# Enter in the card search adds the one card it finds.
NONE_FOUND = N_("No card of the deck matches “%(q)s”.")
MANY_FOUND = N_("Cards matching “%(q)s”: %(n)s. Tap + on the one you mean.")


def found_refusal(q: str, found: list) -> str:
    """Why Enter in a card search added nothing: no card, or more than one, matches."""
    return gettext(MANY_FOUND if found else NONE_FOUND, q=q.strip()[:40], n=len(found))


def deck_files() -> dict[str, Deck]:
    """The decks a document is built from; 404 with a reason when there is none."""
    found = decks()
    if not found:
        abort(404, description=gettext(NO_DECKS))
    return found


def stored_settings(row: dict) -> rules.Settings:
    """The rules numbers a document was saved with (published ones if unreadable now)."""
    try:
        return read_settings(row["settings"])
    except RuleError:
        return rules.PUBLISHED


@dataclass(frozen=True)
class Editor:
    """One kind of document's form: ``view(draft, settings=, error=, notice=, ...)`` gives
    what it shows (and whether a tap was refused), ``draft_of`` a stored one's draft."""

    store: Store
    page_template: str  # the whole page
    form_template: str  # the form alone, for htmx
    view: Callable[..., tuple[dict, bool]]
    draft_of: Callable[[dict], dict]
    stale: str  # the N_ notice over a document someone else saved first

    def page(self, view: dict, status: int = 200):
        """The whole page."""
        return render_template(self.page_template, **view), status

    def form(self, view: dict, status: int = 200):
        """The form alone for htmx, else the whole page."""
        if is_htmx():
            return render_template(self.form_template, **view), status
        return self.page(view, status)

    def save(self, draft: dict, store: Callable[[rules.Settings], dict],
             then: Callable[[dict], Response]):
        """Save the form's document with ``store(settings)`` and answer ``then(row)``; or
        answer the refusal (422) or the fresh document (409)."""
        settings, error = settings_or_error()
        if error:
            return self.page(self.view(draft, settings=settings, error=error)[0], 422)
        try:
            row = store(settings)
        except Conflict as err:
            fresh = fresh_of(err)
            view, _ = self.view(self.draft_of(fresh), settings=read_settings(
                fresh["settings"]), notice=gettext(self.stale))
            return self.page(view, 409)
        except RuleError as err:
            return self.page(self.view(draft, settings=settings, error=localized(err))[0], 422)
        return then(row)

    def stored(self, doc_id: int) -> dict:
        """A stored document; 404 when there is none."""
        row = self.store.get(get_db(), doc_id)
        if row is None:
            abort(404)
        return row

    def show(self, row: dict, **kw):
        """A stored document in its form, with its saved numbers."""
        view, _ = self.view(self.draft_of(row), settings=stored_settings(row), **kw)
        return self.page(view)
