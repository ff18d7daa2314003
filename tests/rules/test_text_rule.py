"""The text rule: every string that enters keeps it, stored text that slipped
through cannot break a page. Run on SQLite and on PostgreSQL (DATABASE_URL)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from armybuilder.armies.models import Army, new_share_token
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.services import ListFileError, load_lists
from rules.errors import MalformedDocument
from rules.text import check_text, repair, safe_text, text_problem
from tests.support import item_url

# Exactly the document of the report: JSON's escape gives Python a lone surrogate.
SURROGATE_JSON = (
    '{"format":"muster.army/1","name":"Lone \\ud800","ruleset":"into-the-dark","units":[]}'
)
BIDI = "\u202e"
REFUSED = {
    "lone surrogate": "\ud800",
    "right-to-left override": "\u202e",
    "left-to-right embedding": "\u202a",
    "first strong isolate": "\u2068",
    "right-to-left mark": "\u200f",
    "zero width space": "\u200b",
    "zero width joiner": "\u200d",
    "byte-order mark": "\ufeff",
    "null": "\x00",
    "escape": "\x1b",
    "delete": "\x7f",
    "C1 control": "\x85",
    "line separator": "\u2028",
}


def _upload(text: str) -> SimpleUploadedFile:
    data = text.encode("utf-8", "surrogatepass")
    return SimpleUploadedFile("army.json", data, content_type="application/json")


def _doc(**changes) -> dict:
    doc = {"format": "muster.army/1", "name": "Normans", "ruleset": "into-the-dark"}
    doc.update(changes)
    doc.setdefault("units", [])
    return doc


# -- the rule itself -----------------------------------------------------------------------


@pytest.mark.parametrize("char", list(REFUSED.values()), ids=list(REFUSED))
def test_every_kind_of_refused_character_is_refused_in_a_one_line_field(char):
    assert text_problem(f"Nor{char}mans")
    with pytest.raises(MalformedDocument) as refused:
        check_text(f"Nor{char}mans", "units[2].name")
    assert refused.value.path == "units[2].name"
    assert refused.value.message.startswith("units[2].name: contains ")
    assert f"U+{ord(char):04X}" in refused.value.message
    refused.value.message.encode("utf-8")  # the message itself is safe to show


def test_notes_keep_newlines_and_tabs_but_not_other_controls():
    assert text_problem("Line one\n\tLine two", multiline=True) is None
    assert "only newline and tab" in text_problem("bell\x07", multiline=True)
    assert "one line" in text_problem("two\nlines")


def test_ordinary_text_of_every_script_passes():
    for text in ("Æthelred", "Ἀλέξανδρος", "ابن الأثير", "源頼朝", "🐴 Knights", "Jörð\u00a0"):
        assert text_problem(text) is None


def test_safe_text_shows_refused_characters_as_escapes():
    assert safe_text(f"a\ud800b{BIDI}c") == "a\\ud800b\\u202ec"


def test_repair_keeps_the_rule_and_leaves_good_documents_alone():
    good = _doc(notes="Line one\nLine two")
    assert repair(good) == (good, False)
    fixed, changed = repair(_doc(name=f"Lone \ud800 {BIDI}x", notes="a\x07b\nc"))
    assert changed
    assert fixed["name"] == "Lone \ufffd x" and fixed["notes"] == "ab\nc"


# -- every interface refuses it --------------------------------------------------------------


@pytest.mark.django_db
def test_the_surrogate_document_is_refused_on_import(client):
    response = client.post("/armies/import/", {"document": _upload(SURROGATE_JSON)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Army name: contains a lone UTF-16 surrogate (U+D800)" in page
    assert not Army.objects.exists()


@pytest.mark.django_db
def test_a_surrogate_in_an_unknown_key_is_refused_with_a_page_that_renders(client):
    text = SURROGATE_JSON.replace('"name":"Lone \\ud800"', '"name":"x","c\\udc00lour":1')
    response = client.post("/armies/import/", {"document": _upload(text)})
    assert response.status_code == 400
    assert "c\\udc00lour: unknown key" in response.content.decode()


@pytest.mark.django_db
def test_the_surrogate_document_is_refused_by_the_api(client):
    for url in ("/api/v1/check", "/api/v1/roster.pdf"):
        response = client.post(url, SURROGATE_JSON, content_type="application/json")
        assert response.status_code == 400
        assert response.json() == {
            "error": "name: contains a lone UTF-16 surrogate (U+D800) that is not valid "
            "Unicode text",
            "path": "name",
        }


@pytest.mark.django_db
def test_the_surrogate_document_is_refused_by_the_admin(admin_client, admin_user):
    response = admin_client.post(
        "/admin/armies/army/add/",
        {"owner": admin_user.pk, "document": SURROGATE_JSON, "share_token": "t" * 32},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "name: contains a lone UTF-16 surrogate" in response.content.decode()
    assert not Army.objects.exists()


@pytest.mark.django_db
def test_a_surrogate_or_bidi_control_in_army_list_data_is_refused(admin_client, tmp_path):
    data = {"columns": {"core": "knights", "t1": "bowmen", "t2": "brigans", "t3": "freemen"}}
    bad = {**data, "note": "Lone \ud800"}
    form = {
        "ruleset": "feudal-2017",
        "slug": "poisoned",
        "name": f"Angevin {BIDI}test",
        "period": "1154",
        "source_note": "",
        "data": json.dumps(bad),
    }
    response = admin_client.post("/admin/catalog/armylist/add/", form)
    assert response.status_code == 200
    page = response.content.decode()
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in page
    assert "note: contains a lone UTF-16 surrogate" in page
    assert not ArmyList.objects.filter(slug="poisoned").exists()

    record = {"model": "catalog.armylist", "fields": {**form, "name": "Fine", "data": bad}}
    (tmp_path / "poisoned.json").write_text(json.dumps([record]), encoding="utf-8")
    with pytest.raises(ListFileError, match="lone UTF-16 surrogate"):
        load_lists(tmp_path)
    assert not ArmyList.objects.filter(slug="poisoned").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200b", "\ufeff"])
def test_bidi_and_invisible_characters_are_refused_everywhere_a_name_enters(owner_client, char):
    name = f"Harold{char}Godwinson"
    # the new-army form
    response = owner_client.post("/armies/new/", {"ruleset": "into-the-dark", "name": name})
    assert response.status_code == 400 and f"U+{ord(char):04X}" in response.content.decode()
    # import and API
    response = owner_client.post(
        "/armies/import/", {"document": _upload(json.dumps(_doc(name=name)))}
    )
    assert response.status_code == 400
    response = owner_client.post(
        "/api/v1/check", json.dumps(_doc(name=name)), content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["path"] == "name"
    # the builder: army settings and a unit's name
    owner_client.post("/armies/new/", {"ruleset": "into-the-dark", "name": "Saxons"})
    army = Army.objects.get()
    owner_client.post(f"/armies/{army.pk}/units/add/", {"version": 1})
    response = owner_client.post(f"/armies/{army.pk}/settings/", {"version": 2, "name": name})
    assert response.status_code == 400
    response = owner_client.post(
        item_url(army, 0), {"version": 2, "f.name": name}, headers={"HX-Request": "1"}
    )
    assert response.status_code == 400
    army.refresh_from_db()
    assert army.version == 2 and army.name == "Saxons"
    assert army.document["units"][0]["name"] != name
    # sign-up
    response = owner_client.post(
        "/accounts/signup/",
        {"username": name, "password1": "a-long-Pass-123", "password2": "a-long-Pass-123"},
    )
    assert response.status_code in (302, 400)  # logged in already: sent on, never stored
    from django.contrib.auth.models import User

    assert not User.objects.filter(username=name).exists()


@pytest.mark.django_db
def test_sign_up_refuses_a_bidi_control_in_the_username(client):
    from django.contrib.auth.models import User

    response = client.post(
        "/accounts/signup/",
        {"username": "eve\u202e", "password1": "a-long-Pass-123", "password2": "a-long-Pass-123"},
    )
    assert response.status_code == 400
    assert not User.objects.exists()


# -- a poisoned row that slipped through breaks no page --------------------------------------


def _poison() -> str:
    """What this database can hold that breaks the rule: PostgreSQL's jsonb refuses lone
    surrogates (and NUL) itself, so there the row carries bidi and control characters."""
    if connection.vendor == "postgresql":
        return f"Lone {BIDI}\u200b\x07"
    return f"Lone \ud800{BIDI}\x07"


@pytest.mark.django_db
def test_every_army_page_survives_a_poisoned_row_stored_directly(owner_client, user):
    poison = _poison()
    document = _doc(
        name=poison,
        units=[{"name": f"Knights {poison}"}],
        notes=f"Notes {poison}\nmore",
    )
    army = Army.objects.create(owner=user, document=_doc(), share_token=new_share_token())
    Army.objects.filter(pk=army.pk).update(document=document)  # around every check
    token = army.share_token
    pages = [
        f"/armies/{army.pk}/",
        f"/armies/{army.pk}/export.json",
        f"/armies/{army.pk}/roster/",
        f"/armies/{army.pk}/qrs/",
        f"/armies/{army.pk}/roster.pdf",
        f"/armies/{army.pk}/delete/",
        f"/s/{token}/",
        f"/s/{token}/army.json",
        f"/s/{token}/roster/",
        f"/s/{token}/copy/",
        "/armies/",
    ]
    for url in pages:
        response = owner_client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        if response["Content-Type"].startswith(("text/html", "application/json")):
            text = response.content.decode("utf-8")
            assert "\ud800" not in text and BIDI not in text and "\x07" not in text, url
    assert "Lone" in owner_client.get("/armies/").content.decode()
    exported = json.loads(owner_client.get(f"/armies/{army.pk}/export.json").content)
    assert text_problem(exported["name"]) is None
    # the owner can still duplicate, delete and restore it, and the pages after it render
    assert owner_client.post(f"/armies/{army.pk}/duplicate/").status_code == 302
    response = owner_client.post(f"/armies/{army.pk}/delete/", follow=True)
    assert response.status_code == 200 and "Lone" in response.content.decode()
    response = owner_client.post(f"/armies/{army.pk}/restore/", follow=True)
    assert response.status_code == 200 and "Restored Lone" in response.content.decode()


def _as_stored() -> dict[int, dict]:
    """Each army's document as its row holds it: the column's text, not the field's
    decoding (which keeps the text rule on every read)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, document FROM armies_army")
        return {pk: text if isinstance(text, dict) else json.loads(text) for pk, text in cursor}


