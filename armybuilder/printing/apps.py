from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "armybuilder.printing"
    label = "printing"
