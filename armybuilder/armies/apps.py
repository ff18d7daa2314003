from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armybuilder.armies"
    label = "armies"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from armybuilder.armies.signals import claim_on_login

        user_logged_in.connect(claim_on_login, dispatch_uid="muster-claim-drafts")
