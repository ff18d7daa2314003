"""An army built on a player's own list prints like any other: its sheets are checked as
the builder checks it (the owner's lists, the revision it is pinned to), on every print
path: the PDF and preview links, the share link, the builder's print panel, and the worker
that renders queued prints."""

import io

import pytest
from pypdf import PdfReader

from armybuilder.armies import services as armies
from armybuilder.catalog import services as lists
from armybuilder.catalog.models import ArmyList
from armybuilder.printing import tasks
from armybuilder.printing.models import Render
from tests.support import army

pytestmark = pytest.mark.django_db

OWN_LIST = {
    "entries": [
        {
            "key": "knights",
            "name": "Knights of the Marches",
            "match": {"arm": ["cavalry"], "class": ["heavy"], "weapons": ["lance"]},
            "min": 1,
            "max": 2,
        }
    ]
}
KNIGHT = {"name": "Knights", "arm": "cavalry", "class": "heavy", "weapons": ["lance"], "stands": 2}


@pytest.fixture
def own_army(user):
    draft = ArmyList(ruleset="dewitt-medieval", slug="marcher-lords", author=user)
    made = lists.save_list(draft, by=user, name="Marcher lords", data=OWN_LIST).army_list
    document = army("dewitt-medieval", [KNIGHT, KNIGHT], army_list=made.slug)
    return armies.create_army(document, owner=user)


def pdf_text(content: bytes) -> str:
    return " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(content)).pages)


@pytest.mark.parametrize("sheet", ["roster", "qrs"])
def test_the_owner_prints_an_army_built_on_their_private_list(owner_client, own_army, sheet):
    pdf = owner_client.get(f"/armies/{own_army.pk}/{sheet}.pdf")
    assert pdf.status_code == 200, pdf.content[:300]
    assert "marcher lords, revision 1" in pdf_text(pdf.content).lower()
    preview = owner_client.get(f"/armies/{own_army.pk}/{sheet}/")
    assert preview.status_code == 200
    assert "Marcher lords, revision 1" in preview.content.decode()


def test_a_shared_army_on_a_private_list_prints_for_anyone_with_its_link(client, own_army):
    own_army.share_token = "a-share-token-for-this-test-only"
    own_army.save(update_fields=["share_token"])
    pdf = client.get(f"/s/{own_army.share_token}/roster.pdf")
    assert pdf.status_code == 200, pdf.content[:300]
    assert "Marcher lords" in pdf_text(pdf.content)


def test_the_print_panel_and_the_worker_check_the_army_against_its_owners_list(
    owner_client, own_army
):
    answer = owner_client.get(f"/armies/{own_army.pk}/print/?sheet=roster")
    assert answer["Content-Type"] == "application/pdf"
    (render,) = Render.objects.all()
    assert render.spec["saved"] == {"owner_id": own_army.owner_id}
    # a worker renders from the stored spec alone, as it would from the queue
    assert "Marcher lords, revision 1" in pdf_text(tasks.make_pdf(render.spec))


def test_a_posted_document_naming_a_private_list_is_still_refused(client, own_army):
    document = dict(own_army.document)
    answer = client.post("/api/v1/roster.pdf", document, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "army_list: 'marcher-lords' is not an army list of "
        "Medieval Wargaming Rules (Dewitt, 1987); "
        "known lists: none yet",
        "path": "army_list",
    }
