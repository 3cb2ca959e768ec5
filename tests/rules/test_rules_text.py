"""Text the database can keep: NUL and lone surrogates are refused, and named."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules import RuleError
from referee.rules.text import (
    UNSTORABLE,
    UNSTORABLE_TEXT,
    refusal,
    storable,
    unstorable,
)


@pytest.mark.parametrize("text", ["\x00", "a\x00b", "\ud800", "\udbff", "\udc00", "\udfff",
                                  "ok \udfff"])
def test_a_nul_or_a_lone_surrogate_cannot_be_stored(text):
    assert storable(text) is False


@pytest.mark.parametrize("text", ["", "Кощей", "\x01", "\ud7ff", "\ue000", "\uffff", "😀",
                                  json.loads('"\\ud83d\\ude00"'), "a\tb\n"])
def test_other_text_and_a_decoded_surrogate_pair_can_be_stored(text):
    assert storable(text) is True


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")))
def test_text_without_nul_or_surrogate_is_always_storable(text):
    assert storable(text) and unstorable({"note": text, "list": [text]}) is None


@pytest.mark.parametrize("field", [None, ""])
def test_the_refusal_without_a_field_says_the_text_sent(field):
    error = refusal(field)
    assert isinstance(error, RuleError) and error.rule is None
    assert error.message == UNSTORABLE_TEXT and error.params == {}
    assert error.text.startswith("The text sent contains a character that cannot be stored")


def test_the_refusal_names_the_field():
    error = refusal("reason")
    assert (error.rule, error.message, error.params) == (None, UNSTORABLE, {"field": "reason"})
    assert error.text.startswith("reason contains a character that cannot be stored (NUL")


def test_a_long_field_name_is_cut_to_sixty_characters_and_an_ellipsis():
    assert refusal("x" * 60).params == {"field": "x" * 60}
    assert refusal("x" * 61).params == {"field": "x" * 60 + "…"}
    assert refusal("y" * 500).params == {"field": "y" * 60 + "…"}


def test_the_walk_names_the_place_of_the_first_unstorable_text():
    assert unstorable("\x00").message == UNSTORABLE_TEXT  # a bare string: no field
    assert unstorable({"character": "a\x00"}).params == {"field": "character"}
    assert unstorable({"a": {"table": "\udfff"}}).params == {"field": "a.table"}
    assert unstorable({"players": [1, "ok", "\x00"]}).params == {"field": "players[2]"}
    assert unstorable([["ok", "\x00"]]).params == {"field": "[0][1]"}
    assert unstorable({"a": [1, {"b": "ok"}, {"c": "x\x00"}]}).params == {"field": "a[2].c"}


def test_the_walk_looks_at_fields_and_items_in_order():
    assert unstorable({"first": "\x00", "second": "\x00"}).params == {"field": "first"}
    assert unstorable(["\x00", "\x00"]).params == {"field": "[0]"}
    assert unstorable({"a": ["ok", {"b": "\x00"}], "z": "\x00"}).params == {"field": "a[1].b"}


def test_a_broken_field_name_is_refused_without_repeating_it():
    error = unstorable({"ok": "fine", "bad\x00name": "fine"})
    assert error is not None and error.message == UNSTORABLE_TEXT and error.params == {}
    assert unstorable({"outer": {"\udfff": 1}}).message == UNSTORABLE_TEXT


@pytest.mark.parametrize("value", [None, 3, 2.5, True, "ok", {}, [], {"a": [None, 1, "b"]},
                                   {"n": {"m": ["Кощей", "😀"]}}])
def test_storable_json_values_pass(value):
    assert unstorable(value) is None


def test_the_walk_survives_a_body_nested_deeper_than_python_recursion():
    deep: object = "\x00"
    for _ in range(5_000):
        deep = {"k": [deep]}
    assert unstorable(deep).params == {"field": ("k[0]" + ".k[0]" * 4_999)[:60] + "…"}
