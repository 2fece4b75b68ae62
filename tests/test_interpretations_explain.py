"""What a judge reads aloud: each ruling's explanation, word for word, in Japanese and English.

Read `said(Record("A", "ingame.slow-play"))` as "a judge records slow play against A; what
does the ruling say, in Japanese and in English". Every explanation is made with a rulebook
fresh from the shipped guideline: a rulebook keeps the words it has put together once
(names, labels, the end of an English explanation), so a fresh one puts them together again
here. Pure: the engine and the guideline alone.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from shinpan.engine import Record, decide, explain, follow_up
from shinpan.engine.explain import deadline_text, deviation_text, ordinal, penalty_text, reason_text
from shinpan.engine.ruling import Deviation, Due, Ruling
from shinpan.files.guidelines import default_guideline, default_guideline_text, load_guideline
from shinpan.guideline import Rulebook

PLAYERS = frozenset({"A", "B"})


def fresh() -> Rulebook:
    return Rulebook(default_guideline())


def made(*records: Record) -> list[Ruling]:
    """The rulings of these records, one after another, numbered from 1 and cited as #n."""
    book = fresh()
    history: dict[str, list[Ruling]] = {}
    rulings: list[Ruling] = []
    for record in records:
        number = len(rulings) + 1
        new = decide(book, record, history, PLAYERS, ref=f"#{number}", first_number=number)
        for ruling in new:
            history.setdefault(ruling.player, []).append(ruling)
        rulings += new
    return rulings


def said(ruling: Ruling) -> tuple[str, str]:
    """The ruling's explanation in Japanese and in English, each from a fresh rulebook."""
    return explain(fresh(), ruling, "ja"), explain(fresh(), ruling, "en")


def missed_deadline(rule: str, which: int) -> Ruling:
    """The follow-up ruling (D7) of the ``which``-th deadline of a first offence, ruling #4."""
    (first,) = decide(fresh(), Record("A", rule), {}, {"A"}, ref="#4", first_number=4)
    return follow_up(fresh(), first, first.dues[which], ref="#5", number=5)


# --- A ruling of the ladder: which offence, the penalty, the guideline's line, the remedies


def test_d1_a_first_offence_names_the_rule_its_penalty_and_the_guideline_s_line() -> None:
    """D1: the first offence of slow play: a single warning, the remedy said as a sentence."""
    (slow,) = made(Record("A", "ingame.slow-play"))
    assert said(slow) == (
        "ひどく遅いプレイの1回目の違反です。罰則は単一警告です(ガイドラインの記載は「1)警1」)。"
        "1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます。",
        "1st offence of Slow play (ingame.slow-play); penalty: Single Warning; effects: Time extension; "
        "guideline: 「1)警1」; remedy: After the 1st warning, the judge may extend the match by 3 turns "
        "after time is called.",
    )


def test_d2_past_the_last_step_cites_every_earlier_offence_and_says_why_the_last_step_applies() -> None:
    """D1, D2: the fourth slow play counts the three before it (cited by ruling number) and
    takes the last listed step."""
    fourth = made(*[Record("A", "ingame.slow-play")] * 4)[-1]
    assert said(fourth) == (
        "ひどく遅いプレイの4回目の違反です。これまでに同じ違反が3回記録されています(裁定 #1、裁定 #2、裁定 #3)。"
        "ガイドラインの最後の段階を超えているため、最後の段階の罰則を適用します。"
        "罰則は二重警告とマッチの敗北です(ガイドラインの記載は「3)警2+マ敗」)。",
        "4th offence of Slow play (ingame.slow-play); past the last step, the last step applies (D2); "
        "earlier offences counted: #1, #2, #3; penalty: Double Warning + Match loss; guideline: 「3)警2+マ敗」.",
    )


def test_d2_an_item_with_one_penalty_says_so_and_its_remedies_say_their_own_deadlines() -> None:
    """D2, D9: tardiness gives the same penalty every time; its remedies already say when they
    fall due (10分, マッチの終了時), so the Japanese does not say it again; the English lists
    each deadline."""
    (late,) = made(Record("A", "pregame.tardiness"))
    assert said(late) == (
        "遅刻の1回目の違反です。この違反は何回目でも同じ罰則です。"
        "罰則は単一警告とデュエルの敗北です(ガイドラインの記載は「ただちに)警1+デ敗」)。"
        "10分たっても来ない場合は、さらにデュエル1回の敗北になります。"
        "マッチの終了時までに来ない場合は、大会を棄権したものとして扱います。",
        "1st offence of Tardiness (pregame.tardiness); this item gives the same penalty every time (D2); "
        "penalty: Single Warning + Duel loss; guideline: 「ただちに)警1+デ敗」; "
        "remedy: Still absent 10 minutes after the start: another duel loss. / Not there by the end of the "
        "match: treated as withdrawn from the tournament; deadline: within 10 minutes (Still absent 10 minutes "
        "after the start: another duel loss.); deadline: by the end of the match (Not there by the end of the "
        "match: treated as withdrawn from the tournament.).",
    )


