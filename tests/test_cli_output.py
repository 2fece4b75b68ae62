"""A plain line prints as Rich would print it (shinpan.cli.output).

Commands print their one-line answers without loading Rich when Rich would print the line
as it is; these cases hold every kind of line against Rich's own ``Console.print`` at
several widths: lines that fit, lines one column too wide, markup, emoji codes, control
characters, Japanese, several lines in one, and the errors ``fail`` prints unwrapped.
"""

from __future__ import annotations

import io

import pytest

from shinpan.cli import output

LINES = [
    "confirmed 7",
    "saved: ruling #15",
    "ok: 3 event(s), 75 entries, every chain holds",
    "  event 1 head 75",
    "x" * 39,
    "x" * 40,
    "x" * 41,
    "word " * 20,
    "trailing spaces   ",
    "",
    "two\nlines",
    "ends with a newline\n",
    "[bold]markup[/] here",
    "a [link] in brackets",
    "an emoji :thumbs_up: code",
    "a:b:c and :not-an-emoji:",
    "a tab\there",
    "a bell\x07 and a\rreturn",
    "an escape \x1b[31mred",
    "選手 P0001 (P0001) せんしゅ — active",
    "  #94 P0003: 余計なカードを引いた場合の1回目の違反です。罰則は単一警告です",
    "claim code for HJ's seat (shown once; valid 7 days): ABC\n  the judge opens /join/ABC on the server",
]


def rich_says(text: str, **options: object) -> str:
    out = io.StringIO()
    console = output.console()
    console.file = out
    console.print(text, **options)  # type: ignore[arg-type]
    return out.getvalue()


def plain_says(capsys: pytest.CaptureFixture[str], text: str, **options: bool) -> str:
    output.say(text, **options)
    return capsys.readouterr().out


@pytest.mark.parametrize("columns", ["40", "80", "200"])
@pytest.mark.parametrize("markup", [True, False])
@pytest.mark.parametrize("text", LINES)
def test_a_line_says_what_rich_would(
    text: str, markup: bool, columns: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("TERM", raising=False)
    assert plain_says(capsys, text, markup=markup) == rich_says(text, markup=markup)


@pytest.mark.parametrize("text", LINES)
def test_a_dumb_terminal_wraps_at_80(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("TERM", "dumb")
    assert plain_says(capsys, text) == rich_says(text)


@pytest.mark.parametrize("message", [*LINES, "no infraction matches '遅延'", "x" * 300])
def test_an_error_is_one_unwrapped_line_as_rich_printed_it(
    message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    with pytest.raises(SystemExit) as stopped:
        output.fail(message, 3)
    assert stopped.value.code == 3
    said = capsys.readouterr().err
    out = io.StringIO()
    errors = output.errors()
    errors.file = out
    errors.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    assert said == out.getvalue()


def test_which_lines_rich_would_change() -> None:
    """The lines the plain path leaves to Rich: too wide, not ASCII, markup, emoji, control."""
    kept = [line for line in LINES if output._unchanged(line, markup=True, room=40)]
    assert "confirmed 7" in kept and "x" * 40 in kept and "two\nlines" in kept
    for changed in (
        "x" * 41,
        "[bold]markup[/] here",
        "an emoji :thumbs_up: code",
        "a tab\there",
        "選手 P0001",
    ):
        assert not output._unchanged(changed, markup=True, room=40), changed
    assert output._unchanged("a [link] in brackets", markup=False, room=40)


@pytest.mark.parametrize("columns", ["40", "200"])
@pytest.mark.parametrize(
    ("ja", "en"),
    [
        ("第4回戦を開始しました: 50分、終了 11:21", "round 4 started: 50 min, time ends 11:21"),
        ("10人の選手を取り込みました", "imported 10 players"),
        ("  2番卓はまだ対戦中(11:21に時間終了)", "table 2 still playing (time ends 11:21)"),
        ("[太字] :smile: のような文字", "[bold] and :smile: stay as they are"),
    ],
)
def test_a_line_in_japanese_and_english_is_one_unwrapped_line_as_rich_printed_it(
    ja: str, en: str, columns: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tell`` puts the Japanese first and the English after " / ", never wraps the line
    (the English stays on it for scripts), and reads no markup or emoji code in a name."""
    monkeypatch.setenv("COLUMNS", columns)
    output.tell(ja, en)
    told = capsys.readouterr().out
    assert told.startswith(f"{ja} / {en}") and told.count("\n") == 1
    assert told == rich_says(f"{ja} / {en}", markup=False, emoji=False, highlight=False, soft_wrap=True)
