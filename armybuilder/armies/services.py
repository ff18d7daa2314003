"""The armies app's services under one name, for callers outside the builder (other apps,
the management commands, the tests). Each lives in the module of its seam:

- ``documents``: reading a saved army, its check, the player's messages, the errors;
- ``pipeline`` (with ``commands``, ``rewind``, ``saving``): every builder change, one
  pipeline; the functions below run one command each;
- ``lifecycle``: creating, copying, sharing, deleting, restoring, purging;
- ``files``: importing an uploaded document and downloading one;
- ``drafts``: visitors' drafts, their caps and who a new army belongs to.

None of those modules imports this one.
"""

from collections.abc import Mapping
from typing import Any

from armybuilder.armies.changes import commands, pipeline
from armybuilder.armies.changes.commands import settings_document
from armybuilder.armies.changes.pipeline import run
from armybuilder.armies.documents import (
    Checked,
    DraftLimitReached,
    ImportRefused,
    ItemNotFound,
    StaleVersion,
    check_army,
    friendly_message,
    ruleset_of,
)
from armybuilder.armies.history.revisions import RevisionNote
from armybuilder.armies.making.drafts import claim_drafts, draft_key, owner_kwargs
from armybuilder.armies.making.files import import_document, import_limit, read_upload
from armybuilder.armies.making.lifecycle import (
    blank_document,
    create_army,
    delete_army,
    duplicate_army,
    fork,
    purge_deleted_armies,
    regenerate_share_token,
    restore_army,
    stop_sharing,
)
from armybuilder.armies.models import RESTORE_DAYS, Army
from armybuilder.armies.pinning import accept_upgrade, restore_pins
from armybuilder.armies.presets import Preset, as_key, presets


def save_document(
    army: Army, *, raw: Any, version: int | None, note: RevisionNote | None = None
) -> Checked:
    """Parse ``raw`` and store it if ``army`` is still at ``version`` (else StaleVersion).
    A document that normalises to the stored one writes nothing and keeps the version."""
    return run(army, commands.ReplaceDocument(raw, version, note))


def add_item(army: Army, *, kind: str, version: int | None, preset_key: str = "blank") -> Checked:
    return run(army, commands.Add(kind, preset_key, base_version=version))


def duplicate_item(army: Army, *, kind: str, item_id: str) -> Checked:
    return run(army, commands.Duplicate(item_id))


def move_item(army: Army, *, kind: str, item_id: str, delta: int) -> Checked:
    return run(army, commands.Move(item_id, delta))


def delete_item(army: Army, *, kind: str, item_id: str) -> Checked:
    return run(army, commands.Delete(item_id))


def update_settings(army: Army, *, data: Mapping[str, Any], version: int | None) -> Checked:
    return run(army, commands.Settings(data, version))


def roll_force(army: Army, *, version: int | None, seed: int | None = None) -> Checked:
    roll = commands.Roll(version) if seed is None else commands.Roll(version, seed)
    return run(army, roll)


__all__ = [
    "accept_upgrade",
    "restore_pins",
    "RESTORE_DAYS",
    "Checked",
    "DraftLimitReached",
    "ImportRefused",
    "ItemNotFound",
    "Preset",
    "StaleVersion",
    "add_item",
    "as_key",
    "blank_document",
    "check_army",
    "claim_drafts",
    "create_army",
    "delete_army",
    "delete_item",
    "draft_key",
    "duplicate_army",
    "duplicate_item",
    "fork",
    "friendly_message",
    "import_document",
    "import_limit",
    "move_item",
    "owner_kwargs",
    "pipeline",
    "presets",
    "purge_deleted_armies",
    "read_upload",
    "regenerate_share_token",
    "restore_army",
    "roll_force",
    "ruleset_of",
    "run",
    "save_document",
    "settings_document",
    "stop_sharing",
    "update_settings",
]
