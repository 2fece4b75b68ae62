"""The decklist files organisers and players have (T13): text, MTGO .dek, Arena, Pokémon TCG Live,
a CSV of many players, and the banned/restricted and unlimited name files; bad files refused by line."""

from __future__ import annotations

import pytest

from shinpan.files.decklists import DecklistError, detect, parse, parse_batch, parse_limits, parse_names
from shinpan.tournament.decks import normalise


def sections(data: bytes, fmt: str | None = None) -> dict[str, list[tuple[int, str]]]:
    deck, _ = parse(data, fmt)
    return {s: [(c.count, c.name) for c in cards] for s, cards in deck.sections.items()}


def test_text_with_japanese_headers_and_full_width_counts() -> None:
    text = "メイン\n4 稲妻\n4x Shock\n５６ 山\n\nサイド：\n3 Duress\n"
    assert sections(text.encode()) == {
        "main": [(4, "稲妻"), (4, "Shock"), (56, "山")],
        "side": [(3, "Duress")],
    }


def test_text_a_blank_line_before_the_sideboard() -> None:
    assert sections(b"4 Lightning Bolt\n56 Mountain\n\n3 Duress\n") == {
        "main": [(4, "Lightning Bolt"), (56, "Mountain")],
        "side": [(3, "Duress")],
    }


def test_text_english_headers_and_an_extra_deck() -> None:
    data = b"Main Deck (40)\n40 Card\nExtra Deck:\n15 Fusion\nSideboard\n15 Side\n"
    assert sections(data) == {"main": [(40, "Card")], "extra": [(15, "Fusion")], "side": [(15, "Side")]}


def test_text_in_shift_jis() -> None:
    assert sections("4 稲妻\n56 山\n".encode("cp932")) == {"main": [(4, "稲妻"), (56, "山")]}


def test_arena_export() -> None:
    data = b"Deck\n4 Lightning Bolt (M10) 146\n56 Mountain (M10) 240\n\nSideboard\n3 Duress (M10) 96\n"
    _, fmt = parse(data)
    assert fmt == "arena"
    assert sections(data) == {"main": [(4, "Lightning Bolt"), (56, "Mountain")], "side": [(3, "Duress")]}


def test_pokemon_tcg_live() -> None:
    data = "Pokémon: 12\n4 Arceus V BRS 122\nTrainer: 36\n4 Ultra Ball SVI 196\nEnergy: 12\n12 Basic Water Energy SVE 3\n\nTotal Cards: 60\n"
    _, fmt = parse(data.encode())
    assert fmt == "ptcgl"
    assert sections(data.encode()) == {
        "main": [(4, "Arceus V"), (4, "Ultra Ball"), (12, "Basic Water Energy")]
    }


def test_mtgo_dek() -> None:
    data = (
        b'<?xml version="1.0" encoding="utf-8"?>\n<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n'
        b"  <NetDeckID>0</NetDeckID>\n"
        b'  <Cards CatID="1" Quantity="4" Sideboard="false" Name="Lightning Bolt" />\n'
        b'  <Cards CatID="2" Quantity="3" Sideboard="true" Name="Duress" />\n</Deck>\n'
    )
    deck, fmt = parse(data)
    assert fmt == "dek"
    assert [(c.count, c.name, c.line) for c in deck.sections["main"]] == [(4, "Lightning Bolt", 4)]
    assert [(c.count, c.name) for c in deck.sections["side"]] == [(3, "Duress")]


def test_a_dek_with_entities_is_refused() -> None:
    with pytest.raises(DecklistError) as e:
        parse(b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><Deck>&a;</Deck>')
    assert "実体参照" in e.value.text()


def test_counts_of_0_and_10000_are_refused_by_line() -> None:
    with pytest.raises(DecklistError) as e:
        parse(b"0 Bolt\n10000 Mountain\n4 Shock\n")
    assert [(p.line, p.ja) for p in e.value.problems] == [
        (1, "枚数0は使えません（1〜999枚）。"),
        (2, "枚数10000は使えません（1〜999枚）。"),
    ]
    assert e.value.text().startswith("デッキリストを読めません")


def test_a_file_in_no_known_format() -> None:
    for data in (b"\x00\x01\x02", b"PK\x03\x04...", b"hello\nworld\n"):
        with pytest.raises(DecklistError) as e:
            parse(data)
        assert "形式" in e.value.problems[0].ja
        assert "no known decklist format" in e.value.problems[0].en


def test_an_unknown_format_name_is_refused() -> None:
    with pytest.raises(DecklistError):
        parse(b"4 Bolt\n", "pdf")


def test_detect() -> None:
    assert detect("4 稲妻\n") == "text"
    assert detect("<Deck></Deck>") == "dek"


def test_a_batch_csv_of_many_players_in_shift_jis() -> None:
    data = "選手番号,区分,枚数,カード名\n1001,メイン,4,稲妻\n1001,サイド,2,Duress\n1002,main,60,山\n".encode(
        "cp932"
    )
    lists = parse_batch(data)
    assert sorted(lists) == ["1001", "1002"]
    assert lists["1001"].size("side") == 2
    assert [c.line for c in lists["1001"].sections["main"]] == [2]


def test_a_batch_csv_with_a_bad_count_changes_nothing() -> None:
    with pytest.raises(DecklistError) as e:
        parse_batch(b"player,section,count,name\n1001,main,4,Bolt\n1002,main,0,Bolt\n1003,side,x,Bolt\n")
    assert [p.line for p in e.value.problems] == [3, 4]


def test_a_batch_csv_without_the_columns() -> None:
    with pytest.raises(DecklistError) as e:
        parse_batch(b"who,what\n1,2\n")
    assert "player, section, count, name" in e.value.problems[0].ja


def test_the_banned_and_restricted_file() -> None:
    limits = parse_limits("# 禁止・制限\n0 Black Lotus\n1 タイム・ウォーク\n".encode())
    assert limits == {
        normalise("Black Lotus"): (0, "Black Lotus"),
        normalise("タイムウォーク"): (1, "タイム・ウォーク"),
    }


def test_a_banned_file_with_a_malformed_line_is_refused_by_line() -> None:
    with pytest.raises(DecklistError) as e:
        parse_limits(b"0 Black Lotus\n2 Foo\nbar\n")
    assert [p.line for p in e.value.problems] == [2, 3]
    assert "「0 カード名」（禁止）" in e.value.problems[0].ja


def test_the_unlimited_file() -> None:
    assert parse_names("山\n島\n\n# comment\n".encode()) == {"山": "山", "島": "島"}
