"""One rule for an operation's one-time key, whatever it changes: an army, an army list and
a game read the key alike (1 to 64 letters, digits, '-' or '_'), refuse one that does not
read in the same words, and answer a key sent twice with "duplicate", changing nothing."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.armies import services as armies
from armybuilder.catalog.models import ArmyList
from armybuilder.games import services as games
from armybuilder.operations.kernel import RULE, is_once_key
from tests.support import army
from tests.web.catalog.test_list_operation_views import op as list_op
from tests.web.games.operations import next_phase
from tests.web.games.operations import url as game_url

pytestmark = pytest.mark.django_db


def test_a_key_is_1_to_64_letters_digits_hyphens_or_underscores():
    assert all(is_once_key(k) for k in ("k", "a1b2-c3_d4", "k" * 64, "0f" * 16))
    assert not any(is_once_key(k) for k in ("", "k" * 65, "a b", "k\x00", "ключ", None, 7))


@pytest.fixture
def subjects():
    """An army, an army list and a game of one player, and how to send each an operation."""
    ann = Client()
    user = User.objects.create_user("ann")
    ann.force_login(user)
    saved = armies.create_army(army("into-the-dark", [{"name": "Hirdmen"}]), owner=user)
    unit = saved.document["units"][0]["id"]
    assert ann.post("/rulesets/into-the-dark/new-list/", {"name": "Saxons"}).status_code == 302
    made = ArmyList.objects.get(name="Saxons")
    feudal = armies.create_army(army("feudal-2017", [{"name": "Knights", "type": "knights"}]),
                                owner=user)  # fmt: skip
    game = games.start_game(user, army_a=feudal, army_b=feudal)

    def to_army(key):
        return f"/armies/{saved.pk}/operations/", {
            "key": key, "army": saved.pk, "base_version": 1, "op": "set", "target": unit,
            "field": "name", "value": "Hird", "from": "Hirdmen"}  # fmt: skip

    def to_list(key):
        change = list_op(key, made, field="name", value="Thegns", **{"from": "New entry"})
        return f"/rulesets/into-the-dark/lists/{made.slug}/operations/", change

    def to_game(key):
        return game_url(game), next_phase(1, "shoot", key=key)

    return ann, {"army": to_army, "list": to_list, "game": to_game}


def sent(client, where, operation):
    return client.post(where, json.dumps({"operations": [operation]}),
                       content_type="application/json")  # fmt: skip


@pytest.mark.parametrize("subject", ["army", "list", "game"])
def test_each_subject_reads_the_key_by_the_one_rule(subjects, subject):
    client, make = subjects
    refused = sent(client, *make[subject]("k" * 65))
    assert refused.status_code == 400 and RULE in refused.content.decode()
    where, operation = make[subject]("k")  # one character is a key everywhere
    first, again = sent(client, where, operation), sent(client, where, operation)
    assert first.status_code == again.status_code == 200
    assert first.json()["results"][0]["status"] == "applied"
    assert again.json()["results"][0]["status"] == "duplicate"
