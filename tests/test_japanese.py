"""Every Japanese text a judge reads is a sentence a judge would say at the table.

No infraction id, no D-number, no component code and none of the guideline's shorthand
(``2)``, ``10分後)``, ``→``, ``{…}``) may show outside a quotation 「…」 of the source, in
any explanation the engine writes or in any remedy, deadline or note of the guideline.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import pytest

from shinpan.engine import Deviation, Due, Record, Ruling, decide, explain, follow_up
from shinpan.engine.ladder import dues_of
from shinpan.guideline.model import Question, Remedy
from support import BOOK

PLAYERS = ("A", "B", "C")
OUTSIDER = "Z"  # not a participant
REASON = "ジャッジの説明が不十分だったため"

# --- the check


def outside_quotes(text: str) -> str:
    """The text with its outermost 「…」 spans taken out (quotations nest)."""
    kept: list[str] = []
    depth = 0
    for ch in text:
        if ch == "「":
            depth += 1
        elif ch == "」":
            assert depth > 0, f"」 without 「 in {text!r}"
            depth -= 1
        elif depth == 0:
            kept.append(ch)
    assert depth == 0, f"「 never closed in {text!r}"
    return "".join(kept)


def _stray_parens(text: str) -> list[str]:
    """Closing parentheses without an opening one: the source's step markers (``2)``,
    ``10分後)``, ``ただちに)``) and stray ones; and an opening one never closed."""
    found: list[str] = []
    depth = 0
    for n, ch in enumerate(text):
        if ch in "((":
            depth += 1
        elif ch in "))" and depth:
            depth -= 1
        elif ch in "))":
            what = "a step marker" if n and text[n - 1].isdigit() else f"stray {ch!r}"
            found.append(f"{what} in …{text[max(0, n - 6) : n + 1]}")
    if depth:
        found.append("a parenthesis never closed")
    return found


CODES = sorted({*BOOK.components, *BOOK.effects}, key=len, reverse=True)
CODE = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, CODES)) + r")(?![A-Za-z0-9_])")
JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]"
PROBLEMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a D-number", re.compile(r"D\d+")),
    ("a component or effect code", CODE),
    ("an arrow", re.compile(r"→")),
    ("a brace", re.compile(r"[{}]")),
    ("a ruling number without 裁定", re.compile(r"(?<!裁定 )#\d")),
    ("a half-width comma or period in Japanese", re.compile(rf"{JAPANESE}[,.]|[,.]{JAPANESE}")),
)


def problems(text: str) -> list[str]:
    """What keeps a Japanese text from being what a judge says, outside its quotations."""
    plain = outside_quotes(text)
    found = [f"infraction id {rule}" for rule in BOOK.rule_ids() if rule in plain]
    found += [f"{what}: {m.group(0)!r}" for what, pattern in PROBLEMS for m in pattern.finditer(plain)]
    found += _stray_parens(plain)
    return found


def test_the_check_finds_what_the_old_explanations_said() -> None:
    old = (
        "ひどく遅いプレイ(ingame.slow-play)の2回目の違反。数えた以前の違反: #0。"
        "罰則: 警1(単一警告) + デ敗(デュエルの敗北)。ガイドライン: 「2)警1+デ敗」。"
    )
    assert {p.split(":")[0] for p in problems(old)} >= {
        "infraction id ingame.slow-play",
        "a ruling number without 裁定",
    }
    assert not [p for p in problems(old) if "step marker" in p]  # 「2)警1+デ敗」 is quoted
    tardy = "この項目は何回目でも同じ罰則(D2)。追加措置: 10分後)デ敗 / 10分内印カード交換{マ敗}→"
    found = " / ".join(problems(tardy))
    for what in ("a D-number", "stray ')'", "a brace", "an arrow"):
        assert what in found
    assert problems("罰則: warning1, 大会棄権扱い") != []
    assert len([p for p in problems("1)警1,2)警2+退") if "step marker" in p]) == 2
    assert problems("ガイドラインの記載は「2)警1+デ敗」です(裁定 #12)。") == []
    assert problems("対象の処置は「ガイドラインの「{マ敗}」」です。") == []
    with pytest.raises(AssertionError):
        outside_quotes("「閉じない")


# --- rulings of every kind, made as the services make them


@dataclass
class Table:
    """One event: records decided in order; each ruling cited as the services cite it (#N)."""

    history: dict[str, list[Ruling]] = field(default_factory=lambda: {p: [] for p in PLAYERS})
    made: list[Ruling] = field(default_factory=list)

    def record(
        self,
        player: str,
        rule: str,
        *,
        draft: str | None = None,
        penalties: tuple[str, ...] | None = None,
        deviation: tuple[str, ...] | None = None,
        **facts: object,
    ) -> tuple[Ruling, ...]:
        record = Record(
            player=player,
            infraction=rule,
            facts=facts,
            draft=draft,
            penalties=penalties,
            deviation=Deviation(deviation, REASON) if deviation is not None else None,
        )
        made = decide(BOOK, record, self.history, frozenset(PLAYERS), first_number=len(self.made) + 1)
        return tuple(self._add(r) for r in made)

    def guideline_penalties(self, player: str, rule: str, **facts: object) -> tuple[str, ...]:
        """What the guideline would give this record now (nothing is added to the table)."""
        record = Record(player=player, infraction=rule, facts=facts, draft=facts.pop("draft", None))
        made = decide(BOOK, record, self.history, frozenset(PLAYERS), first_number=len(self.made) + 1)
        return made[0].penalties

    def missed(self, ruling: Ruling) -> list[Ruling]:
        return [self._add(follow_up(BOOK, ruling, due, number=len(self.made) + 1)) for due in ruling.dues]

    def _add(self, ruling: Ruling) -> Ruling:
        ruling = replace(ruling, ref=f"#{ruling.number}")
        self.history.setdefault(ruling.player, []).append(ruling)
        self.made.append(ruling)
        return ruling


def every_offense(rule: str, *, deviation: tuple[str, ...] | None = None) -> list[Ruling]:
    """Offences 1 to 4 of one infraction by one player, each followed by its missed deadlines."""
    table = Table()
    facts: dict[str, object] = {}
    inf = BOOK.infractions[rule]
    if Question.kind in inf.questions:
        facts["kind"] = inf.kinds[0]
    draft = "D1" if Question.kind in inf.questions else None
    for _ in range(4):
        given = deviation
        if deviation is not None and sorted(deviation) == sorted(
            table.guideline_penalties("A", rule, draft=draft, **facts)
        ):
            given = ("caution",) if deviation != ("caution",) else ("notice",)  # a deviation departs (D16)
        for ruling in table.record("A", rule, draft=draft, deviation=given, **facts):
            table.missed(ruling)
    return table.made


def unrelated_warnings() -> list[Ruling]:
    table = Table()
    for rule in ("ingame.slow-play", "pregame.first-player-draw", "pregame.shuffle-cut", "players.advice"):
        table.record("A", rule)
    return table.made


def draft_rulings() -> list[Ruling]:
    table = Table()
    table.record("A", "draft.standard", draft="D1", kind="talking")
    table.record("A", "draft.standard", draft="D1", kind="talking")  # the same kind: excluded (D5, D6)
    table.record("B", "draft.standard", draft="D1", kind="noise")
    table.record("B", "draft.standard", draft="D1", kind="talking")
    table.record("C", "draft.standard", draft="D1", kind="noise")
    table.record("C", "draft.standard", draft="D1", kind="noise", same_as_previous=False)
    table.record("C", "draft.standard", draft="D2", kind="noise")
    table.record("C", "draft.standard", draft="D2", kind="noise", same_as_previous=True)
    table.record("A", "draft.excessive", draft="D1")
    table.record("A", "draft.excessive", draft="D1")
    return table.made


def conditions() -> list[Ruling]:
    table = Table()
    table.record("A", "ingame.disagreement-on-facts", facts_determined=True)
    table.record("A", "ingame.disagreement-on-facts", facts_determined=False)
    table.record("A", "players.advice", advisor=OUTSIDER, advisor_only=True)
    table.record("A", "players.advice", advisor=OUTSIDER)
    table.record("A", "players.advice", advisor="B", advisor_only=True)
    table.record("B", "players.advice", advisor="C")
    for rule in ("ingame.slow-play", "ingame.extra-cards-drawn", "pregame.insufficient-shuffle"):
        table.record("B", rule, intentional=True)
    table.record("C", "deck.lost-or-mixed-cards", mixed_into="A")
    table.record("C", "deck.decklist-recording", recorded_by="B")
    table.record("C", "deck.decklist-recording", recorded_by=OUTSIDER)
    table.record("C", "general.uncategorized", penalties=("caution",))
    table.record("C", "general.uncategorized", penalties=("warning1", "duel_loss"))
    table.record("C", "general.uncategorized", penalties=("notice",), deviation=("caution",))
    return table.made


def every_ruling() -> Iterator[Ruling]:
    for rule in BOOK.infractions:
        yield from every_offense(rule)
        yield from every_offense(rule, deviation=("notice",))
        yield from every_offense(rule, deviation=())
    yield from unrelated_warnings()
    yield from draft_rulings()
    yield from conditions()


RULINGS = list(every_ruling())


def test_the_rulings_cover_every_reason_and_every_deadline() -> None:
    reasons = {code for r in RULINGS for code in r.explanation.reasons}
    assert reasons >= {
        "all_offenses",
        "past_last_step",
        "intent_established",
        "same_as_previous_kind",
        "same_as_previous_judge",
        "draft_exclusion",
        "unrelated_warnings",
        "deviation",
        "uncategorized",
        "facts_determined",
        "advisor_outsider_only",
        "deadline_missed",
    }
    missed = {(r.rule, r.explanation.remedies) for r in RULINGS if r.follow_up}
    dues = {
        (inf.id, (due.remedy,))
        for inf in BOOK.infractions.values()
        for n in (1, 2)
        for due in _dues(inf.id, n)
    }
    assert dues <= missed


def _dues(rule: str, offense: int) -> tuple[Due, ...]:
    return dues_of(BOOK, BOOK.infractions[rule], offense)


@pytest.mark.parametrize("ruling", RULINGS, ids=lambda r: f"{r.rule}#{r.number}")
def test_every_japanese_explanation_is_what_a_judge_says(ruling: Ruling) -> None:
    text = explain(BOOK, ruling, "ja")
    assert problems(text) == [], text
    assert text.endswith("。"), text
    assert BOOK.rule_name(ruling.rule, "ja") in text


def test_earlier_offences_are_told_in_words_with_their_ruling_numbers() -> None:
    third = every_offense("ingame.slow-play")[2]
    text = explain(BOOK, third, "ja")
    assert text.startswith("ひどく遅いプレイの3回目の違反です。")
    assert "これまでに同じ違反が2回記録されています(裁定 #1、裁定 #2)。" in text
    assert "罰則は二重警告とマッチの敗北です" in text
    assert "ガイドラインの記載は「3)警2+マ敗」" in text


def test_marked_cards_are_named_as_marked_cards_and_their_remedy_is_a_sentence() -> None:
    first, missed = every_offense("cards.marked-no-pattern")[:2]
    text = explain(BOOK, first, "ja")
    assert text.startswith("マークドカード(規則性のないとき)の1回目の違反です。")
    assert "10分以内に、印のついたカードを交換してください。交換できなければマッチの敗北です。" in text
    later = explain(BOOK, missed, "ja")
    assert "期限までに必要な対応がありませんでした" in later and "マッチの敗北を与えます" in later
    assert BOOK.rule_name("cards.marked-pattern", "ja") == "マークドカード(規則性のあるとき)"
    assert BOOK.infractions["cards.marked-no-pattern"].name.ja == "規則性のないとき"  # the source's


def test_tardiness_says_its_deadlines_in_sentences() -> None:
    first = every_offense("pregame.tardiness")[0]
    text = explain(BOOK, first, "ja")
    assert "10分たっても来ない場合は、さらにデュエル1回の敗北になります。" in text
    assert "マッチの終了時までに来ない場合は、大会を棄権したものとして扱います。" in text
    assert "この違反は何回目でも同じ罰則です。" in text


def test_the_english_explanation_is_unchanged_in_shape() -> None:
    first = every_offense("ingame.slow-play")[0]
    assert explain(BOOK, first, "en").startswith("1st offence of Slow play (ingame.slow-play); penalty:")


# --- the guideline's own texts


def _remedies() -> Iterator[tuple[str, Remedy]]:
    for inf in BOOK.guideline.infractions:
        yield from ((inf.id, r) for r in inf.remedies)
        yield from ((f"{inf.id}.ladder[{n}]", r) for n, step in enumerate(inf.ladder) for r in step.remedies)


def guideline_texts() -> list[tuple[str, str]]:
    """Every Japanese text of remedies, deadlines, notes and display names."""
    texts: list[tuple[str, str]] = []
    for where, remedy in _remedies():
        texts.append((f"{where} remedy", remedy.text.ja))
        if remedy.deadline is not None:
            texts.append((f"{where} deadline", remedy.deadline.text.ja))
    for inf in BOOK.guideline.infractions:
        texts += [(f"{inf.id} note", note.ja) for note in inf.notes]
        texts += [(f"{inf.id} display", inf.display.ja)] if inf.display else []
    texts += [(f"{c.code} note", c.note.ja) for c in BOOK.guideline.components if c.note]
    return texts


TEXTS = guideline_texts()


@pytest.mark.parametrize(("where", "text"), TEXTS, ids=[where for where, _ in TEXTS])
def test_every_remedy_deadline_and_note_is_a_sentence(where: str, text: str) -> None:
    assert problems(text) == [], where
    if not where.endswith("display"):
        assert text.endswith("。"), where


def test_every_name_shown_stands_alone() -> None:
    for rule in BOOK.rule_ids():
        name = BOOK.rule_name(rule, "ja")
        assert problems(name) == [] and "レ違反" not in name and "警1" not in name, rule
        assert not name.endswith(("のとき", "のあるとき", "のないとき")), rule


def test_a_replayed_ruling_is_cited_by_its_scenario_event() -> None:
    first, second = every_offense("ingame.slow-play")[:2]
    replayed = replace(second, explanation=replace(second.explanation, counted=("event 0",)))
    assert "(シナリオのイベント 0)" in explain(BOOK, replayed, "ja")
    assert first.explanation.counted == ()


def test_remedies_with_a_deadline_say_when_it_falls_due() -> None:
    for where, remedy in _remedies():
        d = remedy.deadline
        if d is not None and d.when.value == "minutes":
            assert f"{d.minutes}分" in remedy.text.ja and f"{d.minutes}分" in d.text.ja, where
