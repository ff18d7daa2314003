from typing import Any

from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armybuilder.armies"
    label = "armies"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from armybuilder.armies.signals import claim_on_login

        user_logged_in.connect(claim_on_login, dispatch_uid="muster-claim-drafts")

        from armybuilder.catalog.services import LIST_KEEPERS

        LIST_KEEPERS.append(_armies_built_on)


def _armies_built_on(army_list: Any) -> str | None:
    """Armies pinned to the list (deleted ones too: they can be restored) keep it."""
    from armybuilder.armies.models import Army

    pinned = Army.objects.filter(
        document__ruleset=army_list.ruleset, list_pins__has_key=army_list.slug
    )
    return "armies are built on this list; make it private instead" if pinned.exists() else None
