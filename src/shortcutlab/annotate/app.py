"""The annotation web app: one page and a small JSON API over a task folder's store.

Every request carries the task's access token (``?token=`` on the page URL, an ``X-Token``
header on the page's API calls); without it the answer is 403. A POST sent from another site's
page (its ``Origin``, or without one its ``Referer``, is not this server) is refused with 403
too, even with the token: the token may have leaked, and no other site has a reason to post. Answers are checked by the task
kind, committed to SQLite (a group commit: one fsync for all the answers queued meanwhile), and only
then acknowledged, so an acknowledged answer survives a crash.
Bad requests get a 4xx JSON error; an unexpected failure a 500 JSON error, never a traceback page.

Routes (all GET unless said):
    /                                  the page (the item is fetched by its script)
    /api/task                          the form and the number of items
    /api/next?annotator=NAME           the first item NAME has not answered, or done
    /api/item?annotator=NAME&position=N  item N with NAME's earlier answer (going back)
    POST /api/answer                   {annotator, item_id, answer: {field: value}}
    /api/progress                      answered items per annotator
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import threading
from concurrent.futures import Future
from dataclasses import asdict
from importlib.resources import files
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from shortcutlab.annotate.kinds import Item, TaskKind
from shortcutlab.annotate.progress import AnnotatorProgress
from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.annotate.task_folder import sample_summary
from shortcutlab.errors import ConfigError, ShortcutlabError
from shortcutlab.names import check_name

TOKEN_HEADER = "x-token"
MAX_BODY_BYTES = 64 * 1024
# An answer is a mapping of form fields to plain values; deeper nesting is never one, and a
# 64 KB body of 20,000 "[" would end json.loads (or a later repr) in a RecursionError.
MAX_JSON_DEPTH = 32
DIGITS = re.compile(r"[0-9]{1,12}")  # str.isdigit() also takes "²", which int() refuses
# connect-src 'self': the page's script talks to this server only; everything else is refused.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"
)
SECURITY_HEADERS = {
    # frame-ancestors works only as a header (browsers ignore it, with a console error, in <meta>)
    "Content-Security-Policy": CONTENT_SECURITY_POLICY + "; frame-ancestors 'none'",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token is in the page URL
}


def _templates() -> Environment:
    return Environment(
        loader=PackageLoader("shortcutlab.annotate"),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


def _static(name: str) -> Markup:
    # Our own stylesheet and script, inlined so the page needs no further (token-checked) request.
    return Markup(files("shortcutlab.annotate").joinpath("static", name).read_text("utf-8"))


def render_page(kind: TaskKind, item_count: int, drawn: str = "") -> str:
    """The page: the task's title and description, our CSS and JS inline; data comes by API.
    ``drawn`` says how many items there are and from where (``task_folder.sample_summary``)."""
    page = {
        "kind": kind.name,
        "description": kind.description,
        "items": item_count,
        "drawn": drawn or f"{item_count} items",
    }
    return (
        _templates()
        .get_template("page.html.j2")
        .render(
            page=page,
            style=_static("app.css"),
            script=_static("app.js"),
            content_security_policy=CONTENT_SECURITY_POLICY,
        )
    )


class RequireToken:
    """ASGI middleware: a request without the right token gets 403 before any route runs."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        if not token:
            raise ValueError("the access token must not be empty")
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = request.headers.get(TOKEN_HEADER) or request.query_params.get("token") or ""
        if not hmac.compare_digest(given.encode(), self.token):
            response = _error(403, "missing or wrong access token: open the URL the server printed")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class SameOrigin:
    """ASGI middleware: a request that changes something (any method but GET, HEAD, OPTIONS)
    from another origin gets 403. The origin is the ``Origin`` header, else the ``Referer``'s;
    a request with neither (a script, curl) is left to the token. This server's origin is the
    one the browser addressed (the ``Host`` header), so localhost, 127.0.0.1 and a LAN address
    each work for the page loaded from them."""

    SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in self.SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        sender = _sender_origin(request)
        own = f"{scope.get('scheme', 'http')}://{request.headers.get('host', '')}".lower()
        if sender is not None and sender != own:
            shown = sender if len(sender) <= 80 else sender[:80] + "…"
            message = (
                f"cross-site request refused: it came from {shown!r}, not from this server's page"
            )
            await _error(403, message)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _sender_origin(request: Request) -> str | None:
    """The origin that sent ``request`` (``scheme://host[:port]``, lower case), ``"null"`` for an
    opaque one, or None when the request names none."""
    origin = request.headers.get("origin")
    if origin is not None:
        return origin.strip().lower()
    referer = request.headers.get("referer")
    if not referer:
        return None
    try:
        parts = urlsplit(referer.strip())
    except ValueError:  # a malformed Referer names no origin we could trust
        return "null"
    return f"{parts.scheme}://{parts.netloc}".lower()


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def _json(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(data, headers=SECURITY_HEADERS)


def _annotator(value: Any) -> str:
    try:
        return check_name(
            value.strip() if isinstance(value, str) else value, "The annotator", person=True
        )
    except ConfigError as exc:
        raise HTTPException(400, str(exc)) from None


def _position(value: str | None, count: int) -> int:
    if value is None or not DIGITS.fullmatch(value) or int(value) >= count:
        raise HTTPException(400, f"position must be an integer in [0, {count - 1}]; got {value!r}")
    return int(value)


class AnnotationApp:
    """The routes over one task. The store is thread-safe on its own; the app's lock keeps the
    reads that make up one reply (an item, its answer, the counts) consistent with each other,
    and guards the annotators' progress, kept in memory (:class:`AnnotatorProgress`)."""

    def __init__(self, store: AnnotationStore, kind: TaskKind) -> None:
        self.store = store
        self.kind = kind
        plan = store.plan()
        self.form = plan.form
        self.items: list[Item] = plan.items  # fixed once the task exists
        self.positions = {item.item_id: position for position, item in enumerate(self.items)}
        self.drawn = sample_summary(plan.facts, len(self.items))
        self.lock = threading.Lock()
        self.answered_by = AnnotatorProgress(store, self.positions)

    def page(self, request: Request) -> Response:
        html = render_page(self.kind, len(self.items), self.drawn)
        return HTMLResponse(html, headers=SECURITY_HEADERS)

    def task(self, request: Request) -> Response:
        return _json(
            {
                "kind": self.kind.name,
                "description": self.kind.description,
                "form": asdict(self.form),
                "items": len(self.items),
            }
        )

    def _view(self, annotator: str, position: int) -> dict[str, Any]:
        """Item ``position`` as the page shows it, with ``annotator``'s earlier answer if any."""
        item = self.items[position]
        return {
            "done": False,
            "position": position,
            "item_id": item.item_id,
            "payload": item.payload,
            "answer": self.store.answer(item.item_id, annotator),
            **self._counts(annotator),
        }

    def _counts(self, annotator: str) -> dict[str, int]:
        return {"answered": self.answered_by.answered(annotator), "total": len(self.items)}

    def _next(self, annotator: str) -> dict[str, Any]:
        position = self.answered_by.next_position(annotator)
        if position is None:
            return {"done": True, **self._counts(annotator)}
        item = self.items[position]
        return {
            "done": False,
            "position": position,
            "item_id": item.item_id,
            "payload": item.payload,
            "answer": {},
            **self._counts(annotator),
        }

    def next_item(self, request: Request) -> Response:
        annotator = _annotator(request.query_params.get("annotator"))
        with self.lock:
            return _json(self._next(annotator))

    def item(self, request: Request) -> Response:
        annotator = _annotator(request.query_params.get("annotator"))
        position = _position(request.query_params.get("position"), len(self.items))
        with self.lock:
            return _json(self._view(annotator, position))

    async def answer(self, request: Request) -> Response:
        body = await _json_body(request)
        annotator = _annotator(body.get("annotator"))
        item_id = body.get("item_id")
        if not isinstance(item_id, str) or item_id not in self.positions:
            raise HTTPException(404, f"no item {item_id!r} in this task")
        try:
            answer = self.kind.check_answer(self.form, body.get("answer"))
        except ShortcutlabError as error:
            raise HTTPException(422, str(error)) from None
        # The group commit's thread does the fsync; the event loop only waits for it. The reply
        # (the acknowledgement) goes out once the answer is durable, never before.
        durable = self.store.submit(item_id, annotator, answer)
        # Counted as soon as it is durable, before the event loop hears of it, and even when
        # this request is cancelled meanwhile (a stop): the progress never lags the store.
        durable.add_done_callback(lambda done: self._stored(done, annotator, item_id))
        await asyncio.wrap_future(durable)
        with self.lock:  # in memory: no query
            return _json({"stored": True, "item_id": item_id, "next": self._next(annotator)})

    def _stored(self, durable: Future[None], annotator: str, item_id: str) -> None:
        if not durable.cancelled() and durable.exception() is None:
            with self.lock:
                self.answered_by.add(annotator, item_id)

    def progress(self, request: Request) -> Response:
        with self.lock:
            annotators = [
                {"annotator": name, "answered": self.store.answered(name)}
                for name in self.store.annotators()
            ]
        return _json({"total": len(self.items), "annotators": annotators})


async def _json_body(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and (not DIGITS.fullmatch(declared) or int(declared) > MAX_BODY_BYTES):
        raise HTTPException(413, f"the request body must be at most {MAX_BODY_BYTES} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise HTTPException(413, f"the request body must be at most {MAX_BODY_BYTES} bytes")
    too_deep = f"the request body nests JSON deeper than {MAX_JSON_DEPTH} levels"
    try:
        body = json.loads(raw)
    except RecursionError:
        raise HTTPException(400, too_deep) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HTTPException(400, f"the request body is not valid JSON ({error})") from None
    if _deeper_than(body, MAX_JSON_DEPTH):
        raise HTTPException(400, too_deep)
    if not isinstance(body, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return body


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether parsed JSON nests lists or objects more than ``limit`` levels deep (walked
    without recursion, so the check cannot hit the recursion limit it guards against).

    Examples:
        >>> _deeper_than({"a": [[1]]}, 3), _deeper_than({"a": [[1]]}, 2)
        (False, True)
    """
    pending = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, dict | list):
            if depth > limit:
                return True
            children = node.values() if isinstance(node, dict) else node
            pending.extend((child, depth + 1) for child in children)
    return False


async def _http_error(request: Request, error: HTTPException) -> Response:
    return _error(error.status_code, str(error.detail))


async def _server_error(request: Request, error: Exception) -> Response:
    return _error(500, f"internal error ({type(error).__name__}); the answer was not stored")


def make_app(store: AnnotationStore, kind: TaskKind, token: str) -> Starlette:
    """The ASGI app serving ``store``'s task (answers checked by ``kind``) behind ``token``."""
    routes_of = AnnotationApp(store, kind)
    return Starlette(
        routes=[  # the busiest route first: each request tries them in order
            Route("/api/answer", routes_of.answer, methods=["POST"]),
            Route("/", routes_of.page),
            Route("/api/task", routes_of.task),
            Route("/api/next", routes_of.next_item),
            Route("/api/item", routes_of.item),
            Route("/api/progress", routes_of.progress),
        ],
        # outermost first: a foreign site is refused even when it holds the token
        middleware=[Middleware(SameOrigin), Middleware(RequireToken, token=token)],
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
    )


__all__ = [
    "CONTENT_SECURITY_POLICY",
    "TOKEN_HEADER",
    "AnnotationApp",
    "SameOrigin",
    "make_app",
    "render_page",
]
