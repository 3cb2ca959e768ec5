"""Deck-file complaints in the organizer's language: Russian or English on the Print page,
English (compiler-style) for the command line."""

from __future__ import annotations

import html

import pytest

from referee import decks
from referee.decks import DeckError, UnknownDeck, load_deck, load_file
from referee.rules import N_
from referee.web.i18n import rule_message

HEAD = '[deck]\nname = "mine"\nkind = "{kind}"\ntitle_en = "Mine"\ntitle_ru = "Моя"\n\n'

# (case, kind, cards, line, English, Russian)
BROKEN = [
    ("copies", "playing", '[[cards]]\ncode = "AS"\nrank = "A"\nsuit = "S"\ncopies = 0\n', 11,
     "card AS: copies must be a whole number from 1 to 99, not 0",
     "карта AS: число копий copies должно быть целым от 1 до 99, а не 0"),
    ("engine-U3", "castle", ('[[cards]]\ncode = "M07"\nkind = "monster"\nname_en = "T"\n'
                             'name_ru = "Т"\nstrength = 150\n'), 12,
     "U3: Card M07: strength must be a whole number from 0 to 99; correct it.",
     "U3: Карта M07: поле strength должно быть целым числом от 0 до 99; исправьте."),
    ("berserk", "berserk", ('[[cards]]\ncode = "B1"\nname_en = "A"\nname_ru = "А"\ncost = 2\n'
                            'lives = 3\nmovement = 1\nstrike = [1, 2]\n'), 14,
     "card B1: field 'strike' must be three whole numbers X-Y-Z of 0 or more, got [1, 2]",
     ("карта B1: поле 'strike' должно быть тремя целыми числами X-Y-Z не меньше 0, "
      "а записано [1, 2]")),
    ("class-count", "class", '[[cards]]\ncode = "C01"\nname_en = "W"\nname_ru = "В"\n', 1,
     "class deck: U2: class cards: 1, must be exactly 13; add or remove class cards.",
     ("колода классов: U2: карт классов: 1, должно быть ровно 13; добавьте или уберите "
      "карты классов.")),
    ("toml", "playing", '[[cards]]\ncode = "AS\n', 8,
     "TOML syntax: ", "ошибка синтаксиса TOML: "),
]
IDS = [case[0] for case in BROKEN]


def broken_deck(folder, kind: str, cards: str):
    path = folder / "mine.toml"
    path.write_text(HEAD.format(kind=kind) + cards, encoding="utf-8")
    return path


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


@pytest.fixture
def own_decks(tmp_path, monkeypatch):
    """The organizer's deck folder, read through REFEREE_DECKS."""
    monkeypatch.setenv(decks.ENV, str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(("case", "kind", "cards", "line", "english", "russian"), BROKEN,
                         ids=IDS)
def test_a_deck_error_reads_in_english_and_in_russian(app, tmp_path, case, kind, cards, line,
                                                     english, russian):
    path = broken_deck(tmp_path, kind, cards)
    with pytest.raises(DeckError) as caught:
        load_file(path)
    err = caught.value
    assert str(err).startswith(f"{path}:{line}: {english}")  # the CLI's words stay English
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert err.describe(rule_message).startswith(f"{path}:{line}: {russian}")
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert err.describe(rule_message) == str(err)


def test_a_deck_error_keeps_its_parts_and_english_message(tmp_path):
    err = DeckError(tmp_path / "x.toml", 3, N_("[deck]: %(key)s is missing; add it"),
                    key="title_ru")
    assert err.message == "[deck]: title_ru is missing; add it"
    assert str(err) == f"{tmp_path / 'x.toml'}:3: [deck]: title_ru is missing; add it"
    assert [(p.rule, p.message, p.params) for p in err.parts] == [
        (None, "[deck]: %(key)s is missing; add it", {"key": "title_ru"})]


@pytest.mark.parametrize(("language", "how"), [("ru", "header"), ("ru", "cookie"),
                                               ("en", "header")])
def test_the_print_page_lists_a_broken_deck_in_the_organizers_language(organizer, own_decks,
                                                                     language, how):
    path = broken_deck(own_decks, *BROKEN[0][1:3])
    if how == "cookie":
        organizer.set_cookie("lang", language)
    else:
        organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = text_of(organizer.get("/print/"))
    english, russian = BROKEN[0][4:]
    assert f"{path}:11: {russian if language == 'ru' else english}" in page
    assert (english in page) == (language == "en")
    assert "table36" in page  # the good decks are still offered


def test_the_print_page_escapes_what_a_deck_file_says(organizer, own_decks):
    path = broken_deck(own_decks, "playing", '[[cards]]\ncode = "AS"\nrank = "<b>"\n'
                                             'suit = "S"\n')
    page = organizer.get("/print/").get_data(as_text=True)
    assert "&lt;b&gt;" in page and "<b>" not in page
    assert f"{path}:9: " in html.unescape(page)


def test_printing_a_broken_deck_refuses_in_russian(organizer, own_decks):
    path = broken_deck(own_decks, *BROKEN[1][1:3])
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    response = organizer.get("/print/deck.pdf?name=mine")
    assert response.status_code == 422
    assert f"{path}:12: {BROKEN[1][5]}" in text_of(response)


@pytest.mark.parametrize(("language", "said"), [
    ("ru", "колоды с именем 'nosuch' нет; есть колоды: "),
    ("en", "no deck named 'nosuch'; decks: "),
])
def test_printing_an_unknown_deck_says_which_decks_there_are(organizer, language, said):
    organizer.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    response = organizer.get("/print/deck.pdf?name=nosuch")
    assert response.status_code == 422
    page = text_of(response)
    assert said in page and "table36" in page


def test_unknown_deck_is_english_for_the_command_line(app):
    with pytest.raises(UnknownDeck) as caught:
        load_deck("nosuch", [])
    assert str(caught.value).startswith("no deck named 'nosuch'; decks: berserk-sample, ")
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert caught.value.describe(rule_message).startswith(
            "колоды с именем 'nosuch' нет; есть колоды: berserk-sample, ")


def test_the_command_line_prints_a_broken_deck_in_english(own_decks, capsys):
    from referee.cli import main

    path = broken_deck(own_decks, *BROKEN[0][1:3])
    assert main(["print", "decks"]) == 2
    assert f"error: {path}:11: {BROKEN[0][4]}" in capsys.readouterr().err
    assert main(["print", "deck", "mine", "-o", str(own_decks / "x.pdf")]) == 2
    assert f"{path}:11: {BROKEN[0][4]}" in capsys.readouterr().err


def test_berserk_format_error_stays_plain_text_compatible():
    from referee.games.berserk.rules import FormatError

    assert str(FormatError("plain text")) == "plain text"
    err = FormatError(N_("card %(code)s: field '%(key)s' must be true or false, got %(value)s"),
                      code="B1", key="elite", value=repr("yes"))
    assert str(err) == "card B1: field 'elite' must be true or false, got 'yes'"
    assert isinstance(err, ValueError)

