"""An action that reaches the server twice (sent again after an answer that never came)
is applied once: its one-time key (``_once``) is written with the change (its revision)."""

import pytest
from django.contrib.auth.models import User

from armybuilder.armies import services
from armybuilder.armies.changes import saving
from armybuilder.armies.models import Army, Revision
from armybuilder.operations.models import AppliedKey
from tests.support import army, item_url
from tests.web.armies.sending import send_batch

HX = {"HX-Request": "true"}


def make(user: User) -> Army:
    units = [{"name": "Hirdmen"}, {"name": "Bondi"}]
    return services.create_army(army("into-the-dark", units), owner=user)


def names(saved: Army) -> list[str]:
    saved.refresh_from_db()
    return [u["name"] for u in saved.document["units"]]


def test_an_add_sent_twice_with_one_key_adds_one_unit_and_answers_with_the_army(owner_client, user):
    saved = make(user)
    post = {"version": 1, "preset": "blank", "_once": "a1b2c3d4-0001"}
    first = owner_client.post(f"/armies/{saved.pk}/units/add/", post, headers=HX)
    again = owner_client.post(f"/armies/{saved.pk}/units/add/", post, headers=HX)
    assert first.status_code == again.status_code == 200
    assert len(names(saved)) == 3
    assert saved.version == 2
    # the second answer draws the army as it is: three units, the version after the add
    assert again.content.decode().count('class="item-name"') == 3
    assert 'id="army-version" value="2"' in again.content.decode()
    assert list(Revision.objects.filter(army=saved).values_list("key", flat=True)) == [
        "a1b2c3d4-0001"
    ]


def test_two_taps_with_their_own_keys_add_two_units(owner_client, user):
    saved = make(user)
    for key in ("tap-one", "tap-two"):
        post = {"version": 1, "preset": "blank", "_once": key}
        assert owner_client.post(f"/armies/{saved.pk}/units/add/", post).status_code == 302
    assert len(names(saved)) == 4


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("delete/", {}),
        ("move/", {"direction": "down"}),
        ("duplicate/", {}),
    ],
)
def test_a_delete_move_or_duplicate_sent_twice_is_made_once(owner_client, user, path, data):
    saved = make(user)
    post = {"version": 1, "_once": "k-" + path.replace("/", "-"), **data}
    url = item_url(saved, 0, "units", path)
    for _ in range(2):
        response = owner_client.post(url, post, headers=HX)
        assert response.status_code == 200
    expected = {
        "delete/": ["Bondi"],
        "move/": ["Bondi", "Hirdmen"],
        "duplicate/": ["Hirdmen", "Hirdmen", "Bondi"],
    }[path]
    assert names(saved) == expected
    assert saved.version == 2


def test_a_refused_action_does_not_use_up_its_key(owner_client, user):
    saved = make(user)
    url = item_url(saved, 0, "units", "delete/")
    stale = owner_client.post(url, {"version": 7, "_once": "retry-me"}, headers=HX)
    assert stale.status_code == 409
    assert names(saved) == ["Hirdmen", "Bondi"]
    assert not saving.applied_keys(saved, ["retry-me"])
    made = owner_client.post(url, {"version": 1, "_once": "retry-me"}, headers=HX)
    assert made.status_code == 200
    assert names(saved) == ["Bondi"]


def test_keys_are_per_army(owner_client, user):
    one, two = make(user), make(user)
    post = {"version": 1, "preset": "blank", "_once": "same-key"}
    for saved in (one, two):
        owner_client.post(f"/armies/{saved.pk}/units/add/", post, headers=HX)
    assert len(names(one)) == len(names(two)) == 3


@pytest.mark.parametrize("key", ["x" * 65, "has space", "semi;colon", "<script>"])
def test_a_malformed_key_is_refused_with_what_a_key_looks_like(owner_client, user, key):
    saved = make(user)
    post = {"version": 1, "preset": "blank", "_once": key}
    response = owner_client.post(f"/armies/{saved.pk}/units/add/", post, headers=HX)
    assert response.status_code == 400
    assert "_once" in response.content.decode()
    assert "1 to 64 letters, digits" in response.content.decode()
    assert len(names(saved)) == 2


def test_a_form_posted_without_a_key_still_works(owner_client, user):
    saved = make(user)
    response = owner_client.post(f"/armies/{saved.pk}/units/add/", {"version": 1})
    assert response.status_code == 302
    assert len(names(saved)) == 3
    assert not AppliedKey.objects.exists()
    assert not Revision.objects.filter(key__isnull=False).exists()


def test_housekeeping_forgets_keys_older_than_thirty_days(owner_client, user):
    from datetime import timedelta

    from django.utils import timezone

    from armybuilder.ops.maintenance import run_maintenance

    saved = make(user)
    for key in ("old-tap", "new-tap"):
        post = {"version": saved.version, "preset": "blank", "_once": key}
        owner_client.post(f"/armies/{saved.pk}/units/add/", post, headers=HX)
        saved.refresh_from_db()
    now = timezone.now()
    AppliedKey.objects.filter(key="old-tap").update(created=now - timedelta(days=31))
    assert "1 old one-time action keys" in run_maintenance(now)
    assert saving.applied_keys(saved, ["old-tap", "new-tap"]) == {"new-tap"}
    assert Revision.objects.filter(army=saved).count() == 2  # the changes themselves stay


def test_a_change_that_changed_nothing_keeps_its_key_so_it_is_not_applied_later(owner_client, user):
    saved = make(user)
    unit = saved.document["units"][0]["id"]
    figures = saved.document["units"][0]["figures"]
    same = {"key": "no-op", "op": "set", "target": unit, "field": "figures",
            "value": figures, "from": figures}  # fmt: skip
    statuses = [send_batch(owner_client, saved, [same]).json()["results"][0]["status"]
                for _ in range(2)]  # fmt: skip
    assert statuses == ["applied", "duplicate"]
    assert saving.applied_keys(saved, ["no-op"]) == {"no-op"}
