"""The answer every game screen gives, written once: page or fragment, 409 or 422.

A game screen is one template fragment (swapped by htmx) inside one page. After a write
a plain form POST is redirected (303) to the screen's address; a refusal is answered 422
with the fresh screen and the rule's sentence, and a write made on an old version 409
with the screen as it stands now, so nothing is applied twice and no click is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import redirect, render_template, request, url_for
from flask_babel import gettext

from referee.errors import Conflict
from referee.games import registry
from referee.rules import RuleError, whole, whole_arg
from referee.store import games, players
from referee.web.context import found_or_404, get_db
from referee.web.i18n import rule_message


def is_htmx() -> bool:
    """Whether htmx sent this request (it wants a fragment, not a page)."""
    return bool(request.headers.get("HX-Request"))


def form_version() -> int | None:
    """The version the form was made against (its hidden ``version`` field), if any."""
    raw = request.form.get("version", "").strip()
    return whole(raw)


def _filter(blueprint: str | None) -> str:
    """Whose games (or squads) a list's filter offers, as its game's manifest says: only
    players who have some, so that an event of 10,000 players does not put 10,000 names
    in every list's menu."""
    for game in registry.GAMES:
        if blueprint is not None and blueprint in game.lists:
            return game.lists[blueprint]
    return ""


PAGE = 100  # games a list page shows; "Older" shows the next ones


def list_page(template: str, listing: Callable[[Any, int | None, int, int | None], list],
              name: str, **extra: Callable[[list], object]):
    """A list of games (or squads), newest first, a page at a time; ``?player=<id>``
    keeps that player's, ``?before=<id>`` goes on from an older one.

    ``listing(db, player_id or None, limit, before)`` gives the rows, shown as ``name``;
    each of ``extra`` is computed from those rows. The page also gets the filter's
    players and ``older``, the address of the next page when there is one."""
    db = get_db()
    player_id = request.args.get("player", type=whole_arg)
    player = players.get(db, player_id) if player_id else None
    before = request.args.get("before", type=whole_arg)
    listed = listing(db, player["id"] if player else None, PAGE + 1, before)
    older = None
    if len(listed) > PAGE:
        listed = listed[:PAGE]
        older = url_for(str(request.endpoint), player=player["id"] if player else None,
                        before=listed[-1]["id"])
    return render_template(template, **{name: listed}, player=player, older=older,
                           players=players.filterable(db, _filter(request.blueprint)),
                           **{key: make(listed) for key, make in extra.items()})


def elsewhere(game: Any) -> dict | None:
    """Where a game is played when that is another station (read-only here), else None."""
    row = getattr(game, "row", None) or getattr(getattr(game, "game", None), "row", None)
    if row is None:
        return None
    station = games.owner(get_db(), row)
    if station is None:
        return None
    return {"station": station, "kind": row["kind"], "number": row["id"]}


@dataclass(frozen=True)
class GameScreen:
    """One game's screen: its templates, the data they read and where it lives."""

    page: str  # the whole page, e.g. "coup/show.html"
    fragment: str  # the part htmx swaps, e.g. "coup/_screen.html"
    view: Callable[..., dict]  # (game, **kwargs) -> what the templates read
    url: Callable[..., str]  # (game, **kwargs) -> the screen's address
    load: Callable[[Any, int], Any]  # (db, number) -> the game, or None

    def found(self, number: int) -> Any:
        """The game, or a 404."""
        return found_or_404(self.load, number)

    def respond(self, game: Any, status: int = 200, **kwargs: Any):
        """The fragment for htmx, a 303 after a plain form's write, else the page."""
        if is_htmx():
            return render_template(self.fragment, **self.view(game, **kwargs)), status
        if request.method == "POST" and status == 200:
            return redirect(self.url(game, **kwargs), code=303)
        return render_template(self.page, **self.view(game, **kwargs),
                               elsewhere=elsewhere(game)), status

    def write(self, number: int, step: Callable[[Any], Any], *, stale: str,
              refusal: Callable[[RuleError, Any], str] | None = None,
              refused: dict | None = None, **kwargs: Any):
        """Run one write on game ``number``: ``step(game)`` returns the game after it.

        Someone else first → 409 with the fresh screen and ``stale`` (an N_ msgid); a
        refusal → 422 with the fresh screen and the rule's sentence (``refusal`` words it,
        e.g. naming players), plus ``refused`` (the form as typed, to fill in again)."""
        game = self.found(number)
        try:
            after = step(game)
        except Conflict as err:
            return self.respond(err.fresh, 409, notice=gettext(stale), **kwargs)
        except RuleError as err:
            fresh = self.found(number)
            message = refusal(err, fresh) if refusal else rule_message(err)
            return self.respond(fresh, 422, error=message, **(refused or {}), **kwargs)
        return self.respond(after, **kwargs)
