"""The armies app's services under one name, for callers outside the builder (other apps,
the management commands, the tests). Each lives in the module of its seam:

- ``documents``: reading a saved army, its check, the player's messages, the errors;
- ``editing`` (with ``edits``, ``changes``, ``saving``): every builder change, one pipeline;
- ``lifecycle``: creating, copying, sharing, deleting, restoring, purging;
- ``files``: importing an uploaded document and downloading one;
- ``drafts``: visitors' drafts, their caps and who a new army belongs to.

Nothing here does work of its own, and none of those modules imports this one.
"""

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
from armybuilder.armies.drafts import claim_drafts, draft_key, owner_kwargs
from armybuilder.armies.editing import (
    add_item,
    apply_edit,
    delete_item,
    duplicate_item,
    edit_item,
    move_item,
    roll_force,
    save_document,
    update_settings,
)
from armybuilder.armies.edits import Preset, as_key, presets, settings_document
from armybuilder.armies.files import import_document, import_limit, read_upload
from armybuilder.armies.lifecycle import (
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
from armybuilder.armies.models import RESTORE_DAYS
from armybuilder.armies.saving import prune_action_keys

__all__ = [
    "RESTORE_DAYS",
    "Checked",
    "DraftLimitReached",
    "ImportRefused",
    "ItemNotFound",
    "Preset",
    "StaleVersion",
    "add_item",
    "apply_edit",
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
    "edit_item",
    "fork",
    "friendly_message",
    "import_document",
    "import_limit",
    "move_item",
    "owner_kwargs",
    "presets",
    "prune_action_keys",
    "purge_deleted_armies",
    "read_upload",
    "regenerate_share_token",
    "restore_army",
    "roll_force",
    "ruleset_of",
    "save_document",
    "settings_document",
    "stop_sharing",
    "update_settings",
]
