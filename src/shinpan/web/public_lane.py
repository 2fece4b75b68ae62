"""The players' home page (``/p/<token>``, ``?q=…``) drawn once per view, and its own lane.

At a round's pairing every player's phone asks for the page within seconds. The page of a
kept view (:func:`shinpan.services.public.public_event`) is drawn once per language with
marks where the query and what it found go (:class:`HomePage`), each seat once when first
found; an answer is then those pieces joined. The route in :mod:`shinpan.web.public`
answers with the same pieces, so both lanes give the same page.

:class:`PlayersLane` is pure ASGI, inside the app's :class:`RequestContext` (the language,
the CSRF cookie, the security headers) and its body limit, its answer compressed as every
answer is. It answers only the usual case: a view kept and current, its page drawn in the
request's language, the address within its limit (counted here, once). Anything else (an
unknown token, a view to be read, an address past its limit, an error) goes the whole way
through the route, which answers it as it answers every page.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from typing import Any

from markupsafe import Markup, escape
from starlette.responses import HTMLResponse
from starlette.types import Scope

from shinpan.services.public import PublicEvent, kept_event
from shinpan.web import i18n
from shinpan.web.lane import QUERY_MOST, Lane, _query
from shinpan.web.render import environment

HOME = re.compile(r"/p/([A-Za-z0-9_-]{1,64})")
# Marks where the query and the found players go: private-use characters, which neither
# escaping nor a template changes, and no name holds (they are cut out of every answer).
Q_MARK, FOUND_MARK = "\ue000q\ue000", "\ue000found\ue000"
log = logging.getLogger("shinpan.web")
PER_MINUTE = 120  # pages one address may ask for in a minute (a wall polls 12)
WINDOW = 60.0
NO_STORE = {"cache-control": "no-store"}


class AddressLimit:
    """Requests per address in the current minute, in this process (a fixed window)."""

    def __init__(self, per_minute: int = PER_MINUTE) -> None:
        self.per_minute = per_minute
        self.window = -1
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()

    def allow(self, address: str) -> bool:
        now = int(time.monotonic() // WINDOW)
        with self.lock:
            if now != self.window:
                self.window, self.counts = now, {}
            self.counts[address] = count = self.counts.get(address, 0) + 1
        return count <= self.per_minute


_LIMITS_LOCK = threading.Lock()


def address_limit(state: Any) -> AddressLimit:
    """The app's limit per address (its ``state``), on either lane."""
    with _LIMITS_LOCK:
        found = getattr(state, "public_limit", None)
        if not isinstance(found, AddressLimit):
            found = state.public_limit = AddressLimit()
        return found


class _Url:
    def __init__(self, path: str) -> None:
        self.path = path


class _Request:  # what the players' templates read of the request: its path
    def __init__(self, path: str) -> None:
        self.url = _Url(path)


class HomePage:
    """One view's home page in the current language, in pieces."""

    def __init__(self, event: PublicEvent) -> None:
        base = f"/p/{event.token}"
        env = environment()
        html = env.get_template("public_home.html").render(
            request=_Request(base),
            user=None,
            csrf="",
            event=event,
            token=event.token,
            base=base,
            q=Q_MARK,
            found=Markup(FOUND_MARK),
        )
        # From the end: the query and the found players come after every name the page holds.
        before, _, self.tail = html.rpartition(FOUND_MARK)
        self.head, _, self.middle = before.rpartition(Q_MARK)
        pieces = env.get_template("_public_seat.html").module
        self._seat = pieces.seat  # type: ignore[attr-defined]
        self.opening, self.closing = str(pieces.opening()), str(pieces.closing())  # type: ignore[attr-defined]
        self.nobody = str(pieces.nobody())  # type: ignore[attr-defined]
        self.event = event
        self.seats: dict[str, str] = {}  # each player's seat, drawn ("": not shown)

    def seat(self, number: str) -> str:
        drawn = self.seats.get(number)
        if drawn is None:
            seat = self.event.seat(number)
            drawn = self.seats[number] = str(self._seat(seat)) if seat is not None else ""
        return drawn

    def answer(self, q: str) -> bytes:
        """The page with ``q`` in its search box and, for a query, what it finds."""
        q = q[:QUERY_MOST].replace("\ue000", "")
        found = ""
        if q:
            seats = "".join(self.seat(p.number) for p in self.event.found(q))
            found = self.opening + (seats or self.nobody) + self.closing
        return (self.head + str(escape(q)) + self.middle + found + self.tail).encode("utf-8")


def home_page(event: PublicEvent) -> HomePage:
    """The view's home page in the request's language, drawn once."""
    language = i18n.current.get()
    page = event.drawn.get(("home", language))
    if not isinstance(page, HomePage):
        page = event.drawn[("home", language)] = HomePage(event)
    return page


def home_answer(page: HomePage, q: str) -> HTMLResponse:
    """The answer, on either lane."""
    return HTMLResponse(page.answer(q), headers=NO_STORE)


class PlayersLane(Lane):
    path = HOME

    @staticmethod
    def _answer(scope: Scope, key: str) -> HTMLResponse | None:
        """The page of the event published at token ``key`` when it can be given from memory;
        None: take the route."""
        try:
            state = scope["app"].state
            event = kept_event(state.db, key)
            page = event.drawn.get(("home", i18n.current.get())) if event is not None else None
            if not isinstance(page, HomePage):
                return None
            client = scope.get("client")
            if not address_limit(state).allow(client[0] if client else "?"):
                return None  # the route refuses it, in the player's language
            return home_answer(page, _query(scope["query_string"].decode("latin-1")))
        except Exception:  # the route meets it again and answers it as every error
            log.exception("the players' lane failed; the route answers")
            return None
