"""The duel screens through the Flask test client: what the referee sees, what is stored."""

from __future__ import annotations

import re

import pytest

from referee.games.duel import service as duels
from referee.games.duel.rules import Extension, Play, Round
from referee.players import service
from referee.store import players as rows
from tests.conftest import post, sign_in


@pytest.fixture
def b(db):
    """Player B of duel.md's worked examples: HP 3/3, chance 1/1, 2 cartridges, ♣."""
    return service.create(db, None, {"character": "Brigadier B", "hp_max": 3,
                                      "chance_max": 1, "cartridges": 2, "suit": "C"})


@pytest.fixture
def duel(db, player, b):
    """A duel between A and B, just started (version 1)."""
    return duels.start(db, None, player["id"], b["id"])


def counts(db) -> tuple:
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("events", "games", "game_actions"))


def round_form(a: str | None, b: str | None, version: int, **extra) -> dict:
    form = {"a_table": a or "", "b_table": b or "", "a_tokens": "0", "b_tokens": "0",
            "version": str(version)}
    form.update(extra)
    return form


def play(client, duel_id: int, a: str, b: str, version: int, htmx=True, **extra):
    return post(client, f"/duels/{duel_id}/rounds", round_form(a, b, version, **extra),
                htmx=htmx)


def keys_of(html: str, side: str) -> list[tuple[str, bool]]:
    """(card, disabled) for each keypad button of one duelist."""
    found = re.findall(rf'<input type="radio" name="{side}_table" value="(\w+)"( disabled)?',
                       html)
    return [(card, bool(disabled)) for card, disabled in found]


# Picking the duelists -------------------------------------------------------------------


def test_D4_new_duel_shows_both_duelists_stats_and_deck(referee, player, b):
    html = referee.get(f"/duels/new?a={player['id']}&b={b['id']}").get_data(as_text=True)
    assert "Captain A" in html and "Brigadier B" in html
    assert re.search(r"<dt>Cartridges</dt><dd>3</dd>", html)
    assert re.search(r"<dt>HP</dt><dd>3<small>/3</small></dd>", html)
    assert re.search(r"<dt>Chance</dt><dd>1<small>/1</small></dd>", html)
    assert "6♥" in html and "A♣" in html
    assert 'action="/duels"' in html and "disabled" not in html.split('action="/duels"')[1]


def test_D4_example_6_refusal_is_shown_before_start_and_post_is_422(referee, db, player, b):
    service.set_exact(db, None, b["id"], {"cartridges": 0})
    html = referee.get(f"/duels/new?a={player['id']}&b={b['id']}").get_data(as_text=True)
    assert "D4: Brigadier B has no cartridge" in html
    before = counts(db), rows.get(db, player["id"])
    response = post(referee, "/duels", {"a": player["id"], "b": b["id"]})
    assert response.status_code == 422
    assert "D4: Brigadier B has no cartridge" in response.get_data(as_text=True)
    assert (counts(db), rows.get(db, player["id"])) == before


def test_search_lists_candidates_for_the_empty_slot(referee, db, player, b):
    fragment = referee.get(f"/duels/new?a={player['id']}&q=brig",
                           headers={"HX-Request": "true", "HX-Target": "duel-pick"})
    html = fragment.get_data(as_text=True)
    assert html.lstrip().startswith('<ul class="rows players" id="duel-pick">')
    assert f'href="/duels/new?a={player["id"]}&amp;b={b["id"]}"' in html
    assert "Captain A" not in html  # already chosen


def test_a_pasted_passport_link_picks_the_player(referee, player, b):
    link = f"http://192.168.1.10:8080/p/{b['passport_token']}"
    html = referee.get("/duels/new", query_string={"a": player["id"], "link": link}
                       ).get_data(as_text=True)
    assert f'<input type="hidden" name="b" value="{b["id"]}">' in html
    bad = referee.get("/duels/new", query_string={"link": "http://x/p/nope-nope-nope-nope"})
    assert "No passport matches this link" in bad.get_data(as_text=True)


def test_two_scanned_passports_one_after_the_other_set_up_their_duel(referee, db, player, b):
    a_id, b_id = player["id"], b["id"]
    # A's passport scanned: the referee's sheet of A, "Start a duel"
    first = referee.get(f"/duels/new?join={a_id}")
    assert (first.status_code, first.location) == (303, f"/duels/new?a={a_id}")
    referee.get(first.location)
    # B's passport scanned next: "Start a duel" there puts B opposite A
    second = referee.get(f"/duels/new?join={b_id}")
    assert second.location == f"/duels/new?a={a_id}&b={b_id}"
    html = referee.get(second.location).get_data(as_text=True)
    assert f'<input type="hidden" name="a" value="{a_id}">' in html
    assert f'<input type="hidden" name="b" value="{b_id}">' in html
    # once the duel starts, the next scan begins a new pick
    assert post(referee, "/duels", {"a": a_id, "b": b_id}).status_code == 303
    assert referee.get(f"/duels/new?join={b_id}").location == f"/duels/new?a={b_id}"


