"""ASGI entry point for Muster: what ``make run`` serves under granian (docs/running.md).

The server's event loop reads every request, headers and body, before any of Django's code
runs, so a client that sends slowly holds only a socket, never a thread:

- granian bounds the headers (its HTTP/1 header read timeout, ``MUSTER_HEADER_READ_SECONDS``);
- :class:`ThreadedWSGI` bounds the body: one that has not fully arrived
  ``MUSTER_BODY_READ_SECONDS`` after its headers gets 408 and the connection is closed,
  however steadily its bytes trickle in;
- a body over its URL's limit (``armybuilder.requestsize``: the army document's size for the
  API's posts and the import form, 4 MiB at most anywhere) is refused with 413 as soon as
  that is known (its Content-Length, or the bytes received passing it), never read to the
  end; Django answers the refusal (``refused_app``), unread, so a player sees the page's own
  message and an API client its JSON;
- only then does Django's WSGI handler run, in a small pool of threads per process
  (``MUSTER_WEB_THREADS``), with the body already on hand.

Django's own ASGI handler reads the body in the loop too, but it hops between the loop and
a thread at every sync-only middleware: about a third of the throughput on the share page
(docs/running.md has the measurements). Here a request hops once.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import IO, Any

from asgiref.wsgi import WsgiToAsgiInstance

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

from armybuilder.requestsize import REFUSED  # noqa: E402 (after the settings module is named)

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

logger = logging.getLogger(__name__)
SPOOL_BYTES = 1024 * 1024  # bodies above this wait on disk, not in memory


class ThreadedWSGI:
    """An ASGI app that reads the body in the event loop under a deadline and a size limit,
    then runs a WSGI app in a thread pool. ``seconds`` <= 0 means no body deadline."""

    def __init__(
        self,
        wsgi_app: WSGIApp,
        *,
        seconds: float,
        threads: int,
        max_bytes: int = 4 << 20,
        limit_for: Callable[[str], int] | None = None,
        refused_app: WSGIApp | None = None,
    ) -> None:
        """``limit_for(path)``: a URL's own body limit, asked only for a body over
        ``quick_limit`` (every URL takes that much). ``refused_app``: answers a refused body
        (given an empty body and ``environ[REFUSED]``); without it, a short JSON answer."""
        self.wsgi_app = wsgi_app
        self.seconds = seconds
        self.max_bytes = max_bytes
        self.limit_for = limit_for
        self.quick_limit = max_bytes if limit_for is None else 0
        self.refused_app = refused_app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="muster-web")

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets here
        limit = _Limit(self, scope["path"])
        if limit.refuses(_declared_length(scope)):
            await self._refuse(scope, send, "large", limit.value)
            return
        with SpooledTemporaryFile(max_size=SPOOL_BYTES) as body:
            arrived = await self._read_body(receive, body, limit)
            if arrived is None:
                return  # the client went away: nobody to answer
            if arrived in ("large", "slow"):
                if arrived == "slow":
                    logger.warning(
                        "request body for %s took longer than %g s: 408",
                        scope["path"],
                        self.seconds,
                    )
                await self._refuse(scope, send, arrived, limit.value)
                return
            size = body.tell()
            body.seek(0)
            environ = _environ(scope, body)
            if environ is None:  # more duplicate headers than asgiref allows
                await _answer(send, 400, b'{"error": "too many duplicate headers"}')
                return
            # the whole body is in hand: a chunked one gets its length, as if it had declared it
            environ.setdefault("CONTENT_LENGTH", str(size))
            environ["wsgi.input_terminated"] = True
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self.executor, self._run, self.wsgi_app, environ, loop, send)

    async def _refuse(
        self, scope: MutableMapping[str, Any], send: Send, why: str, limit: int
    ) -> None:
        """413 (``why`` "large") or 408 ("slow") for a body left unread; the connection closes."""
        environ = _environ(scope, io.BytesIO()) if self.refused_app is not None else None
        if environ is None:
            if why == "slow":
                await _answer_408(send, self.seconds)
            else:
                await _answer_413(send, limit)
            return
        environ[REFUSED] = why
        environ["wsgi.input_terminated"] = True
        if _declared_length(scope) <= limit:
            environ.pop("CONTENT_LENGTH", None)  # a stream that passed the limit: size unknown
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(
            self.executor, self._run, self.refused_app, environ, loop, send, True
        )

    async def _read_body(self, receive: Receive, body: IO[bytes], limit: _Limit) -> str | None:
        """ "whole" once the whole body is in ``body``; "slow" when the deadline passed first;
        None when the client disconnected; "large" past the URL's limit."""
        deadline = asyncio.get_running_loop().time() + self.seconds
        size = 0
        while True:
            try:
                if self.seconds > 0:
                    async with asyncio.timeout_at(deadline):
                        message = await receive()
                else:
                    message = await receive()
            except TimeoutError:
                return "slow"
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if limit.refuses(size):
                return "large"
            body.write(chunk)
            if not message.get("more_body", False):
                return "whole"

    def _run(
        self,
        app: WSGIApp,
        environ: dict[str, Any],
        loop: asyncio.AbstractEventLoop,
        send: Send,
        close: bool = False,
    ) -> None:
        """In a pool thread: the WSGI call, each part sent through the event loop; ``close``:
        the connection closes after the answer (an unread body must not be taken for the
        next request)."""

        async def sent(message: Message) -> None:
            await send(message)  # a server's send may return an awaitable, not a coroutine

        def put(message: Message) -> None:
            asyncio.run_coroutine_threadsafe(sent(message), loop).result()

        start: dict[str, Message] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None):
            if exc_info and start.get("sent"):
                raise exc_info[1].with_traceback(exc_info[2])
            start["message"] = {
                "type": "http.response.start",
                "status": int(status.split(" ", 1)[0]),
                "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]
                + ([(b"connection", b"close")] if close else []),
            }
            return _no_write

        result = app(environ, start_response)
        try:
            for chunk in result:
                if not chunk:
                    continue
                if "sent" not in start:
                    put(start["message"])
                    start["sent"] = {}
                put({"type": "http.response.body", "body": bytes(chunk), "more_body": True})
            if "sent" not in start:
                put(start["message"])
            put({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            # Django's response.close() sends request_finished (database connections tidied)
            close = getattr(result, "close", None)
            if close is not None:
                close()

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.executor.shutdown(wait=False, cancel_futures=True)
                await send({"type": "lifespan.shutdown.complete"})
                return


class _Limit:
    """A request's body limit, its URL looked up only for a body that could be over it."""

    def __init__(self, app: ThreadedWSGI, path: str) -> None:
        self.app = app
        self.path = path
        self._value: int | None = None

    @property
    def value(self) -> int:
        if self._value is None:
            own = self.app.limit_for(self.path) if self.app.limit_for else self.app.max_bytes
            self._value = min(own, self.app.max_bytes)
        return self._value

    def refuses(self, size: int) -> bool:
        return size > self.app.quick_limit and size > self.value


def _environ(scope: MutableMapping[str, Any], body: IO[bytes]) -> dict[str, Any] | None:
    try:
        adapter = WsgiToAsgiInstance(None)
        adapter.scope = scope  # asgiref reads the headers from here
        return adapter.build_environ(scope, body)
    except ValueError:  # more duplicate headers than asgiref allows
        return None


def _no_write(data: bytes) -> None:
    raise NotImplementedError("Muster's views return their body; WSGI write() is not offered")


async def _answer(send: Send, status: int, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _declared_length(scope: MutableMapping[str, Any]) -> int:
    """Content-Length as a number; 0 when absent or malformed (the server or Django refuses
    a malformed one)."""
    declared = [
        value for name, value in scope.get("headers", ()) if name.lower() == b"content-length"
    ]
    try:
        length = int(declared[0]) if declared else 0
    except ValueError:
        length = 0
    return length


async def _answer_413(send: Send, limit: int) -> None:
    text = f'{{"error": "the request body is larger than {limit // 1024} KiB"}}'
    await _answer(send, 413, text.encode())


async def _answer_408(send: Send, seconds: float) -> None:
    text = f'{{"error": "the request body did not arrive within {seconds:g} seconds"}}'
    await _answer(send, 408, text.encode())


def _application() -> ThreadedWSGI:
    from django.conf import settings
    from django.core.wsgi import get_wsgi_application

    from armybuilder import requestsize

    wsgi_app = get_wsgi_application()
    app = ThreadedWSGI(
        wsgi_app,
        seconds=float(getattr(settings, "MUSTER_BODY_READ_SECONDS", 10)),
        threads=int(os.environ.get("MUSTER_WEB_THREADS", "4")),
        max_bytes=int(getattr(settings, "MUSTER_MAX_REQUEST_BYTES", 4 << 20)),
        limit_for=lambda path: requestsize.body_limit(requestsize.url_name(path)),
        refused_app=wsgi_app,  # RequestSizeMiddleware answers, as it would a declared size
    )
    app.quick_limit = requestsize.smallest_limit()
    return app


application = _application()
