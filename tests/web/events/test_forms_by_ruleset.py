"""The event form by rule set: the allowed lists a grouped checkbox list (one group per
rule set, each list with its revision; the event's own rule set only once it has one), the
restriction menus only the event's rule set's values, and the server's refusal of another
rule set's list or value naming the field and the values allowed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from armybuilder.catalog.models import ArmyList
from rules.registry import get_ruleset
from tests.web.events.helpers import make_event, player
from tests.web.events.test_forms import post_new

pytestmark = pytest.mark.django_db


def group_titles(page: str) -> list[str]:
    return re.findall(r'<fieldset class="list-group" data-ruleset="[^"]*">\s*<legend>([^<]+)', page)


def test_a_new_event_shows_every_rule_sets_lists_as_checkbox_groups_with_their_revisions(client):
    client.force_login(player("org"))
    page = client.get(reverse("events:new")).content.decode()
    with_lists = ArmyList.objects.order_by("ruleset").values_list("ruleset", flat=True)
    assert group_titles(page) == [get_ruleset(slug).title for slug in dict.fromkeys(with_lists)]
    assert 'type="checkbox" name="lists" value="into-the-dark/viking/1"' in page
    assert re.search(r'<label for="id_lists_\d+">Viking \(Great Army\), revision 1', page)
    assert '<select name="lists"' not in page


def test_an_events_edit_page_offers_only_its_rule_sets_lists_and_values(client):
    organiser = player("org")
    event = make_event(organiser)
    client.force_login(organiser)
    response = client.get(reverse("events:edit", args=[event.code]))
    page = response.content.decode()
    assert group_titles(page) == ["Into the Dark"]
    form = response.context["form"]
    for name in ("required_option", "forbidden_option", "min_unit_type"):
        groups = [title for title, _ in form.fields[name].choices]
        assert groups == ["", "Into the Dark"], name
    ticked = re.findall(r'value="(into-the-dark/[^"]+)" id="[^"]+" checked', page)
    assert sorted(ticked) == sorted(
        f"into-the-dark/{a.army_list.slug}/{a.revision}" for a in event.allowed_lists.all()
    )


def test_another_rule_sets_value_is_refused_naming_the_field_and_the_allowed_values(client):
    client.force_login(player("org"))
    response = post_new(client, required_option='feudal-2017|dice|"d5"')
    message = " ".join(response.context["form"].errors["required_option"])
    assert message.startswith("An option every army must have: choose one of Into the Dark's (")
    assert "Figure scale: 15 mm" in message
    assert "Command" in message


def test_another_rule_sets_list_is_refused_naming_the_lists_allowed(client):
    client.force_login(player("org"))
    response = post_new(client, lists=["feudal-2017/north-welsh/1"])
    message = " ".join(response.context["form"].errors["lists"])
    assert message.startswith("Allowed army lists: every allowed list must be a Into the Dark")
    assert "Viking (Great Army), revision 1" in message
    assert "North Welsh" not in message
