"""Every refusal as a clear sentence: JSON for the API, a page or fragment for people."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from referee.rules import RuleError
from referee.web.i18n import rule_message
from referee.web.security import is_api


def http_message(code: int, description: str | None = None) -> str:
    """What a person should read for an HTTP error code."""
    if code == 400 and description == "csrf":
        return gettext("This screen has expired. Reload the page and try again.")
    messages = {
        400: gettext("The request could not be read. Reload the page and try again."),
        401: gettext("Sign in as a referee first."),
        403: gettext("Only organizers may do this."),
        404: gettext("Not found. The link may be old or the passport reissued."),
        405: gettext("This address does not accept that request."),
        409: gettext("Someone else changed this first. The screen now shows the latest state."),
        413: gettext("The file is too large."),
        415: gettext("Send the request as JSON."),
        422: gettext("The request could not be applied."),
        429: gettext("Too many attempts. Wait a little, then try again."),
    }
    return messages.get(code, gettext("Something went wrong. Try again."))


def error_response(message: str, code: int, rule: str | None = None):
    """A JSON error for the API, a small page otherwise."""
    if is_api():
        body = {"error": message}
        if rule:
            body["rule"] = rule
        return jsonify(body), code
    if request.headers.get("HX-Request"):
        return render_template("_error.html", message=message), code
    return render_template("error.html", message=message, code=code), code


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, except that a body nested too deeply for the parser (thousands of
    brackets) is unreadable JSON, answered as any malformed body is, not a crash."""

    def loads(self, s, **kwargs):
        try:
            return super().loads(s, **kwargs)
        except RecursionError as err:
            raise ValueError("JSON nested too deeply") from err


def init_app(app: Flask) -> None:
    """Install the handlers."""
    app.json = JSONProvider(app)

    @app.errorhandler(RuleError)
    def on_rule_error(err: RuleError):
        return error_response(rule_message(err), 422, err.rule)

    @app.errorhandler(HTTPException)
    def on_http_error(err: HTTPException):
        if err.response is not None:
            return err.response  # already written for people (the sign-in limit's 429)
        response = error_response(http_message(err.code or 500, err.description), err.code or 500)
        if err.code == 401 and is_api():
            response[0].headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.errorhandler(Exception)
    def on_crash(err: Exception):
        app.logger.exception("unhandled error", exc_info=err)
        return error_response(http_message(500), 500)
