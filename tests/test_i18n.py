"""Japanese first, English too: every message has its Japanese, every page speaks both.

The extraction is the one ``scripts/i18n`` runs (its keywords are read from the script),
written to a temporary file: the real ``messages.pot`` is left alone.
"""

from __future__ import annotations

import html
import re
import shlex
import string
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from web_support import HEAD_JUDGE, ROOT, World, build_world, database_url, sign_in

SCRIPT = ROOT / "scripts" / "i18n"
PO = ROOT / "src" / "shinpan" / "web" / "locale" / "ja" / "LC_MESSAGES" / "messages.po"
PYBABEL = ROOT / ".venv" / "bin" / "pybabel"


def _extract_command(output: Path) -> list[str]:
    """``scripts/i18n``'s ``pybabel extract`` line, writing to ``output`` instead of the .pot."""
    text = SCRIPT.read_text(encoding="utf-8").replace("\\\n", " ")
    line = next((ln for ln in text.splitlines() if "pybabel extract" in ln), None)
    assert line, f"{SCRIPT} no longer runs pybabel extract"
    words = shlex.split(line.split(">")[0])
    keywords = [w for i, w in enumerate(words) if i and words[i - 1] == "-k"]
    assert {"_", "gettext", "N_"} <= set(keywords), keywords
    command = [str(PYBABEL), "extract", "-F", "babel.cfg", "--no-location", "--sort-output"]
    for keyword in keywords:
        command += ["-k", keyword]
    return [*command, "-o", str(output), "."]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    pot = tmp_path_factory.mktemp("i18n") / "messages.pot"
    done = subprocess.run(
        _extract_command(pot), cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr
    with pot.open("rb") as f:
        return read_po(f)


@pytest.fixture(scope="module")
def japanese() -> Catalog:
    with PO.open("rb") as f:
        return read_po(f, locale="ja")


def _ids(message: Any) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


def _strings(message: Any) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, tuple | list) else (message.string,)


def _fields(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return set()


def test_extraction_finds_the_templates_and_the_code(extracted: Catalog) -> None:
    ids = {_ids(m)[0] for m in extracted if m.id}
    assert "Save the ruling" in ids  # a template
    assert "sign in first" in ids  # web code
    assert "no player {player} in event {event}" in ids  # a service error
    assert len(ids) > 150


def test_every_message_has_japanese(extracted: Catalog, japanese: Catalog) -> None:
    missing, fuzzy = [], []
    for message in extracted:
        if not message.id:
            continue
        found = japanese.get(message.id)
        if found is None or not all(s.strip() for s in _strings(found)):
            missing.append(_ids(message)[0])
        elif found.fuzzy:
            fuzzy.append(_ids(message)[0])
    assert not missing, (
        f"{len(missing)} messages without Japanese (run scripts/i18n, then translate): {missing}"
    )
    assert not fuzzy, f"fuzzy (unchecked) translations: {fuzzy}"


def test_translations_keep_the_placeholders(extracted: Catalog, japanese: Catalog) -> None:
    wrong = []
    for message in extracted:
        found = japanese.get(message.id) if message.id else None
        if found is None:
            continue
        want = set().union(*(_fields(i) for i in _ids(message)))
        for text in _strings(found):
            if text and _fields(text) != want:
                wrong.append(f"{_ids(message)[0]!r} → {text!r}")
    assert not wrong, "\n".join(wrong)


# -- pages in both languages -------------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with database_url("sqlite", tmp_path_factory.mktemp("i18n")) as url:
        w = build_world(url, players=8, spare=2)
        try:
            yield w
        finally:
            w.close()


def _text(page: str) -> str:
    """What a reader sees: the page without its tags, unescaped."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


# (path, signed in, an English message the page shows)
PAGES = [
    ("/login", False, "Password or PIN"),
    ("/guideline", False, "General rules"),
    ("/join/{code}", False, "Choose a PIN (6 or more digits)"),
    ("/", True, "Your events"),
    ("/events/{event}/record", True, "Save the ruling"),
    ("/events/{event}/desk", True, "Waiting for confirmation"),
    ("/events/{event}/scorekeeper", True, "Import pairings"),
    ("/events/{event}/players/P001", True, "Rulings"),
    ("/events/{event}/invite", True, "Make a join code"),
    ("/events/{event}/players/NOBODY", True, "Back to the start"),
]


@pytest.mark.parametrize(("path", "signed_in", "message"), PAGES, ids=[p[0] for p in PAGES])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_pages_speak_japanese_by_default_and_english_on_request(
    world: World, japanese: Catalog, lang: str, path: str, signed_in: bool, message: str
) -> None:
    http = TestClient(world.app)
    if signed_in:
        sign_in(http, HEAD_JUDGE[0], HEAD_JUDGE[1])
    if lang == "en":
        http.cookies.set("lang", "en")
    r = http.get(path.format(event=world.event, code=world.join_code))
    assert r.status_code in (200, 404), r.text[:300]
    assert f'<html lang="{lang}">' in r.text
    text = _text(r.text)
    translation = japanese[message].string
    assert translation and translation != message
    shown, hidden = (translation, message) if lang == "ja" else (message, translation)
    assert shown in text, f"{path} in {lang} does not show {shown!r}"
    assert hidden not in text, f"{path} in {lang} shows {hidden!r}"
    switch = "English" if lang == "ja" else "日本語"
    assert switch in text, "the language switch is missing"


def test_the_switch_sets_the_cookie_and_returns_to_the_page(world: World) -> None:
    http = TestClient(world.app)
    r = http.get("/lang/en", params={"next": "/guideline"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/guideline"
    assert "lang=en" in r.headers["set-cookie"]
    assert '<html lang="en">' in http.get("/guideline").text
    http.get("/lang/ja", params={"next": "/guideline"})
    assert '<html lang="ja">' in http.get("/guideline").text
    odd = http.get("/lang/xx", params={"next": "//elsewhere.example/"}, follow_redirects=False)
    assert odd.headers["location"] == "/", "the switch never sends anyone off the server"
    assert '<html lang="ja">' in http.get("/guideline").text, "an unknown language falls back to Japanese"


@pytest.mark.parametrize(("lang", "detail"), [("ja", "先にサインインしてください"), ("en", "sign in first")])
def test_api_errors_follow_the_language(world: World, lang: str, detail: str) -> None:
    http = TestClient(world.app)
    http.cookies.set("lang", lang)
    r = http.get(f"/api/events/{world.event}/rulings")
    assert r.status_code == 401
    assert r.json() == {"detail": detail}
