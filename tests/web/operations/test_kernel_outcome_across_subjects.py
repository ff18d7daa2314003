"""One key sent to an army's, an army list's and a game's operations endpoint is answered
alike: "duplicate" when sent again, "refused" (and then usable again: a refused key is not
used up) when its change does not read, "conflict" when another writer's change overtook
the one it was made from, "gone" when what it was made on is no longer there; each in a
200 answer naming the key, the one ``Outcome`` of the operation kernel behind all three.

A game's conflict is an action made at a turn or phase the other phone's action has left
(its field is where the game stands); its gone, an action on a unit removed since."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.armies import services as armies
from armybuilder.catalog.models import ArmyList
from armybuilder.games import services as games
from tests.support import army
from tests.web.catalog.list_items import item_id
from tests.web.catalog.test_list_operation_views import op as list_op
from tests.web.games.conftest import unit
from tests.web.games.operations import next_phase, operation
from tests.web.games.operations import url as game_url

pytestmark = pytest.mark.django_db


class Army:
    def __init__(self, client: Client, user: User) -> None:
        units = [{"name": "Hirdmen"}, {"name": "Bondi"}]
        self.saved = armies.create_army(army("into-the-dark", units), owner=user)
        self.url = f"/armies/{self.saved.pk}/operations/"
        self.first, self.second = (u["id"] for u in self.saved.document["units"])

    def _set(self, key, target, field, value, made_from):
        return {"key": key, "army": self.saved.pk, "op": "set", "target": target,
                "field": field, "value": value, "from": made_from}  # fmt: skip

    def change(self, key):
        return self._set(key, self.first, "name", "Hird", "Hirdmen")

    def unreadable(self, key):
        operation = self._set(key, self.first, "figures", "a great many", None)
        del operation["from"]  # no value it was made from: refused for what it sets
        return operation

    def other_tab(self, key):  # made from the name the first change replaced
        return self._set(key, self.first, "name", "Huscarls", "Hirdmen")

    def take_away(self, key):
        return {"key": key, "army": self.saved.pk, "op": "delete", "target": self.second}

    def on_what_was_taken(self, key):
        return self._set(key, self.second, "name", "Fyrd", "Bondi")


class List:
    def __init__(self, client: Client, user: User) -> None:
        assert (
            client.post("/rulesets/into-the-dark/new-list/", {"name": "Saxons"}).status_code == 302
        )
        self.made = ArmyList.objects.get(name="Saxons")
        self.url = f"/rulesets/into-the-dark/lists/{self.made.slug}/operations/"
        added = {"key": "setup-add", "op": "add", "section": "entries", "target": ""}
        assert send(client, self.url, added)["status"] == "applied"
        self.made.refresh_from_db()
        self.second = item_id(self.made, "entries", "1")

    def change(self, key):
        return list_op(key, self.made, field="name", value="Thegns", **{"from": "New entry"})

    def unreadable(self, key):
        return list_op(key, self.made, field="min", value="7", **{"from": "0"})

    def other_tab(self, key):
        return list_op(key, self.made, field="name", value="Fyrd", **{"from": "New entry"})

    def take_away(self, key):
        return list_op(key, self.made, op="remove", target=self.second)

    def on_what_was_taken(self, key):
        return list_op(key, self.made, target=self.second, field="name", value="Lost",
                       **{"from": "New entry"})  # fmt: skip


class Game:
    def __init__(self, client: Client, user: User) -> None:
        feudal = armies.create_army(army("feudal-2017", [{"name": "Knights", "type": "knights"}]),
                                    owner=user)  # fmt: skip
        self.game = games.start_game(user, army_a=feudal, army_b=feudal)
        self.url = game_url(self.game)

    def change(self, key):
        return next_phase(1, "shoot", key=key)

    def unreadable(self, key):  # made in a phase the game does not have
        return next_phase(1, "parley", key=key)

    def other_tab(self, key):  # the other phone, still in the phase the first one left
        return next_phase(1, "shoot", key=key)

    def _remove(self, key):
        value = {"unit": unit(self.game, "b", "Knights"), "why": "", "turn": 1, "phase": "shoot"}
        return operation("remove", value, key)

    def take_away(self, key):
        return self._remove(key)

    def on_what_was_taken(self, key):  # the other phone removing it too
        return self._remove(key)


SUBJECTS = {"army": Army, "list": List, "game": Game}


@pytest.fixture
def ann():
    client = Client()
    user = User.objects.create_user("ann")
    client.force_login(user)
    return client, user


def send(client, url, operation):
    response = client.post(url, json.dumps({"operations": [operation]}),
                           content_type="application/json")  # fmt: skip
    assert response.status_code == 200, response.content[:300]
    (result,) = response.json()["results"]
    assert result["key"] == operation["key"]
    return result


def answers(client, subject, *operations):
    return [send(client, subject.url, one)["status"] for one in operations]


@pytest.mark.parametrize("kind", SUBJECTS)
def test_a_key_sent_again_is_a_duplicate_for_every_subject(ann, kind):
    client, user = ann
    subject = SUBJECTS[kind](client, user)
    change = subject.change("same-key")
    assert answers(client, subject, change, change, change) == ["applied", "duplicate", "duplicate"]


@pytest.mark.parametrize("kind", SUBJECTS)
def test_a_refused_key_is_not_used_up_for_any_subject(ann, kind):
    client, user = ann
    subject = SUBJECTS[kind](client, user)
    refused, fixed = subject.unreadable("retry-me"), subject.change("retry-me")
    assert answers(client, subject, refused, refused, fixed, fixed) == [
        "refused", "refused", "applied", "duplicate",
    ]  # fmt: skip


THEIRS = {"army": "Hird", "list": "Thegns"}


@pytest.mark.parametrize("kind", SUBJECTS)
def test_a_change_overtaken_by_another_writers_is_a_conflict(ann, kind):
    client, user = ann
    subject = SUBJECTS[kind](client, user)
    assert answers(client, subject, subject.change("tab-a")) == ["applied"]
    said = send(client, subject.url, subject.other_tab("tab-b"))
    assert said["status"] == "conflict" and said["message"]
    if kind in THEIRS:  # a field's conflict says the value now
        assert said["theirs"] == THEIRS[kind]
    else:  # a game's says where the game stands now
        assert "the game had moved on to Turn 1, Phase 2: Move" in said["message"]
    # a conflict used up nothing either: the same key is refused alike when sent again
    assert answers(client, subject, subject.other_tab("tab-b")) == ["conflict"]


@pytest.mark.parametrize("kind", SUBJECTS)
def test_a_change_on_what_another_tab_took_away_is_gone(ann, kind):
    client, user = ann
    subject = SUBJECTS[kind](client, user)
    assert answers(client, subject, subject.take_away("away")) == ["applied"]
    late = subject.on_what_was_taken("late")
    assert answers(client, subject, late, late) == ["gone", "gone"]


@pytest.mark.parametrize("kind", SUBJECTS)
def test_every_outcome_is_answered_with_the_same_status_by_every_subject(ann, kind):
    """Duplicate, conflict, gone and refused, one batch each, in the same 200 answer."""
    client, user = ann
    subject = SUBJECTS[kind](client, user)
    sent = [subject.take_away("one"), subject.on_what_was_taken("two"), subject.change("three"),
            subject.change("three"), subject.other_tab("four"), subject.unreadable("five")]  # fmt: skip
    assert answers(client, subject, *sent) == [
        "applied", "gone", "applied", "duplicate", "conflict", "refused",
    ]  # fmt: skip
