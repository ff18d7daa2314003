"""Full history: every revision kept and restorable, named snapshots, comparisons."""

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from armybuilder.armies import services
from armybuilder.armies.history import revisions
from armybuilder.armies.models import Army, Revision
from tests.support import army, item_id
from tests.web.armies.sending import send


def make(user: User, count: int = 3) -> Army:
    units = [{"name": f"Unit {i}", "quality": "levy"} for i in range(count)]
    return services.create_army(army("into-the-dark", units), owner=user)


def fresh(saved: Army) -> Army:
    return Army.objects.get(pk=saved.pk)


def copy(document: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(document))


def two_hundred_changes(saved: Army) -> dict[int, dict[str, Any]]:
    """Renames, figure changes, adds and deletes, each document kept by its version."""
    chance = random.Random(19)
    documents = {saved.version: copy(saved.document)}
    for i in range(200):
        saved = fresh(saved)
        units = saved.document["units"]
        step = i % 4
        if step == 0:
            services.update_settings(saved, data={"name": f"Name {i}"}, version=saved.version)
        elif step == 1 and units:
            document = copy(saved.document)
            document["units"][chance.randrange(len(units))]["figures"] = chance.randint(4, 40)
            services.save_document(saved, raw=document, version=saved.version)
        elif step == 2 or not units:
            document = copy(saved.document)
            document["units"].append({"name": f"Added {i}", "quality": "levy"})
            services.save_document(saved, raw=document, version=saved.version)
        else:
            document = copy(saved.document)
            del document["units"][chance.randrange(len(units))]
            services.save_document(saved, raw=document, version=saved.version)
        saved = fresh(saved)
        documents[saved.version] = copy(saved.document)
    return documents


def test_a_history_of_200_changes_is_all_kept_and_every_version_restores_exactly(
    owner_client, user
):
    saved = make(user)
    documents = two_hundred_changes(saved)
    saved = fresh(saved)
    assert saved.version == 201
    assert Revision.objects.filter(army=saved).count() == 200
    for version in [1, 2, 57, 100, 150, 199, 200]:
        response = owner_client.post(f"/armies/{saved.pk}/history/{version}/restore/")
        assert response.status_code == 302
        assert fresh(saved).document == documents[version], version


def test_the_history_page_pages_through_every_change(owner_client, user):
    saved = make(user)
    two_hundred_changes(saved)
    first = owner_client.get(f"/armies/{saved.pk}/history/").content.decode()
    assert "Page 1 of 4 (200 changes)" in first
    assert "Restore version 200" in first and "Restore version 151" not in first
    last = owner_client.get(f"/armies/{saved.pk}/history/?page=4").content.decode()
    assert "Restore version 2" in last and 'Restore version 1"' in last


def test_a_named_snapshot_survives_later_changes_and_restores_exactly(owner_client, user):
    saved = make(user)
    response = owner_client.post(
        f"/armies/{saved.pk}/history/snapshots/", {"name": "before the club night"}
    )
    assert response.status_code == 302
    named = copy(fresh(saved).document)
    two_hundred_changes(saved)
    page = owner_client.get(f"/armies/{saved.pk}/history/").content.decode()
    assert "before the club night" in page
    snapshot = fresh(saved).snapshots.get()
    assert snapshot.version == 1
    owner_client.post(f"/armies/{saved.pk}/history/snapshots/{snapshot.pk}/restore/")
    assert fresh(saved).document == named
    assert "Restored “before the club night”" in fresh(saved).revisions.first().summary


def test_a_snapshot_needs_a_name(owner_client, user):
    saved = make(user)
    owner_client.post(f"/armies/{saved.pk}/history/snapshots/", {"name": "   "})
    assert not fresh(saved).snapshots.exists()


