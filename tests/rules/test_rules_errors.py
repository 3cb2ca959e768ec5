"""The rules' refusal (RuleError) and their reading of typed whole numbers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules import N_, RuleError, whole, whole_arg


def test_N_marks_a_message_and_leaves_it_as_it_is():
    assert N_("HP must stay between 0 and %(max)s.") == "HP must stay between 0 and %(max)s."


def test_a_refusal_carries_its_rule_message_and_params():
    error = RuleError("D7", "%(card)s is not yours; lay %(other)s.", card="AS", other="AH")
    assert (error.rule, error.message) == ("D7", "%(card)s is not yours; lay %(other)s.")
    assert error.params == {"card": "AS", "other": "AH"}
    assert error.text == "AS is not yours; lay AH."
    assert str(error) == "D7: AS is not yours; lay AH."


def test_a_refusal_without_a_rule_or_params_is_its_sentence():
    error = RuleError(None, "Level stays 1 to 10 (100% sure).")
    assert error.params == {} and error.rule is None
    # no params: the sentence is not %-formatted, so a bare % is harmless
    assert error.text == str(error) == "Level stays 1 to 10 (100% sure)."


@pytest.mark.parametrize(("text", "number"), [
    ("7", 7), (" 12 ", 12), ("\t0\n", 0), ("007", 7), ("9" * 18, 10**18 - 1),
    ("-3", None), ("+3", None), ("1" * 19, None), ("", None), ("  ", None), ("1e3", None),
    ("²", None), ("٣", None), ("1 2", None), ("3.0", None), ("0x1", None),
    (7, None), (None, None), (b"7", None),
])
def test_a_whole_number_is_plain_digits_that_fit_sqlite(text, number):
    assert whole(text) == number


@pytest.mark.parametrize(("text", "number"), [
    ("-3", -3), ("+3", 3), (" -0 ", 0), ("-" + "9" * 18, -(10**18 - 1)),
    ("+-1", None), ("--1", None), ("-", None), ("- 3", None), ("-" + "1" * 19, None),
])
def test_a_signed_whole_number(text, number):
    assert whole(text, signed=True) == number


@settings(max_examples=100, deadline=None)
@given(st.integers(-(10**18) + 1, 10**18 - 1))
def test_every_whole_number_that_fits_reads_back(number):
    assert whole(str(number), signed=True) == number
    assert whole(str(number)) == (number if number >= 0 else None)
    assert whole_arg(f" {number} ") == number


@pytest.mark.parametrize("text", ["x", "1" * 19, "+-1", None, "²"])
def test_whole_arg_refuses_what_is_not_a_fitting_number_with_value_error(text):
    with pytest.raises(ValueError, match="^not a whole number that fits$"):
        whole_arg(text)