def test_an_old_pick_is_forgotten(referee, player, b):
    referee.get(f"/duels/new?a={player['id']}")
    with referee.session_transaction() as kept:
        kept["duel_setup"] = {**kept["duel_setup"], "at": "2020-01-01T00:00:00+00:00"}
    assert referee.get(f"/duels/new?join={b['id']}").location == f"/duels/new?a={b['id']}"


def test_start_redirects_to_the_duel_and_pays_cartridges(referee, db, player, b):
    response = post(referee, "/duels", {"a": player["id"], "b": b["id"]})
    assert response.status_code == 303
    duel_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert rows.get(db, player["id"])["cartridges"] == 2
    html = referee.get(f"/duels/{duel_id}").get_data(as_text=True)
    assert "Round 1 of 3" in html


# The round screen -----------------------------------------------------------------------


def test_D2_D6_keypad_has_36_keys_per_duelist_with_used_cards_disabled(referee, db, duel):
    duels.record(db, None, duel.id, Round(a=Play("10S"),
                                                 b=Play("7H")))
    html = referee.get(f"/duels/{duel.id}").get_data(as_text=True)
    for side, used in (("a", "10S"), ("b", "7H")):
        keys = keys_of(html, side)
        assert len(keys) == 36 and len({c for c, _d in keys}) == 36
        assert [c for c, disabled in keys if disabled] == [used]
    assert "Round 2 of 3" in html


def test_D5_D7_hand_cards_offered_are_the_remaining_duel_deck(referee, db, duel):
    html = referee.get(f"/duels/{duel.id}").get_data(as_text=True)
    hand = re.findall(r'name="a_hand" value="(\w*)"', html)
    assert hand == ["", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    tokens = re.findall(r'name="a_tokens" value="(\d+)"', html)
    assert tokens == ["0", "1", "2"]
    # After three hand cards the D5 hand is spent: nothing is offered any more (R4).
    for a_play, b_card in ((Play("6S", "AH"), "7C"), (Play("6D", "6H"), "QC"),
                           (Play("7D", "7H"), "7S")):
        duels.record(db, None, duel.id, Round(a=a_play, b=Play(b_card)))
    duels.record(db, None, duel.id, Extension(a=True, b=True))
    html = referee.get(f"/duels/{duel.id}").get_data(as_text=True)
    assert 'name="a_hand"' not in html
    assert "No hand card can be laid any more (D5)." in html


def test_D9_live_preview_compares_the_totals(referee, duel):
    response = post(referee, f"/duels/{duel.id}/preview",
                    round_form("6S", "KC", 1, a_hand="AH", a_tokens="1"), htmx=True)
    html = response.get_data(as_text=True)
    assert f'id="duel-preview-{duel.id}-1"' in html
    assert re.search(r'class="total win"><b class="side-tag">A</b> 15<', html)
    assert "Captain A wins the round" in html and "Brigadier B loses 1 HP." in html
    half = post(referee, f"/duels/{duel.id}/preview", round_form("6S", None, 1), htmx=True)
    assert "Tap a card for each duelist" in half.get_data(as_text=True)
    # D7: a hand card alone counts; the covered table card need not be tapped
    covered = post(referee, f"/duels/{duel.id}/preview",
                   round_form(None, "KC", 1, a_hand="AH"), htmx=True).get_data(as_text=True)
    assert re.search(r'class="total win"><b class="side-tag">A</b> 14<', covered)
    assert "Captain A wins the round" in covered


def test_D9_a_round_is_two_cards_and_confirm(referee, db, player, b, duel):
    response = play(referee, duel.id, "10S", "7H", 1)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<section class="duel panel status-in_progress" '
                                    f'id="duel-{duel.id}" data-version="2"')
    assert "Round 2 of 3" in html
    assert rows.get(db, b["id"])["hp"] == 2
    plain = play(referee, duel.id, "6D", "QC", 2, htmx=False)
    assert plain.status_code == 303 and plain.headers["Location"].endswith(f"/duels/{duel.id}")
    assert rows.get(db, player["id"])["hp"] == 2