def test_another_players_snapshot_is_not_restorable(owner_client, user, django_user_model):
    other = make(django_user_model.objects.create_user("other"))
    mine = make(user)
    snapshot = other.snapshots.create(name="theirs", version=1, document=other.document)
    response = owner_client.post(f"/armies/{mine.pk}/history/snapshots/{snapshot.pk}/restore/")
    assert response.status_code == 404
    assert fresh(mine).version == 1


def test_comparing_two_versions_shows_the_units_points_and_problems_that_differ(owner_client, user):
    saved = make(user)
    document = copy(saved.document)
    document["units"][0]["figures"] = 24
    document["units"].append({"name": "Newcomers", "quality": "levy"})
    services.save_document(fresh(saved), raw=document, version=1)
    page = owner_client.get(f"/armies/{saved.pk}/history/compare/?a=1&b=now").content.decode()
    assert "Version 1" in page and "Now" in page
    before, now = page.split('aria-label="Now"')
    assert "Newcomers" in now and "Newcomers" not in before
    assert "Unit 0 · 24 figures" in now and "Unit 1" not in now and "Unit 1" not in before
    assert " points" in before and " points" in now


def test_two_armies_of_one_player_compare_and_anothers_do_not(
    owner_client, user, django_user_model
):
    mine, second = make(user, 2), make(user, 3)
    theirs = make(django_user_model.objects.create_user("other"))
    page = owner_client.get(f"/armies/{mine.pk}/history/compare/?a=now&b=a{second.pk}")
    assert page.status_code == 200
    assert "Unit 2" in page.content.decode()
    refused = owner_client.get(f"/armies/{mine.pk}/history/compare/?a=now&b=a{theirs.pk}")
    assert refused.status_code == 400


def typed(client, saved: Army, value: str, *, typing: bool, field: str = "figures"):
    """A keystroke's save, as the page's script sends it (``typing``: after others in the
    same field, at once)."""
    saved = fresh(saved)
    sent = int(value) if value.isdigit() else value
    response = send(client, saved, "set", item_id(saved, 0), field, sent, typing=typing)
    assert response.status_code == 200
    return response


def test_keystrokes_of_one_field_are_one_change_in_the_history(owner_client, user):
    saved = make(user, 1)
    first = copy(saved.document)
    typed(owner_client, saved, "2", typing=False)
    typed(owner_client, saved, "24", typing=True)
    typed(owner_client, saved, "240", typing=True)
    saved = fresh(saved)
    assert saved.version == 4
    (revision,) = Revision.objects.filter(army=saved)
    assert (revision.since, revision.version) == (1, 4)
    assert revision.summary == "Unit 0: Figures 12 → 240"
    assert (revision.before, revision.after) == (12, 240)
    assert revisions.document_at(saved, 1) == first
    with pytest.raises(revisions.HistoryMissing):
        revisions.document_at(saved, 2)  # a keystroke inside the change is not kept
    page = owner_client.get(f"/armies/{saved.pk}/history/").content.decode()
    assert page.count("Figures 12 → 240") == 1 and "Figures 12 → 2<" not in page
    owner_client.post(
        f"/armies/{saved.pk}/undo/", {"revision": revision.pk}, headers={"HX-Request": "true"}
    )
    assert fresh(saved).document == first  # undo takes back the whole typed value


def test_a_pause_another_field_or_no_typing_flag_starts_a_new_change(owner_client, user):
    saved = make(user, 1)
    typed(owner_client, saved, "20", typing=False)
    typed(owner_client, saved, "Hird", typing=True, field="name")  # another field
    typed(owner_client, saved, "21", typing=False)  # a new visit to the field
    Revision.objects.filter(army=saved).update(
        created=timezone.now() - timedelta(seconds=revisions.TYPING_SECONDS + 1)
    )
    typed(owner_client, saved, "22", typing=True)  # after a long pause
    saved = fresh(saved)
    kept = list(Revision.objects.filter(army=saved).order_by("version"))
    assert [r.version for r in kept] == [2, 3, 4, 5]
    for version in range(1, 5):
        revisions.document_at(saved, version)  # every version is kept
