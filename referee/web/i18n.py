"""Russian and English: the locale of a request, and rule refusals in the user's words."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from flask import Blueprint, Flask, make_response, redirect, request, url_for
from flask_babel import (
    Babel,
    format_datetime,
    get_locale,
    gettext,
    lazy_gettext,
    ngettext,
    to_user_timezone,
)

from referee import notes
from referee.rules import N_, RuleError
from referee.web.security import local_path

LANGUAGES = ("ru", "en")
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

bp = Blueprint("i18n", __name__)

# Field names as they appear inside refusals ("%(field)s must be a whole number.").
FIELD_LABELS = {
    "character": lazy_gettext("Character"),
    "player": lazy_gettext("Player"),
    "hp": lazy_gettext("HP"),
    "hp_max": lazy_gettext("Max HP"),
    "chance": lazy_gettext("Chance"),
    "chance_max": lazy_gettext("Max chance"),
    "cartridges": lazy_gettext("Cartridges"),
    "level": lazy_gettext("Level"),
    "suit": lazy_gettext("Suit"),
    "notes": lazy_gettext("Notes"),
    "status": lazy_gettext("Status"),
    "duel_deck": lazy_gettext("Duel deck"),
    "passport": lazy_gettext("Passport"),
    "wounded_at": lazy_gettext("Wounded at"),
    "reason": lazy_gettext("Reason"),
    "name": lazy_gettext("Name"),
    "password": lazy_gettext("Password"),
    # A referee account's and the settings' fields, as the feed names them.
    "referee": lazy_gettext("Referee"),
    "organizer": lazy_gettext("Organizer"),
    "active": lazy_gettext("Active"),
    "token": lazy_gettext("API token"),
    "event_name": lazy_gettext("Event name"),
    "death_minutes": lazy_gettext("Minutes to death"),
    "public_url": lazy_gettext("Public URL"),
    "token_days": lazy_gettext("Days an API token works"),
    "q": lazy_gettext("Search"),  # the search box's query (?q=), in a refusal
}


def select_locale() -> str:
    """The switch's cookie first, then the browser's languages; Russian by default."""
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default="ru")


def field_label(name: str) -> str:
    """A field's name in the user's language."""
    label = FIELD_LABELS.get(name)
    return str(label) if label is not None else name


def event_reason(event: dict) -> str:
    """Why an event happened, in the reader's language: an app-made note is rendered
    now; a referee's own words are shown as written."""
    return notes.render(event["note"], gettext) if event.get("note") else event["reason"]


# A day as each language writes it without doubt: "12-02" reads as 12 February
# to a Russian, so Russian writes day.month, and English names the month.
DAY = {"ru": "dd.MM", "en": "d MMM"}
YEAR = {"ru": "dd.MM.y", "en": "d MMM y"}


def when(value: str | None, at: datetime | None = None) -> str:
    """A stored time (ISO, UTC) as a list shows it: "06:05" today; another day with its
    date, "02.12 06:05" in Russian, "2 Dec 06:05" in English; another year with it."""
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value  # never hide what was stored, even in a shape we do not read
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    now = to_user_timezone(at or datetime.now(UTC))
    language = str(get_locale() or "en")[:2]
    local = to_user_timezone(moment)
    if local.date() == now.date():
        pattern = "HH:mm"
    else:
        table = DAY if local.year == now.year else YEAR
        pattern = table.get(language, table["en"]) + " HH:mm"
    return format_datetime(moment, pattern)


def _param(key: str, value: object) -> object:
    """A refusal's value as the user reads it: a field's label, or a nested complaint
    (a deck file's error inside a game's refusal) in the user's language too."""
    if key == "field" and isinstance(value, str):
        return field_label(value)
    if isinstance(value, RuleError):
        return rule_message(value)
    if notes.is_note(value):  # an app-made note ("Duel 3, round 2") inside a refusal
        return notes.render(value, gettext)
    describe = getattr(value, "describe", None)
    return describe(rule_message) if callable(describe) else value


# A refusal keeps its one msgid, the plural English, as the API and the stations' log
# carry it; read here, a count of 1 takes the singular, and Russian its three forms.
PLURAL_REFUSALS = {
    "Discard exactly %(count)s cards so that 4 stay in the inventory; %(named)s were named.":
        (N_("Discard exactly %(count)s card so that 4 stay in the inventory; %(named)s "
            "were named."), "count"),
    "Powering up needs %(cost)s inventory cards to discard; %(player)s holds only %(have)s.":
        (N_("Powering up needs %(cost)s inventory card to discard; %(player)s holds only "
            "%(have)s."), "cost"),
    "Discard exactly %(cost)s inventory cards to power up; %(count)s were named.":
        (N_("Discard exactly %(cost)s inventory card to power up; %(count)s were named."),
         "cost"),
}


def rule_message(err: RuleError) -> str:
    """A refusal in the user's language, with the rule id in front when there is one."""
    params = {k: _param(k, v) for k, v in err.params.items()}
    singular, key = PLURAL_REFUSALS.get(err.message, (None, ""))
    if singular is not None and isinstance(params.get(key), int):
        text = ngettext(singular, err.message, params[key], **params)
    else:
        text = gettext(err.message, **params) if params else gettext(err.message)
    return f"{err.rule}: {text}" if err.rule else text


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember the chosen language and go back to the page."""
    target = local_path(request.args.get("next")) or url_for("players.index")
    response = make_response(redirect(target, code=303))
    if code in LANGUAGES:
        # Secure over HTTPS; the plain door (serve --https) switches too, for the trust
        # steps, where a Secure cookie would be dropped.
        response.set_cookie("lang", code, max_age=60 * 60 * 24 * 365, samesite="Lax",
                            httponly=True, secure=request.is_secure)
    return response


def init_app(app: Flask) -> None:
    """Flask-Babel with our locale selector, plus the switch route."""
    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(TRANSLATIONS))
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["field_label"] = field_label
    app.jinja_env.globals["event_reason"] = event_reason
    app.jinja_env.filters["when"] = when
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.register_blueprint(bp)