def test_D7_D14_a_hand_card_over_an_unread_table_card_is_recorded_as_not_read(
        referee, db, player, b, duel):
    response = play(referee, duel.id, None, "KC", 1, a_hand="AH")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'class="pc unread" title="Table card not read: the hand card lay over '
                     r'it \(D7\)"><span aria-hidden="true">\?</span><span class="sr">not read'
                     r'</span></span> <span class="pc suit-H">A♥', html)
    last = duels.load(db, duel.id).state.rounds[-1]
    assert (last.a.table, last.a.hand, last.a.total, last.winner) == (None, "AH", 14, "a")
    assert rows.get(db, b["id"])["hp"] == 2
    assert rows.get(db, player["id"])["duel_deck"] == "6H,7H,8H,9H,10H,JH,QH,KH"
    # every A table key is still free: nothing was read from A's table deck (D6)
    assert not any(disabled for _card, disabled in keys_of(html, "a"))


def test_D14_stale_version_is_409_with_the_fresh_screen_and_applied_once(referee, db, b, duel):
    assert play(referee, duel.id, "10S", "7H", 1).status_code == 200
    before = counts(db)
    response = play(referee, duel.id, "10S", "7H", 1)
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Someone else already recorded this round" in html
    assert 'data-version="2"' in html and "Round 2 of 3" in html
    assert counts(db) == before and rows.get(db, b["id"])["hp"] == 2
    page = play(referee, duel.id, "JS", "QS", 1, htmx=False)
    assert page.status_code == 409 and "<html" in page.get_data(as_text=True)


