from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running Muster as a service: /healthz and the worker's scheduled maintenance."""

    name = "armybuilder.ops"
    label = "ops"
    default_auto_field = "django.db.models.BigAutoField"