def test_d7_a_remedy_due_before_the_next_match_says_so_itself() -> None:
    """D7: marked cards with a pattern: replaced before the next match, as the remedy says."""
    (marked,) = made(Record("A", "cards.marked-pattern"))
    assert said(marked) == (
        "マークドカード(規則性のあるとき)の1回目の違反です。"
        "罰則は二重警告とマッチの敗北です(ガイドラインの記載は「1)警2+マ敗+次マッチまで印カード交換」)。"
        "次のマッチが始まるまでに、印のついたカードを交換してください。",
        "1st offence of Marked cards (with a pattern) (cards.marked-pattern); penalty: Double Warning + Match "
        "loss; guideline: 「1)警2+マ敗+次マッチまで印カード交換」; remedy: Replace the marked cards before the "
        "next match; deadline: before the next match (Replace the marked cards before the next match.).",
    )


def test_d7_an_item_without_a_penalty_says_there_is_none_and_gives_its_remedy() -> None:
    """D7: marked cards without a pattern: no penalty now, the cards replaced in ten minutes."""
    (marked,) = made(Record("A", "cards.marked-no-pattern"))
    assert said(marked) == (
        "マークドカード(規則性のないとき)の1回目の違反です。この違反は何回目でも同じ罰則です。"
        "罰則はありません(ガイドラインの記載は「10分内印カード交換{マ敗}」)。"
        "10分以内に、印のついたカードを交換してください。交換できなければマッチの敗北です。",
        "1st offence of Marked cards (no pattern) (cards.marked-no-pattern); this item gives the same penalty "
        "every time (D2); penalty: no penalty; guideline: 「10分内印カード交換{マ敗}」; remedy: Replace the "
        "marked cards within 10 minutes; deadline: within 10 minutes (Replace the marked cards within 10 "
        "minutes.).",
    )


def test_a_rule_named_like_a_verb_is_quoted_in_the_sentence() -> None:
    """A name that ends as a verb does (…していない) stands in quotes as the sentence's noun."""
    (no_record,) = made(Record("A", "players.no-life-record"))
    assert said(no_record)[0] == (
        "「ライフの合計を記録する方法を用意していない」の1回目の違反です。この違反は何回目でも同じ罰則です。"
        "罰則は注意です(ガイドラインの記載は「注+2分内にライフ記録道具の準備」)。"
        "2分以内に、ライフを記録する道具を用意してください。用意できない場合は、ライフについて対戦相手の言い分を採用します。"
    )
    (disobeying,) = made(Record("A", "severe.disobeying-judge"))
    assert said(disobeying)[0].startswith("「ジャッジの指導に従わない」の1回目の違反です。")
    (notes,) = made(Record("A", "ingame.improper-notes"))
    assert said(notes)[0].startswith("「不適正な記録を取る」の1回目の違反です。")


def test_a_ruling_without_the_guideline_s_line_quotes_none() -> None:
    (slow,) = made(Record("A", "ingame.slow-play"))
    unquoted = replace(slow, explanation=replace(slow.explanation, step_source=""))
    assert said(unquoted) == (
        "ひどく遅いプレイの1回目の違反です。罰則は単一警告です。"
        "1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます。",
        "1st offence of Slow play (ingame.slow-play); penalty: Single Warning; effects: Time extension; "
        "remedy: After the 1st warning, the judge may extend the match by 3 turns after time is called.",
    )


def test_d1_earlier_offences_without_a_reference_are_counted_by_number() -> None:
    """D1: earlier rulings that have no reference (not stored yet) are counted, not cited."""
    book = fresh()
    history: dict[str, list[Ruling]] = {}
    for _ in range(2):
        (slow,) = decide(book, Record("A", "ingame.slow-play"), history, PLAYERS)
        history.setdefault("A", []).append(slow)
    assert said(slow) == (
        "ひどく遅いプレイの2回目の違反です。これまでに同じ違反が1回記録されています。"
        "罰則は単一警告とデュエルの敗北です(ガイドラインの記載は「2)警1+デ敗」)。",
        "2nd offence of Slow play (ingame.slow-play); earlier offences counted: 1; penalty: Single Warning + "
        "Duel loss; guideline: 「2)警1+デ敗」.",
    )


@pytest.mark.parametrize(
    ("remedy", "sentence"),
    [
        ("席に戻ってください", "席に戻ってください。"),
        ("席に戻ってください.", "席に戻ってください。"),
        ("  席に戻ってください。  ", "席に戻ってください。"),
        ("「戻ります」", "「戻ります」"),
        ("戻ってください!", "戻ってください!"),
        ("戻れますか?", "戻れますか?"),
        ("予備のカードはBOX.", "予備のカードはBOX。"),
        (".5秒で戻ってください", ".5秒で戻ってください。"),
    ],
)
def test_a_remedy_is_said_as_a_sentence_closed_once(remedy: str, sentence: str) -> None:
    (slow,) = made(Record("A", "ingame.slow-play"))
    shown = replace(slow, explanation=replace(slow.explanation, remedies=(remedy,)))
    assert explain(fresh(), shown, "ja") == (
        "ひどく遅いプレイの1回目の違反です。罰則は単一警告です(ガイドラインの記載は「1)警1」)。"
        "ジャッジの判断で、時間を延長できます。" + sentence
    )


# --- What an effect does: said once, by the remedy when it says it already


