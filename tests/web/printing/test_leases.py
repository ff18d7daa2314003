"""Render leases (printing/leases.py): printing asks the worker's heartbeat, which ops (the
app above it) registers when ready, which renders live workers hold."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from armybuilder.ops import heartbeat
from armybuilder.printing import jobs, leases


def test_the_ops_heartbeat_answers_for_printings_leases_once_the_apps_are_ready():
    assert leases._live_renders is heartbeat.live_renders
    assert leases._working_on is heartbeat.working_on


@pytest.mark.django_db
def test_without_a_heartbeat_no_rendering_sheet_is_called_lost(monkeypatch):
    """No holder registered is a setup mistake: said, never read as every render lost."""
    monkeypatch.setattr(leases, "_live_renders", None)
    with pytest.raises(ImproperlyConfigured, match="armybuilder.ops"):
        jobs.requeue_lost()
