"""Rendering pages: one Jinja2 environment with the i18n extension and shinpan's helpers."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from markupsafe import Markup

from shinpan.engine.event_rules import may
from shinpan.engine.explain import deadline_text, ordinal, penalty_text
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from shinpan.reports.common import local_time
from shinpan.web import i18n
from shinpan.web.auth import csrf_expected, current_user
from shinpan.web.i18n import N_


@cache
def book() -> Rulebook:
    """The shipped guideline's rulebook: the guideline pages'. A page of an event speaks
    with the event's own rulebook (``rulebook`` in its context, see :func:`render`)."""
    return Rulebook(default_guideline())


@pass_context
def _rulebook(context: Context) -> Rulebook:
    found = context.get("rulebook")
    return found if isinstance(found, Rulebook) else book()


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
        penalty_text=pass_context(
            lambda ctx, codes: penalty_text(_rulebook(ctx), tuple(codes), i18n.current.get())
        ),
        label=pass_context(lambda ctx, code: _rulebook(ctx).label(code, i18n.current.get())),
        rule_name=pass_context(lambda ctx, rule: _rulebook(ctx).rule_name(rule, i18n.current.get())),
        ordinal=lambda n: ordinal(n, i18n.current.get()),
        deadline_text=lambda due: deadline_text(due, i18n.current.get()),
        book=_rulebook,
        new_id=lambda: uuid.uuid4().hex,
        once=lambda _name, macro, item: macro(item),  # a page for one viewer: drawn as it is
        local=_local,
        may=may,
    )
    return env


@pass_context
def _local(context: Context, stamp: str | None, style: str = "short") -> str:
    """A ledger time in the event's time zone (``tz``, from the page's event)."""
    return local_time(stamp, context.get("tz"), style=style)


def csrf_token(request: Request) -> str:
    token = csrf_expected(request)
    return token or str(request.scope.get("state", {}).get("csrf_token", ""))


def _of_event(context: dict[str, Any]) -> None:
    """A page of an event shows times in its time zone and names rules as its guideline does."""
    context.setdefault("tz", getattr(context.get("event"), "time_zone", None))
    context.setdefault("rulebook", getattr(context.get("event"), "book", None))


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page; times on it are shown in the time zone of its ``event`` (or ``tz``), its
    rules and penalties named as the event's guideline names them (or ``rulebook``'s)."""
    user = context.pop("user", None) or current_user(request)
    _of_event(context)
    html = (
        environment()
        .get_template(template)
        .render(request=request, user=user, csrf=csrf_token(request), **context)
    )
    return HTMLResponse(html, status_code=status)


# A part of a page rendered once for everyone who sees it alike (the desk's panels, for
# every desk of an event at one ledger entry): what is each viewer's own is marked, and
# filled in for each (:func:`for_viewer`).
_CSRF_MARK, _ID_MARK = "\x00csrf\x00", "\x00id\x00"


def render_shared(template: str, **context: Any) -> str:
    """The template for every viewer: the CSRF token and each form's command id marked,
    and the pieces it draws with ``once`` taken from earlier renderings."""
    _of_event(context)
    return (
        environment()
        .get_template(template)
        .render(user=None, csrf=_CSRF_MARK, new_id=lambda: _ID_MARK, once=_once, **context)
    )


class _Pieces:
    """What shared renderings repeat, kept between them: a ruling's row on the desk is the
    same from one change to the next while the ruling is (a hundred rows waiting for
    confirmation were drawn again on every ruling: 21 ms of a desk refresh's 30)."""

    MOST = 20_000

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[Any, ...], Markup] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...], draw: Callable[[], Markup]) -> Markup:
        with self.lock:
            piece = self.kept.get(key)
            if piece is not None:
                self.kept.move_to_end(key)
                return piece
        piece = draw()
        with self.lock:
            self.kept[key] = piece
            while len(self.kept) > self.MOST:
                self.kept.popitem(last=False)
        return piece


_PIECES = _Pieces()


@pass_context
def _once(context: Context, name: str, macro: Callable[[Any], Markup], item: Mapping[str, Any]) -> Markup:
    """``macro(item)`` as drawn before for the same item, event, role, language and time
    zone (``item`` is all a piece shows of its own; CSRF tokens and ids are marks here)."""
    event = context.get("event")
    guideline = (getattr(event, "guideline_id", None), getattr(event, "guideline_version", None))
    key = (
        name,
        context.get("event_id"),
        guideline,
        context.get("tz"),
        context.get("role"),
        i18n.current.get(),
        repr(item),
    )
    return _PIECES.get(key, lambda: macro(item))


def for_viewer(request: Request, shared: str) -> str:
    """A shared rendering with this viewer's CSRF token and fresh command ids."""
    parts = shared.replace(_CSRF_MARK, csrf_token(request)).split(_ID_MARK)
    return "".join(part + uuid.uuid4().hex for part in parts[:-1]) + parts[-1]


# What an error page says first, by its status (the message says the rest).
ERROR_TITLES = {
    400: N_("The request could not be understood"),
    401: N_("Sign in first"),
    403: N_("You may not do this here"),
    404: N_("Not found"),
    405: N_("This page cannot be used this way"),
    409: N_("It cannot be done as things stand"),
    413: N_("Too large"),
    423: N_("The event is sealed"),
    422: N_("Something in the form is wrong"),
    429: N_("Too many attempts: wait a while"),
    500: N_("Something went wrong on the server"),
    503: N_("The database cannot be used right now"),
}


def render_error(request: Request, status: int, message: str) -> HTMLResponse:
    """An error as a page in the user's language (a fragment for htmx): every status a
    browser may meet, the routing's own (404, 405) and the limits' (413, 429) too."""
    if request.headers.get("hx-request"):
        html = environment().get_template("_error.html").render(message=message, status=status)
        return HTMLResponse(html, status_code=status)
    title = i18n.gettext(ERROR_TITLES.get(status, ERROR_TITLES[500] if status >= 500 else ERROR_TITLES[400]))
    context = {"status_code": status, "message": message, "title": title}
    try:
        return render(request, "error.html", status=status, **context)
    except Exception:  # the page itself failed (a database that cannot be read): drawn without the user
        html = environment().get_template("error.html").render(request=request, user=None, csrf="", **context)
        return HTMLResponse(html, status_code=status)
