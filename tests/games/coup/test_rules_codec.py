"""Coup rules engine: malformed input, JSON round trips, the log and its Russian."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee.games.coup.rules import (
    ACTION_NAMES,
    CHARACTER_NAMES,
    TOTAL_COINS,
    Block,
    Challenge,
    CoupState,
    Declare,
    ExamineVerdict,
    LoseInfluence,
    Reveal,
    action_from_dict,
    action_to_dict,
    apply,
    log_text,
    new_game,
    state_to_dict,
)
from referee.rules import RuleError

ROOT = Path(__file__).resolve().parents[3]
PO = ROOT / "referee" / "translations" / "ru" / "LC_MESSAGES" / "coup.po"
SOURCES = sorted((ROOT / "referee" / "games" / "coup" / "rules").glob("*.py"))
ABC = ("A", "B", "C")
MUTANT_COPY = re.compile(r"__mutmut_\d+$")


def play(state: CoupState, *actions: object) -> CoupState:
    for action in actions:
        state = apply(state, action)  # type: ignore[arg-type]
    return state


def with_coins(state: CoupState, **coins: int) -> CoupState:
    """The same table with some players' coins set, the supply keeping the total (C2)."""
    seats = tuple(replace(p, coins=coins.get(p.id, p.coins)) for p in state.players)
    return replace(state, players=seats, supply=TOTAL_COINS - sum(p.coins for p in seats))


# --- malformed input, serialization, log, translations ------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        "income",
        None,
        Declare(5, "income"),  # type: ignore[arg-type]
        Declare("A", ["income"]),  # type: ignore[arg-type]
        Declare("A", "steal", ["B"]),  # type: ignore[arg-type]
        Challenge(None),
        LoseInfluence("A", "duchess"),
    ],
)
def test_C4_malformed_actions_raise_rule_error(action):
    with pytest.raises(RuleError):
        apply(new_game(ABC), action)


def test_C7_malformed_answers_raise_rule_error():
    s = play(new_game(ABC), Declare("A", "tax"))
    for bad in [Challenge(["B"]), Challenge(3), Reveal("A", "duchess", True)]:  # type: ignore[arg-type]
        with pytest.raises(RuleError):
            apply(s, bad)
    s = apply(s, Challenge("B"))
    for bad in [Reveal("A", None, True), Reveal("A", {"x": 1}, False)]:  # type: ignore[arg-type]
        with pytest.raises(RuleError):
            apply(s, bad)


@pytest.mark.parametrize(
    "action",
    [
        Declare("A", "steal", "B"),
        Declare("A", "income"),
        Challenge(None),
        Challenge("B"),
        Reveal("A", "duchess", True),
        Block(None),
        Block("B", "countess"),
        LoseInfluence("B", "captain"),
        ExamineVerdict("A", True),
    ],
)
def test_C4_action_dict_round_trip(action):
    data = action_to_dict(action)
    assert action_from_dict(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"type": "dance"},
        {"type": ["declare"]},
        {"type": "declare", "player": "A"},
        {"type": "declare", "player": "A", "action": "income", "extra": 1},
        {"type": "reveal", "player": "A", "character": "duchess", "shown": "yes"},
        {"type": "challenge", "challenger": 3},
        {"type": "examine_verdict", "player": "A"},
    ],
)
def test_C4_malformed_action_dicts_refused(data):
    with pytest.raises(RuleError) as caught:
        action_from_dict(data)
    assert caught.value.rule == "C4"


def test_C4_state_to_dict_is_json_with_players_and_question():
    s = with_coins(new_game(ABC, "inquisitor"), A=3)
    s = play(s, Declare("A", "assassinate", "B"), Challenge("B"))
    d = json.loads(json.dumps(state_to_dict(s)))
    assert d["players"][0] == {"id": "A", "coins": 0, "face_up": [], "influence": 2, "out": False}
    assert d["supply"] == TOTAL_COINS - 4 and d["court"] == 9 and d["turn"] == "A"
    assert d["step"] == "prove" and d["winner"] is None
    assert d["awaiting"]["kind"] == "show_or_turn_up" and d["awaiting"]["players"] == ["A"]
    assert d["pending"]["action"] == "assassinate" and d["pending"]["challenger"] == "B"
    assert {"type": "reveal", "player": "A", "character": "assassin", "shown": True} in d[
        "options"
    ]
    assert d["log"][-1]["text"] == "B challenges A."


def _po_catalog():
    with PO.open("rb") as handle:
        return read_po(handle, locale="ru")


def _engine_messages() -> set[str]:
    """Every ``N_`` sentence of the rules sources. Under mutation testing (mutmut) the
    sources also hold mutated copies of each function (``x_name__mutmut_12``), whose
    sentences are no real messages: those copies are skipped."""
    found = set()
    todo: list[ast.AST] = []
    for path in SOURCES:
        todo.append(ast.parse(path.read_text(encoding="utf-8")))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef) and MUTANT_COPY.search(node.name):
            continue
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
            found.add(node.args[0].value)
        todo.extend(ast.iter_child_nodes(node))
    return found


def test_C1_po_has_russian_for_every_engine_message():
    catalog = _po_catalog()
    messages = _engine_messages()
    assert len(messages) > 50
    placeholder = re.compile(r"%\((\w+)\)s")
    for msgid in messages:
        entry = catalog.get(msgid)
        assert entry is not None and entry.string, msgid
        assert set(placeholder.findall(entry.string)) == set(placeholder.findall(msgid)), msgid
    for names in (CHARACTER_NAMES, ACTION_NAMES):
        assert all(name in messages for name in names.values())


def test_C8_log_text_translates_character_names_in_russian():
    catalog = _po_catalog()

    def gettext(msgid: str) -> str:
        entry = catalog.get(msgid)
        return entry.string if entry is not None and entry.string else msgid

    s = play(new_game(ABC), Declare("A", "foreign_aid"), Block("B", "duchess"))
    assert log_text(s.log[-1], gettext) == "B блокирует, заявляя персонажа: Герцогиня."
    assert log_text(s.log[-1]) == "B blocks, claiming: Duchess."
