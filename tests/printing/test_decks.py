"""Deck files: the shipped decks validate, and a bad file is refused with file, line and
what is wrong."""

from __future__ import annotations

import dataclasses
import os
import textwrap
from collections import Counter

import pytest

from referee import decks
from referee.decks import DeckError, UnknownDeck, load_all, load_deck, load_file
from referee.games import registry
from referee.games.berserk import rules as berserk
from referee.games.berserk.rules import cards as berserk_cards
from referee.games.coup.rules.model import CHARACTERS
from referee.games.underworld import rules as uw
from referee.rules.cards import SUITS, duel_deck, table_deck

SHIPPED = ["berserk-sample", "castle-sample", "classes-sample", "coup", "duel-clubs",
           "duel-diamonds", "duel-hearts", "duel-spades", "table36"]


def write(folder, name: str, body: str):
    path = folder / f"{name}.toml"
    path.write_text(textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def no_env_decks(monkeypatch):
    monkeypatch.delenv(decks.ENV, raising=False)


# ------------------------------------------------------------------ the shipped decks

def test_every_shipped_deck_is_listed_and_validates():
    assert decks.deck_names() == SHIPPED
    loaded = load_all()
    assert sorted(loaded) == SHIPPED
    for name, deck in loaded.items():
        assert deck.name == name and deck.path.stem == name
        assert deck.title_en and deck.title_ru
        assert len({entry.code for entry in deck.cards}) == len(deck.cards)


def test_D2_table36_is_the_36_card_deck_in_order():
    deck = load_deck("table36")
    assert deck.kind == "playing"
    assert [e.code for e in deck.printed()] == [c.code for c in table_deck()]
    assert deck.card("QS").name_ru == "Дама пик"
    assert deck.card("10H").name_en == "Ten of hearts"


@pytest.mark.parametrize("suit", SUITS)
def test_D1_duel_decks_hold_one_suit_6_to_ace(suit):
    name = {"S": "duel-spades", "H": "duel-hearts", "D": "duel-diamonds", "C": "duel-clubs"}
    deck = load_deck(name[suit])
    assert [e.card.card for e in deck.printed()] == list(duel_deck(suit))


def test_U2_castle_sample_meets_the_limits_exactly():
    deck = load_deck("castle-sample")
    cards = [entry.card for entry in deck.printed()]
    assert uw.castle_deck_problems(cards) == ()
    count = Counter(card.kind for card in cards)
    assert count == {"monster": 34, "item": 24, "skill": 9, "event": 14}
    assert len(cards) == 81  # U2: at most 87
    # copies share one code (U3) and are the same card
    assert deck.card("M01").copies == 3
    assert sum(1 for e in deck.printed() if e.code == "M01") == 3
    assert any(getattr(c, "summoning", False) for c in cards)
    assert any(getattr(c, "challenge", False) for c in cards)


def test_U2_classes_sample_holds_13_classes_and_U10_powers():
    deck = load_deck("classes-sample")
    cards = [entry.card for entry in deck.printed()]
    assert uw.class_deck_problems(cards) == ()
    assert len(cards) == 13 and all(isinstance(c, uw.ClassCard) for c in cards)
    by_name = {c.name_en: c for c in cards}
    # U10: only the Warrior holds two weapons; only the Cleric and the Witch use magic
    assert [c.name_en for c in cards if c.two_weapons] == ["Warrior"]
    assert sorted(c.name_en for c in cards if c.magic) == ["Cleric", "Witch"]
    assert by_name["Vampire"].ability_cost == 2 and by_name["Vampire"].ability_bonus == 3


def test_C1_coup_set_has_six_characters_times_four_and_an_aid():
    deck = load_deck("coup")
    characters = [e for e in deck.cards if e.card.role == "character"]
    assert sorted(e.card.character for e in characters) == sorted(CHARACTERS)
    assert all(e.copies == 4 for e in characters)
    names = {e.card.character: e.card.name_ru for e in characters}
    assert names == {"duchess": "Герцогиня", "assassin": "Убийца", "captain": "Капитан",
                     "ambassador": "Посол", "inquisitor": "Инквизитор",
                     "countess": "Графиня"}
    aid = deck.card("AID").card
    assert aid.role == "aid" and "Income" in aid.text_en and "Доход" in aid.text_ru
    assert deck.card("CO").card.blocks_en == "Assassination."
    assert deck.size == 24 + deck.card("AID").copies


def test_B8_berserk_sample_covers_every_element_and_the_base_properties():
    deck = load_deck("berserk-sample")
    cards = [entry.card for entry in deck.cards]
    assert len(cards) >= 12
    elements = {e for c in cards for e in c.elements}
    assert elements == set(berserk.ELEMENTS)
    assert any(c.neutral for c in cards)
    assert {c.elite for c in cards} == {True, False}
    assert any(c.flying for c in cards)
    assert any(c.locomotion is berserk.Locomotion.GROUND for c in cards)
    creatures = [c for c in cards if c.is_creature]
    assert all(c.strike is not None and c.lives >= 1 for c in creatures)
    # the deck file's fields are the engine's dict shape: a round trip changes nothing
    for card in cards:
        assert berserk.card_from_dict(berserk.card_to_dict(card)) == card


def test_deck_to_dict_lists_codes_and_names():
    summary = load_deck("coup").to_dict()
    assert summary["kind"] == "coup" and summary["size"] == 27
    assert summary["cards"][0] == {"code": "DU", "copies": 4, "name_en": "Duchess",
                                   "name_ru": "Герцогиня"}


def test_the_organizer_guide_documents_every_deck_kind_and_field():
    guide = (decks.DECKS_DIR.parent / "README.md").read_text(encoding="utf-8")
    assert decks.ENV in guide
    for name in SHIPPED:
        assert f"`{name}`" in guide, name
    fields = {"code", "copies", "rank", "suit", "role", "character", "name_en", "name_ru",
              "power_en", "power_ru", "blocks_en", "blocks_ru", "text_en", "text_ru", "colour",
              "text", "title_en", "title_ru"}
    for kind in (uw.Monster, uw.Item, uw.Skill, uw.Event, uw.ClassCard):
        fields |= {f.name for f in dataclasses.fields(kind)}
    fields |= berserk_cards._KEYS
    for kind in registry.deck_kinds():
        assert f'`kind = "{kind}"`' in guide, kind
    for field in sorted(fields):
        assert f"`{field}`" in guide, field


def test_unknown_deck_names_the_decks_there_are():
    with pytest.raises(UnknownDeck, match="table36"):
        load_deck("no-such-deck")


# ----------------------------------------------------------------- organizers' decks

MINI = """
    [deck]
    name = "{name}"
    kind = "playing"
    title_en = "Mini"
    title_ru = "Мини"

    [[cards]]
    code = "AS"
    rank = "A"
    suit = "S"
    copies = 2
"""


def test_an_organizer_folder_adds_decks_and_replaces_a_shipped_one(tmp_path):
    write(tmp_path, "mini", MINI.format(name="mini"))
    write(tmp_path, "table36", MINI.format(name="table36"))
    loaded = load_all([tmp_path])
    assert loaded["mini"].size == 2
    assert loaded["table36"].size == 2  # the organizer's file wins
    assert "mini" in decks.deck_names([tmp_path])


def test_the_environment_variable_adds_a_folder(tmp_path, monkeypatch):
    write(tmp_path, "mini", MINI.format(name="mini"))
    monkeypatch.setenv(decks.ENV, str(tmp_path))
    assert load_deck("mini").card("AS").copies == 2


def test_load_all_can_collect_bad_files_and_keep_the_good_ones(tmp_path):
    write(tmp_path, "mini", MINI.format(name="mini"))
    write(tmp_path, "broken", "[deck\n")
    with pytest.raises(DeckError):
        load_all([tmp_path])
    errors: list[DeckError] = []
    loaded = load_all([tmp_path], errors=errors)
    assert "mini" in loaded and "broken" not in loaded
    assert [e.path.name for e in errors] == ["broken.toml"] and errors[0].line == 1


def test_an_edited_deck_file_is_read_again_at_once_even_at_the_same_size(tmp_path):
    path = write(tmp_path, "mini", MINI.format(name="mini"))
    first = load_file(path)
    assert load_file(path) is first  # unchanged bytes: the deck as checked before
    stat = path.stat()
    # One character changed, the size and the modification time kept: still read again
    path.write_text(path.read_text(encoding="utf-8").replace("copies = 2", "copies = 3"),
                    encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    assert load_file(path).card("AS").copies == 3
    path.write_text("[deck\n", encoding="utf-8")  # broken now: refused, not the old deck
    with pytest.raises(DeckError):
        load_file(path)
    path.write_text(MINI.format(name="mini").replace("    ", ""), encoding="utf-8")
    assert load_file(path).card("AS").copies == 2


def test_deck_error_reads_like_a_compiler_message(tmp_path):
    err = DeckError(tmp_path / "x.toml", 12, "card M07: strength must be a whole number")
    assert str(err) == f"{tmp_path / 'x.toml'}:12: card M07: strength must be a whole number"
    assert (err.line, err.message) == (12, "card M07: strength must be a whole number")


# --------------------------------------------------------------------- bad deck files

CASTLE_HEAD = """
    [deck]
    name = "bad"
    kind = "castle"
    title_en = "Bad"
    title_ru = "Плохая"
"""


def castle(cards: str, monsters: int = 34) -> str:
    """A castle deck (line 1 = [deck]) with ``cards`` written first (from line 7)."""
    filler = (f'\n[[cards]]\ncode = "MF"\nkind = "monster"\nname_en = "F"\nname_ru = "Ф"\n'
              f'strength = 1\ncopies = {monsters}\n'
              '\n[[cards]]\ncode = "SF"\nkind = "skill"\nname_en = "S"\nname_ru = "У"\n'
              'bonus = 1\ncopies = 7\n'
              '\n[[cards]]\ncode = "EF"\nkind = "event"\nname_en = "E"\nname_ru = "С"\n'
              'copies = 13\n')
    return textwrap.dedent(CASTLE_HEAD).lstrip("\n") + "\n" + textwrap.dedent(cards).lstrip(
        "\n") + filler


M07 = """
    [[cards]]
    code = "M07"
    kind = "monster"
    name_en = "Gate Troll"
    name_ru = "Тролль"
    strength = {strength}
"""

BAD = [
    # (case, file text, line, message fragment)
    ("toml-syntax", castle('[[cards]]\ncode = "M07\n'), 8, "TOML syntax"),
    ("wrong-type", castle(M07.format(strength='"seven"')), 12,
     "U3: Card M07: strength must be a whole number"),  # the engine's own words and rule
    ("missing-field", castle(M07.replace("strength = {strength}\n", "")), 7,
     "strength is missing"),
    ("out-of-range", castle(M07.format(strength=150)), 12, "from 0 to 99"),
    ("duplicate-code", castle(M07.format(strength=3) + M07.format(strength=4)), 15,
     "code M07 is already used by the card on line 7"),
    ("unknown-card-field", castle(M07.format(strength=3) + "strenght = 3\n"), 13,
     "unknown field strenght"),
    ("castle-breaks-U2", castle(M07.format(strength=3), monsters=32), 1,
     "castle deck: U2: monsters: 33, must be exactly 34"),
    ("class-in-castle", castle('[[cards]]\ncode = "C01"\nkind = "class"\nname_en = "W"\n'
                               'name_ru = "В"\n'), 9, "belong in a class deck"),
    ("bad-copies", castle(M07.format(strength=3) + "copies = 0\n"), 13,
     "copies must be a whole number from 1 to 99"),
    ("unknown-kind", CASTLE_HEAD.replace('"castle"', '"tarot"'), 3,
     "kind 'tarot' is not known"),
    ("name-mismatch", CASTLE_HEAD.replace('"bad"', '"other"'), 2,
     "must equal the file name 'bad'"),
    ("missing-title", CASTLE_HEAD.replace('title_ru = "Плохая"\n', ""), 1,
     "title_ru is missing"),
    ("no-deck-table", '[[cards]]\ncode = "AS"\n', 1, "the [deck] table is missing"),
    ("no-cards", CASTLE_HEAD, 1, "the deck has no cards"),
    ("bad-back-colour", CASTLE_HEAD + '\n[deck.back]\ncolour = "red"\n', 8,
     "colour must be written like"),
]
PLAYING_HEAD = '[deck]\nname = "bad"\nkind = "playing"\ntitle_en = "B"\ntitle_ru = "Б"\n\n'
BAD += [
    ("bad-suit", PLAYING_HEAD + '[[cards]]\ncode = "6X"\nrank = "6"\nsuit = "X"\n', 10,
     "card 6X: suit must be one of S, H, D, C"),
    ("bad-rank", PLAYING_HEAD + '[[cards]]\ncode = "5S"\nrank = "5"\nsuit = "S"\n', 9,
     "rank must be one of 6 7 8 9 10 J Q K A"),
    ("code-not-canonical", PLAYING_HEAD + '[[cards]]\ncode = "QH"\nrank = "Q"\nsuit = "S"\n',
     8, "must be QS"),
    ("bad-code", PLAYING_HEAD + '[[cards]]\ncode = "a b"\nrank = "Q"\nsuit = "S"\n', 8,
     "code 'a b' is not valid"),
    # A code or colour that ends with a line break is refused, not read as without it.
    ("code-ends-with-newline", PLAYING_HEAD + '[[cards]]\ncode = "QS\\n"\nrank = "Q"\n'
     'suit = "S"\n', 8, "code 'QS\\n' is not valid"),
    ("colour-ends-with-newline", CASTLE_HEAD + '\n[deck.back]\ncolour = "#112233\\n"\n', 8,
     "colour must be written like"),
    ("missing-code", PLAYING_HEAD + '[[cards]]\nrank = "Q"\nsuit = "S"\n', 7,
     "card 1: code is missing"),
    ("berserk-strike", PLAYING_HEAD.replace("playing", "berserk")
     + '[[cards]]\ncode = "B1"\nname_en = "A"\nname_ru = "А"\ncost = 2\nlives = 3\n'
       'movement = 1\nstrike = [1, 2]\n', 14, "field 'strike' must be three whole numbers"),
    ("berserk-element", PLAYING_HEAD.replace("playing", "berserk")
     + '[[cards]]\ncode = "B1"\nname_en = "A"\nname_ru = "А"\ncost = 2\nlives = 3\n'
       'movement = 1\nstrike = [1, 2, 3]\nelements = ["water"]\n', 15, "field 'elements'"),
    ("coup-character", PLAYING_HEAD.replace("playing", "coup")
     + '[[cards]]\ncode = "JE"\ncharacter = "jester"\nname_en = "J"\nname_ru = "Ш"\n', 9,
     "character must be one of duchess"),
    ("coup-twice", PLAYING_HEAD.replace("playing", "coup")
     + "".join(f'[[cards]]\ncode = "{c}"\ncharacter = "captain"\nname_en = "C"\n'
               'name_ru = "К"\npower_en = "p"\npower_ru = "д"\nblocks_en = "b"\n'
               'blocks_ru = "б"\n\n' for c in ("C1", "C2")), 19, "the captain already has"),
    ("class-count", PLAYING_HEAD.replace("playing", "class")
     + '[[cards]]\ncode = "C01"\nname_en = "W"\nname_ru = "В"\n', 1,
     "class deck: U2: class cards: 1, must be exactly 13"),
]


@pytest.mark.parametrize(("case", "text", "line", "fragment"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_deck_file_is_refused_with_file_line_and_message(tmp_path, case, text, line,
                                                                fragment):
    path = tmp_path / "bad.toml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_file(path)
    err = caught.value
    assert err.path == path
    assert (err.line, fragment in err.message) == (line, True), err.message
    assert str(err).startswith(f"{path}:{line}: ")


def test_a_file_that_is_not_utf8_is_refused_on_its_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(b'[deck]\nname = "bad"\ntitle_ru = "\xcf\xeb\xee\xf5\xe0\xff"\n')
    with pytest.raises(DeckError, match="UTF-8") as caught:
        load_file(path)
    assert caught.value.line == 3


def test_the_castle_helper_builds_a_legal_deck(tmp_path):
    # guards the BAD table above: without the broken card the same file loads
    deck = load_file(write(tmp_path, "bad", castle(M07.format(strength=3), monsters=33)))
    assert deck.size == 34 + 7 + 13
