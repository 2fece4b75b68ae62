"""The web app: FastAPI with server-rendered pages, a JSON API under /api, live updates.

Nothing is fetched from outside the server: htmx and every script and style are served
from ``static/``. ``create_app`` is used by ``shinpan serve`` and by the tests.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shinpan.errors import NotSignedIn, ShinpanError, TooLarge
from shinpan.files.csvio import MAX_BYTES
from shinpan.store.db import Database
from shinpan.web import (
    api,
    api_calls,
    api_decks,
    api_playoff,
    api_results,
    api_rounds,
    api_rulings,
    api_seal,
    calls_desk,
    corrections,
    decks,
    desk,
    floor,
    i18n,
    invitations,
    pages,
    players,
    public,
    public_calls,
    public_report,
    scorekeeper,
    sessions,
)
from shinpan.web import reports as report_pages
from shinpan.web import seal as sealing
from shinpan.web.auth import (
    COOKIE_TOKEN,
    COOKIES,
    CSRF_COOKIE,
    LoginLimiter,
    Members,
    NotAllowed,
    Signer,
    new_csrf_token,
)
from shinpan.web.i18n import N_
from shinpan.web.lane import SearchLane
from shinpan.web.live import Live
from shinpan.web.openapi import with_limits
from shinpan.web.pieces import GZIP_FROM, GZIP_LEVEL
from shinpan.web.public_lane import PlayersLane
from shinpan.web.render import environment, render_error
from shinpan.web.resources import StreamCap
from shinpan.web.uploads import UPLOAD_BODY_LIMIT
from shinpan.web.venue import Venue

BODY_LIMIT = 1024 * 1024  # a JSON or form body; a multipart upload may have UPLOAD_BODY_LIMIT
# How long a thread holding the interpreter keeps it from one that asks (Python's default: 5 ms).
SWITCH_SECONDS = 0.001

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
# On HTTPS answers only (``shinpan serve --https``): the browser keeps to HTTPS for a year.
HSTS = (b"strict-transport-security", b"max-age=31536000")


class RequestContext:
    """Pure ASGI middleware: the request's language, a CSRF cookie, security headers."""

    def __init__(self, app: ASGIApp, signer: Signer, secure: bool) -> None:
        self.app, self.signer, self.secure = app, signer, secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies: dict[str, str] = {}
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                cookies.update(cookie_parser(value.decode("latin-1")))
        token = i18n.current.set(i18n.choose(cookies.get(i18n.COOKIE)))
        # The CSRF cookie is verified once here; the CSRF check and the pages read the result.
        carried = self.signer.csrf_token(cookies.get(CSRF_COOKIE))
        state = scope.setdefault("state", {})
        state[COOKIE_TOKEN] = carried
        state[COOKIES] = cookies
        fresh = new_csrf_token() if carried is None else None
        if fresh is not None:
            state["csrf_token"] = fresh

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), *SECURITY_HEADERS]
                if scope.get("scheme") == "https":
                    headers.append(HSTS)
                if fresh is not None:
                    value = self.signer.csrf_cookie(fresh)
                    flags = "; Path=/; HttpOnly; SameSite=Strict" + ("; Secure" if self.secure else "")
                    headers.append((b"set-cookie", f"{CSRF_COOKIE}={value}{flags}".encode()))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            i18n.current.reset(token)


class BodyTooLarge(TooLarge, HTTPException):
    """A request body over its limit (FastAPI re-raises an HTTPException met reading a body)."""

    def __init__(self) -> None:
        TooLarge.__init__(self, "the request is too large")
        HTTPException.__init__(self, 413)


