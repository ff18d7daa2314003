"""Builder operations: one shape, applied in order, each once, each on the unit it names."""

import json
import secrets

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import army, item_id

UNIT = {"quality": "levy", "figures": 12}


def make(user, count=4) -> Army:
    units = [{"name": f"Unit {i}", **UNIT} for i in range(count)]
    return services.create_army(army("into-the-dark", units), owner=user)


def send(client, saved, *operations, own=None):
    body = {"operations": list(operations)}
    if own is not None:  # the keys of the page's earlier operations
        body["own"] = list(own)
    response = client.post(
        f"/armies/{saved.pk}/operations/",
        json.dumps(body),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def op(kind, target="army", field="", value=None, **extra):
    return {"key": secrets.token_hex(8), "op": kind, "target": target, "field": field,
            "value": value, **extra}  # fmt: skip


def units_of(saved):
    saved.refresh_from_db()
    return saved.document["units"]


def test_the_same_field_of_two_units_in_one_batch_lands_on_each(owner_client, user):
    saved = make(user)
    second, third = item_id(saved, 1), item_id(saved, 2)
    answer = send(
        owner_client, saved, op("set", second, "figures", 8), op("set", third, "figures", 9)
    )
    assert [r["status"] for r in answer["results"]] == ["applied", "applied"]
    assert [u["figures"] for u in units_of(saved)] == [12, 8, 9, 12]


def test_an_operation_sent_twice_applies_once(owner_client, user):
    saved = make(user)
    added = op("add", field="units", value={"id": "new-one", "preset": "blank"})
    assert send(owner_client, saved, added)["results"][0]["status"] == "applied"
    again = send(owner_client, saved, added)  # a retry after a lost answer
    assert again["results"][0]["status"] == "duplicate"
    assert [u["id"] for u in units_of(saved)].count("new-one") == 1
    assert len(units_of(saved)) == 5


def test_a_unit_added_with_the_pages_id_takes_the_changes_queued_for_it(owner_client, user):
    saved = make(user)
    answer = send(
        owner_client,
        saved,
        op("add", field="units", value={"id": "fresh", "preset": "blank"}),
        op("set", "fresh", "figures", 30),
        op("set", "army", "name", "Renamed"),
    )
    assert [r["status"] for r in answer["results"]] == ["applied"] * 3
    assert units_of(saved)[-1]["id"] == "fresh" and units_of(saved)[-1]["figures"] == 30
    assert saved.document["name"] == "Renamed"


def test_two_tabs_operations_on_different_units_both_land(owner_client, user):
    saved = make(user)
    first, fourth = item_id(saved, 0), item_id(saved, 3)
    tab_a = op("set", first, "figures", 20, **{"from": 12, "base_version": 1})
    tab_b = op("set", fourth, "figures", 24, **{"from": 12, "base_version": 1})
    assert send(owner_client, saved, tab_a)["results"][0]["status"] == "applied"
    assert send(owner_client, saved, tab_b)["results"][0]["status"] == "applied"
    assert [u["figures"] for u in units_of(saved)] == [20, 12, 12, 24]


def test_an_operation_on_a_deleted_unit_changes_nothing_and_the_rest_still_land(owner_client, user):
    saved = make(user)
    gone, kept = item_id(saved, 1), item_id(saved, 2)
    answer = send(
        owner_client,
        saved,
        op("delete", gone),
        op("set", gone, "figures", 5),
        op("set", kept, "figures", 6),
    )
    assert [r["status"] for r in answer["results"]] == ["applied", "gone", "applied"]
    assert [(u["id"], u["figures"]) for u in units_of(saved)][1] == (kept, 6)


def test_the_same_field_changed_since_is_a_conflict_with_the_armys_value(owner_client, user):
    saved = make(user)
    unit = item_id(saved, 0)
    send(owner_client, saved, op("set", unit, "figures", 20, **{"from": 12}))
    answer = send(owner_client, saved, op("set", unit, "figures", 18, **{"from": 12}))
    assert answer["results"][0]["status"] == "conflict"
    assert answer["results"][0]["theirs"] == 20
    assert units_of(saved)[0]["figures"] == 20


def test_a_value_the_rule_set_refuses_is_refused_naming_the_unit_and_field(owner_client, user):
    saved = make(user)
    answer = send(owner_client, saved, op("set", item_id(saved, 0), "figures", 5000))
    assert answer["results"][0]["status"] == "refused"
    assert answer["results"][0]["message"].startswith("Unit 0 (unit 1), Figures:")
    assert units_of(saved)[0]["figures"] == 12


@st.composite
def histories(draw):
    """A player's operations, each made on the units the page showed when it was made
    (a model of the army: [id, figures] in order), with the army they should give."""
    model = [[f"s{i}", 12] for i in range(3)]
    made = []
    for n in range(draw(st.integers(1, 14))):
        choices = ["add"] + (["set", "delete", "move", "duplicate"] if model else [])
        kind = draw(st.sampled_from(choices))
        at = draw(st.integers(0, len(model) - 1)) if model else 0
        if kind == "add":
            new = f"n{n}"
            made.append(op("add", field="units", value={"id": new, "preset": "blank"}))
            model.append([new, None])  # a blank unit: the rule set's default figures
        elif kind == "set":
            figures = draw(st.integers(1, 60))
            made.append(op("set", model[at][0], "figures", figures))
            model[at][1] = figures
        elif kind == "delete":
            made.append(op("delete", model[at][0]))
            model.pop(at)
        elif kind == "move":
            way = draw(st.sampled_from(["up", "down"]))
            made.append(op("move", model[at][0], value=way))
            to = min(max(at + (-1 if way == "up" else 1), 0), len(model) - 1)
            model.insert(to, model.pop(at))
        else:
            new = f"d{n}"
            made.append(op("duplicate", model[at][0], value={"id": new}))
            model.insert(at + 1, [new, model[at][1]])
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(made) - 1)), max_size=4)))
    batches = [made[a:b] for a, b in zip([0, *cuts], [*cuts, len(made)], strict=True)]
    batches = [b for b in batches if b]
    retries = draw(st.lists(st.integers(0, len(batches) - 1), max_size=3))
    return model, batches, retries


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(history=histories())
def test_any_operations_in_any_batches_with_retries_end_as_applied_once_in_order(
    owner_client, user, history
):
    model, batches, retries = history
    units = [{"id": f"s{i}", "name": f"Unit {i}", **UNIT} for i in range(3)]
    saved = services.create_army(army("into-the-dark", units), owner=user)
    sent = []
    for i, batch in enumerate(batches):
        sent.append(batch)
        answer = send(owner_client, saved, *batch)
        assert all(r["status"] == "applied" for r in answer["results"]), answer
        for again in retries:  # a batch whose answer was lost, sent again later
            if again <= i:
                resent = send(owner_client, saved, *sent[again])
                assert {r["status"] for r in resent["results"]} == {"duplicate"}
    stored = units_of(saved)
    assert [u["id"] for u in stored] == [m[0] for m in model]
    for unit, (_, figures) in zip(stored, model, strict=True):
        if figures is not None:  # every set landed on the unit it was made on, no other
            assert unit["figures"] == figures


