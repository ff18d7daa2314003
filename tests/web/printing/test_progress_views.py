"""The builder's print panel says which version of the army it prints, while the sheet is
made and once it is ready."""

import html
import re

import pytest
from django.tasks import default_task_backend

from armybuilder.armies import services
from tests.support import army

HX = {"HX-Request": "true"}
DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def queue(settings):
    """A queue that keeps what is enqueued (and runs nothing): the render stays queued."""
    settings.TASKS = DUMMY
    default_task_backend.clear()
    return default_task_backend


def test_the_print_panel_names_the_version_it_makes_and_keeps_naming_it_while_it_polls(
    owner_client, user, queue
):
    saved = services.create_army(army("into-the-dark", [{"name": "Militia"}]), owner=user)
    response = owner_client.get(f"/armies/{saved.pk}/print/", {"sheet": "roster"}, headers=HX)
    text = response.content.decode()
    assert f"Making version {saved.version} of the army" in text
    poll = html.unescape(re.search(r'hx-get="([^"]+)"', text).group(1))
    again = owner_client.get(poll, headers=HX).content.decode()
    assert f"Making version {saved.version} of the army" in again


def test_a_poll_names_no_version_it_cannot_read(owner_client, user, queue):
    saved = services.create_army(army("into-the-dark", [{"name": "Militia"}]), owner=user)
    text = owner_client.get(f"/armies/{saved.pk}/print/", headers=HX).content.decode()
    poll = html.unescape(re.search(r'hx-get="([^"]+)"', text).group(1)).split("&")[0]
    for junk in ("<b>1</b>", "-3", "9" * 40):
        answer = owner_client.get(f"{poll}&version={junk}", headers=HX)
        assert answer.status_code == 200
        assert "of the army" not in answer.content.decode()
