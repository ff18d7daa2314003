from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "armybuilder.operations"
    label = "operations"
    verbose_name = "Operations applied once"
