"""The list API: a list as a muster.list/1 document, import, copy; strict and throttled."""

import copy
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings

from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList, ArmyListRevision
from tests.rules.test_list_document import mangled_lists

pytestmark = pytest.mark.django_db

NORMAN = "/api/v1/lists/into-the-dark/norman-1066"


@pytest.fixture
def player(db):
    return User.objects.create(username="ann")


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


def post_json(client, url, body, **extra):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


def test_a_shipped_list_is_answered_as_a_list_document_with_its_revision(client):
    response = client.get(NORMAN)
    assert response.status_code == 200
    document = response.json()
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    assert document["format"] == "muster.list/1"
    assert document["revision"] == shipped.latest_revision
    assert (document["slug"], document["name"], document["data"]) == (
        "norman-1066",
        shipped.name,
        shipped.data,
    )
    assert list(document) == [
        "format",
        "ruleset",
        "slug",
        "name",
        "period",
        "source_note",
        "revision",
        "data",
    ]


def test_an_older_revision_stays_readable_by_number(client):
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    old = copy.deepcopy(shipped.data)
    data = copy.deepcopy(old)
    data["entries"][0]["max"] += 1
    services.save_list(shipped, data=data)
    first = client.get(NORMAN, {"revision": shipped.latest_revision - 1}).json()
    assert first["data"] == old and first["revision"] == shipped.latest_revision - 1
    assert client.get(NORMAN).json()["data"] == data
    assert client.get(NORMAN, {"revision": 99}).status_code == 404
    assert client.get(NORMAN, {"revision": "one"}).status_code == 400


def test_an_unchanged_list_answers_304_to_its_etag(client):
    first = client.get(NORMAN)
    again = client.get(NORMAN, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304


def test_unknown_lists_are_404(client):
    assert client.get("/api/v1/lists/into-the-dark/no-such-list").status_code == 404
    assert client.get("/api/v1/lists/no-such-ruleset/norman-1066").status_code == 404


def test_export_then_import_gives_an_identical_list_named_as_the_players_copy(signed_in, player):
    exported = signed_in.get(NORMAN).json()
    response = post_json(signed_in, "/api/v1/lists/", exported)
    assert response.status_code == 201
    imported = ArmyList.objects.get(author=player)
    assert response["Location"] == f"/api/v1/lists/into-the-dark/{imported.slug}"
    again = signed_in.get(response["Location"]).json()
    for key in ("format", "ruleset", "period", "source_note", "data"):
        assert again[key] == exported[key]
    assert again["name"] == f"{exported['name']} — my copy"
    assert again["family"] == "norman-1066"
    # a player's list lives beside Muster's, never in its place
    assert imported.slug.startswith("norman-1066-") and again["revision"] == 1
    assert imported.status == "private"


def test_a_malformed_list_is_refused_with_the_path_and_nothing_is_saved(signed_in):
    document = signed_in.get("/api/v1/lists/feudal-2017/north-welsh").json()
    document["data"]["replacements"][0]["max"] = 0
    before = (ArmyList.objects.count(), ArmyListRevision.objects.count())
    response = post_json(signed_in, "/api/v1/lists/", document)
    assert response.status_code == 400
    assert response.json()["path"] == "data.replacements[0].max"
    assert (ArmyList.objects.count(), ArmyListRevision.objects.count()) == before


def test_a_list_document_over_the_size_limit_is_refused_413(signed_in, settings):
    settings.MUSTER_MAX_DOCUMENT_BYTES = 1000
    document = signed_in.get(NORMAN).json()
    response = post_json(signed_in, "/api/v1/lists/", document)
    assert response.status_code == 413
    assert not ArmyList.objects.filter(author__isnull=False).exists()


def test_import_and_copy_need_an_account(client):
    document = client.get(NORMAN).json()
    assert post_json(client, "/api/v1/lists/", document).status_code == 403
    assert client.post(f"{NORMAN}/copy").status_code == 403
    assert not ArmyList.objects.filter(author__isnull=False).exists()


def test_copy_makes_a_private_list_of_ones_own(signed_in, player):
    response = signed_in.post(f"{NORMAN}/copy")
    assert response.status_code == 201
    copied = ArmyList.objects.get(author=player)
    assert copied.data == ArmyList.objects.get(slug="norman-1066", author=None).data


def test_a_private_list_is_404_to_others_and_answered_to_its_author(client, player):
    saved = services.import_list(player, raw=client.get(NORMAN).json())
    url = f"/api/v1/lists/into-the-dark/{saved.army_list.slug}"
    assert client.get(url).status_code == 404
    client.force_login(User.objects.create(username="eve"))
    assert client.get(url).status_code == 404
    assert client.post(f"{url}/copy").status_code == 404
    client.force_login(player)
    response = client.get(url)
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]


def test_import_and_copy_keep_the_csrf_check(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    document = client.get(NORMAN).json()
    assert post_json(client, "/api/v1/lists/", document).status_code == 403
    assert client.post(f"{NORMAN}/copy").status_code == 403
    assert not ArmyList.objects.filter(author=player).exists()


def test_list_imports_and_copies_are_rate_limited(signed_in, settings):
    settings.MUSTER_RATE_LIMITS = {
        **settings.MUSTER_RATE_LIMITS,
        "list-import": (2, 3600),
        "list-create": (1, 3600),
    }
    document = signed_in.get(NORMAN).json()
    statuses = [post_json(signed_in, "/api/v1/lists/", document).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    limited = post_json(signed_in, "/api/v1/lists/", document)
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert "army-list imports" in limited.json()["error"]
    assert [signed_in.post(f"{NORMAN}/copy").status_code for _ in range(2)] == [201, 429]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(raw=mangled_lists())
def test_any_list_document_posted_is_imported_or_refused_never_a_500(signed_in, raw):
    before = (ArmyList.objects.count(), ArmyListRevision.objects.count())
    # json.dumps writes an infinite float as Infinity, which the strict reader refuses
    response = post_json(signed_in, "/api/v1/lists/", raw)
    assert response.status_code in (201, 400), response.content[:300]
    after = (ArmyList.objects.count(), ArmyListRevision.objects.count())
    if response.status_code == 400:
        assert after == before
        assert isinstance(response.json()["path"], str)
    else:
        assert after == (before[0] + 1, before[1] + 1)