def test_an_effect_no_remedy_mentions_is_said_in_a_sentence_of_its_own() -> None:
    """A mulligan error's first offence: no mulligan in the current duel (the step's effect)."""
    (mulligan,) = made(Record("A", "pregame.mulligan"))
    assert said(mulligan) == (
        "マリガンルールのミスの1回目の違反です。罰則は単一警告です(ガイドラインの記載は「1)警1+現デでマリガン不可」)。"
        "現在のデュエルでは、マリガンできません。",
        "1st offence of Mulligan rules error (pregame.mulligan); penalty: Single Warning; effects: No mulligan "
        "in the current duel; guideline: 「1)警1+現デでマリガン不可」.",
    )


def test_an_effect_the_remedy_already_says_is_not_said_twice() -> None:
    """Playing the wrong opponent: the remedy says the match is a draw; the English lists the effect."""
    (wrong,) = made(Record("A", "players.wrong-opponent"))
    assert said(wrong) == (
        "間違った対戦相手とのプレイの1回目の違反です。罰則は単一警告です(ガイドラインの記載は「1)警1」)。"
        "このマッチは引き分けにして、残りの時間で正しい対戦相手とプレイしてください。",
        "1st offence of Playing the wrong opponent (players.wrong-opponent); penalty: Single Warning; "
        "effects: The match is recorded as a draw; guideline: 「1)警1」; remedy: Record the match as a draw "
        "and play the right opponent in the time left.",
    )


def test_an_effect_the_remedy_does_not_say_is_added_after_the_penalty() -> None:
    """The same ruling with a remedy that says nothing of a draw: the draw gets its own sentence."""
    (wrong,) = made(Record("A", "players.wrong-opponent"))
    quiet = replace(
        wrong, explanation=replace(wrong.explanation, remedies=("正しい対戦相手とプレイしてください。",))
    )
    assert explain(fresh(), quiet, "ja") == (
        "間違った対戦相手とのプレイの1回目の違反です。罰則は単一警告です(ガイドラインの記載は「1)警1」)。"
        "このマッチは引き分けになります。正しい対戦相手とプレイしてください。"
    )


def test_an_effect_the_engine_does_not_know_is_named_as_a_measure() -> None:
    """An effect with no sentence of its own is said by its Japanese name, or by its code."""
    (mulligan,) = made(Record("A", "pregame.mulligan"))
    other = replace(mulligan, effects=("time_extension", "no_such_effect"))
    assert explain(fresh(), other, "ja").endswith(
        "ジャッジの判断で、時間を延長できます。「no_such_effect」の措置をとります。"
    )
    assert "; effects: Time extension, no_such_effect; " in explain(fresh(), other, "en")


def test_an_english_remedy_ends_without_its_full_stop_and_keeps_its_last_letter() -> None:
    (slow,) = made(Record("A", "ingame.slow-play"))
    boxed = replace(slow, explanation=replace(slow.explanation, remedies_en=("Spare cards go in the BOX.",)))
    assert explain(fresh(), boxed, "en").endswith("; remedy: Spare cards go in the BOX.")


# --- D3 Unrelated warnings


def test_d3_the_additional_ruling_names_the_warned_infractions() -> None:
    """D3: the third distinct infraction with a single warning adds warning1 + duel_loss; the
    explanation names the three and which additional ruling of the player this is."""
    *_, unrelated = made(
        Record("A", "pregame.shuffle-cut"),
        Record("A", "ingame.slow-play"),
        Record("A", "pregame.first-player-draw"),
    )
    assert unrelated.cause == 3
    assert said(unrelated) == (
        "関連しない単一警告を3つ以上受けた場合の追加罰則です。このプレイヤーへのこの追加罰則は1回目です。"
        "単一警告を受けている違反は、シャッフル/カットの手順のミス、ひどく遅いプレイ、先攻ドローなしルールの違反の3つです。"
        "罰則は単一警告とデュエルの敗北です(ガイドラインの記載は「●関連しない3つ以上の警1をうけた場合の追加罰則  警1+デ敗」)。",
        "1st offence of Additional penalty for three or more unrelated single warnings "
        "(general.unrelated-warnings); additional penalty: three or more unrelated single warnings (D3); "
        "unrelated warnings: Shuffle or cut procedure error, Slow play, Violation of the first player's no-draw "
        "rule; penalty: Single Warning + Duel loss; guideline: "
        "「●関連しない3つ以上の警1をうけた場合の追加罰則  警1+デ敗」.",
    )


def test_d3_without_the_warned_infractions_or_an_offence_number_says_only_what_is_known() -> None:
    """D3 told of a ruling that names no infractions and no offence number (as a ruling rebuilt
    from the ledger is): the head and the penalty alone."""
    *_, unrelated = made(
        Record("A", "pregame.shuffle-cut"),
        Record("A", "ingame.slow-play"),
        Record("A", "pregame.first-player-draw"),
    )
    bare = replace(unrelated, offense=None, explanation=replace(unrelated.explanation, related=()))
    assert explain(fresh(), bare, "ja") == (
        "関連しない単一警告を3つ以上受けた場合の追加罰則です。"
        "罰則は単一警告とデュエルの敗北です(ガイドラインの記載は「●関連しない3つ以上の警1をうけた場合の追加罰則  警1+デ敗」)。"
    )


# --- D4 Uncategorized


