"""Coup rules engine: malformed input, JSON round trips, the log and its Russian."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

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


# --- the whole API document, and the action codec as properties ---------------------------


def test_C1_C8_state_to_dict_whole_document_while_a_block_challenger_pays():
    s = with_coins(new_game(ABC, "inquisitor"), A=3)
    s = play(s, Declare("A", "steal", "B"), Challenge(None), Block("B", "inquisitor"))
    s = play(s, Challenge("C"), Reveal("B", "inquisitor", True))
    d = json.loads(json.dumps(state_to_dict(s)))
    in_play = ["duchess", "assassin", "captain", "inquisitor", "countess"]
    assert d["log"][-1] == {
        "rule": "C7",
        "message": "%(player)s shows the claimed card (%(character)s), shuffles it into the "
                   "Court and draws a new one.",
        "params": {"character": "inquisitor", "player": "B"},
        "text": "B shows the claimed card (Inquisitor), shuffles it into the Court and draws "
                "a new one.",
    }
    assert len(d.pop("log")) == len(s.log)
    assert d == {
        "game": "coup",
        "variant": "inquisitor",
        "characters": in_play,
        "copies": 3,
        "players": [
            {"id": p, "coins": c, "face_up": [], "influence": 2, "out": False}
            for p, c in (("A", 3), ("B", 2), ("C", 2))
        ],
        "supply": TOTAL_COINS - 7,
        "total_coins": 54,
        "court": 9,
        "out_of_game": 0,
        "face_up": dict.fromkeys(in_play, 0),
        "turn": "A",
        "must_coup": False,
        "step": "lose_influence",
        "pending": {
            "actor": "A", "action": "steal", "target": "B", "paid": 0, "challenger": None,
            "blocker": "B", "block": "inquisitor", "block_challenger": "C",
        },
        "loser": "C",
        "shown": "inquisitor",
        "awaiting": {
            "kind": "lose_influence", "players": ["C"], "action": "steal", "actor": "A",
            "target": "B", "claimant": None, "claim": None, "characters": in_play,
            "can_show": False, "reason": "block_challenge",
        },
        "legal_actions": [],
        "options": [
            {"type": "lose_influence", "player": "C", "character": c} for c in in_play
        ],
        "winner": None,
    }


def test_C6_C9_state_to_dict_counts_face_up_cards_and_flags_a_forced_coup():
    s = with_coins(new_game(ABC), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "captain"), Declare("B", "income"))
    s = with_coins(s, C=12)
    d = json.loads(json.dumps(state_to_dict(s)))
    assert d["players"][1] == {
        "id": "B", "coins": 3, "face_up": ["captain"], "influence": 1, "out": False
    }
    assert d["face_up"] == {
        "duchess": 0, "assassin": 0, "captain": 1, "ambassador": 0, "countess": 0
    }
    assert d["must_coup"] is True and d["step"] == "declare" and d["pending"] is None
    coups = [
        {"type": "declare", "player": "C", "action": "coup", "target": t} for t in ("A", "B")
    ]
    assert d["legal_actions"] == d["options"] == coups
    assert d["awaiting"]["kind"] == "declare" and d["awaiting"]["players"] == ["C"]
    d = state_to_dict(with_coins(s, C=9))
    assert d["must_coup"] is False and len(d["legal_actions"]) > 2


TEXT = st.text(max_size=8)
MAYBE = st.none() | TEXT
ACTION_OBJECTS = st.one_of(
    st.builds(Declare, TEXT, TEXT, MAYBE),
    st.builds(Challenge, MAYBE),
    st.builds(Reveal, TEXT, TEXT, st.booleans()),
    st.builds(Block, MAYBE, MAYBE),
    st.builds(LoseInfluence, TEXT, TEXT),
    st.builds(ExamineVerdict, TEXT, st.booleans()),
)
WRONG = st.one_of(
    st.integers(), st.lists(TEXT, max_size=2), st.dictionaries(TEXT, TEXT, max_size=1)
)


@settings(max_examples=60, deadline=None)
@given(action=ACTION_OBJECTS)
def test_C4_action_codec_round_trips_every_action(action):
    data = json.loads(json.dumps(action_to_dict(action)))
    assert action_from_dict(data) == action
    assert action_to_dict(action_from_dict(data)) == data


@settings(max_examples=60, deadline=None)
@given(action=ACTION_OBJECTS, wrong=WRONG, pick=st.integers(0, 3))
def test_C4_a_field_of_the_wrong_type_is_refused_naming_the_field(action, wrong, pick):
    data = action_to_dict(action)
    field = sorted(k for k in data if k != "type")[pick % (len(data) - 1)]
    data[field] = wrong
    with pytest.raises(RuleError) as caught:
        action_from_dict(data)
    assert (caught.value.rule, caught.value.text) == (
        "C4",
        f"This action record is malformed ({field}); send a known action type with its "
        "fields.",
    )


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (None, "type"),
        ({"type": "dance"}, "type"),
        ({"type": 3}, "type"),
        ({"player": "A"}, "type"),
        ({"type": "declare", "player": "A"}, "action"),
        ({"type": "declare", "action": "tax"}, "player"),
        ({"type": "declare", "player": "A", "action": "tax", "extra": 1}, "extra"),
        ({"type": "declare", "player": "A", "action": "tax", 7: 1}, "7"),
        ({"type": "reveal", "player": "A", "character": "duchess", "shown": "true"}, "shown"),
        ({"type": "reveal", "player": "A", "character": "duchess"}, "shown"),
        ({"type": "lose_influence", "player": "A", "character": None}, "character"),
        ({"type": "examine_verdict", "player": True, "swap": True}, "player"),
    ],
)
def test_C4_malformed_record_names_the_bad_field(data, field):
    with pytest.raises(RuleError) as caught:
        action_from_dict(data)
    assert caught.value.rule == "C4" and caught.value.params == {"field": field}


def test_C4_optional_fields_may_be_left_out_and_unknown_objects_are_not_encoded():
    assert action_from_dict({"type": "challenge"}) == Challenge(None)
    assert action_from_dict({"type": "block"}) == Block(None, None)
    assert action_from_dict({"type": "declare", "player": "A", "action": "income"}) == (
        Declare("A", "income")
    )
    for thing in ("income", None, object()):
        with pytest.raises(RuleError) as caught:
            action_to_dict(thing)  # type: ignore[arg-type]
        assert caught.value.rule == "C4" and caught.value.params == {"field": "type"}
