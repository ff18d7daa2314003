"""Every route refuses a POST without a CSRF token (403; 405 where its view takes no POST),
except the ones tests/web/routes.py declares exempt, with the reason; the routes come from
the resolver, so a new one is covered the day it is added."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.armies.models import Army
from armybuilder.badinput import UNDECLARED, allowed_methods
from tests.web.routes import (
    UNDELETE,
    Route,
    all_routes,
    ids,
    make_samples,
    rule_for,
    sample_kwargs,
    signed_in,
    url_for,
)

pytestmark = pytest.mark.django_db


def _declared(route: Route) -> str:
    rule = rule_for(route)
    assert rule is not None, f"{route} is not declared in tests/web/routes.py"
    return rule.csrf_exempt


PROTECTED = [r for r in all_routes() if not _declared(r)]


def test_only_the_declared_views_are_csrf_exempt():
    # a view that looks its link up before the CSRF check (games.access.by_link) is checked
    # all the same: it is posted to without a token below, as every protected route is
    exempt = {str(r) for r in all_routes() if getattr(r.view, "csrf_exempt", False)
              and not getattr(r.view, "csrf_checked_inside", False)}  # fmt: skip
    declared = {str(r) for r in all_routes() if _declared(r)}
    assert exempt == declared, "csrf_exempt views and the declared exemptions differ"


@pytest.fixture
def owner():
    return signed_in("owner", is_staff=True, is_superuser=True)  # the admin's routes too


@pytest.fixture
def samples(owner):
    return make_samples(owner)


@pytest.mark.parametrize("route", PROTECTED, ids=ids(PROTECTED))
def test_a_post_without_a_csrf_token_is_refused(route, owner, samples):
    url = url_for(route, sample_kwargs(route, samples))
    if route.route == UNDELETE:  # a deleted army, so an exempt view would really restore it
        owner.post(reverse("armies:delete", args=[samples.army_pk]))
    before = Army.objects.values().get(pk=samples.army_pk)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = owner.cookies  # the owner's session, even the staff's for the admin
    # a view that takes no POST says so (405) before the CSRF check (badinput.py)
    refused = 403 if "POST" in (allowed_methods(route.view) or UNDECLARED) else 405
    for headers in ({}, {"HX-Request": "true"}):
        response = strict.post(url, {"version": before["version"]}, headers=headers)
        assert response.status_code == refused, (url, response.status_code, headers)
    assert Army.objects.values().get(pk=samples.army_pk) == before
