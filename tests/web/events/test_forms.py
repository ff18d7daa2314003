"""Creating and editing an event: the form names each field at fault, pins each list to
the chosen revision, and only the organiser changes the event."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.catalog.models import ArmyList
from armybuilder.events.models import Event
from tests.web.events.helpers import make_event, player

pytestmark = pytest.mark.django_db

VALID = {
    "name": "Autumn muster",
    "date": "2027-10-02",
    "place": "Village hall",
    "time_zone": "Europe/Paris",
    "ruleset": "into-the-dark",
    "points_limit": "600",
    "lists": ["into-the-dark/viking/1"],
    "deadline": "2027-09-25T20:00",
    "reveal_at": "2027-09-26T09:00",
    "max_units": "8",
}


def post_new(client, **changes):
    return client.post(reverse("events:new"), {**VALID, **changes})


def test_an_organiser_creates_an_event_with_its_lists_pinned_and_restrictions_as_data(client):
    client.force_login(player("org"))
    player("helper")
    response = post_new(
        client,
        required_option='into-the-dark|figure_scale|"15mm"',
        min_unit_type='into-the-dark|quality|"elite"',
        min_unit_count="1",
        more_restrictions='[{"kind": "forbidden_option", "option": "command_and_control", "value": true}]',
        co_organisers="helper",
    )
    assert response.status_code == 302
    event = Event.objects.get(name="Autumn muster")
    assert [(a.army_list.slug, a.revision) for a in event.allowed_lists.all()] == [("viking", 1)]
    assert event.restrictions == [
        {"kind": "max_units", "count": 8},
        {"kind": "required_option", "option": "figure_scale", "value": "15mm"},
        {"kind": "min_unit_type", "field": "quality", "value": "elite", "count": 1},
        {"kind": "forbidden_option", "option": "command_and_control", "value": True},
    ]
    assert list(event.co_organisers.values_list("username", flat=True)) == ["helper"]
    page = client.get(response["Location"]).content.decode()
    assert "At least 1 unit with Quality “Elite (4)”." in page
    assert "The option “Figure scale” must be “15 mm (halve every distance)”." in page
    # the edit form gives each restriction back in the field it came from
    form = client.get(reverse("events:edit", args=[event.code])).context["form"]
    again = client.post(
        reverse("events:edit", args=[event.code]),
        {k: v for k, v in form.initial.items() if v not in (None, False)},
    )
    assert again.status_code == 302
    event.refresh_from_db()
    assert len(event.restrictions) == 4
    assert "Saturday 25 September 2027, 20:00 (Europe/Paris)" in page


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        (
            {"more_restrictions": '[{"kind": "max_units", "count": 0}]'},
            "more_restrictions",
            "restrictions[1].count",
        ),
        ({"more_restrictions": "[" * 3000}, "more_restrictions", "JSON"),
        ({"lists": ["feudal-2017/north-welsh/1"]}, "lists", "Into the Dark list"),
        ({"reveal_at": "2027-09-24T09:00"}, "reveal_at", "at or after"),
        ({"no_personalities": "on"}, "no_personalities", "has no personalities"),
        ({"forces_rolled": "on"}, "forces_rolled", "no force matrix"),
        ({"co_organisers": "nobody-here"}, "co_organisers", "No account is named nobody-here"),
        ({"required_option": 'feudal-2017|dice|"d5"'}, "required_option", "Into the Dark's"),
        ({"min_unit_type": 'into-the-dark|quality|"elite"'}, "min_unit_count", "How many"),
    ],
)
def test_a_refused_field_is_named_and_nothing_is_saved(client, changes, field, words):
    client.force_login(player("org"))
    response = post_new(client, **changes)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and words in " ".join(errors[field]), errors
    assert not Event.objects.exists()


def test_the_organiser_edits_the_event_and_a_co_organiser_may_not(client):
    organiser = player("org")
    event = make_event(organiser)
    co = player("co")
    event.co_organisers.add(co)
    client.force_login(organiser)
    form = client.get(reverse("events:edit", args=[event.code])).context["form"]
    assert form.initial["date"] == event.date and form.initial["max_units"] == 5
    anglo = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    response = client.post(
        reverse("events:edit", args=[event.code]),
        {
            **VALID,
            "name": "Renamed",
            "lists": [f"into-the-dark/{anglo.slug}/1"],
            "co_organisers": "co",
        },
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Renamed"
    assert [a.army_list.slug for a in event.allowed_lists.all()] == ["anglo-danish-1066"]
    client.force_login(co)
    # a co-organiser is told before any form is shown, and a post changes nothing
    shown = client.get(reverse("events:edit", args=[event.code])).content.decode()
    assert "the organiser, changes the event itself" in shown and 'name="name"' not in shown
    refused = client.post(reverse("events:edit", args=[event.code]), {**VALID, "name": "Mine"})
    assert refused.status_code == 403 and "changes the event itself" in refused.content.decode()
    event.refresh_from_db()
    assert event.name == "Renamed"
    client.force_login(player("stranger"))
    assert client.get(reverse("events:edit", args=[event.code])).status_code == 404


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([*VALID, "more_restrictions", "cap", "co_organisers"]),
        st.text(max_size=40) | st.lists(st.text(max_size=30), max_size=3),
        max_size=6,
    )
)
def test_any_posted_form_is_answered_without_a_server_error(changes):
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get_or_create(username="fuzzer")[0])
    response = client.post(reverse("events:new"), {**VALID, **changes})
    assert response.status_code in (200, 302)


def test_an_events_form_offers_only_its_rule_sets_lists_and_options(client):
    from tests.web.events.helpers import make_event, player

    organiser = player("org")
    event = make_event(organiser)
    client.force_login(organiser)
    page = client.get(reverse("events:edit", args=[event.code])).content.decode()
    assert 'value="into-the-dark/viking/1"' in page
    assert "feudal-2017/" not in page and "feudal-2017|" not in page