class BodyLimit:
    """Pure ASGI middleware: a request body over its limit is refused with 413 before it is
    read to the end, by its Content-Length or, for a chunked body, by counting its bytes as
    they come. The limit is BODY_LIMIT, or UPLOAD_BODY_LIMIT for a multipart upload."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        upload = headers.get("content-type", "").startswith("multipart/form-data")
        limit = UPLOAD_BODY_LIMIT if upload else BODY_LIMIT
        declared = headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            await _refuse(scope, receive, send)
            return
        received, started = 0, False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:  # read outside a route's body parsing (routes answer it themselves)
            if started:
                raise
            await _refuse(scope, receive, send)


def _has_body(scope: Scope) -> bool:
    """Whether the request says it carries a body (HTTP/1.1: a length, or chunks)."""
    for name, value in scope["headers"]:
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip(b" \t") != b"0"):
            return True
    return False


def _too_large(request: Request) -> Response:
    message = i18n.gettext("the request is too large and was refused (a CSV file may be at most {mb} MB)")
    return _error(request, 413, message.format(mb=MAX_BYTES // 2**20))


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    request = Request(scope, receive)
    response = await run_in_threadpool(_too_large, request)  # a page reads who is signed in
    await response(scope, receive, send)


def _is_api(request: Request) -> bool:
    """Whether an error is answered in JSON: an API call; not a page the browser opened at an
    API address (a report's PDF from a link or a form, ``Sec-Fetch-Mode: navigate``), which
    gets a page that says what was wrong, in the person's language."""
    if request.headers.get("sec-fetch-mode") == "navigate":
        return False
    return request.url.path.startswith("/api/")


def _error(
    request: Request,
    status: int,
    message: str,
    field: str | None = None,
    details: dict[str, Any] | None = None,
) -> Response:
    if _is_api(request):
        body: dict[str, Any] = {"detail": message}
        if field:
            body["field"] = field
        if details:
            body["stands"] = details
        return JSONResponse(body, status_code=status)
    return render_error(request, status, message)


# What a page says for an error the routing or a limit raised as a bare status.
STATUS_MESSAGES = {
    404: N_("there is no such page here; check the address, or start again from your events"),
    405: N_("this address does not take this kind of request; go back and use the page's own buttons"),
    429: N_("too many requests in a short time; wait a little and try again"),
}
# Messages raised with their default text (extraction finds them here).
DEFAULT_MESSAGES = (
    N_("too many failed sign-ins; wait five minutes"),
    N_(
        "sign-ins failed again and again, so this account cannot sign in until {until} "
        "({minutes} more minutes)"
    ),
)


def _status_message(exc: StarletteHTTPException) -> str:
    if exc.status_code in STATUS_MESSAGES:
        return i18n.gettext(STATUS_MESSAGES[exc.status_code])
    return i18n.gettext(str(exc.detail))


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """A bare status from the routing (404, 405) or a limit (429): the JSON API keeps
        FastAPI's JSON; a page is answered as a page in the user's language."""
        if _is_api(request) or exc.status_code < 400:
            return await http_exception_handler(request, exc)
        response = await run_in_threadpool(render_error, request, exc.status_code, _status_message(exc))
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(ShinpanError)
    async def shinpan_error(request: Request, exc: ShinpanError) -> Response:
        return _error(request, exc.status, exc.render(i18n.gettext), exc.field, getattr(exc, "details", None))

    @app.exception_handler(NotSignedIn)
    async def not_signed_in(request: Request, exc: NotSignedIn) -> Response:
        if _is_api(request):
            return _error(request, 401, i18n.gettext("sign in first"))
        return RedirectResponse(f"/login?next={request.url.path}", status_code=303)

    @app.exception_handler(NotAllowed)
    async def not_allowed(request: Request, exc: NotAllowed) -> Response:
        params = {k: i18n.gettext(v) for k, v in exc.params.items()}
        return _error(request, 403, i18n.gettext(exc.message).format(**params))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = [
            {
                "field": ".".join(
                    str(p) for p in e.get("loc", ()) if p not in ("body", "query", "path", "form")
                ),
                "message": str(e.get("msg", "")),
            }
            for e in exc.errors()
        ]
        if _is_api(request):
            return JSONResponse({"detail": i18n.gettext("some fields are wrong"), "errors": errors}, 422)
        text = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
        return render_error(request, 422, text)

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, exc: BodyTooLarge) -> Response:
        return await run_in_threadpool(_too_large, request)

    @app.exception_handler(OverflowError)
    @app.exception_handler(UnicodeEncodeError)
    async def unstorable(request: Request, exc: Exception) -> Response:
        # A number too large for the database, a lone surrogate or a NUL in a text: the
        # value passed validation but cannot be stored. The transaction rolled back. The
        # store tells most of these as errors.Unstorable, a ShinpanError (422, the same words).
        return _error(
            request, 422, i18n.gettext("a number is too large or a text has characters that cannot be saved")
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        logging.getLogger("shinpan.web").exception("unexpected error")
        # Answered outside the middleware that chose the request's language: chosen again.
        token = i18n.current.set(i18n.choose(request.cookies.get(i18n.COOKIE)))
        try:
            message = i18n.gettext("something went wrong on the server; nothing was saved")
            return await run_in_threadpool(_error, request, 500, message)
        finally:
            i18n.current.reset(token)


def settle_memory() -> None:
    """What a server built to start (the guideline, the templates, the routes, the modules)
    lives as long as it does. The templates are compiled first: a dozen desks refreshing at
    once after the first ruling of the day would otherwise each compile the desk's. All of
    it is then moved out of the garbage collector's way (``gc.freeze``): a full collection
    walks only what requests made since, and a ruling no longer waits tens of milliseconds
    behind one (``bench/web.py``: record p99 at 100 req/s). Collections come less often
    too: a request makes thousands of objects, nearly all freed by their reference counts,
    and the default (a young collection every 700) ran one every few requests, promoting
    what was alive at that moment towards the costly full ones."""
    templates = environment()
    for name in templates.list_templates(extensions=["html"]):  # compiled once, before any page asks
        templates.get_template(name)
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


def take_turns_often() -> None:
    """The event loop takes the interpreter back within SWITCH_SECONDS of asking. uvloop lets
    go of it while it waits for the network and takes it again for each connection's bytes;
    while a thread of the pool records a ruling or draws a desk's panels, each time waited
    Python's 5 ms: at a round's pairing, with 2,000 phones' connections to read, the loop
    fell seconds behind and every judge's search and record with it (``bench/load.py``:
    record p99 265 ms, phone page p99 394 ms; at 1 ms: 57 ms and 47 ms, on a busy shared machine)."""
    sys.setswitchinterval(SWITCH_SECONDS)


def create_app(
    db: Database | str | None = None, *, secure_cookies: bool = False, serving: bool = False
) -> FastAPI:
    """The web app on ``db``. ``serving``: the process serves it until it ends (``shinpan
    serve``), so what it built to start is set aside once started (:func:`settle_memory`)."""
    database = db if isinstance(db, Database) else Database(db)
    live = Live(database)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await live.start()
        if serving:
            settle_memory()
            take_turns_often()
        seen = asyncio.create_task(members.keep_seen())  # sessions' "last seen", for their lists
        yield
        seen.cancel()
        await live.stop()

    app = FastAPI(
        title="shinpan",
        version="0.1.0",
        description="審判 shinpan: record and decide penalties at card-game tournaments.",
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.db = database
    app.state.signer = Signer.for_db(database)
    app.state.live = live
    app.state.streams = StreamCap()
    app.state.members = members = Members(database)
    app.state.limiter = LoginLimiter(database)
    app.state.secure_cookies = secure_cookies
    app.state.demo_hint = None
    install_error_handlers(app)

    # Every route on the app's own router, the JSON API (searches, records, streams) first:
    # FastAPI matches a request against an included router by walking its routes twice
    # (a player search spent a third of its time there); the app's own it walks once.
    for router in (
        api.router,
        api_rulings.router,
        api_results.router,
        api_rounds.router,
        api_playoff.router,
        api_seal.router,
        api_calls.router,
        api_decks.router,
        decks.router,
        public.api_router,
        public_calls.api_router,
        floor.router,
        desk.router,
        calls_desk.router,
        corrections.router,
        pages.router,
        scorekeeper.router,
        report_pages.router,
        sealing.router,
        sessions.router,
        players.router,
        invitations.router,
        public_report.router,
        public_calls.router,
        public.router,
    ):
        app.router.routes.extend(router.routes)
    made = app.openapi
    app.openapi = lambda: with_limits(made())  # type: ignore[method-assign]
    static = resources.files("shinpan.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM, compresslevel=GZIP_LEVEL)
    # The search's usual case, past FastAPI's routing and the gzip layer (it compresses its
    # answer as the app does); inside the body limit, which refuses alike on either lane.
    app.add_middleware(SearchLane, gzip_from=GZIP_FROM, gzip_level=GZIP_LEVEL)
    app.add_middleware(PlayersLane, gzip_from=GZIP_FROM, gzip_level=GZIP_LEVEL)  # the players' own, alike
    app.add_middleware(BodyLimit)  # inside RequestContext: its refusals are in the user's language
    app.add_middleware(RequestContext, signer=app.state.signer, secure=secure_cookies)
    return app


def app_from_env() -> FastAPI:
    """The app for ``uvicorn --factory`` with several workers: the database from the environment."""
    app = create_app(
        os.environ.get("SHINPAN_DATABASE_URL"),
        secure_cookies=os.environ.get("SHINPAN_SECURE_COOKIES") == "1",
        serving=True,
    )
    app.state.demo_hint = os.environ.get("SHINPAN_DEMO_HINT") or None
    venue = Venue.from_env()
    if venue is not None:
        venue.apply(app)
    return app
