"""An army's life outside the builder: made (blank, from a document, as a copy or a fork
of a shared army), shared, deleted, restored and purged.

Every new army is parsed first (``rules.MalformedDocument``: nothing saved), and a
visitor's new or restored draft goes through the draft caps (``armies.drafts``).
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone

import rules
from armybuilder.armies.documents import NAME_MAX
from armybuilder.armies.making import drafts
from armybuilder.armies.models import Army, army_saved, new_share_token, restore_cutoff
from armybuilder.catalog.services import check_document, lookup_of, pins_for
from rules.document import with_ids


def blank_document(
    ruleset: str, name: str, army_list: str | None = None, points_limit: int | None = None
) -> dict[str, Any]:
    return {
        "format": rules.FORMAT,
        "name": name,
        "ruleset": ruleset,
        "army_list": army_list or None,
        "points_limit": points_limit,
        "units": [],
    }


def create_army(raw: Any, *, owner: AbstractBaseUser | None = None, session_key: str = "") -> Army:
    """A new army from a raw document, parsed first (MalformedDocument: nothing saved).

    A visitor's drafts are capped per session and in total (DraftLimitReached), so nobody
    can fill the database without an account.
    """
    # a player may build on their own lists as well as the public ones
    parsed, _ = check_document(with_ids(raw), lookup=lookup_of(owner))
    document = parsed.to_document()
    # pinned to the latest revision of each list it reads, until its owner accepts a newer one
    list_pins = pins_for(document)
    if owner is None:
        return drafts.create_draft(session_key, document, list_pins)  # caps: drafts.py
    army = Army.objects.create(owner=owner, document=document, list_pins=list_pins)
    army_saved(army)
    return army


def _copy_name(name: str, prefix: str = "Copy of ") -> str:
    return (prefix + name)[:NAME_MAX].strip()


def duplicate_army(
    army: Army, *, owner: AbstractBaseUser | None = None, session_key: str = ""
) -> Army:
    document = copy.deepcopy(army.document)
    document["name"] = _copy_name(army.name)
    return create_army(document, owner=owner, session_key=session_key)


def fork(army: Army, owner: AbstractBaseUser | None = None, *, session_key: str = "") -> Army:
    """A copy of a shared army, with its own share token: owned by ``owner``, or a
    visitor's draft (``session_key``, see ``drafts.owner_kwargs``; the draft cap applies)."""
    return create_army(copy.deepcopy(army.document), owner=owner, session_key=session_key)


def regenerate_share_token(army: Army) -> str:
    """A new token: the old link stops working at once (also turns sharing back on)."""
    army.share_token = new_share_token()
    Army.objects.filter(pk=army.pk).update(share_token=army.share_token)
    return army.share_token


def stop_sharing(army: Army) -> None:
    army.share_token = None
    Army.objects.filter(pk=army.pk).update(share_token=None)


def delete_army(army: Army) -> None:
    """Soft delete: gone from every page and share link at once, restorable for
    ``RESTORE_DAYS`` days (``restore_army``), then removed by ``purge_deleted_armies``."""
    army.deleted_at = timezone.now()
    Army.objects.filter(pk=army.pk).update(deleted_at=army.deleted_at)


def restore_army(army: Army) -> None:
    """Undo ``delete_army``: the army, its share link and its place in the list come back.
    A visitor's draft comes back only within the draft cap (DraftLimitReached)."""
    if army.owner_id is None:
        drafts.restore_draft(army)
    else:
        Army.objects.filter(pk=army.pk).update(deleted_at=None)
    army.deleted_at = None


def purge_deleted_armies(now: datetime | None = None) -> int:
    """Delete for good the armies deleted more than ``RESTORE_DAYS`` ago; how many went.

    For the worker's schedule (or ``manage.py purge_deleted_armies``)."""
    _, per_model = Army.objects.filter(deleted_at__lt=restore_cutoff(now)).delete()
    return per_model.get(Army._meta.label, 0)
