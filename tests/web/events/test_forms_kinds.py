"""The event form's restriction fields are made from the kinds' table alone: a kind added
to the table is asked for, shown again on the edit page and saved, with no form code."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from armybuilder.events import forms
from armybuilder.events.models import Event
from rules import restrictions
from rules.restriction_kinds import KIND_CLASSES, FormField, Restriction, RestrictionKind
from tests.web.events.helpers import player
from tests.web.events.test_forms import post_new

pytestmark = pytest.mark.django_db


class AtMostGenerals(RestrictionKind):
    """A kind made for this test: at most so many generals."""

    name, title, keys = "max_generals", "At most a number of generals", ("count",)

    def parse(self, raw: Any, ruleset: Any, path: str) -> Restriction:
        return Restriction(self.name, count=raw["count"])

    def describe(self, restriction: Restriction, ruleset: Any) -> str:
        return f"At most {restriction.count} generals."

    def check(self, army: Any, restriction: Restriction, ruleset: Any, rule: str) -> list:
        return []

    def form_field(self, ruleset: Any) -> FormField | None:
        return FormField(self.name, "At most this many generals", "count")


@pytest.fixture
def with_generals(monkeypatch):
    monkeypatch.setitem(KIND_CLASSES, "max_generals", AtMostGenerals())
    monkeypatch.setitem(restrictions.KINDS, "max_generals", AtMostGenerals.title)
    forms.kind_fields.cache_clear()
    yield
    forms.kind_fields.cache_clear()


def test_a_kind_added_to_the_table_is_asked_saved_and_shown_again(client, with_generals):
    organiser = player("org")
    client.force_login(organiser)
    page = client.get(reverse("events:new")).content.decode()
    assert "At most this many generals" in page
    response = post_new(client, max_generals="2")
    assert response.status_code == 302, response.context["form"].errors
    event = Event.objects.get(name="Autumn muster")
    assert {"kind": "max_generals", "count": 2} in event.restrictions
    form = client.get(reverse("events:edit", args=[event.code])).context["form"]
    assert form.initial["max_generals"] == 2