def test_a_field_an_earlier_operation_of_the_batch_changed_is_no_conflict(owner_client, user):
    """Queued offline: a roll (which writes the army's notes), then the player's notes,
    made from the notes the page showed before the roll. Both are the player's own."""
    saved = services.create_army(army("feudal-2017", [], army_list="feudal"), owner=user)
    answer = send(
        owner_client,
        saved,
        op("roll"),
        op("set", "army", "notes", "My notes", **{"from": ""}),
    )
    assert [r["status"] for r in answer["results"]] == ["applied", "applied"]
    saved.refresh_from_db()
    assert saved.document["notes"] == "My notes"
    assert saved.document["units"]


def test_a_field_another_writer_changed_before_the_batch_is_still_a_conflict(owner_client, user):
    saved = make(user)
    send(owner_client, saved, op("set", "army", "notes", "Theirs", **{"from": ""}))
    answer = send(
        owner_client,
        saved,
        op("add", field="units", value={"id": "mine-one", "preset": "blank"}),
        op("set", "army", "notes", "Mine", **{"from": ""}),
    )
    assert [r["status"] for r in answer["results"]] == ["applied", "conflict"]
    saved.refresh_from_db()
    assert saved.document["notes"] == "Theirs"


def test_a_field_the_pages_own_earlier_batch_changed_is_no_conflict(owner_client, user):
    """A roll sent alone (its answer not yet back when the player typed), then the notes
    made from what the page showed before the roll, in the next batch naming the roll's
    key as the page's own: the player's choice, not another writer's."""
    saved = services.create_army(army("feudal-2017", [], army_list="feudal"), owner=user)
    roll = op("roll", base_version=1)
    send(owner_client, saved, roll)
    notes = op("set", "army", "notes", "My notes", base_version=1, **{"from": ""})
    answer = send(owner_client, saved, notes, own=[roll["key"]])
    assert [r["status"] for r in answer["results"]] == ["applied"]
    saved.refresh_from_db()
    assert saved.document["notes"] == "My notes"


def test_own_keys_do_not_hide_another_writers_change_after_them(owner_client, user):
    saved = make(user)
    mine = op("set", "army", "notes", "Mine first", base_version=1, **{"from": ""})
    send(owner_client, saved, mine)
    theirs = op("set", "army", "notes", "Theirs", **{"from": "Mine first"})
    send(owner_client, saved, theirs)  # another tab, whose key this page does not know
    later = op("set", "army", "notes", "Mine again", base_version=1, **{"from": ""})
    answer = send(owner_client, saved, later, own=[mine["key"]])
    assert [r["status"] for r in answer["results"]] == ["conflict"]
    saved.refresh_from_db()
    assert saved.document["notes"] == "Theirs"


def test_a_malformed_own_list_is_a_400_naming_it(owner_client, user):
    saved = make(user)
    for own, said in (("k", "own: a list"), ([7], "own[0]"), (["a"] * 101, "own: a list")):
        response = owner_client.post(
            f"/armies/{saved.pk}/operations/",
            json.dumps({"operations": [op("set", "army", "notes", "x")], "own": own}),
            content_type="application/json",
        )
        assert response.status_code == 400
        assert response.json()["error"].startswith(said)
    saved.refresh_from_db()
    assert saved.version == 1
