"""Berserk-style codecs: cards (B1–B5, B8), modifications (B6, B9), settings (B11–B14),
actions and battle states, as JSON documents.

Round trips are properties (hypothesis): decoding an encoded value gives it back, and
encoding a decoded canonical document gives the document back. Malformed documents are
refused with a FormatError that names what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from referee.games.berserk.rules import (
    PUBLISHED,
    AddLives,
    Battle,
    BecomeElement,
    Card,
    Creature,
    Element,
    EndEffects,
    FormatError,
    GainElement,
    Halve,
    Level,
    LoseElement,
    Modify,
    Overwrite,
    Settings,
    SimpleStrike,
    Strike,
    StrikeOutcome,
    Tap,
    Untap,
    Wound,
    action_from_dict,
    action_to_dict,
    apply,
    card_from_dict,
    card_to_dict,
    creature_to_dict,
    mod_from_dict,
    mod_to_dict,
    outcome_to_dict,
    props_to_dict,
    settings_from_dict,
    settings_to_dict,
    start,
    state_from_dict,
    state_to_dict,
)
from referee.games.berserk.rules.codec import outcome_from_dict

FAST = hyp_settings(max_examples=60, deadline=None)


def json_copy(d: object) -> object:
    return json.loads(json.dumps(d))


def card(code: str = "C", **fields_: object) -> Card:
    d: dict[str, object] = {"code": code, "name_en": code, "name_ru": code, "cost": 3,
                            "lives": 3, "movement": 2, "strike": [1, 2, 3]}
    d.update(fields_)
    return card_from_dict(d)


def artifact(code: str = "ART", lives: int = 3) -> Card:
    return card_from_dict({"code": code, "name_en": code, "name_ru": code,
                           "kind": "artifact", "cost": 2, "lives": lives})


# --- Strategies ----------------------------------------------------------------------

CODES = st.from_regex(r"[A-Za-z0-9_-]{1,20}", fullmatch=True)
NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
                min_size=1, max_size=8)
SOURCES = st.sampled_from(["", "a1", "b2", "spell of doom"])
ELEMENT_LISTS = st.lists(st.sampled_from(list(Element)), unique=True, max_size=3).map(
    lambda es: [str(e) for e in Element if e in es])  # the printed order (B8)


@st.composite
def card_docs(draw: st.DrawFn) -> dict:
    """A canonical card document: what ``card_to_dict`` writes."""
    d: dict[str, object] = {"code": draw(CODES), "name_en": draw(NAMES),
                            "name_ru": draw(NAMES)}
    creature_ = draw(st.integers(0, 5)) > 0
    d["kind"] = "creature" if creature_ else "artifact"
    if draw(st.booleans()):
        d["cost"] = draw(st.integers(0, 12))
    else:
        d["cost"], d["x"] = "X", draw(st.integers(0, 12))
    d["elite"] = draw(st.booleans())
    d["lives"] = draw(st.integers(1, 12))
    if creature_:
        d["movement"] = draw(st.one_of(st.integers(0, 4),
                                       st.sampled_from(["flying", "symbiote"])))
        d["strike"] = draw(st.lists(st.integers(0, 9), min_size=3, max_size=3))
    d["elements"] = draw(ELEMENT_LISTS)
    d["unique"] = draw(st.booleans())
    for key in ("text_en", "text_ru"):
        if draw(st.booleans()):
            d[key] = draw(NAMES)
    return d




def fitting_mods(c: Card) -> st.SearchStrategy:
    """Modifications that fit card ``c`` (B4, B5: movement and strike only where printed)."""
    numbers = [p for p in ("cost", "lives", "movement", "strike")
               if (p != "movement" or c.movement is not None)
               and (p != "strike" or c.strike is not None)]
    strikes = st.builds(SimpleStrike, *[st.integers(0, 99)] * 3)

    @st.composite
    def overwrite(draw: st.DrawFn) -> Overwrite:
        props = draw(st.lists(st.sampled_from(numbers), min_size=1, unique=True))
        values: dict[str, object] = {
            p: draw(strikes) if p == "strike" else draw(st.integers(0, 99)) for p in props}
        if draw(st.booleans()):
            values["elite"] = draw(st.booleans())
        return Overwrite(source=draw(SOURCES), **values)

    return st.one_of(
        overwrite(),
        st.builds(AddLives, st.integers(-99, 99).filter(bool), SOURCES),
        st.builds(Halve, st.lists(st.sampled_from(numbers), min_size=1, unique=True).map(
            tuple), st.booleans(), SOURCES),
        st.builds(GainElement, st.sampled_from(list(Element)), SOURCES),
        st.builds(BecomeElement, st.sampled_from(list(Element)), SOURCES),
        st.builds(LoseElement, st.sampled_from(list(Element)), SOURCES),
    )


# A ground creature, a flyer and an artifact: every modification fits one of them.
SAMPLE_CARDS = (card("G", movement=2), card("F", movement="flying"), artifact("T"))
MODS_FOR = {c: fitting_mods(c) for c in SAMPLE_CARDS}
ANY_MODS = st.one_of(*MODS_FOR.values())
IDS = st.sampled_from(["a1", "a2", "b1", "b2"])
INTS = st.integers(-3, 9)
ACTIONS = st.one_of(
    st.builds(Modify, IDS, ANY_MODS),
    st.builds(EndEffects, IDS, SOURCES),
    st.builds(Strike, IDS, IDS, INTS, st.one_of(st.none(), INTS), st.booleans(), INTS,
              INTS, INTS, INTS),
    st.builds(Wound, IDS, INTS),
    st.builds(Tap, IDS),
    st.builds(Untap, IDS),
)
OUTCOMES = st.builds(StrikeOutcome, st.integers(-19, 26), st.one_of(st.none(), INTS),
                     st.sampled_from(list(Level)), st.sampled_from(list(Level)),
                     st.integers(0, 9), st.integers(0, 9),
                     st.sampled_from([None, "attacker", "target"]), st.booleans())


@st.composite
def creatures(draw: st.DrawFn, cid: str) -> Creature:
    c = draw(st.sampled_from(SAMPLE_CARDS))
    return Creature(cid, cid[0], c, tuple(draw(st.lists(MODS_FOR[c], max_size=3))),
                    draw(st.integers(0, 12)), draw(st.booleans()))


@st.composite
def battles(draw: st.DrawFn) -> Battle:
    ids = draw(st.lists(st.sampled_from(["a1", "a2", "a3", "b1", "b2"]), min_size=1,
                        unique=True))
    settings = Settings(**draw(st.fixed_dictionaries({}, optional={
        "tie_answer_from": st.integers(0, 7), "strike_taps_attacker": st.booleans(),
        "first_gold": st.integers(0, 30), "deck_max": st.integers(50, 60)})))
    return Battle(tuple(draw(creatures(cid)) for cid in ids), settings,
                  draw(st.one_of(st.none(), OUTCOMES)))


# --- B1–B5, B8: cards ------------------------------------------------------------------


@FAST
@given(card_docs())
def test_B1_B8_card_documents_round_trip(doc: dict) -> None:
    c = card_from_dict(doc)
    assert card_to_dict(c) == doc
    assert card_from_dict(json_copy(card_to_dict(c))) == c


def test_B2_B4_B5_card_document_shapes() -> None:
    x = card("X1", cost="X", x=4, elite=True, movement="flying", elements=["fire", "forest"],
             text_en="Flies.")
    assert card_to_dict(x) == {
        "code": "X1", "name_en": "X1", "name_ru": "X1", "kind": "creature", "cost": "X",
        "x": 4, "elite": True, "lives": 3, "movement": "flying", "strike": [1, 2, 3],
        "elements": ["forest", "fire"], "unique": False, "text_en": "Flies."}
    assert card_to_dict(artifact("T")) == {
        "code": "T", "name_en": "T", "name_ru": "T", "kind": "artifact", "cost": 2,
        "elite": False, "lives": 3, "elements": [], "unique": False}
    ground = card("G", movement=0, text_ru="Текст")
    assert (card_to_dict(ground)["movement"], card_to_dict(ground)["text_ru"]) == (0, "Текст")
    assert "text_en" not in card_to_dict(ground)


# --- B6, B9: modifications -------------------------------------------------------------


@FAST
@given(ANY_MODS)
def test_B6_B9_modification_documents_round_trip(mod: object) -> None:
    doc = json_copy(mod_to_dict(mod))
    assert mod_from_dict(doc) == mod
    assert mod_to_dict(mod_from_dict(doc)) == doc


def test_B6_B7_B9_modification_document_shapes() -> None:
    assert mod_to_dict(Overwrite(lives=1, movement=1, strike=SimpleStrike(1, 1, 1),
                                 source="veide")) == {
        "op": "overwrite", "lives": 1, "movement": 1, "strike": [1, 1, 1], "source": "veide"}
    assert mod_to_dict(Overwrite(cost=0, elite=False)) == {
        "op": "overwrite", "cost": 0, "elite": False}
    assert mod_to_dict(AddLives(-3)) == {"op": "lives", "amount": -3}
    assert mod_to_dict(Halve(("lives", "strike"), round_up=False, source="glasion")) == {
        "op": "halve", "props": ["lives", "strike"], "round_up": False, "source": "glasion"}
    assert mod_to_dict(GainElement(Element.FIRE)) == {"op": "gain", "element": "fire"}
    assert mod_to_dict(BecomeElement(Element.SWAMPS, "b1")) == {
        "op": "become", "element": "swamps", "source": "b1"}
    assert mod_to_dict(LoseElement(Element.STEPPE)) == {"op": "lose", "element": "steppe"}


def test_B6_B7_modification_documents_leave_out_defaults() -> None:
    # B7: an effect without a source reads as source "".
    assert mod_from_dict({"op": "lives", "amount": 2}) == AddLives(2, "")
    assert mod_from_dict({"op": "lives", "amount": 2, "source": "a4"}).source == "a4"
    # B6 seed: halving rounds up unless the document says otherwise.
    assert mod_from_dict({"op": "halve", "props": ["cost"]}) == Halve(("cost",), True, "")
    assert mod_from_dict({"op": "halve", "props": ("cost",), "round_up": False}
                         ) == Halve(("cost",), False)
    assert mod_from_dict({"op": "overwrite", "strike": (3, 3, 4), "source": "g"}) == Overwrite(
        strike=SimpleStrike(3, 3, 4), source="g")
    assert mod_from_dict({"op": "overwrite", "elite": True}) == Overwrite(elite=True)
    assert mod_from_dict({"op": "gain", "element": "fire", "source": "s"}) == GainElement(
        Element.FIRE, "s")
    assert type(mod_from_dict({"op": "become", "element": "fire"})) is BecomeElement
    assert type(mod_from_dict({"op": "lose", "element": "fire"})) is LoseElement


@pytest.mark.parametrize(("doc", "says"), [
    (None, "a modification needs 'op', one of overwrite, lives, halve, gain, become, lose; "
           "got None"),
    ({"op": 3}, "a modification needs 'op'"),
    ({"amount": 3}, "a modification needs 'op'"),
    ({"op": "heal"}, "a modification needs 'op', one of overwrite, lives, halve, gain, "
                     "become, lose; got {'op': 'heal'}"),
    ({"op": "lives", "amount": 1, "props": []}, "modification 'lives': unknown field(s) "
                                                "['props']"),
    ({"op": "gain", "element": "fire", "amount": 1, "zz": 0},
     "modification 'gain': unknown field(s) ['amount', 'zz']"),
    ({"op": "overwrite", "strike": [1, 2]}, "modification 'overwrite': 'strike' must be "
                                            "[X, Y, Z], got [1, 2]"),
    ({"op": "overwrite", "strike": "1-1-1"}, "modification 'overwrite': 'strike' must be "
                                             "[X, Y, Z], got '1-1-1'"),
    ({"op": "overwrite", "strike": [1, 2, 3, 4]}, "modification 'overwrite': 'strike' must "
                                                  "be [X, Y, Z]"),
    ({"op": "lives"}, "modification 'lives' needs 'amount'"),
    ({"op": "lives", "source": "a1"}, "modification 'lives' needs 'amount'"),
    ({"op": "halve", "props": "lives"}, "modification 'halve': 'props' must be a list, got "
                                        "'lives'"),
    ({"op": "halve"}, "modification 'halve': 'props' must be a list, got None"),
    ({"op": "become", "element": "air"}, "modification 'become': unknown element 'air'"),
    ({"op": "lose"}, "modification 'lose': unknown element None"),
])
def test_B6_B9_malformed_modification_documents_are_refused(doc: object, says: str) -> None:
    with pytest.raises(FormatError) as e:
        mod_from_dict(doc)
    assert str(e.value).startswith(says)


def test_B6_only_modifications_are_encoded() -> None:
    with pytest.raises(FormatError, match="not a modification: 'lives'"):
        mod_to_dict("lives")  # type: ignore[arg-type]


# --- B11–B14: settings -----------------------------------------------------------------


SETTINGS = st.builds(
    Settings, **{f.name: st.booleans() if f.type == "bool" else st.integers(0, 60)
                 for f in fields(Settings)}).filter(
    lambda s: s.deck_min <= s.deck_max and s.tapped_medium_from <= s.tapped_strong_from)


@FAST
@given(SETTINGS)
def test_B11_B14_settings_documents_round_trip(s: Settings) -> None:
    doc = json_copy(settings_to_dict(s))
    assert settings_from_dict(doc) == s
    assert settings_to_dict(settings_from_dict(doc)) == doc


def test_B11_B14_settings_keep_published_values_for_missing_keys() -> None:
    assert settings_from_dict({}) == PUBLISHED
    assert settings_to_dict(PUBLISHED)["first_gold"] == 24
    s = settings_from_dict({"deck_min": 40, "deck_max": 40, "tapped_medium_from": 6,
                            "strike_taps_attacker": False})
    assert (s.deck_min, s.deck_max, s.tapped_medium_from, s.tapped_strong_from) == (
        40, 40, 6, 6)
    assert (s.strike_taps_attacker, s.first_silver) == (False, 22)
    assert settings_from_dict({"element_penalty": 0}).element_penalty == 0


@pytest.mark.parametrize(("doc", "says"), [
    ([], "settings must be a table of numbers"),
    ({"gold": 1, "colour": 2}, "unknown setting(s): 'colour', 'gold'"),
    ({"first_gold": -1}, "setting 'first_gold' must be a whole number >= 0, got -1"),
    ({"first_gold": True}, "setting 'first_gold' must be a whole number >= 0, got True"),
    ({"deck_max": "50"}, "setting 'deck_max' must be a whole number >= 0, got '50'"),
    ({"deck_max": 2.5}, "setting 'deck_max' must be a whole number >= 0, got 2.5"),
    ({"strike_taps_attacker": 1}, "setting 'strike_taps_attacker' must be true or false, "
                                  "got 1"),
    ({"deck_min": 51}, "setting 'deck_min' must not exceed 'deck_max'"),
    ({"tapped_medium_from": 7}, "setting 'tapped_medium_from' must not exceed "
                                "'tapped_strong_from'"),
])
def test_B11_B14_malformed_settings_are_refused(doc: object, says: str) -> None:
    with pytest.raises(FormatError) as e:
        settings_from_dict(doc)
    assert str(e.value) == says


# --- B6–B11: actions -------------------------------------------------------------------


@FAST
@given(ACTIONS)
def test_B6_B11_action_documents_round_trip(action: object) -> None:
    doc = json_copy(action_to_dict(action))
    assert action_from_dict(doc) == action
    assert action_to_dict(action_from_dict(doc)) == doc


def test_B7_B11_action_document_shapes() -> None:
    assert action_to_dict(Strike("a1", "b2", 5)) == {
        "type": "strike", "attacker": "a1", "target": "b2", "attacker_die": 5,
        "defender_die": None, "lower": False, "attacker_die_mod": 0, "defender_die_mod": 0,
        "strike_mod": 0, "answer_mod": 0}
    assert action_to_dict(Modify("b2", AddLives(-1, "a4"))) == {
        "type": "modify", "creature": "b2",
        "modification": {"op": "lives", "amount": -1, "source": "a4"}}
    assert action_to_dict(EndEffects("b2", "a4")) == {
        "type": "end_effects", "creature": "b2", "source": "a4"}
    assert action_to_dict(Wound("b2", 2)) == {"type": "wound", "creature": "b2", "amount": 2}
    assert action_to_dict(Tap("a1")) == {"type": "tap", "creature": "a1"}
    assert action_to_dict(Untap("a1")) == {"type": "untap", "creature": "a1"}
    # Optional strike fields may be left out of a document.
    assert action_from_dict({"type": "strike", "attacker": "a1", "target": "b2",
                             "attacker_die": 5}) == Strike("a1", "b2", 5)


@pytest.mark.parametrize(("doc", "says"), [
    (None, "an action needs 'type', one of modify, end_effects, strike, wound, tap, untap; "
           "got None"),
    ({"creature": "a1"}, "an action needs 'type'"),
    ({"type": 1, "creature": "a1"}, "an action needs 'type'"),
    ({"type": "heal", "creature": "a1"}, "an action needs 'type', one of modify, end_effects, "
                                         "strike, wound, tap, untap; got {'type': 'heal', "
                                         "'creature': 'a1'}"),
    ({"type": "tap", "creature": "a1", "z": 1, "amount": 2},
     "action 'tap': unknown field(s) ['amount', 'z']"),
    ({"type": "wound"}, "action 'wound': missing field(s) ['amount', 'creature']"),
    ({"type": "strike", "attacker": "a1"},
     "action 'strike': missing field(s) ['attacker_die', 'target']"),
    ({"type": "modify", "creature": "a1", "modification": {"op": "fly"}},
     "a modification needs 'op'"),
])
def test_B7_malformed_action_documents_are_refused(doc: object, says: str) -> None:
    with pytest.raises(FormatError) as e:
        action_from_dict(doc)
    assert str(e.value).startswith(says)


def test_B7_only_battle_actions_are_encoded() -> None:
    with pytest.raises(FormatError, match="not a Berserk action: AddLives"):
        action_to_dict(AddLives(1))  # type: ignore[arg-type]


# --- B6, B10, B11: battle states -------------------------------------------------------


@hyp_settings(max_examples=30, deadline=None)
@given(battles())
def test_B6_B10_B11_battle_documents_round_trip(s: Battle) -> None:
    doc = json_copy(state_to_dict(s))
    assert state_from_dict(doc) == s
    assert state_to_dict(state_from_dict(doc)) == doc


@FAST
@given(OUTCOMES)
def test_B11_strike_outcomes_round_trip(out: StrikeOutcome) -> None:
    doc = json_copy(outcome_to_dict(out))
    assert outcome_from_dict(doc) == out
    assert outcome_to_dict(outcome_from_dict(doc)) == doc


def test_B4_B5_B8_effective_properties_as_shown() -> None:
    flyer = card("F", movement="flying", elements=["fire", "steppe"], elite=True)
    p = props_to_dict(Creature("a1", "a", flyer).props)
    assert p == {"cost": 3, "elite": True, "lives": 3, "movement": None,
                 "locomotion": "flying", "strike": [1, 2, 3],
                 "elements": ["steppe", "fire"]}
    t = props_to_dict(Creature("a2", "a", artifact("T")).props)
    assert (t["locomotion"], t["strike"], t["movement"], t["elements"]) == (
        None, None, None, [])


def test_B10_B11_state_document_shows_lives_left_living_allowed_and_last_strike() -> None:
    s = start([card("A", strike=[2, 3, 4], lives=4), artifact("T")], [card("B", lives=3)],
              check=False)
    s = apply(s, Modify("a1", AddLives(1, source="b1")))
    s = apply(s, Strike("a1", "b1", 5, 1))  # +4: strong 4 to b1, weak 1 back
    doc = state_to_dict(s)
    assert doc["settings"] == settings_to_dict(PUBLISHED)
    a1, a2, b1 = doc["creatures"]
    assert (a1["wounds"], a1["tapped"], a1["dead"], a1["lives_left"]) == (1, True, False, 4)
    assert a1["mods"] == [{"op": "lives", "amount": 1, "source": "b1"}]
    assert (a1["effective"]["lives"], a1["card"]["lives"]) == (5, 4)
    assert (b1["wounds"], b1["dead"], b1["lives_left"]) == (4, True, 0)  # never below 0
    assert a2["owner"] == "a" and a2["card"]["kind"] == "artifact"
    assert doc["living"] == {"a": ["a1", "a2"], "b": []}
    assert doc["winner"] == "a"
    assert doc["allowed"] == {"a1": ["modify", "wound", "end_effects", "untap"],
                              "a2": ["modify", "wound", "tap"], "b1": []}
    assert doc["last_strike"] == {
        "attack_roll": 5, "defence_roll": 1, "strike": "strong", "answer": "weak",
        "wounds_to_target": 4, "wounds_to_attacker": 1, "may_lower": "attacker",
        "lowered": False}
    assert creature_to_dict(s.creatures[0]) == a1


def test_B10_B11_state_documents_may_leave_out_defaults() -> None:
    doc = {"creatures": [{"id": "a1", "owner": "a", "card": card_to_dict(card("A"))},
                         {"id": "b1", "owner": "b", "card": card_to_dict(card("B"))}]}
    s = state_from_dict(doc)
    assert s == start([card("A")], [card("B")], check=False)
    assert (s.settings, s.last_strike) == (PUBLISHED, None)
    b = s.creatures[1]
    assert (b.mods, b.wounds, b.tapped) == ((), 0, False)
    with_settings = state_from_dict(doc | {"settings": {"tie_answer_from": 6}})
    assert with_settings.settings == Settings(tie_answer_from=6)


def _state_doc(**creature_fields: object) -> dict:
    doc = json_copy(state_to_dict(start([card("A")], [card("B")], check=False)))
    doc["creatures"][0].update(creature_fields)
    return doc


@pytest.mark.parametrize(("doc", "says"), [
    (None, "a battle needs a list of 'creatures'"),
    ({"creatures": {}}, "a battle needs a list of 'creatures'"),
    ({}, "a battle needs a list of 'creatures'"),
    (_state_doc(id="b1"), "creature ids must be different"),
    (_state_doc(owner="c"), "creature 'a1': bad id or owner"),
    (_state_doc(id=7), "creature 7: bad id or owner"),
    (_state_doc(wounds=-1), "creature a1: 'wounds' must be a whole number >= 0"),
    (_state_doc(wounds=True), "creature a1: 'wounds' must be a whole number >= 0"),
    (_state_doc(wounds="2"), "creature a1: 'wounds' must be a whole number >= 0"),
    (_state_doc(tapped=0), "creature a1: 'tapped' must be true or false"),
    (_state_doc(mods=[{"op": "overwrite", "movement": -1}]),
     "creature a1: An overwritten number must be a whole number from 0 to 99, not -1."),
    (_state_doc(card={"code": "Z"}), "card Z: field 'name_en' must be a non-empty text"),
    ({"creatures": [{"owner": "a"}]}, "malformed battle: 'id'"),
    ({"creatures": [1]}, "malformed battle:"),
    ({"creatures": [], "last_strike": {"strike": 3}}, "malformed battle:"),
    ({"creatures": [], "last_strike": {"strike": "mighty", "answer": "none"}},
     "malformed battle: 'MIGHTY'"),
])
def test_B7_B10_malformed_battle_documents_are_refused(doc: object, says: str) -> None:
    with pytest.raises(FormatError) as e:
        state_from_dict(doc)
    assert str(e.value).startswith(says)


def test_B11_a_fresh_battle_allows_open_creatures_to_strike() -> None:
    doc = state_to_dict(start([card("A"), artifact("T")], [card("B")], check=False))
    assert doc["allowed"] == {"a1": ["modify", "wound", "strike", "tap"],
                              "a2": ["modify", "wound", "tap"],
                              "b1": ["modify", "wound", "strike", "tap"]}
    assert (doc["winner"], doc["last_strike"]) == (None, None)
