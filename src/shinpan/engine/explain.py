"""A ruling's explanation as words a judge can read aloud, in Japanese or English."""

from __future__ import annotations

from shinpan.engine.ruling import Due, Ruling
from shinpan.guideline.rulebook import Rulebook

_REASONS: dict[str, tuple[str, str]] = {
    "all_offenses": ("この項目は何回目でも同じ罰則(D2)", "this item gives the same penalty every time (D2)"),
    "past_last_step": (
        "最後の段階を超えたため最後の段階を適用(D2)",
        "past the last step, the last step applies (D2)",
    ),
    "intent_established": (
        "故意が確認されたためイカサマとして記録(D13)",
        "intent was established, so it is recorded as cheating (D13)",
    ),
    "same_as_previous_kind": (
        "前回と同じ種類かどうかで判断(D5)",
        "decided by whether it is the same kind as before (D5)",
    ),
    "same_as_previous_judge": (
        "前回と同一かはジャッジが判断(D5)",
        "the judge said whether it is the same as before (D5)",
    ),
    "draft_exclusion": (
        "ドラフトよりの除外による追加の違反(D6)",
        "added because the player was excluded from the draft (D6)",
    ),
    "unrelated_warnings": (
        "関連しない警1が3つ以上になったための追加罰則(D3)",
        "additional penalty: three or more unrelated single warnings (D3)",
    ),
    "deviation": ("ヘッドジャッジがガイドラインから逸脱", "the head judge deviated from the guideline"),
    "uncategorized": (
        "特定のカテゴリに入らない違反: ジャッジが罰則を選び, 累積しない(D4)",
        "outside every category: the judge chooses the penalty; it counts toward nothing (D4)",
    ),
    "facts_determined": (
        "事実が判断できたため罰則なし, 違反回数にも数えない(D13)",
        "the facts could be determined: no penalty and no offence (D13)",
    ),
    "advisor_outsider_only": (
        "助言者は大会参加者でないため会場からの退去のみ(D8)",
        "the advisor is not a participant: removal from the venue only (D8)",
    ),
    "deadline_missed": (
        "期限内に処置が実行されなかったための追加罰則(D7)",
        "the remedy was not carried out in time (D7)",
    ),
}

_WHEN: dict[str, tuple[str, str]] = {
    "end_of_match": ("マッチの終了時まで", "by the end of the match"),
    "end_of_round": ("ラウンドの終了時まで", "by the end of the round"),
    "before_next_match": ("次のマッチまで", "before the next match"),
}


def ordinal(n: int, lang: str) -> str:
    if lang != "en":
        return f"{n}回目"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
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
    return " + ".join(book.label(c, lang) for c in codes)


def explain(book: Rulebook, ruling: Ruling, lang: str = "ja") -> str:
    """One paragraph: which offence of what, why, the guideline line, remedy and deadline."""
    en = lang == "en"
    x = ruling.explanation
    name = book.rule_name(ruling.rule, lang)
    parts: list[str] = []
    if ruling.offense is not None:
        head = (
            f"{ordinal(ruling.offense, lang)} offence of {name} ({ruling.rule})"
            if en
            else f"{name}({ruling.rule})の{ordinal(ruling.offense, lang)}の違反"
        )
    else:
        head = f"{name} ({ruling.rule})" if en else f"{name}({ruling.rule})"
    parts.append(head)
    for code in x.reasons:
        if code in _REASONS:
            parts.append(_REASONS[code][1 if en else 0])
    if ruling.recorded_as:
        recorded = book.rule_name(ruling.recorded_as, lang)
        parts.append(f"recorded as {recorded}" if en else f"記録時の違反: {recorded}")
    if x.related:
        names = ", ".join(book.rule_name(r, lang) for r in x.related)
        parts.append(f"unrelated warnings: {names}" if en else f"関連しない警1: {names}")
    if x.counted and not ruling.follow_up:
        refs = ", ".join(r for r in x.counted if r) or str(len(x.counted))
        parts.append(f"earlier offences counted: {refs}" if en else f"数えた以前の違反: {refs}")
    if ruling.deviation is not None:
        given = penalty_text(book, ruling.guideline_penalties, lang)
        reason = ruling.deviation.reason
        parts.append(
            f"guideline gives {given}; reason: {reason}" if en else f"ガイドラインでは{given}; 理由: {reason}"
        )
    parts.append(
        f"penalty: {penalty_text(book, ruling.penalties, lang)}"
        if en
        else f"罰則: {penalty_text(book, ruling.penalties, lang)}"
    )
    if ruling.effects:
        effects = ", ".join(book.label(e, lang) for e in ruling.effects)
        parts.append(f"effects: {effects}" if en else f"措置: {effects}")
    if x.step_source:
        parts.append(f"guideline: 「{x.step_source}」" if en else f"ガイドライン: 「{x.step_source}」")
    remedies = x.remedies_en if en else x.remedies
    if remedies:
        parts.append(("remedy: " if en else "追加措置: ") + " / ".join(remedies))
    for due in ruling.dues:
        what = due.remedy_en if en else due.remedy
        parts.append(
            f"deadline: {deadline_text(due, lang)} ({what})"
            if en
            else f"期限: {deadline_text(due, lang)}({what})"
        )
    parts = [p.rstrip(".。") for p in parts]
    return ("; " if en else "。").join(parts) + ("." if en else "。")
