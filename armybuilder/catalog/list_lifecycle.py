"""A player's list deleted, restored and purged: deleting is undone by its author for
``LIST_RESTORE_DAYS`` days (as an army's); then the list goes for good with its
revisions, or, when armies or event submissions are pinned to them, stays deleted for
them alone."""

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from armybuilder.catalog.models import (
    DELETED,
    LINK,
    PRIVATE,
    ArmyList,
    SharedList,
    list_restore_cutoff,
)
from armybuilder.catalog.services import ListRefused, can

# What still reads a revision of a list, told by the apps above the catalog (each fills
# this in its ``AppConfig.ready``: armies for the armies pinned to it, events for the
# submissions checked against it): each answers what keeps it ("" for nothing).
LIST_KEEPERS: list[Callable[[ArmyList], str]] = []


def keepers(army_list: ArmyList) -> str:
    """What reads the list's revisions ("" when nothing does), as the author reads it."""
    return " and ".join(reason for keeper in LIST_KEEPERS if (reason := keeper(army_list)))


@transaction.atomic
def delete_list(user: Any, army_list: ArmyList) -> str:
    """Delete a list: its author always may. From now on it is ``DELETED`` for everyone
    (no page, link, menu, new pin or new army; not even for its author), and its link is
    dead; the armies and event submissions pinned to its revisions go on reading the
    revision they were checked against. Its author may restore it for
    ``LIST_RESTORE_DAYS`` days. What keeps its revisions ("" when nothing does)."""
    if not can(user, action="delete", army_list=army_list):
        raise ListRefused("only the list's author can delete it")
    SharedList.objects.filter(army_list=army_list).delete()
    army_list.status_before_delete = army_list.status
    army_list.status, army_list.share_token, army_list.deleted_at = DELETED, None, timezone.now()
    army_list.save(update_fields=["status", "share_token", "deleted_at", "status_before_delete"])
    return keepers(army_list)


def restorable(army_list: ArmyList, now: datetime | None = None) -> bool:
    return (
        army_list.status == DELETED
        and army_list.deleted_at is not None
        and army_list.deleted_at >= list_restore_cutoff(now)
    )


@transaction.atomic
def restore_list(user: Any, army_list: ArmyList) -> ArmyList:
    """Undo its author's delete, while it may be: the list is back as it was, but for a
    link, which stays dead (it comes back private, to be shared anew)."""
    if user is None or army_list.author_id != user.pk or not restorable(army_list):
        raise ListRefused("only its author can restore a list, within the days it may be")
    before = army_list.status_before_delete
    army_list.status = PRIVATE if before in ("", LINK, DELETED) else before
    army_list.deleted_at, army_list.status_before_delete = None, ""
    army_list.save(update_fields=["status", "deleted_at", "status_before_delete"])
    return army_list


def purge_deleted_lists(now: datetime | None = None) -> int:
    """Past the restore days: a deleted list nothing reads goes for good with its
    revisions; one read by pinned armies or submissions stays deleted for them (and may
    no longer be restored). How many went."""
    gone = 0
    for army_list in ArmyList.objects.filter(
        status=DELETED, deleted_at__lt=list_restore_cutoff(now)
    ):
        with transaction.atomic():
            if keepers(army_list):
                ArmyList.objects.filter(pk=army_list.pk).update(deleted_at=None)
            else:
                army_list.delete()
                gone += 1
    return gone
