from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armybuilder.armies"
    label = "armies"
