"""``POST /armies/<pk>/operations/`` (``operation_views.apply``): a batch in JSON applied in
order, answered with each operation's outcome and the army's version, never cached; a body
that does not read is a 400 naming its part, someone else's army a 404 whatever the body."""

from __future__ import annotations

import json

from django.contrib.auth.models import User
from django.test import Client

from tests.web.armies.changes.test_operations import make, op, send, units_of


def test_a_batch_is_answered_with_each_outcome_and_the_version_after_it(owner_client, user):
    saved = make(user, 2)
    before = saved.version
    first = saved.document["units"][0]["id"]
    renamed, again = op("set", first, "name", "Renamed"), op("set", "army", "name", "Host")
    answer = send(owner_client, saved, renamed, again, renamed)
    assert answer["version"] == before + 2
    assert answer["follows"] == before
    assert [(r["key"], r["status"]) for r in answer["results"]] == [
        (renamed["key"], "applied"), (again["key"], "applied"), (renamed["key"], "duplicate"),
    ]  # fmt: skip
    assert "html" not in answer  # drawings only for htmx
    assert units_of(saved)[0]["name"] == "Renamed"


def test_every_answer_is_private_and_never_stored(owner_client, user):
    saved = make(user, 1)
    url = f"/armies/{saved.pk}/operations/"
    applied = owner_client.post(
        url, json.dumps([op("set", "army", "name", "Kept")]), content_type="application/json"
    )
    refused = owner_client.post(url, "not json", content_type="application/json")
    assert (applied.status_code, refused.status_code) == (200, 400)
    for response in (applied, refused):
        assert response["Cache-Control"] == "private, no-store"


def test_a_body_that_is_not_utf8_is_a_400_saying_so(owner_client, user):
    saved = make(user, 1)
    response = owner_client.post(
        f"/armies/{saved.pk}/operations/", b"\xff\xfe", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == {"error": "the body is not UTF-8 text"}


def test_a_get_is_refused_and_a_post_needs_the_csrf_token(user):
    saved = make(user, 1)
    url = f"/armies/{saved.pk}/operations/"
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(user)
    assert checked.get(url).status_code == 405
    body = json.dumps([op("set", "army", "name", "Forged")])
    assert checked.post(url, body, content_type="application/json").status_code == 403
    saved.refresh_from_db()
    assert saved.document["name"] != "Forged"


def test_a_malformed_batch_is_a_400_naming_the_part(owner_client, user):
    saved = make(user)
    url = f"/armies/{saved.pk}/operations/"
    for body, words in [
        ("not json", "not valid JSON"),
        (json.dumps({"operations": []}), "non-empty list"),
        (json.dumps([{"key": "k", "op": "explode"}]), "operations[0].op"),
        (json.dumps([{"key": "bad key!", "op": "set"}]), "operations[0].key"),
        (json.dumps([{"key": "k", "op": "set", "target": "../x"}]), "operations[0].target"),
    ]:
        response = owner_client.post(url, body, content_type="application/json")
        assert response.status_code == 400
        assert words in response.json()["error"]


def test_another_players_army_is_404(client, user, db):
    saved = make(user)
    client.force_login(User.objects.create_user("mallory"))
    response = client.post(
        f"/armies/{saved.pk}/operations/",
        json.dumps([op("set", "army", "name", "Mine")]),
        content_type="application/json",
    )
    assert response.status_code == 404
