"""Accounts: sign up, log in, log out, change password (Django's auth views)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from armybuilder.accounts import views as account_views

urlpatterns = [
    path("signup/", account_views.signup, name="signup"),
    path(
        "login/",
        account_views.LogInView.as_view(),
        name="login",
    ),
    # Django's log-out whose answer also clears what the browser kept of the player's pages
    path("logout/", account_views.LogOutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
