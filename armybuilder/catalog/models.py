"""Army lists: constraint data for one rule set, Muster's own or a player's, with revisions."""

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone

from armybuilder.textrule import validate_json, validate_line, validate_text
from rules.registry import get_ruleset, slugs

PRIVATE, LINK, SUBMITTED, PUBLISHED = "private", "link", "submitted", "published"
# Deleted by its author while armies or event submissions were pinned to its revisions:
# nobody reads it any more (its page, its link, menus, new pins and new armies), but the
# revisions those were checked against stay, immutable, for them alone.
DELETED = "deleted"
# An author's delete can be undone for this many days (as an army's); then the list goes
# for good, or stays deleted for the armies and submissions pinned to it.
LIST_RESTORE_DAYS = 30
STATUSES = [
    (PRIVATE, "Private: only its author"),
    (LINK, "Shared by link"),
    (SUBMITTED, "Submitted for the public catalogue"),
    (PUBLISHED, "Published"),
    (DELETED, "Deleted by its author"),
]


def list_restore_cutoff(now: datetime | None = None) -> datetime:
    """Lists deleted before this moment can no longer be restored."""
    return (now or timezone.now()) - timedelta(days=LIST_RESTORE_DAYS)


def new_share_token() -> str:
    """At least 128 bits from secrets, as a shared army's token: unguessable."""
    return secrets.token_urlsafe(24)


class ArmyListManager(models.Manager["ArmyList"]):
    def get_by_natural_key(self, ruleset: str, slug: str) -> "ArmyList":
        return self.get(ruleset=ruleset, slug=slug)


class ArmyList(models.Model):
    """A historical army list; ``data`` is the rule set's own constraint format.

    ``data``, ``name``, ``period`` and ``source_note`` are the latest revision's, kept here
    so that reading the lists of a rule set stays one plain query; every saved change goes
    through ``catalog.services.save_list``, which writes an ``ArmyListRevision`` too.
    Muster's compiled lists have no author; a player's list has one, and its slug carries
    a random suffix so players never take (or guess) each other's or Muster's slugs.
    """

    ruleset = models.CharField(max_length=40, help_text="Rule set slug, e.g. feudal-2017.")
    slug = models.SlugField(max_length=80)
    name = models.CharField(max_length=200)
    period = models.CharField(max_length=200, blank=True, help_text="Period or dates.")
    source_note = models.TextField(
        blank=True, help_text="Where the list comes from (or that Muster compiled it)."
    )
    data = models.JSONField(default=dict, help_text="Constraint data in the rule set's format.")
    updated = models.DateTimeField(auto_now=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="army_lists",
        help_text="Empty for the lists Muster compiled.",
    )
    status = models.CharField(max_length=10, choices=STATUSES, default=PRIVATE)
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    family = models.SlugField(
        max_length=80,
        blank=True,
        help_text="The slug of the list this one is a copy of (empty: a list of its own). "
        "A list and its copies are one list for the rules, e.g. for allies.",
    )
    latest_revision = models.PositiveIntegerField(
        default=0, editable=False, help_text="Number of the newest revision (0: none yet)."
    )
    deleted_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When its author deleted it, while they may still restore it.",
    )
    status_before_delete = models.CharField(
        max_length=10, blank=True, help_text="What a restore gives back (a link: private)."
    )

    objects = ArmyListManager()

    class Meta:
        ordering = ["ruleset", "name"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "slug"], name="unique_list_per_ruleset"),
            # sharing off is null, never an empty (guessable) token
            models.CheckConstraint(
                condition=Q(share_token__isnull=True) | ~Q(share_token=""),
                name="army_list_share_token_not_blank",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.ruleset})"

    def natural_key(self) -> tuple[str, str]:
        return (self.ruleset, self.slug)

    @property
    def is_public(self) -> bool:
        return self.author_id is None or self.status == PUBLISHED

    @property
    def family_slug(self) -> str:
        """The family this list belongs to: the slug of the list it was copied from, or
        its own."""
        return self.family or self.slug

    @property
    def compiled_by_muster(self) -> bool:
        return self.author_id is None

    def clean(self) -> None:
        """Run the rule set's own list validator: a malformed list cannot be saved.

        Every string keeps the text rule first (rules/text.py): list data reaches pages,
        PDFs and the API as it is stored.
        """
        faults = {}
        for name, check in (
            ("ruleset", validate_line),
            ("slug", validate_line),
            ("family", validate_line),
            ("name", validate_line),
            ("period", validate_line),
            ("source_note", validate_text),
            ("data", validate_json),
        ):
            try:
                check(getattr(self, name))
            except ValidationError as exc:
                faults[name] = exc.messages
        if faults:
            raise ValidationError(faults)
        if self.ruleset not in slugs():
            raise ValidationError(
                {"ruleset": f"{self.ruleset!r} is not one of {', '.join(slugs())}"}
            )
        problems = get_ruleset(self.ruleset).validate_army_list(self.data)
        if problems:
            raise ValidationError({"data": problems})


class FrozenQuerySet(models.QuerySet["ArmyListRevision"]):
    def update(self, **kwargs: Any) -> int:
        raise RevisionIsImmutable("a list revision is never changed; save a new one")


class RevisionIsImmutable(Exception):
    pass


REVISION_KINDS = [
    ("edit", "Changed"),
    ("undo", "Undo"),
    ("redo", "Redo"),
    ("restore", "Restored"),
]


class ArmyListRevision(models.Model):
    """One saved state of an army list. Armies are checked against the revision they are
    pinned to, so a revision is written once and never changed (``save`` and the queryset's
    ``update`` refuse)."""

    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    period = models.CharField(max_length=200, blank=True)
    source_note = models.TextField(blank=True)
    data = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who saved it (empty: Muster's loader or a migration).",
    )

    # what wrote it: a change, or the content of another revision saved again (undo, redo,
    # restore), so undo and redo can walk the list's history (``catalog.list_history``)
    kind = models.CharField(max_length=10, choices=REVISION_KINDS, default="edit")
    restores = models.PositiveIntegerField(
        null=True, blank=True, help_text="The revision whose content it saved again."
    )

    objects = FrozenQuerySet.as_manager()

    class Meta:
        ordering = ["army_list", "number"]
        constraints = [
            models.UniqueConstraint(fields=["army_list", "number"], name="list_revision_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="list_revision_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.army_list_id} r{self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise RevisionIsImmutable("a list revision is never changed; save a new one")
        super().save(*args, **kwargs)


class SharedList(models.Model):
    """A player opened someone else's list through its share link: the list is offered to
    them ("Lists shared with me") while that very link works. A new link or sharing turned
    off ends it for everyone at once, with no row to remove: ``token`` no longer matches."""

    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="shares")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=64, help_text="The share link it was opened with.")
    opened = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["army_list", "user"], name="list_shared_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.army_list_id} shared with {self.user_id}"
