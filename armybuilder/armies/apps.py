from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig

if TYPE_CHECKING:
    from armybuilder.catalog.models import ArmyList


class ArmiesConfig(AppConfig):
    name = "armybuilder.armies"
    label = "armies"

    def ready(self) -> None:
        from armybuilder.accounts.views import SIGNED_IN
        from armybuilder.armies.making.drafts import claim_on_login

        SIGNED_IN.append(claim_on_login)

        from armybuilder.catalog.list_lifecycle import LIST_KEEPERS

        LIST_KEEPERS.append(_armies_built_on)


def _armies_built_on(army_list: ArmyList) -> str:
    """Armies pinned to the list (deleted ones too: they can be restored) keep reading the
    revision they are pinned to."""
    from armybuilder.armies.models import Army

    pinned = Army.objects.filter(
        document__ruleset=army_list.ruleset, list_pins__has_key=army_list.slug
    )
    count = pinned.count()
    if not count:
        return ""
    return f"{count} {'army is' if count == 1 else 'armies are'} built on it"
