"""The Flask application factory."""

from __future__ import annotations

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from referee import assets, store
from referee.store import settings


class _Compiled(BytecodeCache):
    """The templates' compiled code, kept for the life of the process and shared by its
    apps: each app has its own Jinja environment, which would otherwise compile every
    template again (a game's screen takes ~0.3 s). Jinja checks each against its
    source's checksum, so an edited template is compiled anew."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _Compiled()


class _Flask(Flask):
    """Flask, answering once per hook or view whether it is a coroutine function: Flask
    asks on every request (inspect), about 9 questions a tap whose answers never change."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._sync_answers: dict = {}  # this app's own: gone with the app

    def ensure_sync(self, func):
        if func not in self._sync_answers:
            self._sync_answers[func] = super().ensure_sync(func)
        return self._sync_answers[func]


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
    app.jinja_env.bytecode_cache = _COMPILED

    # Create or upgrade the schema once at start, and take the signing key from the
    # database so sessions survive a restart of the laptop.
    db = store.init(app.config["DATABASE"])
    app.config.setdefault("SECRET_KEY", None)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = settings.get(db, "secret_key")
    db.close()

    # Modules whose short names several areas share (web, stations) go by their full ones.
    import referee.accounts.web
    import referee.api.stations
    import referee.https.web
    import referee.players.web
    import referee.printing.web
    import referee.stations.web
    from referee.api import core
    from referee.games import hub, registry
    from referee.games.manifest import resolve
    from referee.players import feed, passport, pocket_web, scan
    from referee.web import context, errors, i18n, live, once, security, storable, throttle, wire

    wire.init_app(app)  # first: Flask runs its after_request last, on the final body
    context.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    storable.init_app(app)  # after the CSRF guard: text that cannot be stored
    errors.init_app(app)
    once.init_app(app)  # the one-time keys of the forms that create
    live.init_app(app)
    referee.stations.web.init_app(app, app.config.get("STATION"))
    # Each game's blueprints, as its manifest lists them (games.registry), after the hub.
    played = [resolve(ref) for game in registry.GAMES for ref in game.blueprints]
    for blueprint in (
            referee.accounts.web.bp, referee.players.web.bp, passport.bp, feed.bp, core.bp,
            referee.printing.web.bp, hub.bp, *played, referee.api.stations.bp,
            referee.stations.web.bp, referee.https.web.bp, live.bp, pocket_web.bp, scan.bp):
        app.register_blueprint(blueprint)
    throttle.init_app(app)  # after the routes: it wraps the sign-in views

    return app
