"""Rendering pages: one Jinja2 environment with the i18n extension and shinpan's helpers."""

from __future__ import annotations

import uuid
from functools import cache
from importlib import resources
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from shinpan.engine.explain import deadline_text, ordinal, penalty_text
from shinpan.guideline import Rulebook, default_guideline
from shinpan.web import i18n
from shinpan.web.auth import csrf_expected, current_user


@cache
def book() -> Rulebook:
    return Rulebook(default_guideline())


@cache
def environment() -> Environment:
    templates = resources.files("shinpan.web") / "templates"
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        lang=lambda: i18n.current.get(),
        penalty_text=lambda codes: penalty_text(book(), tuple(codes), i18n.current.get()),
        label=lambda code: book().label(code, i18n.current.get()),
        rule_name=lambda rule: book().rule_name(rule, i18n.current.get()),
        ordinal=lambda n: ordinal(n, i18n.current.get()),
        deadline_text=lambda due: deadline_text(due, i18n.current.get()),
        book=book,
        new_id=lambda: uuid.uuid4().hex,
    )
    return env


def csrf_token(request: Request) -> str:
    token = csrf_expected(request)
    return token or str(request.scope.get("state", {}).get("csrf_token", ""))


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    user = context.pop("user", None) or current_user(request)
    html = (
        environment()
        .get_template(template)
        .render(request=request, user=user, csrf=csrf_token(request), **context)
    )
    return HTMLResponse(html, status_code=status)


def render_error(request: Request, status: int, message: str) -> HTMLResponse:
    if request.headers.get("hx-request"):
        html = environment().get_template("_error.html").render(message=message, status=status)
        return HTMLResponse(html, status_code=status)
    return render(request, "error.html", status=status, message=message, status_code=status)
