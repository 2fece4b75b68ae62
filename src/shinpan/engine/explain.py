"""A ruling's explanation as words a judge can read aloud, in Japanese or English.

The Japanese is written as a judge says it at the table: whole sentences, the names people
know (never an infraction id, a D-number or a component code), and the guideline's own
shorthand (``2)警1+デ敗``, ``{マ敗}``, ``→``) only inside a quotation 「…」.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shinpan.engine.ruling import Due, Ruling
from shinpan.guideline.model import Counting, Remedy
from shinpan.guideline.rulebook import Rulebook

_REASONS_EN: dict[str, str] = {
    "all_offenses": "this item gives the same penalty every time (D2)",
    "past_last_step": "past the last step, the last step applies (D2)",
    "intent_established": "intent was established, so it is recorded as cheating (D13)",
    "same_as_previous_kind": "decided by whether it is the same kind as before (D5)",
    "same_as_previous_judge": "the judge said whether it is the same as before (D5)",
    "draft_exclusion": "added because the player was excluded from the draft (D6)",
    "unrelated_warnings": "additional penalty: three or more unrelated single warnings (D3)",
    "deviation": "the head judge deviated from the guideline",
    "uncategorized": "outside every category: the judge chooses the penalty; it counts toward nothing (D4)",
    "facts_determined": "the facts could be determined: no penalty and no offence (D13)",
    "advisor_outsider_only": "the advisor is not a participant: removal from the venue only (D8)",
    "deadline_missed": "the remedy was not carried out in time (D7)",
    "left_dropped": "the player had already dropped when this was recorded: nothing applies to any match and no deadline is set",
    "left_withdrawn": "the player had already withdrawn when this was recorded: nothing applies to any match and no deadline is set",
    "left_ejected": "the player had already been ejected when this was recorded: nothing applies to any match and no deadline is set",
    "left_disqualified": (
        "the player had already been disqualified when this was recorded: nothing applies to any match and no deadline is set"
    ),
}

# Japanese sentences of the reasons that need nothing from the ruling itself.
_REASONS_JA: dict[str, str] = {
    "all_offenses": "この違反は何回目でも同じ罰則です。",
    "past_last_step": "ガイドラインの最後の段階を超えているため、最後の段階の罰則を適用します。",
    "uncategorized": "罰則はジャッジが選びます。この違反は累積せず、ほかの違反の回数にも数えません。",
    "facts_determined": "事実が判断できたため、罰則はありません。違反の回数にも数えません。",
    "advisor_outsider_only": (
        "助言した人は大会参加者ではないため、このプレイヤーには罰則を与えず、違反の回数にも数えません。"
    ),
    "left_dropped": "記録の時点で、このプレイヤーはすでにドロップしています。この裁定はどのマッチにも適用せず、期限も設けません。",
    "left_withdrawn": "記録の時点で、このプレイヤーはすでに棄権しています。この裁定はどのマッチにも適用せず、期限も設けません。",
    "left_ejected": "記録の時点で、このプレイヤーはすでに退場になっています。この裁定はどのマッチにも適用せず、期限も設けません。",
    "left_disqualified": (
        "記録の時点で、このプレイヤーはすでに失格になっています。この裁定はどのマッチにも適用せず、期限も設けません。"
    ),
}
_NO_PENALTY_SAID = frozenset({"facts_determined", "advisor_outsider_only"})

# What an effect does, as the end of a Japanese sentence, and the word by which a remedy's
# text already says it: by what the effect does (its declared meaning, whatever the file
# calls it), or, for an effect the engine does not apply, by the shipped file's code (one
# called otherwise is said by its name).
_MEANINGS_JA: dict[str, tuple[str, str]] = {
    "withdrawn": ("大会を棄権したものとして扱います", "棄権"),
    "match_draw": ("このマッチは引き分けになります", "引き分け"),
    "venue_removal": ("大会参加者でない助言者には、会場から退去してもらいます", "退去"),
    "time_extension": ("ジャッジの判断で、時間を延長できます", "延長"),
}
_EFFECTS_JA: dict[str, tuple[str, str]] = {
    "opponent_claim_adopted": ("対戦相手の言い分を採用します", "言い分"),
    "no_mulligan": ("現在のデュエルでは、マリガンできません", "マリガン"),
}

_WHEN: dict[str, tuple[str, str]] = {
    "end_of_match": ("マッチの終了時まで", "by the end of the match"),
    "end_of_round": ("ラウンドの終了時まで", "by the end of the round"),
    "before_next_match": ("次のマッチまで", "before the next match"),
}
# The words by which a remedy's Japanese text already says when its deadline falls.
_WHEN_SAID = {
    "end_of_match": "マッチの終了時",
    "end_of_round": "ラウンドの終了時",
    "before_next_match": "次のマッチ",
}


_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def ordinal(n: int, lang: str) -> str:
    if lang != "en":
        return f"{n}回目"
    suffix = "th" if 10 <= n % 100 <= 20 else _SUFFIXES.get(n % 10, "th")
    return f"{n}{suffix}"


def deadline_text(due: Due, lang: str) -> str:
    en = lang == "en"
    if due.when == "minutes":
        return f"within {due.minutes} minutes" if en else f"{due.minutes}分以内"
    ja_text, en_text = _WHEN.get(due.when, (due.when, due.when))
    return en_text if en else ja_text


def penalty_text(book: Rulebook, codes: tuple[str, ...], lang: str) -> str:
    if not codes:
        return "no penalty" if lang == "en" else "罰則なし"
    key = ("penalty_text", tuple(codes), lang)  # callers may pass a list read from JSON
    found = book.memo.get(key)
    if not isinstance(found, str):
        found = book.memo[key] = " + ".join([book.label(c, lang) for c in codes])
    return found


def reason_text(code: str, lang: str = "ja") -> str:
    """One reason that stands alone as a sentence (a note a screen shows on its own)."""
    return _REASONS_EN[code] if lang == "en" else _REASONS_JA[code]


def explain(book: Rulebook, ruling: Ruling, lang: str = "ja") -> str:
    """One paragraph: which offence of what, why, the guideline line, remedy and deadline."""
    return _explain_en(book, ruling) if lang == "en" else _explain_ja(book, ruling)


def _explain_en(book: Rulebook, ruling: Ruling) -> str:
    x = ruling.explanation
    parts = [_head_en(book, ruling.rule, ruling.offense, x.reasons, ruling.recorded_as, x.related)]
    if x.counted and not ruling.follow_up:
        refs = ", ".join(r for r in x.counted if r) or str(len(x.counted))
        parts.append(f"earlier offences counted: {refs}")
    if ruling.deviation is not None:
        given = penalty_text(book, ruling.guideline_penalties, "en")
        parts.append(f"guideline gives {given}; reason: {ruling.deviation.reason}")
    parts.append(_penalty_en(book, ruling))
    return "; ".join([p.rstrip(".。") for p in parts]) + "."


def _head_en(
    book: Rulebook,
    rule: str,
    offense: int | None,
    reasons: tuple[str, ...],
    recorded_as: str | None,
    related: tuple[str, ...],
) -> str:
    """The start of an English explanation: which offence of what, why (the same for every
    ruling of a rule's offence number and reasons: made once)."""
    key = ("head_en", rule, offense, reasons, recorded_as, related)
    found = book.memo.get(key)
    if isinstance(found, str):
        return found
    name = book.rule_name(rule, "en")
    parts: list[str] = []
    if offense is not None:
        parts.append(f"{ordinal(offense, 'en')} offence of {name} ({rule})")
    else:
        parts.append(f"{name} ({rule})")
    parts += [_REASONS_EN[code] for code in reasons if code in _REASONS_EN]
    if recorded_as:
        parts.append(f"recorded as {book.rule_name(recorded_as, 'en')}")
    if related:
        parts.append("unrelated warnings: " + ", ".join(book.rule_name(r, "en") for r in related))
    made = "; ".join([p.rstrip(".。") for p in parts])
    book.memo[key] = made
    return made


def _penalty_en(book: Rulebook, ruling: Ruling) -> str:
    """The end of an English explanation: penalty, effects, the guideline's line, remedies
    and deadlines (the same for every ruling of a step: made once)."""
    x = ruling.explanation
    key = ("penalty_en", ruling.penalties, ruling.effects, x.step_source, x.remedies_en, ruling.dues)
    found = book.memo.get(key)
    if isinstance(found, str):
        return found
    parts = [f"penalty: {penalty_text(book, ruling.penalties, 'en')}"]
    if ruling.effects:
        parts.append("effects: " + ", ".join(book.label(e, "en") for e in ruling.effects))
    if x.step_source:
        parts.append(f"guideline: 「{x.step_source}」")
    if x.remedies_en:
        parts.append("remedy: " + " / ".join(x.remedies_en))
    for due in ruling.dues:
        parts.append(f"deadline: {deadline_text(due, 'en')} ({due.remedy_en})")
    made = book.memo[key] = "; ".join(p.rstrip(".。") for p in parts)
    return made


# --- Japanese


def _explain_ja(book: Rulebook, ruling: Ruling) -> str:
    if ruling.follow_up or "deadline_missed" in ruling.explanation.reasons:
        sentences = _missed_ja(book, ruling)
    else:
        sentences = _ruling_ja(book, ruling)
    return "".join(sentences)


def _ruling_ja(book: Rulebook, ruling: Ruling) -> list[str]:
    x = ruling.explanation
    reasons = set(x.reasons)
    name = _named(book.rule_name(ruling.rule, "ja"))
    out: list[str] = []
    if "unrelated_warnings" in reasons:
        out.append(f"{name}です。")
        if ruling.offense is not None:
            out.append(f"このプレイヤーへのこの追加罰則は{ordinal(ruling.offense, 'ja')}です。")
    elif ruling.offense is not None:
        out.append(
            f"{name}の{ordinal(ruling.offense, 'ja')}{'' if name.endswith('違反') else 'の違反'}です。"
        )
    else:
        out.append(f"{name}として記録しました。")
    if ruling.recorded_as:
        recorded = _named(book.rule_name(ruling.recorded_as, "ja"))
        out.append(f"{recorded}として記録されましたが、故意が確認されたため、{name}として扱います。")
    elif "intent_established" in reasons:
        out.append(f"故意が確認されたため、{name}として扱います。")
    if x.counted:
        out.append(_counted_ja(book, ruling))
    for code in x.reasons:
        out += _reason_ja(book, ruling, code)
    source = f"(ガイドラインの記載は「{x.step_source}」)" if x.step_source else ""
    penalties = _names_ja(book, ruling.penalties)
    if ruling.deviation is not None:
        given = _names_ja(book, ruling.guideline_penalties)
        out.append(
            f"ガイドラインの罰則は{given}です{source}。"
            if given
            else f"ガイドラインでは罰則はありません{source}。"
        )
        out.append(
            f"ヘッドジャッジが「{ruling.deviation.reason}」という理由でガイドラインから逸脱し、"
            f"{f'罰則を{penalties}としました' if penalties else '罰則なしとしました'}。"
        )
    elif penalties:
        chosen = "ジャッジが選んだ罰則" if "uncategorized" in reasons else "罰則"
        out.append(f"{chosen}は{penalties}です{source}。")
    elif not reasons & _NO_PENALTY_SAID:
        out.append(f"罰則はありません{source}。")
    said = "".join(x.remedies)
    out += [_effect_ja(book, e) + "。" for e in ruling.effects if not _said(book, e, said)]
    out += [_sentence(r) for r in x.remedies]
    for due in ruling.dues:
        if not _says_when(due, x.remedies):
            out.append(_due_ja(book, due))
    return out


def _reason_ja(book: Rulebook, ruling: Ruling, code: str) -> list[str]:
    """The sentences of one reason code (those the head and the counts do not say)."""
    if code in _REASONS_JA:
        return [_REASONS_JA[code]]
    x = ruling.explanation
    if code == "draft_exclusion":
        cause = f"(裁定 #{ruling.cause})" if ruling.cause is not None else ""
        return [f"ドラフトから除外する罰則を受けたため、この違反が追加されました{cause}。"]
    if code == "unrelated_warnings":
        rule = book.unrelated_warnings
        counted = book.components.get(rule.counted_component or "")
        warning = counted.name.ja if counted is not None else "警告"
        names = "、".join(_named(book.rule_name(r, "ja")) for r in x.related)
        return [f"{warning}を受けている違反は、{names}の{len(x.related)}つです。"] if x.related else []
    if code in ("same_as_previous_kind", "same_as_previous_judge"):
        return [_same_as_previous_ja(book, ruling, judge=code == "same_as_previous_judge")]
    return []


def _same_as_previous_ja(book: Rulebook, ruling: Ruling, *, judge: bool) -> str:
    inf = book.infractions.get(ruling.rule)
    extra = book.step(inf, ruling.offense).if_same_as_previous if inf and ruling.offense else []
    added = _names_ja(book, tuple(extra)) or "追加の罰則"
    same = ruling.explanation.same_as_previous
    if same is None:
        return f"前回と同じ違反なら、{added}が加わります。"
    if judge:
        said = "前回と同じ違反だ" if same else "前回と同じ違反ではない"
        return f"ジャッジが{said}と判断したため、{added}{'が加わります' if same else 'は加わりません'}。"
    if same:
        return f"前回と同じ種類の違反のため、{added}が加わります。"
    return f"前回と同じ種類の違反ではないため、{added}は加わりません。"


def _counted_ja(book: Rulebook, ruling: Ruling) -> str:
    x = ruling.explanation
    refs = "、".join(_ref_ja(r) for r in x.counted if r)
    inf = book.infractions.get(ruling.rule)
    where = "このドラフトで、" if inf is not None and inf.counting is Counting.draft else ""
    cited = f"({refs})" if refs else ""
    return f"{where}これまでに同じ違反が{len(x.counted)}回記録されています{cited}。"


def _missed_ja(book: Rulebook, ruling: Ruling) -> list[str]:
    """D7: a follow-up ruling, when a remedy's deadline passed undone."""
    x = ruling.explanation
    name = _named(book.rule_name(ruling.rule, "ja"))
    which = f"{name}の{ordinal(ruling.offense, 'ja')}の違反" if ruling.offense is not None else name
    earlier = next((_ref_ja(r) for r in x.counted if r), "")
    out = [f"{which}{f'({earlier})' if earlier else ''}について、期限までに必要な対応がありませんでした。"]
    remedy = x.remedies[0] if x.remedies else ""
    if remedy:
        out.append(f"対象の処置は「{remedy.rstrip('。.')}」です。")
    quoted = _deadline_source(book, ruling.rule, remedy)
    source = f"(ガイドラインの記載は「{quoted}」)" if quoted else ""
    effects = [_effect_ja(book, e) for e in ruling.effects]
    if ruling.penalties:
        out.append(f"そのため、追加の罰則として{_names_ja(book, ruling.penalties)}を与えます{source}。")
    elif effects:
        out.append(f"そのため、{effects.pop(0)}{source}。")
    else:
        out.append(f"追加の罰則はありません{source}。")
    out += [f"また、{e}。" for e in effects]
    out.append("この裁定は、違反の回数には数えません。")
    return out


def _deadline_source(book: Rulebook, rule: str, remedy_ja: str) -> str:
    """The source's own words for the deadline of the remedy with this text, if found."""
    inf = book.infractions.get(rule)
    if inf is None or not remedy_ja:
        return ""
    every: list[Remedy] = [*inf.remedies, *(r for step in inf.ladder for r in step.remedies)]
    for r in every:
        if r.text.ja == remedy_ja and r.deadline is not None:
            return r.deadline.source or r.source or ""
    return ""


def _due_ja(book: Rulebook, due: Due) -> str:
    """A deadline the remedy's own text does not state, with what missing it brings."""
    when = deadline_text(due, "ja")
    sentence = f"「{due.remedy.rstrip('。.')}」の期限は{when}です。"
    if due.penalties:
        sentence += f"期限を過ぎると、{_names_ja(book, due.penalties)}になります。"
    sentence += "".join(f"期限を過ぎると、{_effect_ja(book, e)}。" for e in due.effects)
    return sentence


def _says_when(due: Due, remedies: tuple[str, ...]) -> bool:
    """Whether the remedy's Japanese text, shown above, already says when it falls due."""
    if due.remedy not in remedies:
        return False
    said = f"{due.minutes}分" if due.when == "minutes" else _WHEN_SAID.get(due.when, "")
    return bool(said) and said in due.remedy


def deviation_text(
    book: Rulebook,
    new: tuple[str, ...],
    given: tuple[str, ...],
    reason: str,
    lang: str,
    gone: Sequence[tuple[str, str]] = (),
) -> str:
    """What a head judge's deviation on a stored ruling says, appended to its explanation
    (D11): a sentence of its own, the reason quoted as the head judge gave it, and the
    remedies that went with the penalties they hung on (D16, ``gone``: Japanese, English)."""
    if lang == "en":
        dropped = "".join(f" No longer: {en.rstrip('.')}." for _, en in gone)
        return (
            f"Head judge's deviation: {penalty_text(book, new, 'en')} "
            f"(the guideline gives {penalty_text(book, given, 'en')}); reason: \u201c{reason}\u201d.{dropped}"
        )
    now = f"罰則を{_names_ja(book, new)}に変えました" if new else "罰則なしにしました"
    before = _names_ja(book, given) if given else "罰則なし"
    dropped = "".join(f"その罰則がなくなったため、「{ja.rstrip('。')}」は行いません。" for ja, _ in gone)
    return f"ヘッドジャッジの判断で{now}(ガイドラインでは{before}です)。理由は「{reason}」です。{dropped}"


def _names_ja(book: Rulebook, codes: tuple[str, ...]) -> str:
    """Components by their full Japanese names: 単一警告とデュエルの敗北."""
    names = [_name_ja(book, c) for c in codes]
    if len(names) <= 1:
        return "".join(names)
    return "、".join(names[:-1]) + "と" + names[-1]


def _name_ja(book: Rulebook, code: str) -> str:
    c = book.components.get(code) or book.effects.get(code)
    return c.name.ja if c is not None else code


def _effect_words(book: Rulebook, code: str) -> tuple[str, str] | None:
    meaning = book.meaning.get(code)
    return _MEANINGS_JA.get(meaning) if meaning else _EFFECTS_JA.get(code)


def _effect_ja(book: Rulebook, code: str) -> str:
    known = _effect_words(book, code)
    return known[0] if known else f"「{_name_ja(book, code)}」の措置をとります"


def _said(book: Rulebook, effect: str, remedies: str) -> bool:
    """Whether the remedies shown already say what the effect does (a draw, a removal…)."""
    known = _effect_words(book, effect)
    return known is not None and known[1] in remedies


def _named(name: str) -> str:
    """A name as a noun of a sentence: quoted when it ends as a verb or an adjective does
    (「ジャッジの指導に従わない」の1回目の違反), as it stands otherwise."""
    return f"「{name}」" if name.endswith(("ない", "る")) else name


def _ref_ja(ref: str) -> str:
    """How an earlier ruling is cited: 裁定 #12 (the event's ruling number)."""
    if match := re.fullmatch(r"#(\d+)", ref):
        return f"裁定 #{match[1]}"
    if match := re.fullmatch(r"event (\d+)", ref):  # replay: the scenario's event index
        return f"シナリオのイベント {match[1]}"
    return ref


def _sentence(text: str) -> str:
    """A Japanese text closed as a sentence."""
    text = text.strip()
    return text if text.endswith(("。", "」", "!", "?")) else text.rstrip(".") + "。"
