"""Static files as production serves them: hashed names, compressed copies, and the
builder's JavaScript modules importing each other by their hashed names too (otherwise a
module's ``import "./queue.js"`` would fetch the unhashed file, which the service worker's
offline shell, listing hashed names, never keeps)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