def test_d4_the_judge_s_own_penalty_is_said_to_be_the_judge_s() -> None:
    """D4: the judge picks the penalty; it counts toward nothing."""
    (uncategorized,) = made(Record("A", "general.uncategorized", penalties=("warning1", "duel_loss")))
    assert said(uncategorized)[0] == (
        "特定のカテゴリに入らない違反として記録しました。"
        "罰則はジャッジが選びます。この違反は累積せず、ほかの違反の回数にも数えません。"
        "ジャッジが選んだ罰則は単一警告とデュエルの敗北です"
        "(ガイドラインの記載は「●特定のカテゴリに入らない違反.  適切なペナルティ,累積しない.」)。"
    )


# --- D5 Draft: the same as before, by kind or by the judge's word; D6 the exclusion it brings


def test_d5_the_same_kind_as_before_adds_the_exclusion_and_d6_adds_its_ruling() -> None:
    """D5: the second talking in the draft is the same as before: the draft exclusion is added;
    D6: that exclusion brings a ruling of draft.exclusion, which cites the ruling that caused it."""
    talking = Record("A", "draft.standard", draft="D1", facts={"kind": "talking"})
    first, second, exclusion = made(talking, talking)
    assert said(first)[0] == (
        "標準のドラフトの違反の1回目です。罰則はドラフト警告です(ガイドラインの記載は「1)ドラ警(大会での注)」)。"
    )
    assert said(second) == (
        "標準のドラフトの違反の2回目です。このドラフトで、これまでに同じ違反が1回記録されています(裁定 #1)。"
        "前回と同じ種類の違反のため、ドラフトよりの除外が加わります。"
        "罰則はドラフト警告とドラフトよりの除外です(ガイドラインの記載は「2)ドラ警→前と同一ならドラ除外」)。",
        "2nd offence of Standard draft violation (draft.standard); decided by whether it is the same kind as "
        "before (D5); earlier offences counted: #1; penalty: Draft warning + Exclusion from the draft; "
        "guideline: 「2)ドラ警→前と同一ならドラ除外」.",
    )
    assert said(exclusion) == (
        "ドラフトよりの除外の1回目の違反です。ドラフトから除外する罰則を受けたため、この違反が追加されました(裁定 #2)。"
        "罰則は単一警告です(ガイドラインの記載は「1)警1」)。それまでにドラフトしたカードでプレイしなければなりません。",
        "1st offence of Exclusion from the draft (draft.exclusion); added because the player was excluded from "
        "the draft (D6); penalty: Single Warning; guideline: 「1)警1」; remedy: The player must play with the "
        "cards drafted so far.",
    )


def test_d6_an_exclusion_whose_cause_is_unknown_cites_no_ruling() -> None:
    """D6 told of an exclusion ruling that does not know the ruling that caused it."""
    talking = Record("A", "draft.standard", draft="D1", facts={"kind": "talking"})
    exclusion = replace(made(talking, talking)[-1], cause=None)
    assert explain(fresh(), exclusion, "ja").startswith(
        "ドラフトよりの除外の1回目の違反です。ドラフトから除外する罰則を受けたため、この違反が追加されました。罰則は"
    )


def test_d5_another_kind_adds_nothing() -> None:
    """D5: talking, then noise: not the same as before; the exclusion is not added."""
    second = made(
        Record("A", "draft.standard", draft="D1", facts={"kind": "talking"}),
        Record("A", "draft.standard", draft="D1", facts={"kind": "noise"}),
    )[1]
    assert said(second)[0] == (
        "標準のドラフトの違反の2回目です。このドラフトで、これまでに同じ違反が1回記録されています(裁定 #1)。"
        "前回と同じ種類の違反ではないため、ドラフトよりの除外は加わりません。"
        "罰則はドラフト警告です(ガイドラインの記載は「2)ドラ警→前と同一ならドラ除外」)。"
    )


@pytest.mark.parametrize(
    ("same", "words"),
    [
        (True, "ジャッジが前回と同じ違反だと判断したため、ドラフトよりの除外が加わります。"),
        (False, "ジャッジが前回と同じ違反ではないと判断したため、ドラフトよりの除外は加わりません。"),
    ],
)
def test_d5_the_judge_s_word_on_the_same_as_before_is_said_as_the_judge_s(same: bool, words: str) -> None:
    """D5: an explicit yes or no of the judge overrides the kinds, and is told as the judge's."""
    second = made(
        Record("A", "draft.standard", draft="D1", facts={"kind": "talking"}),
        Record("A", "draft.standard", draft="D1", facts={"same_as_previous": same}),
    )[1]
    ja, en = said(second)
    assert ja.startswith(
        "標準のドラフトの違反の2回目です。このドラフトで、これまでに同じ違反が1回記録されています(裁定 #1)。"
        + words
    )
    assert "; the judge said whether it is the same as before (D5); earlier offences counted: #1;" in en