@pytest.mark.django_db
def test_decoding_a_poisoned_row_repairs_the_value_and_never_the_row(user):
    row = Army.objects.create(owner=user, document=_doc())
    Army.objects.filter(pk=row.pk).update(document=_doc(name=_poison()))
    read = Army.objects.get(pk=row.pk)
    assert text_problem(read.name) is None and read.name.startswith("Lone")
    assert text_problem(_as_stored()[row.pk]["name"]) is not None  # no write during a read


@pytest.mark.django_db
def test_the_data_migration_repairs_stored_documents(user):
    from importlib import import_module

    from django.db.migrations.loader import MigrationLoader

    migration = import_module("armybuilder.armies.migrations.0004_repair_stored_text")
    # the models as the migration sees them: their document a plain JSONField, read as
    # stored (today's field decodes it to the rule already)
    apps = MigrationLoader(connection).project_state(("armies", "0004_repair_stored_text")).apps
    poison = _poison()
    good = Army.objects.create(owner=user, document=_doc(name="Good"))
    bad = Army.objects.create(owner=user, document=_doc())
    Army.objects.filter(pk=bad.pk).update(document=_doc(name=poison, notes="a\x07\nb"))
    migration.repair_documents(apps, None)
    stored = _as_stored()  # the rows themselves, not their decoding
    assert stored[good.pk]["name"] == "Good"
    assert text_problem(stored[bad.pk]["name"]) is None
    assert stored[bad.pk]["name"].startswith("Lone")
    assert stored[bad.pk]["notes"] == "a\nb"


@pytest.mark.django_db
def test_the_admin_change_page_of_a_poisoned_row_renders(admin_client, admin_user):
    army = Army.objects.create(owner=admin_user, document=_doc())
    Army.objects.filter(pk=army.pk).update(document=_doc(name=_poison()))
    response = admin_client.get(f"/admin/armies/army/{army.pk}/change/")
    assert response.status_code == 200
    response = admin_client.get("/admin/armies/army/")
    assert response.status_code == 200 and "Lone" in response.content.decode()


@pytest.mark.django_db
def test_the_command_line_refuses_the_surrogate_document_with_exit_2(tmp_path, capsys):
    from django.core.management import call_command

    path = tmp_path / "army.json"
    path.write_text(SURROGATE_JSON, encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        call_command("muster", "check", str(path))
    out, err = capsys.readouterr()
    assert exited.value.code == 2
    assert "lone UTF-16 surrogate (U+D800)" in out + err
    (out + err).encode("utf-8")  # printable on any UTF-8 terminal
