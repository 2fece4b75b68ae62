"""T13 of tournament/RULES.md and the five `deck.*` infractions of CATALOG.md, as small lists.

Read `deck(main=[(4, "稲妻")] + filler(56))` as "a list of four 稲妻 and 56 other cards in the
main". `propose("A", Findings(...))` is what the deck check screen offers to record.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from shinpan.tournament.deckcheck import (
    ILLEGAL_DECK,
    ILLEGAL_DECKLIST,
    LOST_OR_MIXED,
    MISMATCH,
    RECORDING,
    Comparison,
    Findings,
    Foreign,
    Line,
    Proposal,
    checks_per_player,
    compare,
    first_infraction,
    minutes,
    pick_tables,
    propose,
)
from shinpan.tournament.decks import (
    Bounds,
    Card,
    Decklist,
    DeckRules,
    Problem,
    RulesError,
    is_legal,
    list_wanted,
    normalise,
    parse_sections,
    problems,
)

RULES = DeckRules()


def filler(n: int, prefix: str = "Card") -> list[tuple[int, str]]:
    """n cards, one copy each of differently named cards."""
    return [(1, f"{prefix} {i}") for i in range(n)]


def deck(main: list[tuple[int, str]], side: list[tuple[int, str]] | None = None) -> Decklist:
    return Decklist.of({"main": main, "side": side or []})


LEGAL = deck([(4, "稲妻"), *filler(56)], [(3, "Duress"), *filler(12, "Side")])

# --- names: NFKC, case, width, spaces and 「・」, katakana and hiragana


def test_t13_names_compare_without_case_width_spaces_or_dots() -> None:
    assert (
        normalise("Lightning Bolt") == normalise("lightningbolt") == normalise("ＬＩＧＨＴＮＩＮＧ　ＢＯＬＴ")
    )
    assert normalise("ブラック・ロータス") == normalise("ブラックロータス") == normalise("ﾌﾞﾗｯｸ･ﾛｰﾀｽ")


def test_t13_katakana_and_hiragana_are_the_same_name() -> None:
    assert normalise("いなずま") == normalise("イナズマ")


def test_t13_different_names_stay_different() -> None:
    assert normalise("稲妻") != normalise("稲光")


# --- a legal list: sizes within bounds, no name over its limit


def test_t13_the_default_rules_main_at_least_60_side_0_to_15() -> None:
    assert RULES.sections == (("main", Bounds(60, None)), ("side", Bounds(0, 15)))
    assert RULES.copies == 4
    assert is_legal(RULES, LEGAL)


def test_t13_a_main_of_59_is_illegal_and_named() -> None:
    found = problems(RULES, deck(filler(59)))
    assert [p.ja for p in found] == ["メインは59枚です（60枚以上にしてください）。"]
    assert "main section has 59 cards" in found[0].en


def test_t13_a_side_of_16_is_illegal() -> None:
    assert [p.en for p in problems(RULES, deck(filler(60), filler(16, "S")))] == [
        "the side section has 16 cards; it must have 0 to 15."
    ]


def test_t13_a_fifth_copy_is_named_by_its_line() -> None:
    cards = (Card(3, "いなずま", 1), *[Card(1, f"c{i}", 2 + i) for i in range(55)], Card(2, "イナズマ", 60))
    found = problems(RULES, Decklist({"main": cards}))
    assert [(p.line, p.ja) for p in found] == [(1, "メインの「いなずま」は4枚までです（5枚）。")]


def test_t13_copies_are_counted_per_section_unless_across() -> None:
    listed = deck([(4, "稲妻"), *filler(56)], [(2, "稲妻")])
    assert is_legal(RULES, listed)
    across = DeckRules(across=True)
    assert [p.en for p in problems(across, listed)] == ["at most 4 '稲妻' in all sections (the list has 6)."]


def test_t13_a_banned_name_may_not_appear_at_all() -> None:
    rules = DeckRules(limits={normalise("Black Lotus"): 0})
    found = problems(rules, deck([(1, "black lotus"), *filler(59)]))
    assert [p.ja for p in found] == ["「black lotus」は禁止カードです。"]


def test_t13_a_restricted_name_once_across_the_whole_list() -> None:
    rules = DeckRules(limits={normalise("Time Walk"): 1})
    assert is_legal(rules, deck([(1, "Time Walk"), *filler(59)]))
    found = problems(rules, deck([(1, "Time Walk"), *filler(59)], [(1, "time walk")]))
    assert [p.en for p in found] == ["'Time Walk' is restricted to 1 (the list has 2)."]


def test_t13_an_unlimited_name_any_number() -> None:
    rules = DeckRules(unlimited=frozenset({normalise("山")}))
    assert is_legal(rules, deck([(24, "山"), *filler(36)]))
    assert not is_legal(RULES, deck([(24, "山"), *filler(36)]))


def test_t13_a_game_with_main_extra_side() -> None:
    rules = DeckRules(sections=parse_sections("main:40-60,extra:0-15,side:0-15"))
    assert is_legal(rules, Decklist.of({"main": filler(40), "extra": filler(15, "E")}))
    assert [p.ja for p in problems(rules, Decklist.of({"main": filler(61)}))] == [
        "メインは61枚です（40〜60枚にしてください）。"
    ]


def test_t13_a_section_the_event_has_not_is_a_problem() -> None:
    found = problems(RULES, Decklist.of({"main": filler(60), "extra": [(1, "x")]}))
    assert [p.en for p in found] == ["this event has no 'extra' section (only main:60-,side:0-15)."]


def test_t13_sections_are_written_name_low_high() -> None:
    assert parse_sections("main:60-,side:0-15") == RULES.sections
    for bad in ("main", "main:60-,main:0-1", "side:15-0", "メイン:60-"):
        try:
            parse_sections(bad)
        except RulesError as e:
            assert e.ja and e.en
            assert str(e) == f"{e.ja} / {e.en}"  # Japanese first, then English
        else:
            raise AssertionError(bad)


# --- a deck check: the deck against the list, as multisets per section


def test_t13_the_same_deck_as_the_list_matches() -> None:
    assert compare(LEGAL, LEGAL).matches


def test_t13_a_missing_card_and_an_extra_card() -> None:
    presented = deck([(3, "稲妻"), (1, "Shock"), *filler(56)], [(3, "Duress"), *filler(12, "Side")])
    found = compare(LEGAL, presented)
    assert [(x.section, x.name, x.count) for x in found.missing] == [("main", "稲妻", 1)]
    assert [(x.section, x.name, x.count) for x in found.extra] == [("main", "Shock", 1)]
    assert not found.matches


def test_t13_a_card_moved_from_side_to_main_is_a_difference() -> None:
    presented = deck([(4, "稲妻"), *filler(56), (1, "Duress")], [(2, "Duress"), *filler(12, "Side")])
    found = compare(LEGAL, presented)
    assert [(x.section, x.name) for x in found.extra] == [("main", "Duress")]
    assert [(x.section, x.name) for x in found.missing] == [("side", "Duress")]


def test_t13_names_written_otherwise_still_match() -> None:
    listed = deck([(4, "ブラック・ロータス"), *filler(56)])
    assert compare(listed, deck([(4, "ﾌﾞﾗｯｸﾛｰﾀｽ"), *filler(56)])).matches


def test_t13_a_card_from_the_opponents_list_is_foreign_from_them() -> None:
    opponent = deck([(4, "Counterspell"), *filler(56, "B")])
    presented = deck([(4, "稲妻"), *filler(56), (1, "Counterspell")], [(3, "Duress"), *filler(12, "Side")])
    found = compare(LEGAL, presented, {"1017": opponent})
    assert [(f.name, f.count, f.owner) for f in found.foreign] == [("Counterspell", 1, "1017")]


def test_t13_an_extra_copy_of_a_card_the_player_lists_is_not_foreign() -> None:
    opponent = deck([(4, "稲妻"), *filler(56, "B")])
    presented = deck([(5, "稲妻"), *filler(56)], [(3, "Duress"), *filler(12, "Side")])
    found = compare(LEGAL, presented, {"1017": opponent})
    assert [(f.name, f.count) for f in found.foreign] == [("稲妻", 1)]  # beyond the player's own four
    moved = deck([(4, "稲妻"), *filler(56), (1, "Duress")], [(2, "Duress"), *filler(12, "Side")])
    assert compare(LEGAL, moved, {"1017": deck([(4, "Duress")])}).foreign == ()


# --- findings → the infraction, the first in T13's order


def test_t13_nothing_found_proposes_nothing() -> None:
    assert propose("A", Findings()) == ()


def test_t13_an_illegal_deck_comes_first() -> None:
    found = Findings(deck_legal=False, list_legal=False, recorded_by="B", matches=False)
    assert first_infraction(found) == ILLEGAL_DECK


def test_t13_an_illegal_list_before_recording_and_mismatch() -> None:
    assert first_infraction(Findings(list_legal=False, recorded_by="B", matches=False)) == ILLEGAL_DECKLIST


def test_t13_recording_names_the_recorder_too_d8() -> None:
    assert propose("A", Findings(recorded_by="W", matches=False)) == (
        Proposal(RECORDING, "A", {"recorded_by": "W"}),
    )


def test_t13_a_deck_that_differs_from_a_legal_list_is_a_mismatch() -> None:
    assert propose("A", Findings(matches=False)) == (Proposal(MISMATCH, "A"),)


def test_t13_a_foreign_card_is_lost_or_mixed_for_the_owner_and_the_player_d8() -> None:
    assert propose("A", Findings(matches=False, foreign_from=("B",))) == (
        Proposal(MISMATCH, "A"),
        Proposal(LOST_OR_MIXED, "B", {"mixed_into": "A"}),
    )


# --- time: the check's length rounded up to whole minutes


def test_t13_the_extension_is_the_checks_length_rounded_up() -> None:
    start = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)
    assert minutes(start, start + timedelta(minutes=6, seconds=1)) == 7
    assert minutes(start, start + timedelta(minutes=6)) == 6
    assert minutes(start, start) == 0


# --- picking tables


TABLES = [(t, (f"{t}a", f"{t}b")) for t in range(1, 9)]


def test_t13_the_same_seed_picks_the_same_tables() -> None:
    assert pick_tables(TABLES, {}, 2, 42) == pick_tables(TABLES, {}, 2, 42)
    assert len(set(pick_tables(TABLES, {}, 3, 42))) == 3


def test_t13_players_checked_already_are_left_out_while_others_remain() -> None:
    checked = {f"{t}a": 1 for t in range(1, 8)}
    assert pick_tables(TABLES, checked, 1, 7) == [8]
    assert pick_tables(TABLES, checked, 2, 7)[0] == 8


def test_t13_top_weights_towards_table_one() -> None:
    firsts = Counter(pick_tables(TABLES, {}, 1, s, top=True)[0] for s in range(400))
    assert firsts[1] > firsts[8] * 3


# --- properties of the comparison

names = st.sampled_from(
    ["稲妻", "いなずま", "Bolt", "bolt", "Ｄｕｒｅｓｓ", "Duress", "山", "Island", "ブラック・ロータス"]
)
sections = st.lists(st.tuples(st.integers(1, 4), names), max_size=8)


@given(sections, sections)
def test_property_a_deck_equals_its_list_iff_no_difference(
    a: list[tuple[int, str]], b: list[tuple[int, str]]
) -> None:
    listed, presented = Decklist.of({"main": a}), Decklist.of({"main": b})
    assert compare(listed, presented).matches == (listed.counted("main") == presented.counted("main"))
    assert compare(listed, listed).matches


@given(sections, sections)
def test_property_differences_are_the_multiset_difference(
    a: list[tuple[int, str]], b: list[tuple[int, str]]
) -> None:
    listed, presented = Decklist.of({"main": a}), Decklist.of({"main": b})
    found = compare(listed, presented)
    missing = Counter({normalise(x.name): x.count for x in found.missing})
    extra = Counter({normalise(x.name): x.count for x in found.extra})
    assert missing == listed.counted("main") - presented.counted("main")
    assert extra == presented.counted("main") - listed.counted("main")


@given(st.text(max_size=30))
def test_property_normalisation_is_idempotent(name: str) -> None:
    assert normalise(normalise(name)) == normalise(name)


def test_the_desk_sees_a_missing_list_as_a_problem_only_when_lists_are_required() -> None:
    # T13: "the desk sees which lists are missing or illegal"; decklists required or not
    assert list_wanted("missing", required=True)
    assert not list_wanted("missing", required=False)
    assert list_wanted("illegal", required=False) and list_wanted("illegal", required=True)
    assert not list_wanted("registered", required=True) and not list_wanted("locked", required=True)


# --- what the desk and the JSON API are shown


def test_t13_each_name_has_its_limit_banned_restricted_unlimited_or_the_copies() -> None:
    # "the names that are banned (0 copies) or restricted (1 copy), and the names any number
    # of which may be played"; every other name the event's copy limit
    rules = DeckRules(
        copies=3,
        limits={normalise("Black Lotus"): 0, normalise("Sol Ring"): 1},
        unlimited=frozenset({"plains"}),
    )
    assert rules.limit_of(normalise("Black Lotus")) == 0
    assert rules.limit_of(normalise("Sol Ring")) == 1
    assert rules.limit_of("plains") is None
    assert rules.limit_of(normalise("稲妻")) == 3


def test_t13_a_list_counts_each_section_s_cards() -> None:
    assert LEGAL.sizes() == {"main": 60, "side": 15}
    assert deck([(4, "稲妻")]).as_json() == {"main": [{"count": 4, "name": "稲妻"}], "side": []}


def test_t13_a_problem_is_said_in_japanese_first_with_its_line() -> None:
    on_line = Problem(
        7, "メインの「稲妻」は4枚までです（5枚）。", "at most 4 '稲妻' in main (the list has 5)."
    )
    assert on_line.text() == on_line.text("ja") == "7行目: メインの「稲妻」は4枚までです（5枚）。"
    assert on_line.text("en") == "line 7: at most 4 '稲妻' in main (the list has 5)."
    assert on_line.as_json() == {
        "line": 7,
        "message": "7行目: メインの「稲妻」は4枚までです（5枚）。",
        "message_en": "line 7: at most 4 '稲妻' in main (the list has 5).",
    }
    whole = Problem(None, "メインは59枚です。", "the main section has 59 cards.")
    assert (whole.text("ja"), whole.text("en")) == ("メインは59枚です。", "the main section has 59 cards.")
    assert whole.as_json() == {
        "line": None,
        "message": "メインは59枚です。",
        "message_en": "the main section has 59 cards.",
    }


def test_t13_a_check_s_comparison_as_the_screen_reads_it() -> None:
    opponent = deck([(4, "Counterspell"), *filler(56, "B")])
    presented = deck([(3, "稲妻"), *filler(56), (1, "Counterspell")], [(3, "Duress"), *filler(12, "Side")])
    found = compare(LEGAL, presented, {"1017": opponent})
    assert found == Comparison(
        missing=(Line("main", "稲妻", 1),),
        extra=(Line("main", "Counterspell", 1),),
        foreign=(Foreign("main", "Counterspell", 1, "1017"),),
    )
    assert found.as_json() == {
        "missing": [{"section": "main", "name": "稲妻", "count": 1}],
        "extra": [{"section": "main", "name": "Counterspell", "count": 1}],
        "foreign": [{"section": "main", "name": "Counterspell", "count": 1, "from": "1017"}],
        "matches": False,
    }
    assert compare(LEGAL, LEGAL).as_json() == {"missing": [], "extra": [], "foreign": [], "matches": True}


def test_t13_a_proposal_as_the_screen_reads_it_d8() -> None:
    proposal = Proposal(LOST_OR_MIXED, "B", {"mixed_into": "A"})
    assert proposal.as_json() == {"infraction": LOST_OR_MIXED, "player": "B", "facts": {"mixed_into": "A"}}
    assert Proposal(MISMATCH, "A").as_json() == {"infraction": MISMATCH, "player": "A", "facts": {}}


def test_t13_each_player_s_checks_are_counted_across_the_event() -> None:
    assert checks_per_player([("A", "B"), ("A",), ("C", "A")]) == Counter({"A": 3, "B": 1, "C": 1})
    assert checks_per_player([]) == Counter()


def test_t13_a_wrongly_recorded_list_is_one_ruling_only_when_it_comes_first() -> None:
    # the first of the four in T13's order: an illegal deck is ruled as that alone, even
    # though the judge also named who recorded the list wrongly
    assert propose("A", Findings(deck_legal=False, recorded_by="J")) == (Proposal(ILLEGAL_DECK, "A"),)
    assert propose("A", Findings(recorded_by="J")) == (Proposal(RECORDING, "A", {"recorded_by": "J"}),)


# --- each problem on the line to fix, said in both languages


def test_t13_each_problem_names_the_line_to_fix_in_the_order_of_the_list() -> None:
    main = tuple(Card(1, f"c{i}", i + 2) for i in range(58))  # lines 2 to 59, under the header
    banned = DeckRules(limits={normalise("Black Lotus"): 0})
    listed = Decklist(
        {
            "main": (*main, Card(1, "Black Lotus", 60)),
            "deck": (Card(1, "x", 70),),
            "side": (Card(1, "s", None),),
        },
        headers={"main": 1},
    )
    found = problems(banned, listed)
    assert [(p.line, p.ja, p.en) for p in found] == [
        (
            1,
            "メインは59枚です（60枚以上にしてください）。",
            "the main section has 59 cards; it must have at least 60.",
        ),
        (60, "「Black Lotus」は禁止カードです。", "'Black Lotus' is banned."),
        (
            70,
            "この大会に「deck」はありません（使えるのはメイン、サイド）。",
            "this event has no 'deck' section (only main:60-,side:0-15).",
        ),
    ]
    headed = Decklist(
        {"main": tuple(Card(n, name) for n, name in filler(60)), "deck": (Card(1, "x", 70),)},
        headers={"deck": 69},
    )
    assert [p.line for p in problems(RULES, headed)] == [69]  # a section's problem on its header
    unnumbered = problems(RULES, Decklist({"main": (Card(2, "a", None), Card(5, "b", 3), Card(5, "c", 2))}))
    assert [p.line for p in unnumbered] == [2, 3, None]  # a line named first, by its number


def test_t13_a_section_s_japanese_name_or_the_name_as_written() -> None:
    rules = DeckRules(sections=parse_sections("main:40-60,extra:0-15,side:0-15"))
    found = problems(rules, Decklist.of({"main": filler(40), "sideboard": [(1, "x")]}))
    assert [p.ja for p in found] == [
        "この大会に「sideboard」はありません（使えるのはメイン、エクストラ、サイド）。"
    ]


def test_t13_limits_said_in_both_languages() -> None:
    restricted = DeckRules(limits={normalise("Time Walk"): 1})
    found = problems(restricted, deck([(1, "Time Walk"), *filler(59)], [(1, "time walk")]))
    assert [p.ja for p in found] == ["「Time Walk」は制限カードで1枚までです（2枚）。"]
    across = DeckRules(across=True)
    assert is_legal(across, deck([(2, "稲妻"), *filler(58)], [(2, "稲妻")]))  # four in all: the limit
    found = problems(across, deck([(4, "稲妻"), *filler(56)], [(1, "稲妻")]))
    assert [p.ja for p in found] == ["「稲妻」は全体で4枚までです（5枚）。"]
    per_section = DeckRules(limits={normalise("Time Walk"): 1})
    found = problems(per_section, deck([(1, "Time Walk"), (5, "稲妻"), *filler(54)]))
    assert [(p.ja, p.en) for p in found] == [
        ("メインの「稲妻」は4枚までです（5枚）。", "at most 4 '稲妻' in the main section (the list has 5).")
    ]


def test_t13_a_section_may_have_one_size_exactly() -> None:
    assert parse_sections("main:60-60,side:15-15") == (("main", Bounds(60, 60)), ("side", Bounds(15, 15)))


def test_t13_top_weights_each_table_by_the_tables_after_it_plus_one() -> None:
    two = TABLES[:2]  # table 1 weighs 2, table 2 weighs 1: table 1 first two times in three
    firsts = Counter(pick_tables(two, {}, 1, s, top=True)[0] for s in range(3000))
    assert 0.64 < firsts[1] / 3000 < 0.70
    for s in range(20):  # the last table weighs one too: every table can be drawn
        assert sorted(pick_tables(TABLES, {}, len(TABLES), s, top=True)) == list(range(1, 9))


def test_t13_a_section_not_presented_is_missing_whole() -> None:
    presented = Decklist.of({"main": [(4, "稲妻"), *filler(56)]})  # no side presented at all
    found = compare(LEGAL, presented)
    assert sum(line.count for line in found.missing) == 15 and {line.section for line in found.missing} == {
        "side"
    }
    extra = compare(presented, LEGAL).extra  # a side presented that the list does not have
    assert sum(line.count for line in extra) == 15 and {line.section for line in extra} == {"side"}


def test_t13_foreign_copies_are_shared_out_among_the_others_lists() -> None:
    # D8: each other player at the table is named for no more copies than their list holds,
    # across every section the copies were found in
    others = {"o1": Decklist.of({"main": [(1, "X")]}), "o2": Decklist.of({"main": [(4, "X")]})}
    listed = Decklist.of({"main": [(1, "a")]})
    presented = Decklist.of({"main": [(1, "a"), (3, "X")], "side": [(2, "X")]})
    assert compare(listed, presented, others).foreign == (
        Foreign("main", "X", 1, "o1"),
        Foreign("main", "X", 2, "o2"),
        Foreign("side", "X", 2, "o2"),
    )
    own_in_side = Decklist.of({"main": [(1, "a")], "side": [(1, "X")]})  # one X is the player's own
    moved = Decklist.of({"main": [(1, "a"), (3, "X")]})
    assert compare(own_in_side, moved, others).foreign == (
        Foreign("main", "X", 1, "o1"),
        Foreign("main", "X", 1, "o2"),
    )
    spread = Decklist.of({"main": [(1, "a"), (1, "X")], "side": [(1, "X")]})
    assert compare(listed, spread, {"o2": others["o2"]}).foreign == (
        Foreign("main", "X", 1, "o2"),
        Foreign("side", "X", 1, "o2"),
    )


def test_t13_a_name_listed_on_two_lines_counts_both() -> None:
    listed = Decklist.of({"main": [(2, "いなずま"), (2, "イナズマ"), *filler(56)]})
    assert compare(listed, Decklist.of({"main": [(4, "いなずま"), *filler(56)]})).matches
    assert not compare(listed, Decklist.of({"main": [(2, "いなずま"), *filler(56)]})).matches


def test_t13_without_top_every_table_is_as_likely() -> None:
    firsts = Counter(pick_tables(TABLES, {}, 1, s)[0] for s in range(800))
    assert all(60 < firsts[t] < 140 for t in range(1, 9))  # about 100 each


def test_t13_a_limit_problem_names_the_first_line_of_the_name() -> None:
    restricted = DeckRules(limits={normalise("Time Walk"): 1})
    cards = (Card(1, "Time Walk", 2), *[Card(1, f"c{i}", 3 + i) for i in range(59)])
    listed = Decklist({"main": cards, "side": (Card(1, "time walk", 70),)})
    assert [p.line for p in problems(restricted, listed)] == [2]
    listed = Decklist({"main": (Card(4, "稲妻", 5), *cards[1:]), "side": (Card(1, "稲妻", 70),)})
    assert [p.line for p in problems(DeckRules(across=True), listed)] == [5]


def test_t13_the_player_s_own_copies_moved_between_sections_are_not_foreign() -> None:
    # four X presented, one of them the player's own (listed in the extra section): three foreign
    others = {"o1": Decklist.of({"main": [(1, "X")]}), "o2": Decklist.of({"main": [(4, "X")]})}
    listed = Decklist.of({"extra": [(1, "X")]})
    presented = Decklist.of({"main": [(2, "X")], "side": [(2, "X")]})
    assert compare(listed, presented, others).foreign == (
        Foreign("main", "X", 1, "o1"),
        Foreign("main", "X", 1, "o2"),
        Foreign("side", "X", 1, "o2"),
    )