def test_d5_a_same_as_before_not_yet_answered_says_what_it_would_add() -> None:
    """D5 told of a ruling that has not settled the question: what the same as before would add."""
    second = made(*[Record("A", "draft.standard", draft="D1", facts={"kind": "talking"})] * 2)[1]
    open_question = replace(second, explanation=replace(second.explanation, same_as_previous=None))
    assert "前回と同じ違反なら、ドラフトよりの除外が加わります。" in explain(fresh(), open_question, "ja")
    first_step = replace(open_question, offense=1)  # a step with nothing to add
    assert "前回と同じ違反なら、追加の罰則が加わります。" in explain(fresh(), first_step, "ja")
    no_number = replace(open_question, offense=None)  # no step to ask
    assert "前回と同じ違反なら、追加の罰則が加わります。" in explain(fresh(), no_number, "ja")
    no_rule = replace(open_question, rule="no.such-rule")  # a rule the guideline does not have
    assert "前回と同じ違反なら、追加の罰則が加わります。" in explain(fresh(), no_rule, "ja")


# --- D8 Advice from outside the event


def test_d8_an_outside_advisor_alone_to_blame_only_leaves_the_venue() -> None:
    """D8, D18: advice from a non-participant with the advisor alone to blame: no penalty for
    the player, nothing counted, the advisor removed from the venue."""
    (advice,) = made(Record("A", "players.advice", facts={"advisor": "a spectator", "advisor_only": True}))
    assert said(advice) == (
        "助言/指導を与えた/もらった場合として記録しました。"
        "助言した人は大会参加者ではないため、このプレイヤーには罰則を与えず、違反の回数にも数えません。"
        "大会参加者でない助言者には、会場から退去してもらいます。",
        "Giving or receiving advice or coaching (players.advice); the advisor is not a participant: removal "
        "from the venue only (D8); penalty: no penalty; effects: Removal from the venue.",
    )


# --- D13 Conditions: intent established, facts determined


def test_d13_intent_established_is_told_as_cheating_recorded_as_what_the_judge_picked() -> None:
    """D13: slow play with intent established becomes cheating."""
    (cheating,) = made(Record("A", "ingame.slow-play", facts={"intentional": True}))
    assert said(cheating) == (
        "イカサマの1回目の違反です。ひどく遅いプレイとして記録されましたが、故意が確認されたため、イカサマとして扱います。"
        "この違反は何回目でも同じ罰則です。罰則は三重警告と失格です(ガイドラインの記載は「警3+失」)。",
        "1st offence of Cheating (severe.cheating); intent was established, so it is recorded as cheating "
        "(D13); this item gives the same penalty every time (D2); recorded as Slow play; penalty: Triple "
        "Warning + Disqualification; guideline: 「警3+失」.",
    )
    unnamed = replace(cheating, recorded_as=None)  # what the judge picked is not known
    assert explain(fresh(), unnamed, "ja").startswith(
        "イカサマの1回目の違反です。故意が確認されたため、イカサマとして扱います。この違反は何回目でも同じ罰則です。"
    )


def test_d13_facts_determined_give_no_penalty_and_say_so_once() -> None:
    """D13: a disagreement whose facts could be determined: no penalty, no offence."""
    (settled,) = made(Record("A", "ingame.disagreement-on-facts", facts={"facts_determined": True}))
    assert said(settled) == (
        "事実認識の食い違いとして記録しました。事実が判断できたため、罰則はありません。違反の回数にも数えません。",
        "Disagreement on the facts (ingame.disagreement-on-facts); the facts could be determined: no penalty "
        "and no offence (D13); penalty: no penalty.",
    )


# --- D11 The head judge's deviation


def test_d11_a_deviation_gives_the_guideline_s_penalty_the_reason_and_the_new_penalty() -> None:
    """D11: the head judge deviates, with a written reason."""
    (lighter,) = made(Record("A", "ingame.slow-play", deviation=Deviation(("notice",), "初犯で軽微")))
    assert said(lighter) == (
        "ひどく遅いプレイの1回目の違反です。ガイドラインの罰則は単一警告です(ガイドラインの記載は「1)警1」)。"
        "ヘッドジャッジが「初犯で軽微」という理由でガイドラインから逸脱し、罰則を通告としました。",
        "1st offence of Slow play (ingame.slow-play); the head judge deviated from the guideline; guideline "
        "gives Single Warning; reason: 初犯で軽微; penalty: Notice; guideline: 「1)警1」.",
    )


def test_d11_three_penalties_are_listed_with_the_last_joined_by_to() -> None:
    (heavier,) = made(
        Record(
            "A", "ingame.slow-play", deviation=Deviation(("warning2", "match_loss", "ejection"), "再三の遅延")
        )
    )
    assert "罰則を二重警告、マッチの敗北と退場としました。" in said(heavier)[0]


def test_d11_a_deviation_to_no_penalty_says_so() -> None:
    (none,) = made(Record("A", "ingame.slow-play", deviation=Deviation((), "誤記")))
    assert said(none)[0] == (
        "ひどく遅いプレイの1回目の違反です。ガイドラインの罰則は単一警告です(ガイドラインの記載は「1)警1」)。"
        "ヘッドジャッジが「誤記」という理由でガイドラインから逸脱し、罰則なしとしました。"
    )


def test_d11_a_deviation_from_no_penalty_says_the_guideline_gives_none() -> None:
    (heavier,) = made(Record("A", "cards.marked-no-pattern", deviation=Deviation(("warning1",), "常習")))
    assert said(heavier)[0] == (
        "マークドカード(規則性のないとき)の1回目の違反です。この違反は何回目でも同じ罰則です。"
        "ガイドラインでは罰則はありません(ガイドラインの記載は「10分内印カード交換{マ敗}」)。"
        "ヘッドジャッジが「常習」という理由でガイドラインから逸脱し、罰則を単一警告としました。"
        "10分以内に、印のついたカードを交換してください。交換できなければマッチの敗北です。"
    )


