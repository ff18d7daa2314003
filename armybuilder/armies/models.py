"""Saved armies: the muster.army/1 document is the source of truth."""

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone

from rules.text import repair

RESTORE_DAYS = 30  # a deleted army can be restored this long, then it is purged


def restore_cutoff(now: datetime | None = None) -> datetime:
    """Armies deleted before this moment can no longer be restored (and are purged)."""
    return (now or timezone.now()) - timedelta(days=RESTORE_DAYS)


def new_share_token() -> str:
    """At least 128 bits from secrets: 24 bytes, 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def readable_document(document: Any) -> Any:
    """A document as read from the database, kept to the text rule (rules/text.py): the
    same object when it already keeps it (the common case), else a repaired copy."""
    return repair(document)[0] if document is not None else None


class DocumentField(models.JSONField):
    """A stored army document, decoded to the text rule (rules/text.py).

    Every write keeps the rule; a document stored before it is repaired in its row by the
    data migration ``0004_repair_stored_text``. One written around both (a script) could
    still hold a lone surrogate or a bidi override that would break every page showing
    it, so decoding the column keeps the rule too: the same object when it already does,
    else a repaired copy. Nothing is written back; the model's loading (``from_db``) is
    Django's own."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return readable_document(super().from_db_value(value, expression, connection))


class Army(models.Model):
    """An army owned by a user, or a visitor's draft tied to a session (owner null).

    ``document`` only ever holds what the engine's strict parser produced
    (``rules.Army.to_document()``): every write goes through ``armies.changes.pipeline``
    (or ``armies.making.lifecycle`` for a new army).
    ``version`` counts saves; a save names the version it was made from, so a stale
    second tab is refused instead of overwriting (see ``armies.changes.saving``).
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="armies",
    )
    session_key = models.CharField(
        max_length=40, blank=True, default="", db_index=True, help_text="Draft of a visitor."
    )
    document = DocumentField(help_text="The normalised muster.army/1 document.")
    # a new army is private: its owner shares it with one tap (a new token); armies
    # shared before keep their links
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True, default=None)
    version = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # Whole-army delete is soft: the army vanishes from every page and share link at once
    # and stays restorable for ``RESTORE_DAYS`` (then purge_deleted_armies).
    deleted_at = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="Set when the owner deleted it."
    )
    # {army list slug: revision number}: the list revisions this army is checked against
    # (its own list and any it draws allies from), so a later change of a list never
    # changes the army's legality until its owner accepts it (catalog.services.pins).
    list_pins = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-updated"]
        indexes = [models.Index(fields=["owner", "-updated"], name="army_owner_updated")]
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(session_key=""),
                name="army_has_owner_or_session",
            ),
            # a claimed army is no longer a draft: never both an owner and a session
            models.CheckConstraint(
                condition=Q(owner__isnull=True) | Q(session_key=""),
                name="army_owned_not_draft",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="army_version_positive"),
            # sharing off is null, never an empty (guessable) token
            models.CheckConstraint(
                condition=Q(share_token__isnull=True) | ~Q(share_token=""),
                name="army_share_token_not_blank",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return str(self.document.get("name", ""))

    @property
    def ruleset(self) -> str:
        return str(self.document.get("ruleset", ""))

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def is_draft(self) -> bool:
        return self.owner_id is None

    def clean(self) -> None:
        """The admin's guard: a document the engine's parser refuses cannot be saved. It is
        read as its builder reads it: the revisions it is pinned to and the lists its owner
        may build on (their own, those shared with them), not only the public ones."""
        from armybuilder.catalog.selectors import army_lookup
        from armybuilder.catalog.services import check_document
        from rules import MalformedDocument
        from rules.document import with_ids

        try:
            parsed, _ = check_document(with_ids(self.document), lookup=army_lookup(self))
        except MalformedDocument as exc:
            raise ValidationError({"document": exc.message}) from exc
        self.document = parsed.to_document()


# What follows a player's army being saved, called explicitly by each save path: an army
# made (``making.lifecycle``), a revision recorded (``history.revisions.record``), a change
# in the admin. An app above armies that acts on a saved army (printing renders its sheets
# ahead of Print) adds its function here in its ``AppConfig.ready``, the same way events
# adds a share guard (``selectors.SHARE_GUARDS``): armies cannot import it, and a model
# signal would fire from any ``save()`` anywhere, unseen. Each is given the army's id and
# its new version.
FOLLOWERS: list[Callable[[int, int], None]] = []


def army_saved(army: Army) -> None:
    """A player's army now stands at ``army.version``; a visitor's draft and an army in
    the bin have nothing to follow."""
    if army.owner_id is None or army.deleted_at is not None:
        return
    for follow in FOLLOWERS:
        follow(army.pk, army.version)


class Revision(models.Model):
    """One change to an army: what changed, when, and enough to take it back.

    A ``field`` revision names one value (``target`` army/units/generals, the item's
    ``item_id`` and its ``index`` then, and ``field``) with the value before and after:
    small, so a keystroke-paced edit writes a few bytes, never the whole document. Any
    other change (add, delete, move, roll, undo of those, restore, an edit whose follow-ups
    touched more than its own field) is a ``snapshot`` revision that keeps the whole
    document from before it. ``op`` and ``op_to`` say how item indices moved (what History
    tells); a change is applied to its unit by the unit's id, wherever other tabs moved it.
    """

    FIELD = "field"
    SNAPSHOT = "snapshot"

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField(help_text="The army's version this change made.")
    since = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The version the change was made on, when it spans several (the "
        "keystrokes of one field, kept as one change); else the one before ``version``.",
    )
    created = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=300)
    kind = models.CharField(
        max_length=10, choices=[(FIELD, "One field"), (SNAPSHOT, "Whole document")]
    )
    target = models.CharField(max_length=10, default="army")  # army | units | generals
    index = models.IntegerField(null=True, blank=True)  # where the item was at ``version``
    # the unit's or general's stable id (its ``id`` in the document): what undo and the
    # typing of one field follow; "" for the army's own values
    item_id = models.CharField(max_length=32, blank=True, default="")
    field = models.CharField(max_length=80, blank=True, default="")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    document = models.JSONField(
        null=True, blank=True, help_text="The whole document before a snapshot change."
    )
    op = models.CharField(max_length=12, default="edit")  # edit add delete move replace
    op_to = models.IntegerField(null=True, blank=True)
    undone = models.BooleanField(default=False)
    undo_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # the one-time key of the operation that made this change (None: none): what tells the
    # page's own changes from another writer's (``operations._only_own_since``). Applying
    # a key once is the operation kernel's ledger's (``armybuilder.operations``), not this.
    key = models.CharField(max_length=64, null=True, blank=True, default=None)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(fields=["army", "version"], name="revision_army_version"),
        ]

    def __str__(self) -> str:
        return f"{self.army_id} v{self.version}: {self.summary}"

    @property
    def structural(self) -> bool:
        return self.op != "edit"


class ArmySnapshot(models.Model):
    """A version of an army the player named ("before the club night").

    It keeps its own copy of the document, so it reads the same whatever happens to the
    revisions after it; restoring it is an ordinary change (Undo takes it back).
    """

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="snapshots")
    name = models.CharField(max_length=120)
    version = models.PositiveIntegerField(help_text="The army's version when it was named.")
    document = models.JSONField(help_text="The army's document at that version.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.army_id} v{self.version}: {self.name}"


class DraftGate(models.Model):
    """One row whose lock serialises visitors' draft creation (see ``armies.drafts``).

    ``issued`` counts the drafts ever created; every so many, abandoned drafts are pruned.
    """

    issued = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.issued} drafts issued"
