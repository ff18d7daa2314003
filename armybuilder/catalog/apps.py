from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "armybuilder.catalog"
    label = "catalog"