def test_d11_a_reason_is_quoted_as_the_head_judge_wrote_it_to_its_last_letter() -> None:
    """The English ends each part without its full stop, never with a letter of the reason."""
    (marked,) = made(Record("A", "ingame.slow-play", deviation=Deviation(("notice",), "the cards marked X.")))
    assert "; reason: the cards marked X; penalty: Notice;" in explain(fresh(), marked, "en")


# --- D7, D9 A missed deadline's follow-up ruling


def test_d9_still_absent_after_ten_minutes_cites_the_ruling_and_the_guideline_s_words() -> None:
    """D7, D9: the ten minutes of tardiness passed: a second duel loss, not counted again."""
    assert said(missed_deadline("pregame.tardiness", 0)) == (
        "遅刻の1回目の違反(裁定 #4)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「10分たっても来ない場合は、さらにデュエル1回の敗北になります」です。"
        "そのため、追加の罰則としてデュエルの敗北を与えます(ガイドラインの記載は「10分後)デ敗」)。"
        "この裁定は、違反の回数には数えません。",
        "1st offence of Tardiness (pregame.tardiness); the remedy was not carried out in time (D7); penalty: "
        "Duel loss; guideline: 「ただちに)警1+デ敗」; remedy: Still absent 10 minutes after the start: another "
        "duel loss.",
    )


def test_d7_not_back_by_the_end_of_the_round_is_told_as_a_withdrawal() -> None:
    """D7: leaving before the end of the first match and not back by the end of the round."""
    assert said(missed_deadline("ingame.early-withdrawal", 0)) == (
        "第1マッチ終了前の棄権の1回目の違反(裁定 #4)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「ラウンドの終了時までに戻らない場合は、大会を棄権したものとして扱います」です。"
        "そのため、大会を棄権したものとして扱います"
        "(ガイドラインの記載は「ラウンド終了時までに戻らない場合,トーナメントから棄権の扱い」)。"
        "この裁定は、違反の回数には数えません。",
        "1st offence of Withdrawing before the end of the first match (ingame.early-withdrawal); the remedy was "
        "not carried out in time (D7); penalty: no penalty; effects: Treated as withdrawn from the tournament; "
        "guideline: 「警2+マ敗」; remedy: Not back by the end of the round: treated as withdrawn from the "
        "tournament.",
    )


def test_d7_marked_cards_not_replaced_in_time_lose_the_match() -> None:
    assert said(missed_deadline("cards.marked-no-pattern", 0))[0] == (
        "マークドカード(規則性のないとき)の1回目の違反(裁定 #4)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「10分以内に、印のついたカードを交換してください。交換できなければマッチの敗北です」です。"
        "そのため、追加の罰則としてマッチの敗北を与えます(ガイドラインの記載は「10分内印カード交換{マ敗}」)。"
        "この裁定は、違反の回数には数えません。"
    )


def test_d7_a_deadline_that_brings_nothing_says_there_is_no_further_penalty() -> None:
    """D7: marked cards with a pattern not replaced before the next match: the source names no
    consequence, so the follow-up gives none."""
    assert said(missed_deadline("cards.marked-pattern", 0))[0] == (
        "マークドカード(規則性のあるとき)の1回目の違反(裁定 #4)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「次のマッチが始まるまでに、印のついたカードを交換してください」です。"
        "追加の罰則はありません(ガイドラインの記載は「次マッチまで印カード交換」)。"
        "この裁定は、違反の回数には数えません。"
    )


def test_d7_a_follow_up_with_a_penalty_and_effects_says_the_effects_after_it() -> None:
    """D7: a missed deadline that brings a penalty and effects: the penalty first, each effect
    in a sentence of its own."""
    late = missed_deadline("pregame.tardiness", 0)
    both = replace(late, effects=("withdrawn", "no_mulligan"))
    assert explain(fresh(), both, "ja") == (
        "遅刻の1回目の違反(裁定 #4)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「10分たっても来ない場合は、さらにデュエル1回の敗北になります」です。"
        "そのため、追加の罰則としてデュエルの敗北を与えます(ガイドラインの記載は「10分後)デ敗」)。"
        "また、大会を棄権したものとして扱います。また、現在のデュエルでは、マリガンできません。"
        "この裁定は、違反の回数には数えません。"
    )


def test_d7_a_follow_up_that_knows_little_says_only_that_the_deadline_passed() -> None:
    """D7 told of a follow-up with no offence number, no earlier ruling to cite, no remedy
    text and no guideline line (as a ruling rebuilt from the ledger may be)."""
    late = missed_deadline("pregame.tardiness", 0)
    bare = replace(
        late,
        offense=None,
        explanation=replace(late.explanation, counted=("",), remedies=(), step_source=""),
    )
    assert explain(fresh(), bare, "ja") == (
        "遅刻について、期限までに必要な対応がありませんでした。"
        "そのため、追加の罰則としてデュエルの敗北を与えます。"
        "この裁定は、違反の回数には数えません。"
    )


