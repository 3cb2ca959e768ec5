"""The Flask application factory."""

from __future__ import annotations

from flask import Flask

from referee import assets, store
from referee.store import settings as settings_store


class _Flask(Flask):
    """Flask, answering once per hook or view whether it is a coroutine function: Flask
    asks on every request (inspect), about 9 questions a tap whose answers never change."""

    def ensure_sync(self, func):
        answers = self.__dict__.setdefault("_sync_answers", {})  # this app's, gone with it
        if func not in answers:
            answers[func] = super().ensure_sync(func)
        return answers[func]


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app for one database file (config DATABASE)."""
    app = _Flask(
        __name__,
        template_folder=str(assets.folder("templates")),
        static_folder=str(assets.folder("static")),
    )
    app.config.from_mapping(
        DATABASE=store.default_path(),
        PUBLIC_URL="",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 14,
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        # A JoinRPG export rides in the import's mapping step as a form field: a field may
        # be as large as a request (werkzeug's default is 500 KB).
        MAX_FORM_MEMORY_SIZE=4 * 1024 * 1024,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)

    # Create or upgrade the schema once at start, and take the signing key from the
    # database so sessions survive a restart of the laptop.
    db = store.init(app.config["DATABASE"])
    app.config.setdefault("SECRET_KEY", None)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = settings_store.get(db, "secret_key")
    db.close()

    from referee.accounts import web as auth
    from referee.api import core as api
    from referee.api import stations as api_stations
    from referee.games import hub as games
    from referee.games import registry
    from referee.games.manifest import resolve
    from referee.https import web as https
    from referee.players import feed as events
    from referee.players import passport, scan
    from referee.players import pocket_web as pocket
    from referee.players import web as players
    from referee.printing import web as printing
    from referee.stations import web as stations
    from referee.web import context, errors, i18n, live, security, storable, throttle, wire
    from referee.web import once as once_keys  # issue 11: one-time keys of create forms

    wire.init_app(app)  # first: Flask runs its after_request last, on the final body
    context.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    storable.init_app(app)  # after the CSRF guard: issue 22, text that cannot be stored
    errors.init_app(app)
    once_keys.init_app(app)
    live.init_app(app)
    stations.init_app(app, app.config.get("STATION"))
    # Each game's blueprints, as its manifest lists them (games.registry), after the hub.
    played = [resolve(ref) for game in registry.GAMES for ref in game.blueprints]
    for blueprint in (
            auth.bp, players.bp, passport.bp, events.bp, api.bp, printing.bp, games.bp,
            *played, api_stations.bp, stations.bp, https.bp, live.bp, pocket.bp, scan.bp):
        app.register_blueprint(blueprint)
    throttle.init_app(app)  # after the routes: it wraps the sign-in views

    return app
