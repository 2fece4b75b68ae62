"""Errors as a judge meets them: a page in the judge's language, not a browser's raw JSON.

An unknown address (404), a wrong method (405), the sign-in limit (429) and a server fault
(500) are answered on pages as HTML in Japanese (English with the English switch); the JSON
API under /api keeps answering JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from shinpan.services import accounts
from shinpan.store.db import Database
from shinpan.web.app import create_app
from test_japanese_screens import shown
from web_support import csrf_in, database_url

# Words of FastAPI's and Starlette's own answers, which a judge must never be shown.
RAW = ("Not Found", "Method Not Allowed", "Internal Server Error", "detail", "too many failed")


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with database_url("sqlite", tmp_path_factory.mktemp("errors")) as url:
        db = Database(url)
        app = create_app(db)

        def broken() -> None:
            raise RuntimeError("a fault in the server")

        app.add_api_route("/broken", broken)
        app.add_api_route("/api/broken", broken)
        accounts.add_user(db, "limit-user", "right-password")
        try:
            yield TestClient(app, raise_server_exceptions=False)
        finally:
            db.close()


def japanese_page(text: str) -> str:
    assert text.startswith("<!doctype html>") and '<html lang="ja">' in text, text[:200]
    seen = shown(text)
    assert not [w for w in RAW if w in seen], seen
    english = set(re.findall(r"[A-Za-z]{3,}", seen)) - {"shinpan", "English"}  # the brand, the switch
    assert not english, english
    return seen


def test_an_unknown_address_is_a_japanese_page_and_the_api_keeps_json(http: TestClient) -> None:
    page = http.get("/events/1/nothing-here")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "このアドレスのページはありません" in japanese_page(page.text)
    api = http.get("/api/nothing-here")
    assert api.status_code == 404 and api.json() == {"detail": "Not Found"}


def test_a_wrong_method_is_a_japanese_page_that_still_says_what_is_allowed(http: TestClient) -> None:
    page = http.put("/login")
    assert page.status_code == 405 and "GET" in page.headers["allow"]
    assert "このページはこの方法では使えません" in japanese_page(page.text)
    assert http.put("/api/openapi.json").json() == {"detail": "Method Not Allowed"}


def test_the_sign_in_limit_is_said_in_japanese(http: TestClient) -> None:
    token = csrf_in(http.get("/login").text)
    codes = [
        http.post(
            "/login", data={"name": "limit-user", "password": f"wrong-{i}", "csrf_token": token}
        ).status_code
        for i in range(6)
    ]
    assert codes == [401] * 5 + [429]
    page = http.post("/login", data={"name": "limit-user", "password": "wrong", "csrf_token": token})
    assert page.status_code == 429
    seen = japanese_page(page.text)
    assert "サインインの失敗が多すぎます。5分待ってからやり直してください" in seen
    assert "試行が多すぎます" in seen


def test_a_fault_in_the_server_is_a_page_in_the_users_language(http: TestClient) -> None:
    page = http.get("/broken")
    assert page.status_code == 500
    assert "サーバーで問題が起きました。何も保存されていません" in japanese_page(page.text)
    http.cookies.set("lang", "en")
    try:
        english = http.get("/broken")
        assert english.status_code == 500 and '<html lang="en">' in english.text
        assert "something went wrong on the server; nothing was saved" in english.text
        assert http.get("/events/1/nothing-here").text.count("Not found") >= 1
    finally:
        http.cookies.delete("lang")
    api = http.get("/api/broken")
    assert (
        api.status_code == 500
        and api.json()["detail"] == "サーバーで問題が起きました。何も保存されていません"
    )