def test_d7_a_remedy_text_not_in_the_guideline_quotes_no_line() -> None:
    """D7: the guideline's words for the deadline are those of the remedy with this very text;
    a remedy the rule does not have quotes nothing, and nor does a rule the guideline lacks."""
    late = missed_deadline("pregame.tardiness", 0)
    other = replace(late, explanation=replace(late.explanation, remedies=("席に戻ってください。",)))
    assert explain(fresh(), other, "ja") == (
        "遅刻の1回目の違反(裁定 #4)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「席に戻ってください」です。"
        "そのため、追加の罰則としてデュエルの敗北を与えます。"
        "この裁定は、違反の回数には数えません。"
    )
    boxed = replace(late, explanation=replace(late.explanation, remedies=("予備のカードはBOX。",)))
    assert "対象の処置は「予備のカードはBOX」です。" in explain(fresh(), boxed, "ja")
    unknown = replace(late, rule="no.such-rule")
    assert "(ガイドラインの記載は" not in explain(fresh(), unknown, "ja")


def no_life_record_missed(tmp_path: Path, *, deadline_source: bool, remedy_source: bool) -> str:
    """The follow-up of players.no-life-record under a guideline file that calls the adopted
    claim ``claim_for_opponent`` and leaves out the deadline's source, the remedy's, or both."""
    text = default_guideline_text().replace("opponent_claim_adopted", "claim_for_opponent")
    data = yaml.safe_load(text)
    (remedy,) = next(i for i in data["infractions"] if i["id"] == "players.no-life-record")["remedies"]
    if not deadline_source:
        del remedy["deadline"]["source"]
    if not remedy_source:
        del remedy["source"]
    path = tmp_path / "edited.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    book = Rulebook(load_guideline(path))
    (first,) = decide(book, Record("A", "players.no-life-record"), {}, {"A"}, ref="#4", first_number=4)
    return explain(book, follow_up(book, first, first.dues[0], ref="#5", number=5), "ja")


@pytest.mark.parametrize(
    ("deadline_source", "remedy_source", "quoted"),
    [
        (
            True,
            True,
            "(ガイドラインの記載は「適切な方法を作ることができない場合,対戦相手の言い分を採用する.」)",
        ),
        (False, True, "(ガイドラインの記載は「2分内にライフ記録道具の準備」)"),
        (False, False, ""),
    ],
)
def test_d7_the_line_quoted_is_the_deadline_s_own_else_the_remedy_s(
    tmp_path: Path, deadline_source: bool, remedy_source: bool, quoted: str
) -> None:
    """D7: the guideline's words for a missed deadline are the deadline's clause; a file that
    gives none has the remedy's quoted, and one that gives neither quotes nothing. An effect
    the engine has no sentence for is said by its name in the file (対戦相手の言い分を採用)."""
    assert no_life_record_missed(tmp_path, deadline_source=deadline_source, remedy_source=remedy_source) == (
        "「ライフの合計を記録する方法を用意していない」の1回目の違反(裁定 #4)について、"
        "期限までに必要な対応がありませんでした。"
        "対象の処置は「2分以内に、ライフを記録する道具を用意してください。"
        "用意できない場合は、ライフについて対戦相手の言い分を採用します」です。"
        f"そのため、「対戦相手の言い分を採用」の措置をとります{quoted}。"
        "この裁定は、違反の回数には数えません。"
    )


def test_d7_a_follow_up_is_told_as_one_even_when_its_reason_is_all_that_says_so() -> None:
    """D7: a ruling whose reason is a missed deadline is told as a follow-up, whether or not
    it is marked as one."""
    late = missed_deadline("pregame.tardiness", 0)
    unmarked = replace(late, follow_up=False)
    assert explain(fresh(), unmarked, "ja") == explain(fresh(), late, "ja")


# --- D21 A deadline the remedy's text does not state


def slow_with(*dues: Due) -> Ruling:
    (slow,) = made(Record("A", "ingame.slow-play"))
    return replace(slow, dues=dues)


SLOW_REMEDY = "1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます。"
SLOW_JA = (
    "ひどく遅いプレイの1回目の違反です。罰則は単一警告です(ガイドラインの記載は「1)警1」)。" + SLOW_REMEDY
)


@pytest.mark.parametrize(
    ("due", "told"),
    [
        (  # the remedy shown does not say when: told
            Due("end_of_round", None, SLOW_REMEDY, "Extend.", (), ("time_extension",), True),
            "「1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます」"
            "の期限はラウンドの終了時までです。期限を過ぎると、ジャッジの判断で、時間を延長できます。",
        ),
        (  # what missing it brings: each effect in a sentence of its own
            Due("end_of_match", None, SLOW_REMEDY, "Extend.", (), ("withdrawn", "match_draw"), True),
            "「1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます」"
            "の期限はマッチの終了時までです。期限を過ぎると、大会を棄権したものとして扱います。"
            "期限を過ぎると、このマッチは引き分けになります。",
        ),
        (  # "3ターン" is no number of minutes
            Due("minutes", 3, SLOW_REMEDY, "Extend.", ("warning1",), (), True),
            "「1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます」"
            "の期限は3分以内です。期限を過ぎると、単一警告になります。",
        ),
        (  # a remedy not shown above: told, whatever its text says
            Due("minutes", 5, "5分以内に席に戻ってください。", "Return.", (), (), False),
            "「5分以内に席に戻ってください」の期限は5分以内です。",
        ),
        (  # the remedy quoted without its full stop, to its last letter
            Due("minutes", 5, "予備のカードはBOX。", "Spare cards go in the BOX.", (), (), False),
            "「予備のカードはBOX」の期限は5分以内です。",
        ),
        (  # a deadline of a kind no remedy text can state: told in the words it has
            Due("at_dawn", None, SLOW_REMEDY, "Extend.", (), (), False),
            "「1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます」の期限はat_dawnです。",
        ),
    ],
)
def test_d21_a_deadline_the_remedy_does_not_state_is_told_after_it(due: Due, told: str) -> None:
    assert explain(fresh(), slow_with(due), "ja") == SLOW_JA + told


