from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_save


class PrintingConfig(AppConfig):
    name = "armybuilder.printing"
    label = "printing"

    def ready(self) -> None:
        # a player's army saved whole (new, imported, restored) or through a revision (every
        # builder change): its sheets are rendered ahead once it is still
        # (printing.prerender); a visitor's draft is not
        post_save.connect(_army_saved, sender="armies.Army", dispatch_uid="prerender-army")
        post_save.connect(
            _revision_saved, sender="armies.Revision", dispatch_uid="prerender-revision"
        )


def _army_saved(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if not raw and instance.deleted_at is None and instance.owner_id is not None:
        from armybuilder.printing.prerender import schedule

        schedule(instance.pk, instance.version)


def _revision_saved(
    sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any
) -> None:
    # the army is the one the change was saved on (held by the revision): no query
    if created and not raw and instance.army.owner_id is not None:
        from armybuilder.printing.prerender import schedule

        schedule(instance.army_id, instance.version)
