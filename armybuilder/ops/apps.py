from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running Muster as a service: /healthz and the worker's scheduled maintenance."""

    name = "armybuilder.ops"
    label = "ops"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # printing (below ops) asks which renders live workers hold through its own hook
        from armybuilder.ops import heartbeat
        from armybuilder.printing import leases

        leases.register(live_renders=heartbeat.live_renders, working_on=heartbeat.working_on)
