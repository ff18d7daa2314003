"""Army documents in and out as files: an uploaded import, a JSON download."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpResponse
from django.utils.text import slugify

from armybuilder.armies import pinning
from armybuilder.armies.documents import ImportRefused, friendly_message
from armybuilder.armies.making.lifecycle import create_army
from armybuilder.armies.models import Army
from armybuilder.catalog import pins
from rules.document import canonical_order, list_revisions, load_json
from rules.errors import MalformedDocument


def import_limit() -> int:
    """The largest army document accepted, in bytes (the API's limit too)."""
    return int(settings.MUSTER_MAX_DOCUMENT_BYTES)


def read_upload(content: bytes) -> Any:
    """The JSON of an uploaded file, or ImportRefused with a reason a player understands."""
    limit = import_limit()
    if len(content) > limit:
        raise ImportRefused(
            f"The file is {len(content) // 1024} KiB; an army document is at most "
            f"{limit // 1024} KiB."
        )
    if not content.strip():
        raise ImportRefused("The file is empty: choose a Muster army document (.json).")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused("The file is not UTF-8 text: choose a .json army document.") from None
    try:
        return load_json(text)
    except MalformedDocument as exc:
        raise ImportRefused(f"The file is {exc.message}.") from None


def import_document(
    content: bytes, *, owner: AbstractBaseUser | None = None, session_key: str = ""
) -> Army:
    """Create an army from an uploaded file; ImportRefused names what is wrong. The army's
    ``import_notes`` say which named list revision Muster does not have."""
    raw = read_upload(content)
    try:
        army = create_army(raw, owner=owner, session_key=session_key)
    except MalformedDocument as exc:
        where = raw if isinstance(raw, Mapping) else None
        raise ImportRefused(friendly_message(exc, where)) from exc
    # the revisions the exported army was checked against, where Muster has them
    army.import_notes = pinning.pin_to_named(army, list_revisions(raw))
    return army


def exported(army: Army) -> dict[str, Any]:
    """The stored document with the revision of each list it reads (``list_revisions``),
    so an import is checked against the same revisions (none without a list)."""
    document = dict(army.document)
    reads = pins.referenced_slugs(document)
    named = {slug: n for slug, n in (army.list_pins or {}).items() if slug in reads}
    if named:
        document["list_revisions"] = dict(sorted(named.items()))
    return canonical_order(document)


def document_download(army: Army) -> HttpResponse:
    """The army as a JSON file (export and the share page's download)."""
    body = json.dumps(exported(army), indent=2, ensure_ascii=False) + "\n"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = (slugify(army.name) or "army") + ".json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
