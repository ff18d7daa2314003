from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "armybuilder.accounts"
    label = "accounts"

    def ready(self) -> None:
        # log-in lock-out: count wrong passwords, reset an account on success
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from armybuilder.accounts import lockout

        user_login_failed.connect(lockout.on_login_failed, dispatch_uid="muster-login-failed")
        user_logged_in.connect(lockout.on_logged_in, dispatch_uid="muster-login-reset")
