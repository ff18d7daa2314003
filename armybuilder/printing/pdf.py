"""HTML to PDF: the one place WeasyPrint runs, with :class:`SafeFetcher`, which serves only
the app's own static files, and under a time limit in a forked child that dies with its
worker (``printing.lifetime``)."""

from __future__ import annotations

import logging
import mimetypes
import multiprocessing
import os
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

import weasyprint
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from weasyprint.urls import URLFetcher, URLFetcherResponse

from armybuilder.printing.lifetime import die_with_parent

logger = logging.getLogger(__name__)

BASE_URL = "https://muster.invalid/"
STATIC_SUFFIXES = {".css", ".png", ".svg", ".jpg", ".jpeg", ".gif", ".woff", ".woff2", ".ttf"}


class PrintError(Exception):
    """A print request that cannot be served: a message for the player, HTTP 400."""

    status = 400

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def to_json(self) -> dict[str, str]:
        return {"error": self.message, "path": self.path}


class RenderError(PrintError):
    """WeasyPrint failed on a document: reported, never a stack trace."""


class FetchRefused(Exception):
    pass


class SafeFetcher(URLFetcher):
    """WeasyPrint's url_fetcher: our static files only, and a record of every request.

    A URL is served only when it is ``BASE_URL`` + the static URL prefix + a path that the
    staticfiles finders locate under our static directories, with a suffix a sheet uses.
    Anything else — ``file://``, another host, ``data:``, a path escaping the static
    directories — raises, so no text in an army can make the renderer read a local file
    or call the network. ``fetch`` replaces WeasyPrint's opener entirely: none of its
    protocol handlers is ever reached.
    """

    def __init__(self) -> None:
        super().__init__(allowed_protocols=("https",), allow_redirects=False)
        self.fetched: list[str] = []
        self.refused: list[str] = []

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        path = self.static_file(url)
        if path is None:
            self.refused.append(url)
            raise FetchRefused(f"Muster does not fetch {url[:80]!r}")
        self.fetched.append(url)
        mime_type, _encoding = mimetypes.guess_type(path.name)
        return URLFetcherResponse(
            url,
            body=path.read_bytes(),
            headers={"Content-Type": mime_type or "application/octet-stream"},
        )

    @staticmethod
    def static_file(url: str) -> Path | None:
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        base = urlsplit(BASE_URL)
        if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
            return None
        prefix = "/" + urlsplit(settings.STATIC_URL).path.strip("/") + "/"
        if not parts.path.startswith(prefix):
            return None
        relative = unquote(parts.path[len(prefix) :])
        pure = PurePosixPath(relative)
        if (
            not relative
            or "\\" in relative
            or "\x00" in relative
            or pure.is_absolute()
            or ".." in pure.parts
            or pure.suffix.lower() not in STATIC_SUFFIXES
        ):
            return None
        try:
            found = finders.find(relative)
        except (SuspiciousFileOperation, ValueError):
            return None
        if not found or isinstance(found, list):
            return None
        return Path(found)


def html_to_pdf(html: str, fetcher: SafeFetcher | None = None) -> bytes:
    """The one place WeasyPrint runs: our HTML, our fetcher, errors as RenderError."""
    fetcher = fetcher if fetcher is not None else SafeFetcher()
    try:
        document = weasyprint.HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher)
        return document.write_pdf()
    except Exception as exc:  # WeasyPrint raises many kinds; the player gets one message
        logger.exception("PDF rendering failed")
        raise RenderError(
            "The PDF could not be made from this document. Shorten very long names or "
            "notes and try again; the HTML preview shows the same sheet."
        ) from exc


def time_limit() -> float:
    """Seconds a render may take before it is stopped (0: no limit, render in-process)."""
    return float(getattr(settings, "MUSTER_PDF_TIME_LIMIT", 60))


def render_pdf(
    html: str, fetcher: SafeFetcher | None = None, *, limit: float | None = None
) -> bytes:
    """``html_to_pdf`` under a time limit: in a forked child that is stopped when late.

    The parser already bounds an army (500 units, short names), so a render normally
    ends in seconds; the limit turns anything pathological into a clear error instead of
    a request that hangs. The child's fetch record is copied back into ``fetcher``.
    """
    fetcher = fetcher if fetcher is not None else SafeFetcher()
    seconds = time_limit() if limit is None else limit
    if seconds <= 0 or "fork" not in multiprocessing.get_all_start_methods():
        return html_to_pdf(html, fetcher)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_render_child, args=(html, fetcher, sender, os.getpid()))
    child.start()
    sender.close()
    try:
        if not receiver.poll(seconds):
            logger.warning("PDF render stopped after %s seconds", seconds)
            raise RenderError(
                f"Making this PDF took longer than {seconds:g} seconds, so it was stopped. "
                "Print a smaller army, or split it into several documents."
            )
        status, payload, fetched, refused = receiver.recv()
    except (EOFError, OSError) as exc:
        raise RenderError("The PDF renderer stopped unexpectedly; please try again.") from exc
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        child.join(timeout=10)
    fetcher.fetched.extend(fetched)
    fetcher.refused.extend(refused)
    if status != "ok":
        raise RenderError(payload)
    return bytes(payload)


def _render_child(html: str, fetcher: SafeFetcher, sender: Any, parent: int) -> None:
    die_with_parent(parent)
    try:
        try:
            result: tuple[str, Any] = ("ok", html_to_pdf(html, fetcher))
        except RenderError as exc:
            result = ("error", exc.message)
        sender.send((*result, fetcher.fetched, fetcher.refused))
    finally:
        sender.close()
