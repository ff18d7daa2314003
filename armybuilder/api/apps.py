from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "armybuilder.api"
    label = "api"
    verbose_name = "JSON API"
