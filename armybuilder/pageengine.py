"""The rules engine in the page: the files a browser needs to run ``rules/`` itself.

The page runs the very same ``rules`` package the server runs, in Pyodide (CPython built
for WebAssembly) inside a Web Worker (``static/js/engine/worker.js``), so points, legality,
stat lines and a combat's hits are exact at once and offline; the server stays the
authority and its answer confirms.

Two kinds of file, both served as static files (WhiteNoise in production):

- the runtime, Pyodide, vendored by ``make vendor`` from the npm registry into
  ``vendor/pyodide-<version>/`` (pinned version and checksum in the Makefile; never in
  git: 12 MB) and served under ``pyodide-<version>/``, a path that changes with the version;
- the engine, ``engine/rules.zip``: an archive of ``rules/`` built from the source by the
  finder below, so ``collectstatic`` gives it a content-hashed name and a deploy replaces
  it. It is built byte for byte the same from the same source (sorted names, fixed
  timestamps), so two hosts name it alike.

``page_engine`` (a context processor) tells a page where the three are; it says nothing
when the runtime is not vendored here or ``MUSTER_PAGE_ENGINE`` is off, and the pages then
show the server's figures only, as they do without JavaScript.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage
from django.http import HttpRequest
from django.templatetags.static import PrefixNode, static

from armybuilder.runtime_pin import RUNTIME_PREFIX

ARCHIVE = "engine/rules.zip"
# what the engine is: its Python modules and the rule sets' data files
ARCHIVED_SUFFIXES = (".py", ".toml")
_FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def runtime_dir() -> Path:
    """Where ``make vendor`` puts the runtime."""
    return Path(settings.BASE_DIR) / "vendor" / RUNTIME_PREFIX


def runtime_available() -> bool:
    """The runtime is vendored here (``make vendor`` verified its checksum)."""
    return (runtime_dir() / ".verified").exists()


def rules_source() -> Path:
    return Path(settings.BASE_DIR) / "rules"


def _sources(root: Path) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*")
        if path.is_file() and path.suffix in ARCHIVED_SUFFIXES and "__pycache__" not in path.parts
    )


def build_archive(root: Path | None = None) -> bytes:
    """The ``rules`` package as a zip, the same bytes for the same source."""
    root = root or rules_source()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in _sources(root):
            name = (Path(root.name) / path.relative_to(root)).as_posix()
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


class RulesArchiveFinder(BaseFinder):
    """A staticfiles finder that offers ``engine/rules.zip``, built from ``rules/``.

    The archive is written into ``vendor/engine/`` (git-ignored) and rebuilt whenever the
    source changed, so the development server, the tests' live server and
    ``collectstatic`` all serve the engine as it is in the tree.
    """

    _lock = threading.Lock()
    _built_from: str | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.location = Path(settings.BASE_DIR) / "vendor" / "engine-build"
        self.storage = FileSystemStorage(location=self.location)

    def _fingerprint(self) -> str:
        digest = hashlib.sha256()
        for path in _sources(rules_source()):
            stat = path.stat()
            digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
        return digest.hexdigest()

    def _ensure(self) -> Path:
        target = self.location / ARCHIVE
        fingerprint = self._fingerprint()
        with self._lock:
            if RulesArchiveFinder._built_from != fingerprint or not target.exists():
                data = build_archive()
                if not target.exists() or target.read_bytes() != data:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    partial = target.with_suffix(f".{os.getpid()}.part")
                    partial.write_bytes(data)
                    partial.replace(target)  # atomic: a reader never sees half an archive
                RulesArchiveFinder._built_from = fingerprint
        return target

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        if path != ARCHIVE:
            return [] if find_all else None
        found = str(self._ensure())
        return [found] if find_all else found

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        self._ensure()
        yield ARCHIVE, self.storage


def engine_urls() -> dict[str, str]:
    """Where a page's worker finds the runtime, the engine and itself."""
    return {
        "worker": static("js/engine/worker.js"),
        # unhashed: Pyodide finds its own files by name beside it; the path names the version
        "runtime": f"{PrefixNode.handle_simple('STATIC_URL')}{RUNTIME_PREFIX}/",
        "rules": static(ARCHIVE),
    }


def enabled() -> bool:
    """Pages carry the engine: it is switched on and its runtime is vendored here."""
    return bool(getattr(settings, "MUSTER_PAGE_ENGINE", False)) and runtime_available()


def page_engine(request: HttpRequest) -> dict[str, str]:
    """``page_engine``: the JSON a page's ``<meta name="muster-engine">`` carries, or ""."""
    if not enabled():
        return {"page_engine": ""}
    return {"page_engine": json.dumps(engine_urls(), separators=(",", ":"))}
