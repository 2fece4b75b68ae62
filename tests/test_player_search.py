"""Finding a player the way a judge types: by table, id, kanji, kana or romaji.

Romaji is found however it is spelt: Hepburn or Kunrei (syouta, tyo, si, ti, tu, hu, zi),
with the long vowels written or not (shota, shouta, shôta, Satoh), the family name first or
last. Each result carries the player's table, seat and opponent in the current round.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from conftest import EventSetup, make_event
from shinpan.files.csvio import PlayerRow
from shinpan.guideline.search import normalize
from shinpan.romaji import SPELLING, is_romaji, search_forms, spelling, to_romaji
from shinpan.services import events, queries, search
from shinpan.services.search import PIECES_ASKED, EventRoster, index_of
from shinpan.services.search import _forms as forms
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.search import RosterRead, RosterRow

# -- the one spelling ----------------------------------------------------------------------

SAME_NAME = {
    # (how the reading is written, what judges type)
    "しょうた": ["shota", "shouta", "syouta", "syota", "shôta", "shōta", "SHOTA", "Shouta"],
    "さとう": ["sato", "satou", "satoh", "satō", "Sato", "satoo"],
    "ちょう": ["cho", "chou", "tyo", "tyou", "choh"],
    "しんや": ["shinya", "shin'ya", "sinya", "shin-ya"],
    "つよし": ["tsuyoshi", "tuyosi", "tsuyosi"],
    "ふじい": ["fujii", "huzii", "fuji", "huzi"],
    "じゅん": ["jun", "zyun", "jyun"],
    "ちひろ": ["chihiro", "tihiro"],
    "なんば": ["namba", "nanba"],
    "おおの": ["ono", "oono", "ohno", "ōno"],
    "まっちゃ": ["matcha", "mattya", "maccha"],
}


@pytest.mark.parametrize(("kana", "typed"), [(k, t) for k, ts in SAME_NAME.items() for t in ts])
def test_every_way_of_writing_a_name_comes_to_the_same_spelling(kana: str, typed: str) -> None:
    assert spelling(typed) == spelling(to_romaji(kana)), (kana, typed)


def test_different_names_stay_different() -> None:
    assert spelling("sato") != spelling("saito")
    assert spelling("ken") != spelling("kan")
    assert spelling("hina") != spelling("hana")


def test_a_reading_gives_each_name_and_both_orders() -> None:
    assert search_forms("さとう しょうた") == ["sato", "syota", "satosyota", "syotasato"]
    assert search_forms("いとう\u3000ひな") == ["ito", "hina", "itohina", "hinaito"]  # an ideographic space
    assert search_forms("サトウ") == ["sato"]  # katakana, one word
    assert search_forms("") == []


def test_only_romaji_is_respelt() -> None:
    assert is_romaji("Shota") and is_romaji("shôta") and is_romaji("t12")
    assert not is_romaji("しょうた") and not is_romaji("佐藤") and not is_romaji("123")


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzâôûō' -", max_size=20))
def test_spelling_twice_changes_nothing_more(text: str) -> None:
    once = spelling(text)
    assert spelling(once) == once
    assert once.isascii() and " " not in once


def test_the_rules_are_plain_enough_for_the_record_screens_script() -> None:
    # The script applies them with JavaScript's RegExp and String.replace: no back-references,
    # no named groups, no look-behind, and replacements without $ or \.
    for pattern, replacement in SPELLING:
        assert "\\" not in pattern and "(?<" not in pattern and "(?P" not in pattern, pattern
        assert "$" not in replacement and "\\" not in replacement, replacement


# -- finding players in an event ------------------------------------------------------------

ROSTER = [
    ("P001", "佐藤 翔太", "さとう しょうた"),
    ("P002", "伊藤 陽菜", "いとう ひな"),
    ("P003", "長 淳", "ちょう じゅん"),
    ("P004", "大野 慎也", "おおの しんや"),
    ("P005", "斎藤 翔", "さいとう しょう"),
    ("P006", "高橋 美咲", "たかはし みさき"),
    ("1030", "鈴木 健", "すずき けん"),
    ("P030", "田中 愛", "たなか あい"),
]


@pytest.fixture
def roster_event(db: Database) -> EventSetup:
    ev = make_event(db, players=0, pair=False)
    events.import_players(db, ev.id, [PlayerRow(n, name, reading, None) for n, name, reading in ROSTER])
    ev.pair(1, [("P001", "P002"), ("P003", "P004"), ("P005", "P006")])
    return ev


def found(ev: EventSetup, query: str) -> list[str]:
    return [p.number for p in queries.find_players(ev.db, ev.id, query)]


@pytest.mark.parametrize(
    ("query", "player"),
    [
        ("Sato Shota", "P001"),
        ("Shota Sato", "P001"),
        ("satoshota", "P001"),
        ("shotasato", "P001"),
        ("syouta", "P001"),
        ("shôta satou", "P001"),
        ("SATOH", "P001"),
        ("ito hina", "P002"),
        ("hina ito", "P002"),
        ("Itou Hina", "P002"),
        ("tyo zyun", "P003"),
        ("Cho Jun", "P003"),
        ("chou jun", "P003"),
        ("Ohno Shinya", "P004"),
        ("oono sinya", "P004"),
        ("shin'ya", "P004"),
        ("佐藤 翔太", "P001"),
        ("翔太 佐藤", "P001"),
        ("さとう しょうた", "P001"),
        ("サトウ", "P001"),
        ("たかはし", "P006"),
        ("p006", "P006"),
        ("P006", "P006"),
    ],
)
def test_a_player_is_found_however_the_name_is_typed(
    roster_event: EventSetup, query: str, player: str
) -> None:
    assert player in found(roster_event, query), query


def test_a_search_finds_no_one_else(roster_event: EventSetup) -> None:
    assert found(roster_event, "Sato Shota") == ["P001"]
    assert found(roster_event, "ito hina") == ["P002"]  # not 斎藤 (saito), not 伊藤's neighbours
    assert found(roster_event, "saito") == ["P005"]
    assert found(roster_event, "nobody here") == []


def test_a_table_number_finds_both_players_first_with_their_seats(roster_event: EventSetup) -> None:
    table_two = queries.find_players(roster_event.db, roster_event.id, "2")
    assert [p.number for p in table_two][:2] == ["P003", "P004"]
    chosen = {p.number: p for p in table_two}
    assert (chosen["P003"].table, chosen["P003"].seat, chosen["P003"].opponent) == (2, "a", "P004")
    assert (chosen["P004"].table, chosen["P004"].seat, chosen["P004"].opponent_name) == (2, "b", "長 淳")
    for query in ("t2", "卓2", "ｔ２"):
        assert found(roster_event, query)[:2] == ["P003", "P004"], query


def test_a_number_that_is_a_table_and_part_of_ids_tells_them_apart(roster_event: EventSetup) -> None:
    ev = roster_event
    ev.pair(2, [("P006", "P005")])
    thirty = queries.find_players(ev.db, ev.id, "30")
    assert {p.number for p in thirty} >= {"1030", "P030"}
    assert all(p.table is None for p in thirty if p.number in ("1030", "P030")), "not paired in round 2"
    first = queries.find_players(ev.db, ev.id, "1")[0]
    assert (first.number, first.table, first.seat, first.opponent) == ("P006", 1, "a", "P005")


def test_the_roster_carries_the_keys_the_search_matches(roster_event: EventSetup) -> None:
    kept = queries.roster(roster_event.db, roster_event.id)
    assert kept.round == 1
    by_number = {p.number: (p, key) for p, key in kept.players}
    player, key = by_number["P001"]
    assert (player.table, player.seat, player.opponent_name) == (1, "a", "伊藤 陽菜")
    for form in ("syota", "satosyota", "syotasato", "さとうしょうた", "佐藤翔太", "p001"):
        assert form in key.splitlines(), form


def test_the_answer_written_as_json_is_the_players_found_and_follows_a_new_pairing(
    roster_event: EventSetup,
) -> None:
    ev = roster_event
    index = index_of(ev.db)
    for query in ("2", "sato", "たかはし", "30", "", "nobody here", "P00"):
        answer = index.current(ev.id).find_json(query)
        assert json.loads(answer) == [p.as_json() for p in index.current(ev.id).find(query)], query
        assert index.current(ev.id).find_json(query) == answer  # written once, the same again
    ev.pair(2, [("P006", "P005")])
    (first,) = (p for p in json.loads(index.current(ev.id).find_json("1")) if p["number"] == "P006")
    assert (first["table"], first["seat"], first["opponent_name"]) == (1, "a", "斎藤 翔")


def test_rulings_recorded_while_the_index_is_read_keep_it_and_a_pairing_does_not(
    roster_event: EventSetup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a big event's pairing a ruling is recorded while the index reads 2,000 players:
    the index read then stays current (reading it again at every search would never
    end under the judges' load); a pairing that came meanwhile has it read again."""
    ev = roster_event
    index = index_of(ev.db)
    meanwhile: list[Callable[[], object]] = []
    real = search.read_roster

    def read_while_recording(conn: Connection, event_id: int) -> RosterRead:
        read = real(conn, event_id)
        for change in meanwhile:
            change()
        return read

    monkeypatch.setattr(search, "read_roster", read_while_recording)
    monkeypatch.setattr(index.watch, "relayed", True)
    index.events.pop(ev.id, None)
    meanwhile.append(lambda: ev.record("P005", "ingame.slow-play"))
    kept = index.current(ev.id)
    assert index.ready(ev.id) is kept and found(ev, "2")[:2] == ["P003", "P004"]

    index.events.pop(ev.id, None)
    meanwhile[:] = [lambda: ev.record("P005", "ingame.slow-play"), lambda: ev.pair(2, [("P006", "P003")])]
    index.current(ev.id)
    assert index.ready(ev.id) is None  # read again at the next search: the new pairing shows
    meanwhile.clear()
    assert found(ev, "1")[:2] == ["P006", "P003"]


