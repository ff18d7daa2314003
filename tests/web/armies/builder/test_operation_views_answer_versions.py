"""An answer to a batch names the army version its drawing follows: the page applies the
drawing only onto that version, and fetches the builder for any other."""

from __future__ import annotations

from armybuilder.armies.changes import operations, pipeline
from armybuilder.armies.changes.commands import SetValue
from tests.web.armies.changes.test_operations import make, op, send


def hx(client):
    client.defaults["HTTP_HX_REQUEST"] = "true"
    return client


def test_an_answer_names_the_version_it_follows_and_the_version_after(owner_client, user):
    saved = make(user, 2)
    before = saved.version
    unit = saved.document["units"][0]["id"]
    answer = send(hx(owner_client), saved, op("set", unit, "name", "Renamed"))
    assert answer["follows"] == before
    assert answer["version"] == before + 1
    assert "Renamed" in answer["html"]


def test_a_batch_of_several_changes_follows_the_version_it_was_read_at(owner_client, user):
    saved = make(user, 2)
    before = saved.version
    first, second = (u["id"] for u in saved.document["units"])
    answer = send(
        hx(owner_client),
        saved,
        op("set", first, "name", "One"),
        op("set", second, "name", "Two"),
    )
    assert (answer["follows"], answer["version"]) == (before, before + 2)


def test_another_writers_save_in_between_leaves_the_answer_following_no_version(
    owner_client, user, monkeypatch
):
    """Another device saved between the batch's read and its save: the answer's drawing
    would miss that change, so it follows no version and draws nothing (the page fetches
    the builder)."""
    saved = make(user, 2)
    first, second = (u["id"] for u in saved.document["units"])
    real = pipeline.run
    done = []

    def another_writer_first(army, command, key=""):
        if not done:
            done.append(True)
            other = type(army).objects.get(pk=army.pk)
            real(other, SetValue(second, "name", "From the other device"))
        return real(army, command, key)

    monkeypatch.setattr(operations.pipeline, "run", another_writer_first)
    answer = send(hx(owner_client), saved, op("set", first, "name", "Mine"))
    assert answer["follows"] is None
    assert "html" not in answer
    saved.refresh_from_db()
    assert [u["name"] for u in saved.document["units"]] == ["Mine", "From the other device"]
