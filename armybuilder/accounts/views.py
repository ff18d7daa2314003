"""Sign-up and log-out (the other account pages are Django's own auth views with Muster
templates)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from armybuilder import throttle
from armybuilder.accounts.forms import SignUpForm

# What follows a player signing in or up, for the apps above accounts (armies moves the
# visitor's drafts into the account): each log-in path below calls them by name.
SIGNED_IN: list[Callable[[HttpRequest, AbstractBaseUser], None]] = []


def signed_in(request: HttpRequest, user: AbstractBaseUser) -> None:
    for follow in SIGNED_IN:
        follow(request, user)


def safe_next(request: HttpRequest) -> str:
    """The ``next`` page if it is on this site, else ''."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


# Sign-ups from one address: per hour (a club night's players on its wifi) and per day.
SIGNUP_LIMITS = ("signup", "signup-day")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in; the visitor's drafts move into it (``SIGNED_IN``).
    The page it came from (an event's, by its link or code) is where it ends, and where a
    refused sign-up leads back to."""
    next_url = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or resolve_url(settings.LOGIN_REDIRECT_URL))
    form = SignUpForm(request.POST) if request.method == "POST" else SignUpForm()
    if request.method == "POST" and form.is_valid():
        # counted only when an account is to be made: a form sent back is not one
        limited = next(filter(None, (throttle.check(request, n) for n in SIGNUP_LIMITS)), None)
        if limited is not None:
            return _too_many_sign_ups(request, form, next_url, limited)
        user = form.save_unless_taken()
        if user is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            signed_in(request, user)
            return redirect(next_url or resolve_url(settings.LOGIN_REDIRECT_URL))
    status = 400 if request.method == "POST" else 200
    return render(
        request, "registration/signup.html", {"form": form, "next": next_url}, status=status
    )


def _too_many_sign_ups(
    request: HttpRequest, form: SignUpForm, next_url: str, limited: throttle.Limited
) -> HttpResponse:
    """The sign-up page again, saying when to try (429, or 503 when the counters cannot be
    read), its form still leading where the visitor came from."""
    context = {"form": form, "next": next_url, "refused": throttle.refusal_message(limited)}
    status = 503 if limited.unavailable else 429
    response = render(request, "registration/signup.html", context, status=status)
    response["Retry-After"] = str(limited.retry_after)
    response["Cache-Control"] = "no-store"
    return response


class LogInView(LoginView):
    """Django's log-in, then what follows a player signing in (``SIGNED_IN``)."""

    redirect_authenticated_user = True

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        signed_in(self.request, form.get_user())
        return response


class LogOutView(LogoutView):
    """Django's log-out, whose answer also tells the browser to drop what this site kept:
    its HTTP cache and its storage (the service worker's offline copies of the player's
    pages, the pages' local storage, the worker itself). The service worker
    (static/js/sw.js) empties the player's cache on its own as well, as soon as a page made
    for someone else arrives, for browsers that ignore the header."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
