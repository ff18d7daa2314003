"""`muster check --event rules.json army.json` and the server (the desk, the entry page
and every submission use ``check_for_event``) report the same problems, in the same
words, of 50 random armies over the event's lists and over lists the event does not allow."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.events.checking import check_for_event
from tests.web.events.helpers import list_army, make_event, player

pytestmark = pytest.mark.django_db


def cli_check(army, rules_path, tmp_path):
    army_path = tmp_path / "army.json"
    army_path.write_text(json.dumps(army))
    out = io.StringIO()
    try:
        call_command("muster", "check", str(army_path), "--event", str(rules_path), stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


def words(problems):
    return sorted((p["severity"], p["rule"], p["message"]) for p in problems)


armies = st.builds(
    lambda slug, extra, drop, points: (slug, extra, drop, points),
    # the event allows the first two; the others are the rule set's lists it does not
    st.sampled_from(["viking", "anglo-danish-1066", "norman-1066", "swiss"]),
    st.integers(min_value=0, max_value=6),
    st.integers(min_value=0, max_value=2),
    st.sampled_from([None, 300, 600]),
)


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(armies)
def test_the_cli_and_the_server_agree_on_random_armies_on_allowed_and_outside_lists(
    client, tmp_path_factory, case
):
    slug, extra, drop, points = case
    from armybuilder.events.models import Event

    event = Event.objects.filter(name="Agreement").first()
    if event is None:
        event = make_event(player("org"), name="Agreement")
    Event.objects.filter(pk=event.pk).update(points_limit=points)
    event.refresh_from_db()
    tmp_path = tmp_path_factory.mktemp("agree")
    rules_path = tmp_path / "rules.json"
    rules_path.write_bytes(client.get(reverse("events:rules_file", args=[event.code])).content)
    army = list_army(slug, extra=extra)
    army["units"] = army["units"][drop:]
    server = check_for_event(event, army)
    code, cli = cli_check(army, rules_path, tmp_path)
    assert code == (0 if server.valid else 1)
    assert cli["valid"] == server.valid
    assert words(cli["issues"]) == words(server.problems)
    if slug in ("norman-1066", "swiss"):
        assert code == 1
        assert ("error", "Event army lists") in {(p["severity"], p["rule"]) for p in cli["issues"]}