@pytest.mark.parametrize(
    "due",
    [
        Due("minutes", 3, "3分以内に席に戻ってください。", "Return.", (), (), False),
        Due("end_of_match", None, "マッチの終了時までに戻ってください。", "Return.", (), (), False),
        Due("end_of_round", None, "ラウンドの終了時までに戻ってください。", "Return.", (), (), False),
        Due("before_next_match", None, "次のマッチまでに戻ってください。", "Return.", (), (), False),
    ],
    ids=["minutes", "end_of_match", "end_of_round", "before_next_match"],
)
def test_d21_a_deadline_the_remedy_states_is_not_told_again(due: Due) -> None:
    (slow,) = made(Record("A", "ingame.slow-play"))
    shown = replace(slow, dues=(due,), explanation=replace(slow.explanation, remedies=(due.remedy,)))
    assert explain(fresh(), shown, "ja") == (
        "ひどく遅いプレイの1回目の違反です。罰則は単一警告です(ガイドラインの記載は「1)警1」)。"
        "ジャッジの判断で、時間を延長できます。" + due.remedy
    )


def test_d21_a_deadline_in_other_minutes_than_the_remedy_says_is_told() -> None:
    (slow,) = made(Record("A", "ingame.slow-play"))
    due = Due("minutes", 5, "3分以内に席に戻ってください。", "Return.", (), (), False)
    shown = replace(slow, dues=(due,), explanation=replace(slow.explanation, remedies=(due.remedy,)))
    assert explain(fresh(), shown, "ja").endswith(
        "3分以内に席に戻ってください。「3分以内に席に戻ってください」の期限は5分以内です。"
    )


# --- The words of the parts, as the screens show them on their own


@pytest.mark.parametrize(
    ("n", "en"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (121, "121st")],
)  # fmt: skip
def test_an_offence_number_in_english_takes_its_ordinal_suffix(n: int, en: str) -> None:
    assert ordinal(n, "en") == en
    assert ordinal(n, "ja") == f"{n}回目"


@pytest.mark.parametrize(
    ("when", "minutes", "ja", "en"),
    [
        ("minutes", 10, "10分以内", "within 10 minutes"),
        ("end_of_match", None, "マッチの終了時まで", "by the end of the match"),
        ("end_of_round", None, "ラウンドの終了時まで", "by the end of the round"),
        ("before_next_match", None, "次のマッチまで", "before the next match"),
        ("at_dawn", None, "at_dawn", "at_dawn"),
    ],
)
def test_a_deadline_is_said_in_either_language(when: str, minutes: int | None, ja: str, en: str) -> None:
    due = Due(when, minutes, "戻ってください。", "Return.", (), (), False)
    assert (deadline_text(due, "ja"), deadline_text(due, "en")) == (ja, en)


def test_no_penalty_is_said_in_either_language() -> None:
    book = fresh()
    assert (penalty_text(book, (), "ja"), penalty_text(book, (), "en")) == ("罰則なし", "no penalty")
    assert penalty_text(book, ("warning1", "duel_loss"), "en") == "Single Warning + Duel loss"
    assert penalty_text(book, ["warning1", "duel_loss"], "en") == "Single Warning + Duel loss"  # type: ignore[arg-type]


def test_a_reason_shown_on_its_own_is_japanese_unless_english_is_asked() -> None:
    assert reason_text("all_offenses") == "この違反は何回目でも同じ罰則です。"
    assert reason_text("all_offenses", "en") == "this item gives the same penalty every time (D2)"


def test_d11_a_deviation_on_a_stored_ruling_says_what_is_no_longer_done() -> None:
    """D11, D16: a deviation on a stored ruling, in a sentence of its own, with the remedies
    that went with the penalties it took away."""
    gone = [
        ("デッキを直してください。", "Fix the deck."),
        ("予備のカードはBOX。", "Spare cards go in the BOX."),
    ]
    book = fresh()
    assert deviation_text(book, (), ("warning1", "duel_loss"), "誤記", "ja", gone) == (
        "ヘッドジャッジの判断で罰則なしにしました(ガイドラインでは単一警告とデュエルの敗北です)。理由は「誤記」です。"
        "その罰則がなくなったため、「デッキを直してください」は行いません。"
        "その罰則がなくなったため、「予備のカードはBOX」は行いません。"
    )
    assert deviation_text(book, ("notice",), (), "slip", "en", gone) == (
        "Head judge's deviation: Notice (the guideline gives no penalty); reason: \u201cslip\u201d."
        " No longer: Fix the deck. No longer: Spare cards go in the BOX."
    )
