"""The player search's own lane: the request a big event sends most (every keystroke of
150 judges at a round's start), answered without FastAPI's routing and parameter solving.

Pure ASGI, inside the app's :class:`RequestContext` (the language, the cookies as it parsed
them, the security headers) and its body limit, its answer compressed as every answer is
(the app's gzip, around the answer alone); only for the usual case: a judge of the event
signed in, known from memory, with the event's player index current. Anything else (not
signed in, a role that may not read, a query too long, an index to be read, an error) goes
the whole way through the route in
:mod:`shinpan.web.api`, which answers it as it answers every call; both lanes give the
same answer (:func:`players_found`).
"""

from __future__ import annotations

import logging
import re
from typing import ClassVar
from urllib.parse import unquote_plus

from starlette.datastructures import QueryParams
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from shinpan.engine.event_rules import Action
from shinpan.services.search import EventRoster, index_of
from shinpan.web.auth import COOKIES, SESSION_COOKIE, Members, Signer, refusal
from shinpan.web.pieces import GZIP_FROM, GZIP_LEVEL, Piece, accepts_gzip, encoded, response_of

SEARCH = re.compile(r"/api/events/([1-9][0-9]{0,17})/players")
QUERY_MOST = 100  # the route's limit on ``q``: a longer one is refused there
ANSWERS_KEPT = 4096  # answers kept per index, by query
log = logging.getLogger("shinpan.web")


def players_found(roster: EventRoster, query: str, gzip: bool) -> Response:
    """The search's answer, on either lane: the players found, as JSON, compressed once per
    query and index (:mod:`shinpan.web.pieces`: judges type the same names, keystroke by
    keystroke; nothing is compressed on the event loop for a query asked before)."""
    found = roster.drawn.get(("found", query))
    if not isinstance(found, Piece):
        if len(roster.drawn) >= ANSWERS_KEPT:  # what is typed is unbounded: kept within bounds
            roster.drawn.clear()
        found = roster.drawn[("found", query)] = Piece.of(roster.find_json(query), GZIP_LEVEL)
    return response_of([found], gzip, GZIP_FROM, "application/json", {})


def _query(text: str) -> str:
    """``q`` as the route reads it (the last one given; "" without one)."""
    if text.startswith("q=") and "&" not in text:  # what the record screen sends
        return unquote_plus(text[2:])
    return QueryParams(text).get("q", "")


class Lane:
    """A GET whose path is :attr:`path`, answered from memory before the app's routing and
    compressed as every answer is (an answer compressed once is sent as it is; another goes
    through the app's gzip layer); :meth:`_answer` None (or another request): the route
    answers. The search and the players' table page each take one."""

    path: ClassVar[re.Pattern[str]]  # its group 1: what :meth:`_answer` is given

    def __init__(self, app: ASGIApp, gzip_from: int, gzip_level: int) -> None:
        self.app, self.gzip_from, self.gzip_level = app, gzip_from, gzip_level

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            found = self.path.fullmatch(scope["path"])
            answer = self._answer(scope, found[1]) if found else None
            if answer is not None and encoded(answer):  # a GET: its body, if any, is not read
                await answer(scope, receive, send)
                return
            if answer is not None:  # not compressed: the app's gzip layer answers it as ever
                await GZipMiddleware(answer, self.gzip_from, self.gzip_level)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _answer(scope: Scope, key: str) -> Response | None:
        return None


class SearchLane(Lane):
    path = SEARCH

    @staticmethod
    def _answer(scope: Scope, key: str) -> Response | None:
        """The search's answer when it can be given from memory; None: take the route."""
        event_id = int(key)
        try:
            query = _query(scope["query_string"].decode("latin-1"))
            if len(query) > QUERY_MOST:
                return None
            state = scope["app"].state
            signer: Signer = state.signer
            members: Members = state.members
            cookies: dict[str, str] = scope["state"][COOKIES]  # parsed once, by RequestContext
            session = signer.session_of(cookies.get(SESSION_COOKIE))
            member = members.known(*session, event_id) if session is not None else None
            if refusal(member, Action.read) is not None:  # the route refuses it, in the judge's words
                return None
            roster = index_of(state.db).ready(event_id)
            return None if roster is None else players_found(roster, query, accepts_gzip(scope))
        except Exception:  # the route meets it again and answers it as every error
            log.exception("the search lane failed; the route answers")
            return None
