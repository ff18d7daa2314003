"""One key sent to an army's, an army list's and a game's operations endpoint is answered
alike: "duplicate" when sent again, "refused" (and then usable again: a refused key is not
used up) when its change does not read, "conflict" when its field moved on since the value
it was made from, "gone" when what it was made on is no longer there; each in a 200 answer
naming the key, the one ``Outcome`` of the operation kernel behind all three.

A game's operations name no field and no item that another writer can change or take away
between two phones (an action made at another turn or phase, or on a unit removed since,
is refused in words: ``games.operations``), so conflict and gone are an army's and a
list's."""

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
from tests.web.games.operations import next_phase
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
        self.url = game_url(games.start_game(user, feudal, feudal))

    def change(self, key):
        return next_phase(1, "shoot", key=key)

    def unreadable(self, key):  # made in a phase the game does not have
        return next_phase(1, "parley", key=key)


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


@pytest.mark.parametrize("kind", ["army", "list"])
def test_a_field_moved_on_since_is_a_conflict_with_the_value_now(ann, kind):
    client, user = ann
    subject = SUBJECTS[kind](client, user)
    assert answers(client, subject, subject.change("tab-a")) == ["applied"]
    said = send(client, subject.url, subject.other_tab("tab-b"))
    assert (said["status"], said["theirs"]) == ("conflict", "Hird" if kind == "army" else "Thegns")
    # a conflict used up nothing either: the same key is refused alike when sent again
    assert answers(client, subject, subject.other_tab("tab-b")) == ["conflict"]


@pytest.mark.parametrize("kind", ["army", "list"])
def test_a_change_on_what_another_tab_took_away_is_gone(ann, kind):
    client, user = ann
    subject = SUBJECTS[kind](client, user)
    assert answers(client, subject, subject.take_away("away")) == ["applied"]
    late = subject.on_what_was_taken("late")
    assert answers(client, subject, late, late) == ["gone", "gone"]