# -- the index answers as reading every key would ----------------------------------------------

# A few characters, so that a query's pieces are often held by keys that do not hold it.
KEY_TEXT = st.text(alphabet="さとうa0\n", min_size=1, max_size=12)


@given(
    keys=st.lists(KEY_TEXT, min_size=1, max_size=12),
    query=st.text(alphabet="さとうa0 \0", max_size=12),
    limit=st.integers(min_value=1, max_value=5),
)
@example(keys=["a", "b"], query="a\0", limit=2)  # a NUL typed: the text joins the keys with one
def test_the_pieces_index_finds_exactly_the_players_whose_key_holds_every_word(
    keys: list[str], query: str, limit: int
) -> None:
    numbers = [f"N{i:02d}" for i in range(len(keys))]
    rows = [RosterRow(n, n, n, None, "active", key) for n, key in zip(numbers, keys, strict=True)]
    index = EventRoster(RosterRead(head=1, round=0, players=rows, tables=[]))
    words = [w for w in (normalize(w) for w in query.split()) if w]
    holding = [
        n for n, key in zip(numbers, keys, strict=True) if all(any(f in key for f in forms(w)) for w in words)
    ]
    exact = [query.strip()] if query.strip() in numbers else []
    assert [p.number for p in index.find(query, limit)] == list(dict.fromkeys(exact + holding))[:limit]


def test_a_long_word_typed_once_looks_up_a_few_of_its_pieces_not_all() -> None:
    # Each piece not kept yet is a pass through every key: a 78-character word must not cost
    # 26 of them (a search runs on the server's event loop). Every piece of this word is in
    # some key, the word in none.
    letters = "abcdefghijklmnopqrstuvwxyz"
    rows = [RosterRow(n, n, n, None, "active", key) for n, key in (("N1", letters), ("N2", "za"))]
    index = EventRoster(RosterRead(head=1, round=0, players=rows, tables=[]))
    assert index.find(letters * 3) == []
    assert 0 < len(index.pieces) <= PIECES_ASKED


def test_a_table_is_asked_in_ascii_digits_and_other_digits_are_a_name(roster_event: EventSetup) -> None:
    # Digits of other scripts are digits to Python but not to int() after NFKC: "፩" (U+1369)
    # used to fail the search with a server error.
    for query in ("፩", "t𐩀", "𐩀"):
        assert found(roster_event, query) == [], query
