from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "armybuilder.catalog"
    label = "catalog"

    def ready(self) -> None:
        from django.db.models.signals import pre_save

        from armybuilder.catalog.pins import pin_army

        # every army is pinned to the list revisions it is created on, wherever it is made
        pre_save.connect(pin_army, sender="armies.Army", dispatch_uid="catalog-pin-army")
