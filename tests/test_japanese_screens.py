"""The judges' screens in Japanese say nothing a judge would not: no infraction id, no
D-number, no component code and none of the guideline's shorthand (a step marker such as
``2)`` or ``10分後)``, ``→``, ``{…}``) outside a quotation of the source in 「」.

The same check as ``test_japanese`` (for the engine's explanations and the guideline's
texts), here on what the pages show: the record screen with every infraction's questions,
the desk with each of its panels filled, a player's page, a ruling's page with its
corrections, and the reports' pages. The guideline page and the exports may show ids.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest

from shinpan.services import appeals, corrections
from support import BOOK
from test_japanese import CODE, JAPANESE, _stray_parens, outside_quotes
from web_support import World, build_world, database_url


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """An event with a ruling of each kind the screens show: waiting, confirmed, deviated,
    voided, appealed, a pending disqualification, deadlines running."""
    with database_url("sqlite", tmp_path_factory.mktemp("screens")) as url:
        w = build_world(url, players=8, spare=2)
        try:
            slow = w.record("P001", "ingame.slow-play")
            corrections.confirm(w.db, w.event, [slow], command_id=w.cid())
            w.record("P001", "ingame.slow-play")  # waits, with a duel loss
            caution = w.record("P002", "pregame.slow-start")
            corrections.deviate(w.db, w.event, caution, ["notice"], "繰り返しのため", command_id=w.cid())
            voided = w.record("P003", "ingame.cards-off-table")
            corrections.void(w.db, w.event, voided, "記録の誤り", command_id=w.cid())
            w.record("P004", "severe.cheating")  # a disqualification waiting for the head judge
            w.record("P005", "cards.marked-no-pattern")  # a deadline in minutes
            w.record("P006", "pregame.tardiness")
            mixed = w.record("P007", "deck.lost-or-mixed-cards", facts={"mixed_into": "P008"})
            appeals.file_appeal(w.db, w.event, mixed, "P007", "混ざったのは相手のカード", command_id=w.cid())
            decided = appeals.file_appeal(w.db, w.event, slow, "P001", "遅くなかった", command_id=w.cid())
            appeals.decide_appeal(
                w.db, w.event, decided, "upheld", "ジャッジの判断どおり", command_id=w.cid()
            )
            w.rulings = {"slow": slow, "caution": caution, "voided": voided, "mixed": mixed}  # type: ignore[attr-defined]
            yield w
        finally:
            w.close()


def shown(page: str) -> str:
    """What the reader sees (templates' content too: the record screen shows it)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<svg\b.*?</svg>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


PROBLEMS = (
    ("a D-number", re.compile(r"\bD\d+\b")),
    ("a component or effect code", CODE),
    ("an arrow", re.compile(r"→")),
    ("a brace", re.compile(r"[{}]")),
    ("a half-width comma or period in Japanese", re.compile(rf"{JAPANESE}[,.]|[,.]{JAPANESE}")),
)


def problems(text: str) -> list[str]:
    found: list[str] = []
    for line in (ln.strip() for ln in text.splitlines()):
        if not line:
            continue
        plain = outside_quotes(line)
        found += [f"infraction id {rule} in {line!r}" for rule in BOOK.rule_ids() if rule in plain]
        found += [f"{what} in {line!r}" for what, pattern in PROBLEMS if pattern.search(plain)]
        found += [f"{p} in {line!r}" for p in _stray_parens(plain)]
    return found


SCREENS = [
    "/events/{event}/record",
    "/events/{event}/desk",
    "/events/{event}/players/P001",
    "/events/{event}/players/P004",
    "/events/{event}/rulings/{slow}",
    "/events/{event}/rulings/{caution}",
    "/events/{event}/rulings/{voided}",
    "/events/{event}/rulings/{mixed}",
    "/events/{event}/desk/corrections/{mixed}",
    "/events/{event}/reports",
    "/events/{event}/reports/penalties",
    "/events/{event}/reports/dq",
    "/events/{event}/reports/stats",
    "/sessions",
    "/events/{event}/sessions",
    "/events/{event}/deckcheck?round=1&tables=2",
]


@pytest.mark.parametrize("path", SCREENS)
@pytest.mark.parametrize("role", ["head_judge", "floor_judge"])
def test_a_judges_screen_says_nothing_a_judge_would_not(world: World, path: str, role: str) -> None:
    url = path.format(event=world.event, **world.rulings)  # type: ignore[attr-defined]
    page = world.clients[role].get(url)
    if page.status_code == 403:  # the floor judge has no reports, nor the judges' sessions
        assert role == "floor_judge" and ("/reports" in url or url.endswith("/sessions"))
        return
    assert page.status_code == 200, page.text[:300]
    assert '<html lang="ja">' in page.text or not page.text.startswith("<!doctype")
    assert problems(shown(page.text)) == [], url


def test_the_check_finds_what_the_old_screens_said() -> None:
    old = [
        "1) 通(通告) · 2) 警1(単一警告) + デ敗(デュエルの敗北)",  # the picker's step markers
        "ひどく遅いプレイ (ingame.slow-play)",
        "警1(単一警告) + デ敗(デュエルの敗北) warning1+duel_loss",
        "失格には関係者の陳述を含む調査報告書が必要です(D14)。",
        "10分内印カード交換{マ敗}",
        "ただちに)警1+デ敗",
    ]
    for text in old:
        assert problems(text), text
    assert problems("原文: 「1)通」") == []  # a quotation of the source


def test_every_japanese_message_says_nothing_a_judge_would_not() -> None:
    """Errors and refusals reach the desk, the phones and the CLI as the catalogue words them:
    no D-numbers, ids or half-width commas there either. A phone's settings path is written
    with arrows, as the phone's maker writes it."""
    from shinpan.web.i18n import catalog

    for english, japanese in catalog("ja").items():
        found = problems(japanese.replace("{", "").replace("}", ""))
        if japanese.startswith("設定 →"):
            found = [p for p in found if not p.startswith("an arrow")]
        assert found == [], english


# -- no English on a Japanese screen ------------------------------------------------------------


def _english_ui_words() -> list[str]:
    """The screens' own English words: every short message of the catalogue (a button, a
    heading, a state), as the English a page shows when its Japanese is missing."""
    from babel.messages.pofile import read_po

    from web_support import ROOT

    with (ROOT / "src/shinpan/web/locale/ja/LC_MESSAGES/messages.po").open("rb") as f:
        catalogue = read_po(f, locale="ja")
    words = {
        str(m.id).rstrip(".:")
        for m in catalogue
        if isinstance(m.id, str) and re.fullmatch(r"[A-Z][A-Za-z]+( [a-z]+){0,2}[.:]?", m.id) and m.string
    }
    raw = {"Not Found", "Method Not Allowed", "Internal Server Error", "Too Many Requests", "detail"}
    return sorted((words | raw) - ALLOWED_ENGLISH, key=len, reverse=True)


ALLOWED_ENGLISH = {"English"}  # the language switch says its language in that language
ENGLISH_UI = _english_ui_words()
ENGLISH = re.compile(r"(?<![A-Za-z])(" + "|".join(map(re.escape, ENGLISH_UI)) + r")(?![A-Za-z])")

MORE_SCREENS = [
    ("head_judge", "/"),
    ("head_judge", "/events/{event}/scorekeeper"),
    ("head_judge", "/events/{event}/invite"),
    ("floor_judge", "/events/{event}/record/mine"),
    ("floor_judge", "/events/{event}/record"),
    ("scorekeeper", "/events/{event}/scorekeeper"),
    ("signed_out", "/login"),
    ("signed_out", "/join/{code}"),
    ("head_judge", "/events/{event}/no-such-page"),
]


def english_in(text: str) -> list[str]:
    return [f"{m[0]!r} in {line.strip()!r}" for line in text.splitlines() for m in ENGLISH.finditer(line)]


@pytest.mark.parametrize("path", SCREENS)
@pytest.mark.parametrize("role", ["head_judge", "floor_judge"])
def test_a_judges_screen_in_japanese_shows_no_english_ui_word(world: World, path: str, role: str) -> None:
    url = path.format(event=world.event, **world.rulings)  # type: ignore[attr-defined]
    page = world.clients[role].get(url)
    if page.status_code == 403:
        return
    assert english_in(shown(page.text)) == [], url


@pytest.mark.parametrize(("role", "path"), MORE_SCREENS)
def test_every_other_screen_in_japanese_says_nothing_a_judge_would_not(
    world: World, role: str, path: str
) -> None:
    url = path.format(event=world.event, code=world.join_code)
    page = world.clients[role].get(url)
    assert page.status_code in (200, 404), (url, page.status_code)
    text = shown(page.text)
    assert english_in(text) == [] and problems(text) == [], url


def test_the_english_check_finds_what_a_missing_translation_shows() -> None:
    assert "Save the ruling" in ENGLISH_UI and "Missed" in ENGLISH_UI
    assert english_in("記録\nSave the ruling\n") and english_in("期限 Missed")
    assert english_in('{"detail":"Not Found"}')
    assert english_in("審判 shinpan\nEnglish\n記録する") == []
