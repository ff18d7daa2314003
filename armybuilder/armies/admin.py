"""Saved armies in the admin: for a club organiser to look after accounts' armies.

An army is its owner's: the admin lists none to staff without the support permission
(``accounts.support``), and logs every page that shows one to staff with it.

The document is validated by the engine's parser (``Army.clean``) and every admin save
bumps the version, so an open builder tab cannot silently overwrite an admin's change.
"""

from typing import Any

from django.contrib import admin
from django.db import models
from django.db.models import F
from django.http import HttpRequest

import rules
from armybuilder.accounts.support import PrivateContentAdmin
from armybuilder.armies.models import Army, Revision, army_saved
from armybuilder.catalog.selectors import army_lookup
from armybuilder.catalog.services import check_document, pins_for
from armybuilder.textrule import TextRuleJSONField


@admin.register(Army)
class ArmyAdmin(PrivateContentAdmin):
    # the text rule: refused characters shown escaped, never breaking the page
    formfield_overrides = {models.JSONField: {"form_class": TextRuleJSONField}}
    list_display = ("name", "ruleset", "owner", "is_draft", "is_legal", "version", "updated")
    list_select_related = ("owner",)
    list_filter = ("deleted_at",)  # soft-deleted armies ("Has date"), restorable
    search_fields = ("document__name", "owner__username")
    readonly_fields = ("version", "created", "updated", "session_key")
    raw_id_fields = ("owner",)

    def owner_of(self, obj: Army) -> Any:
        return obj.owner or "a visitor's draft"

    @admin.display(boolean=True, description="Draft")
    def is_draft(self, army: Army) -> bool:
        return army.is_draft

    @admin.display(boolean=True, description="Legal")
    def is_legal(self, army: Army) -> bool | None:
        """Checked as the builder checks it: against the revisions it is pinned to."""
        try:
            _, report = check_document(army.document, lookup=army_lookup(army))
        except rules.MalformedDocument:
            return None
        return report.valid

    def save_model(self, request: HttpRequest, obj: Army, form: Any, change: bool) -> None:
        before = Army.objects.filter(pk=obj.pk).values_list("document", flat=True).first()
        obj.list_pins = pins_for(obj.document, obj.list_pins)  # a list it now reads is pinned
        super().save_model(request, obj, form, change)
        if change:
            Army.objects.filter(pk=obj.pk).update(version=F("version") + 1)
            obj.refresh_from_db(fields=["version"])
            # a whole-document change: an open builder tab no longer maps its units
            Revision.objects.create(
                army=obj,
                version=obj.version,
                summary=f"Changed in the admin by {request.user}",
                kind=Revision.SNAPSHOT,
                op="replace",
                document=before,
            )
        army_saved(obj)


@admin.register(Revision)
class RevisionAdmin(PrivateContentAdmin):
    """Every change to every army, to look into (changes are made in the builder)."""

    list_display = ("army", "version", "created", "summary", "kind", "op", "undone")
    list_filter = ("kind", "op", "undone")
    list_select_related = ("army",)
    search_fields = ("summary", "army__document__name")
    raw_id_fields = ("army", "undo_of")
    readonly_fields = [f.name for f in Revision._meta.get_fields() if f.concrete]

    def owner_of(self, obj: Revision) -> Any:
        return obj.army.owner or "a visitor's draft"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
