"""The players' home page (``/p/<token>``, ``?q=…``) drawn once per view, and its own lane.

At a round's pairing every player's phone asks for the page within seconds. The page of a
kept view (:func:`shinpan.services.public.public_event`) is drawn once per language with
marks where the query and what it found go (:class:`HomePage`), each seat once when first
found, each piece compressed once (:mod:`shinpan.web.pieces`); an answer is then those
pieces joined, kept by query, and nothing is compressed while answering. The route in
:mod:`shinpan.web.public` answers with the same pieces, so both lanes give the same page.

:class:`PlayersLane` is pure ASGI, inside the app's :class:`RequestContext` (the language,
the CSRF cookie, the security headers) and its body limit, its answer compressed as every
answer is (gzip from the same size, for a client that accepts it). It answers only the usual case: a view kept and current, its page drawn in the
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
from urllib.parse import quote

from markupsafe import Markup, escape
from starlette.responses import HTMLResponse, Response
from starlette.types import Scope

from shinpan.services.public import PublicEvent, kept_event
from shinpan.web import i18n
from shinpan.web.lane import ANSWERS_KEPT, QUERY_MOST, Lane, _query
from shinpan.web.pieces import EMPTY, GZIP_FROM, GZIP_LEVEL, Piece, accepts_gzip, response_of
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


def address_limit(state: Any, name: str = "public_limit", per_minute: int = PER_MINUTE) -> AddressLimit:
    """The app's limit per address (its ``state``) kept under ``name``: the players' pages'
    on either lane (``public_limit``), and the calls' and the reports' players send."""
    with _LIMITS_LOCK:
        found = getattr(state, name, None)
        if not isinstance(found, AddressLimit):
            found = AddressLimit(per_minute)
            setattr(state, name, found)
        return found


class _Url:
    def __init__(self, path: str) -> None:
        self.path = path


class _Request:  # what the players' templates read of the request: its path
    def __init__(self, path: str) -> None:
        self.url = _Url(path)


class HomePage:
    """One view's home page in the current language, in pieces compressed once
    (:mod:`shinpan.web.pieces`): an answer joins them, nothing drawn or compressed again."""

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
        before, _, tail = html.rpartition(FOUND_MARK)
        head, _, middle = before.rpartition(Q_MARK)
        self.head, self.middle, self.tail = (Piece.of(t, GZIP_LEVEL) for t in (head, middle, tail))
        macros = env.get_template("_public_seat.html").module
        self._seat = macros.seat  # type: ignore[attr-defined]
        self.opening, self.closing = str(macros.opening()), str(macros.closing())  # type: ignore[attr-defined]
        self.nobody = str(macros.nobody())  # type: ignore[attr-defined]
        self.event = event
        self.seats: dict[str, str] = {}  # each player's seat, drawn ("": not shown)
        self.answers: dict[str, list[Piece]] = {}  # by query

    def seat(self, number: str) -> str:
        drawn = self.seats.get(number)
        if drawn is None:
            seat = self.event.seat(number)
            drawn = self.seats[number] = (
                str(self._seat(seat, f"/p/{self.event.token}/player/{quote(number, safe='')}"))
                if seat is not None
                else ""
            )
        return drawn

    def answer(self, q: str) -> list[Piece]:
        """The page with ``q`` in its search box and, for a query, what it finds: kept by
        query (a name or a reading is asked by many phones), what it found compressed once."""
        q = q[:QUERY_MOST].replace("\ue000", "")
        kept = self.answers.get(q)
        if kept is not None:
            return kept
        found = EMPTY
        if q:
            seats = "".join(self.seat(p.number) for p in self.event.found(q))
            found = Piece.of(self.opening + (seats or self.nobody) + self.closing, GZIP_LEVEL)
        if len(self.answers) >= ANSWERS_KEPT:  # what is typed is unbounded: kept within bounds
            self.answers = {}
        made = self.answers[q] = [self.head, Piece.stored(str(escape(q))), self.middle, found, self.tail]
        return made


def home_page(event: PublicEvent) -> HomePage:
    """The view's home page in the request's language, drawn once."""
    key = ("home", i18n.current.get())
    page = event.drawn.get(key)
    if isinstance(page, HomePage):
        return page
    with event.drawing:  # the phones asking meanwhile wait for the page drawn once
        page = event.drawn.get(key)
        if not isinstance(page, HomePage):
            page = event.drawn[key] = HomePage(event)
        return page


def home_answer(page: HomePage, q: str, gzip: bool) -> Response:
    """The answer, on either lane: compressed as the app compresses (``gzip``: the client
    accepts it), from pieces compressed once."""
    return response_of(page.answer(q), gzip, GZIP_FROM, HTMLResponse.media_type, NO_STORE)


class PlayersLane(Lane):
    path = HOME

    @staticmethod
    def _answer(scope: Scope, key: str) -> Response | None:
        """The page of the event published at token ``key`` when it can be given from
        memory; None: take the route."""
        token = key
        try:
            state = scope["app"].state
            event = kept_event(state.db, token)
            page = event.drawn.get(("home", i18n.current.get())) if event is not None else None
            if not isinstance(page, HomePage):
                return None
            client = scope.get("client")
            if not address_limit(state).allow(client[0] if client else "?"):
                return None  # the route refuses it, in the player's language
            return home_answer(page, _query(scope["query_string"].decode("latin-1")), accepts_gzip(scope))
        except Exception:  # the route meets it again and answers it as every error
            log.exception("the players' lane failed; the route answers")
            return None
