"""Both languages: every string has Russian, and the compiled catalog is current."""

from __future__ import annotations

import re

from referee import catalog
from referee.rules import RuleError
from referee.web.i18n import rule_message

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def test_every_string_in_code_and_templates_has_russian():
    assert catalog.missing() == {}


def test_russian_keeps_every_placeholder():
    for message in catalog.load():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[0])) | set(PLACEHOLDER.findall(ids[-1]))
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) <= wanted, message.id
            if len(ids) == 1:
                assert set(PLACEHOLDER.findall(text)) == wanted, message.id


def test_compiled_catalog_is_up_to_date():
    mo = (catalog.RU / "messages.mo").read_bytes()
    assert mo == catalog.compiled(), "run: python -m referee.catalog"


def test_rule_message_in_both_languages(app):
    err = RuleError("D8", "Chance tokens must stay between 0 and the maximum %(max)s; "
                          "they would be %(value)s.", max=2, value=3)
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert rule_message(err) == ("D8: Жетонов Шанса должно быть от 0 до максимума 2; "
                                     "получилось бы 3.")
    with app.test_request_context(headers={"Accept-Language": "en-GB,en;q=0.9"}):
        assert rule_message(err).startswith("D8: Chance tokens must stay")


def test_field_names_in_refusals_are_translated(app):
    err = RuleError(None, "%(field)s must be a whole number.", field="cartridges")
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert rule_message(err) == "Патроны: нужно целое число."


def test_pages_in_both_languages(client, referee, player):
    english = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    assert "Cartridges" in english and "History" in english
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru-RU,ru;q=0.9"
    russian = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    assert "Патроны" in russian and "История" in russian and "Cartridges" not in russian