@pytest.mark.parametrize(("form", "rule", "text"), [
    ({"b_table": ""}, "D6", "Tap the table card Brigadier B turned up, or the hand card"),
    ({"a_tokens": "3"}, "D8", "Not enough chance tokens"),
    ({"a_tokens": "x"}, "D8", "whole number"),
    ({"a_hand": "AS"}, "D7", "AS is not in Captain A"),
    ({"a_table": "XX"}, "D3", "Cannot read the card"),
])
def test_D3_D6_D7_D8_bad_input_is_422_with_the_rule_and_changes_nothing(
        referee, db, duel, form, rule, text):
    before = counts(db)
    response = post(referee, f"/duels/{duel.id}/rounds",
                    {**round_form("6S", "7S", 1), **form}, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    # floating over the screen: the keypads do not move
    assert re.search(rf'class="alert refusal" role="alert">{rule}: [^<]*{re.escape(text)}',
                     html)
    assert counts(db) == before
    if form.get("b_table") == "":
        # The referee's taps survive the refusal: A's card is still selected.
        assert 'name="a_table" value="6S" checked' in html


def test_D12_extension_prompt_disables_what_the_rules_refuse(referee, db, player, b):
    service.set_exact(db, None, b["id"], {"cartridges": 1})
    view = duels.start(db, None, player["id"], b["id"])
    for a_card, b_card in (("10S", "7H"), ("6D", "QC"), ("9D", "9S")):
        view = duels.record(db, None, view.id, Round(a=Play(a_card),
                                                            b=Play(b_card)))
    html = referee.get(f"/duels/{view.id}").get_data(as_text=True)
    assert "Extension (D12)" in html
    assert "D12: Brigadier B has no cartridge left and cannot continue" in html
    assert re.search(r'value="both" disabled', html) and re.search(r'value="b" disabled', html)
    assert re.search(r'value="a">', html) and re.search(r'value="none">', html)
    before = counts(db)
    refused = post(referee, f"/duels/{view.id}/extension", {"choice": "both", "version": 4},
                   htmx=True)
    assert refused.status_code == 422 and "D12: Brigadier B" in refused.get_data(as_text=True)
    assert counts(db) == before
    done = post(referee, f"/duels/{view.id}/extension", {"choice": "a", "version": 4},
                htmx=True)
    html = done.get_data(as_text=True)
    assert "Captain A wins the duel: Brigadier B did not continue the extension." in html
    assert rows.get(db, player["id"])["cartridges"] == 1


def test_D14_final_screen_shows_the_whole_record(referee, db, duel):
    for a_card, b_card, hand in (("10S", "7H", None), ("6D", "QC", None), ("KD", "9S", "AH")):
        duels.record(db, None, duel.id, Round(a=Play(a_card, hand, 1 if hand
                                                                       else 0),
                                                     b=Play(b_card)))
    html = referee.get(f"/duels/{duel.id}").get_data(as_text=True)
    assert "Captain A wins the duel on rounds, 2–1." in html
    assert "chance tokens are restored to the maximum (D13)" in html
    assert html.count('class="rec-round"') == 3
    assert 'class="pc suit-D covered">K♦</span> <span class="pc suit-H">A♥</span>' in html
    assert "+1✦" in html
    table = re.sub(r"\s+", " ", html.split('class="rec-table"')[1].split("</table>")[0])
    assert "<th>HP</th><td>3 → 2</td><td>3 → 1</td>" in table
    assert "<th>Cartridges paid</th><td>1</td><td>1</td>" in table
    assert 'action="/duels/1/rounds"' not in html


def test_undo_button_reverses_the_latest_round(referee, db, b, duel):
    play(referee, duel.id, "10S", "7H", 1)
    html = referee.get(f"/duels/{duel.id}").get_data(as_text=True)
    assert "Last step: round 1" in html and f'action="/duels/{duel.id}/undo"' in html
    response = post(referee, f"/duels/{duel.id}/undo", {"version": 2}, htmx=True)
    assert response.status_code == 200 and "Round 1 of 3" in response.get_data(as_text=True)
    assert rows.get(db, b["id"])["hp"] == 3
    stale = post(referee, f"/duels/{duel.id}/undo", {"version": 2}, htmx=True)
    assert stale.status_code == 409 and rows.get(db, b["id"])["cartridges"] == 1


def test_a_duel_survives_a_reload_and_another_referee_finishes_it(app, referee, db, b, duel):
    play(referee, duel.id, "10S", "7H", 1)
    other = app.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    sign_in(other, "org", "org-password")
    html = other.get(f"/duels/{duel.id}").get_data(as_text=True)
    assert "Round 2 of 3" in html and 'name="version" value="2"' in html
    play(other, duel.id, "6D", "QC", 2)
    play(other, duel.id, "KH", "9S", 3)
    assert duels.load(db, duel.id).status == "finished"
    assert [r["referee"] for r in duels.load(db, duel.id).log] == [None, "ref", "org", "org"]


# History ------------------------------------------------------------------------------


def test_duel_list_is_filterable_by_player(referee, db, player, b, duel):
    c = service.create(db, None, {"character": "Cornet C", "hp_max": 3, "chance_max": 1,
                                  "cartridges": 3, "suit": "S"})
    other = duels.start(db, None, b["id"], c["id"])
    everyone = referee.get("/duels").get_data(as_text=True)
    assert f'href="/duels/{duel.id}"' in everyone and f'href="/duels/{other.id}"' in everyone
    only_a = referee.get(f"/duels?player={player['id']}").get_data(as_text=True)
    assert f'href="/duels/{duel.id}"' in only_a and f'href="/duels/{other.id}"' not in only_a
    assert "Duels of Captain A" in only_a


def test_player_page_lists_duels_and_surrendered_cards_without_duel_undo(referee, db, player,
                                                                         duel):
    duels.record(db, None, duel.id, Round(a=Play("6S", "AH"),
                                                 b=Play("KC")))
    html = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    section = html.split('id="duels"')[1].split("</section>")[0]
    assert f'href="/duels/{duel.id}"' in section and "Brigadier B" in section
    assert f'href="/duels/new?join={player["id"]}"' in section
    assert re.search(r'class="playing suit-H" href="/duels/1"[^>]*>A♥<small>#1</small>',
                     section)
    history = html.split(f'id="history-{player["id"]}"')[1]
    # D7: the card that left, in its suit's colour, not nine codes
    assert 'Duel deck <span class="suit-H">−A♥</span> </span>' in history
    duel_events = [e for (e,) in db.execute(
        "SELECT id FROM events WHERE player_id = ? AND kind = 'duel'", [player["id"]])]
    for event_id in duel_events:
        assert f"/events/{event_id}/undo" not in html


def test_duel_screen_in_russian(referee, duel):
    referee.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    html = referee.get(f"/duels/{duel.id}").get_data(as_text=True)
    assert "Раунд 1 из 3" in html and "Подтвердить раунд 1" in html
    assert "Карта из руки" in html and "Round 1" not in html


def test_names_are_escaped(referee, db, b):
    evil = service.create(db, None, {"character": "<b>Evil</b>", "hp_max": 3,
                                     "chance_max": 1, "cartridges": 3, "suit": "S"})
    view = duels.start(db, None, evil["id"], b["id"])
    html = referee.get(f"/duels/{view.id}").get_data(as_text=True)
    assert "<b>Evil</b>" not in html and "&lt;b&gt;Evil&lt;/b&gt;" in html


def test_duel_pages_need_a_referee(client, duel):
    for url in ("/duels", "/duels/new", f"/duels/{duel.id}"):
        assert client.get(url).status_code == 302
    assert client.get("/duels/99").status_code == 302


def test_duel_reasons_read_in_each_readers_language(referee, app, db, player, duel):
    # one event, written once; an English and a Russian referee each read it in theirs
    duels.record(db, None, duel.id, Round(a=Play("6S"), b=Play("KC")))
    sheet = referee.get(f"/players/{player['id']}").get_data(as_text=True)
    assert "«Duel 1, round 1»" in sheet and "«Duel 1, start»" in sheet
    russian = app.test_client()
    russian.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    sheet = sign_in(russian).get(f"/players/{player['id']}").get_data(as_text=True)
    assert "«Дуэль №1, раунд 1»" in sheet and "Duel 1" not in sheet
