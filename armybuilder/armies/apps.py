from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armybuilder.armies"
    label = "armies"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from armybuilder.armies.signals import claim_on_login

        user_logged_in.connect(claim_on_login, dispatch_uid="muster-claim-drafts")
        # log-in lock-out (issue 13): count wrong passwords, reset an account on success
        from django.contrib.auth.signals import user_login_failed

        from armybuilder import throttle

        user_login_failed.connect(throttle.on_login_failed, dispatch_uid="muster-login-failed")
        user_logged_in.connect(throttle.on_logged_in, dispatch_uid="muster-login-reset")
