"""Import and export of the muster.army/1 document as files."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import EXAMPLES, army, example


def upload(content: bytes, name: str = "army.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


@pytest.mark.parametrize(
    "name", sorted(p.name for p in EXAMPLES.glob("*.json") if p.name != "expected.json")
)
def test_export_then_import_gives_an_equal_document(owner_client, user, name):
    original = services.create_army(example(name), owner=user)
    exported = owner_client.get(f"/armies/{original.pk}/export.json")
    assert exported.status_code == 200
    assert exported["Content-Type"] == "application/json; charset=utf-8"
    assert exported["Content-Disposition"].startswith("attachment; filename=")
    response = owner_client.post("/armies/import/", {"document": upload(exported.content)})
    imported = Army.objects.exclude(pk=original.pk).get()
    assert response.status_code == 302
    assert response["Location"] == f"/armies/{imported.pk}/"
    document = json.loads(exported.content)
    named = document.pop("list_revisions", {})
    assert imported.document == original.document == document
    assert named == imported.list_pins == original.list_pins
    assert imported.owner == user and imported.share_token is None  # private until shared


def test_export_is_named_after_the_army(owner_client, user):
    saved = services.create_army(army("into-the-dark", [], name="Normans at Hastings!"), owner=user)
    response = owner_client.get(f"/armies/{saved.pk}/export.json")
    assert response["Content-Disposition"] == 'attachment; filename="normans-at-hastings.json"'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "The file is not valid JSON (line 1, column 2"),
        (b"\xff\xfe\x00junk", "The file is not UTF-8 text"),
        (b"   ", "The file is empty"),
        (b"[1, 2]", "the document must be a JSON object, not a list"),
        (json.dumps({"format": "muster.army/2", "name": "X", "ruleset": "into-the-dark",
                     "units": []}).encode(), "Format: &#x27;muster.army/2&#x27; is not supported"),
        (json.dumps(army("into-the-dark", [{"name": "Knights", "armour": "plate"}])).encode(),
         "Knights (unit 1), Armour: &#x27;plate&#x27; is not one of unarmoured"),
        (json.dumps(army("into-the-dark", [], colour="red")).encode(),
         "colour: unknown key; allowed keys: format, name"),
    ],
)  # fmt: skip
def test_a_bad_file_gives_the_parsers_message_and_saves_nothing(owner_client, content, message):
    response = owner_client.post("/armies/import/", {"document": upload(content)})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Army.objects.count() == 0


def test_an_oversized_file_is_refused_before_it_is_parsed(owner_client, settings):
    settings.MUSTER_MAX_DOCUMENT_BYTES = 100
    doc = json.dumps(army("into-the-dark", [{"name": "x" * 100}])).encode()
    response = owner_client.post("/armies/import/", {"document": upload(doc)})
    assert response.status_code == 400
    assert "an army document is at most" in response.content.decode()
    assert Army.objects.count() == 0


def test_import_without_a_file_names_the_field(owner_client):
    response = owner_client.post("/armies/import/", {})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_a_visitor_can_import_into_a_draft(client, db):
    doc = json.dumps(example("into-the-dark-source-examples.json")).encode()
    response = client.post("/armies/import/", {"document": upload(doc)})
    draft = Army.objects.get()
    assert response["Location"] == f"/armies/{draft.pk}/"
    assert draft.owner is None and draft.session_key
    assert client.get(f"/armies/{draft.pk}/").status_code == 200


def test_the_import_page_and_my_armies_offer_the_upload_form(owner_client):
    for url in ("/armies/import/", "/armies/"):
        page = owner_client.get(url).content.decode()
        assert 'enctype="multipart/form-data"' in page
        assert '<input type="file" id="id_document" name="document"' in page


@pytest.mark.parametrize(
    "content,words",
    [
        (b"[" * 50000 + b"]" * 50000, "nested too deeply"),
        (b'{"format": NaN}', "NaN is not a JSON number"),
        (b'{"format": "muster.army/1",', "line 1"),
    ],
)
def test_a_pathological_upload_is_refused_with_a_message_not_a_crash(content, words):
    from armybuilder.armies.services import ImportRefused, read_upload

    with pytest.raises(ImportRefused, match=words):
        read_upload(content)


def lists_army(user):
    """An army on a list of the player's own with three revisions, pinned to the second."""
    from armybuilder.catalog import services as lists
    from armybuilder.catalog.models import ArmyList

    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    mine = lists.copy_list(user, army_list=norman).army_list
    lists.edit_list(user, army_list=mine, name="Normans, second")
    saved = services.create_army(army("into-the-dark", [], army_list=mine.slug), owner=user)
    lists.edit_list(user, army_list=mine, name="Normans, third")
    return saved, mine


def test_the_export_names_each_list_revision_and_an_import_is_pinned_to_it(owner_client, user):
    saved, mine = lists_army(user)
    exported = json.loads(owner_client.get(f"/armies/{saved.pk}/export.json").content)
    assert exported["list_revisions"] == {mine.slug: 2}
    assert list(exported)[:5] == ["format", "name", "ruleset", "army_list", "list_revisions"]
    response = owner_client.post(
        "/armies/import/", {"document": upload(json.dumps(exported).encode())}
    )
    imported = Army.objects.exclude(pk=saved.pk).get()
    assert response.status_code == 302
    assert imported.list_pins == {mine.slug: 2}
    assert "list_revisions" not in imported.document


def test_an_import_naming_a_revision_muster_lacks_says_so_and_reads_the_latest(owner_client, user):
    saved, mine = lists_army(user)
    exported = json.loads(owner_client.get(f"/armies/{saved.pk}/export.json").content)
    exported["list_revisions"] = {mine.slug: 9}
    response = owner_client.post(
        "/armies/import/", {"document": upload(json.dumps(exported).encode())}, follow=True
    )
    imported = Army.objects.exclude(pk=saved.pk).get()
    assert imported.list_pins == {mine.slug: 3}
    page = response.content.decode()
    assert (
        "The file names revision 9 of Normans, third, which Muster does not have: the army is "
        "checked against revision 3, the latest." in page
    )


def test_a_list_revisions_naming_a_list_the_army_does_not_read_is_refused(owner_client, user):
    doc = army("into-the-dark", [], army_list="norman-1066", list_revisions={"welsh": 1})
    response = owner_client.post("/armies/import/", {"document": upload(json.dumps(doc).encode())})
    assert response.status_code == 400
    assert "the army reads no list" in response.content.decode()
    assert Army.objects.count() == 0


def test_an_army_built_freely_exports_no_list_revisions(owner_client, user):
    saved = services.create_army(army("into-the-dark", []), owner=user)
    exported = json.loads(owner_client.get(f"/armies/{saved.pk}/export.json").content)
    assert "list_revisions" not in exported
