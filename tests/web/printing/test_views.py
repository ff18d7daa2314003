"""Where the sheets are: saved armies, share links, rule-set pages, the API and the CLI."""

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from pypdf import PdfReader

from armybuilder.armies.models import Army, new_share_token
from armybuilder.armies.selectors import DRAFT_SESSION_KEY
from armybuilder.catalog.services import check_document
from tests.support import EXAMPLES, army, example

pytestmark = pytest.mark.django_db

ARMY_URLS = [
    "/armies/{pk}/roster.pdf",
    "/armies/{pk}/qrs.pdf",
    "/armies/{pk}/roster/",
    "/armies/{pk}/qrs/",
]
SHARE_URLS = [
    "/s/{token}/roster.pdf",
    "/s/{token}/qrs.pdf",
    "/s/{token}/roster/",
    "/s/{token}/qrs/",
]


def normalised(raw):
    return check_document(raw)[0].to_document()


@pytest.fixture
def owner():
    return User.objects.create_user("odo", password="a-long-test-password")


@pytest.fixture
def saved(owner):
    return Army.objects.create(
        owner=owner,
        document=normalised(example("into-the-dark-source-examples.json")),
        share_token=new_share_token(),
    )


def pdf_text(content: bytes) -> str:
    return " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(content)).pages)


@pytest.mark.parametrize("url", ARMY_URLS)
def test_owner_gets_each_sheet_of_their_army(client, owner, saved, url):
    client.force_login(owner)
    response = client.get(url.format(pk=saved.pk))
    assert response.status_code == 200
    if url.endswith(".pdf"):
        assert response["Content-Type"] == "application/pdf"
        sheet = url.rsplit("/", 1)[1].removesuffix(".pdf")
        assert response["Content-Disposition"] == (
            f'attachment; filename="worked-examples-from-into-the-dark-{sheet}-a4.pdf"'
        )
        assert "Count Odo" in pdf_text(response.content)
    else:
        assert response["Content-Type"].startswith("text/html")
        assert b"Count Odo" in response.content
        assert b".pdf?paper=letter" in response.content


@pytest.mark.parametrize("url", ARMY_URLS)
def test_another_users_army_is_404_on_every_print_url(client, saved, url):
    other = User.objects.create_user("harold", password="a-long-test-password")
    client.force_login(other)
    assert client.get(url.format(pk=saved.pk)).status_code == 404


@pytest.mark.parametrize("url", ARMY_URLS)
def test_anonymous_visitor_gets_404_for_someone_elses_army(client, saved, url):
    assert client.get(url.format(pk=saved.pk)).status_code == 404


def test_a_visitor_prints_their_own_draft(client):
    session = client.session
    session[DRAFT_SESSION_KEY] = "draft-key-for-this-visitor"
    session.save()
    draft = Army.objects.create(
        session_key="draft-key-for-this-visitor",
        document=normalised(army("into-the-dark", [{"name": "Levy"}])),
    )
    response = client.get(f"/armies/{draft.pk}/roster.pdf")
    assert response.status_code == 200
    assert "Levy" in pdf_text(response.content)


def test_owner_roster_carries_the_share_link_while_sharing_is_on(client, owner, saved):
    client.force_login(owner)
    page = client.get(f"/armies/{saved.pk}/roster/")
    assert f"/s/{saved.share_token}/".encode() in page.content
    assert b"<svg" in page.content
    saved.share_token = None
    saved.save()
    page = client.get(f"/armies/{saved.pk}/roster/")
    assert b"<svg" not in page.content and b"/s/" not in page.content


@pytest.mark.parametrize("url", SHARE_URLS)
def test_anyone_with_the_share_link_gets_each_sheet(client, saved, url):
    response = client.get(url.format(token=saved.share_token))
    assert response.status_code == 200
    if url.endswith(".pdf"):
        assert response["Content-Type"] == "application/pdf"
    else:
        assert b"Worked examples from Into the Dark" in response.content


@pytest.mark.parametrize("url", SHARE_URLS)
def test_revoked_or_made_up_share_tokens_are_404(client, saved, url):
    token = saved.share_token
    saved.share_token = None
    saved.save()
    assert client.get(url.format(token=token)).status_code == 404
    assert client.get(url.format(token="not-a-real-token-at-all")).status_code == 404


def test_bad_paper_is_a_clear_400_page(client, saved):
    response = client.get(f"/s/{saved.share_token}/roster.pdf?paper=legal")
    assert response.status_code == 400
    assert b"paper: &#x27;legal&#x27; is not one of a4, letter" in response.content


def test_saved_document_that_no_longer_parses_is_a_400_not_a_500(client, saved):
    Army.objects.filter(pk=saved.pk).update(document={"format": "muster.army/1", "name": "x"})
    response = client.get(f"/s/{saved.share_token}/qrs.pdf")
    assert response.status_code == 400
    assert b"ruleset: is required" in response.content


def test_preview_toolbar_links_to_both_papers_and_the_other_sheet(client, saved):
    page = client.get(f"/s/{saved.share_token}/qrs/").content.decode()
    assert f'href="/s/{saved.share_token}/qrs.pdf?paper=a4"' in page
    assert f'href="/s/{saved.share_token}/qrs.pdf?paper=letter"' in page
    assert f'href="/s/{saved.share_token}/roster/"' in page
    assert f'href="/s/{saved.share_token}/"' in page


# -- the rule set's own QRS -------------------------------------------------------------------


@pytest.mark.parametrize(
    "slug", ["into-the-dark", "dewitt-medieval", "dark-ages-2015", "dark-ages-d5", "feudal-2017"]
)
def test_rule_set_page_links_its_qrs_and_both_serve(client, slug):
    page = client.get(f"/rulesets/{slug}/").content.decode()
    assert f'href="/rulesets/{slug}/qrs/"' in page
    assert f'href="/rulesets/{slug}/qrs.pdf"' in page
    preview = client.get(f"/rulesets/{slug}/qrs/")
    assert preview.status_code == 200 and b"Quick-reference sheet" in preview.content
    pdf = client.get(f"/rulesets/{slug}/qrs.pdf")
    assert pdf["Content-Disposition"] == f'attachment; filename="{slug}-qrs-a4.pdf"'


def test_rule_set_qrs_prints_for_the_options_in_the_query(client):
    response = client.get("/rulesets/feudal-2017/qrs.pdf?base_width_in=4&dice=d5")
    text = pdf_text(response.content)
    assert 'Movement at BW 4"' in text and "Dx: d5" in text
    preview = client.get("/rulesets/feudal-2017/qrs/?base_width_in=4").content.decode()
    assert 'name="base_width_in" value="4.0"' in preview
    assert "qrs.pdf?base_width_in=4&amp;paper=letter" in preview


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("base_width_in=99", "options.base_width_in: 99.0 is above the maximum 8.0"),
        ("base_width_in=wide", "options.base_width_in: &#x27;wide&#x27; is not a number"),
        ("colour=red", "colour: not an option of Feudal Wargame Rules"),
        ("dice=d20", "options.dice: &#x27;d20&#x27; is not one of d6, d5"),
    ],
)
def test_bad_rule_set_qrs_options_are_a_400_naming_the_option(client, query, message):
    response = client.get(f"/rulesets/feudal-2017/qrs/?{query}")
    assert response.status_code == 400
    assert message.encode() in response.content


def test_unknown_rule_set_qrs_is_404(client):
    assert client.get("/rulesets/chess/qrs.pdf").status_code == 404
    assert client.get("/rulesets/chess/qrs/").status_code == 404


def test_dewitt_qrs_preview_offers_the_siege_section_on_request(client):
    plain = client.get("/rulesets/dewitt-medieval/qrs/").content.decode()
    assert "Add sieges" in plain and "Fire arrows" not in plain
    siege = client.get("/rulesets/dewitt-medieval/qrs/?include=siege").content.decode()
    assert "Fire arrows" in siege and "Without sieges" in siege
    pdf = client.get("/rulesets/dewitt-medieval/qrs.pdf?include=siege")
    assert "Fire arrows" in pdf_text(pdf.content)
    bad = client.get("/rulesets/into-the-dark/qrs.pdf?include=siege")
    assert bad.status_code == 400


# -- JSON API ------------------------------------------------------------------------------------


@pytest.mark.parametrize("sheet", ["roster", "qrs"])
def test_api_posts_a_document_and_gets_the_pdf(client, sheet):
    body = (EXAMPLES / "into-the-dark-source-examples.json").read_bytes()
    response = client.post(
        f"/api/v1/{sheet}.pdf?paper=letter", body, content_type="application/json"
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    box = PdfReader(io.BytesIO(response.content)).pages[0].mediabox
    assert round(float(box.width)) == 612


def test_api_qrs_leaves_out_a_section_another_rule_sets_sheet_offers_and_refuses_an_unknown(
    client,
):
    body = (EXAMPLES / "into-the-dark-source-examples.json").read_bytes()
    elsewhere = client.post("/api/v1/qrs.pdf?include=siege", body, content_type="application/json")
    assert elsewhere.status_code == 200  # Dewitt's siege: into-the-dark's sheet has none
    assert "Fire arrows" not in pdf_text(elsewhere.content)
    unknown = client.post("/api/v1/qrs.pdf?include=sieges", body, content_type="application/json")
    assert unknown.status_code == 400
    assert unknown.json()["path"] == "include" and "'sieges'" in unknown.json()["error"]
    roster = client.post("/api/v1/roster.pdf?include=siege", body, content_type="application/json")
    assert roster.status_code == 400  # the roster's one option is named in the description


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{not json",
        json.dumps(
            {"format": "muster.army/1", "name": "x", "ruleset": "chess", "units": []}
        ).encode(),
        json.dumps(army("into-the-dark", [{"name": "Levy", "armour": "plate"}])).encode(),
    ],
)
def test_api_refuses_what_check_refuses_with_the_same_400(client, body):
    pdf = client.post("/api/v1/roster.pdf", body, content_type="application/json")
    check = client.post("/api/v1/check", body, content_type="application/json")
    assert pdf.status_code == check.status_code == 400
    assert pdf.json() == check.json()
    assert set(pdf.json()) == {"error", "path"}


def test_api_refuses_a_body_over_one_mebibyte_with_413(client):
    body = b'{"notes": "' + b"x" * (1024 * 1024) + b'"}'
    response = client.post("/api/v1/qrs.pdf", body, content_type="application/json")
    assert response.status_code == 413
    assert set(response.json()) == {"error", "path"}


def test_api_pdf_needs_post(client):
    assert client.get("/api/v1/roster.pdf").status_code == 405


# -- command line -----------------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "width"), [("a4", 595), ("letter", 612)])
def test_cli_writes_the_pdf_of_a_document(tmp_path, capsys, paper, width):
    out = tmp_path / "army.pdf"
    call_command(
        "muster",
        "pdf",
        str(EXAMPLES / "into-the-dark-source-examples.json"),
        "--sheet",
        "roster",
        "--output",
        str(out),
        "--paper",
        paper,
    )
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert round(float(reader.pages[0].mediabox.width)) == width
    assert "581 points" in reader.pages[0].extract_text()
    assert f"Wrote {out}" in capsys.readouterr().out


def test_cli_exits_2_with_a_clear_message_on_a_malformed_document(tmp_path, capsys):
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(army("into-the-dark", [{"name": "Levy", "figures": "many"}])))
    with pytest.raises(SystemExit) as exit_info:
        call_command(
            "muster", "pdf", str(source), "--sheet", "qrs", "--output", str(tmp_path / "x.pdf")
        )
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "units[0].figures: must be a whole number, not 'many'" in err
    assert "Traceback" not in err
    assert not (tmp_path / "x.pdf").exists()


def test_cli_exits_2_when_the_output_cannot_be_written(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        call_command(
            "muster",
            "pdf",
            str(EXAMPLES / "feudal-2017-roll-4.json"),
            "--sheet",
            "qrs",
            "--output",
            str(tmp_path / "missing-dir" / "x.pdf"),
        )
    assert exit_info.value.code == 2
    assert "cannot write" in capsys.readouterr().err


def test_api_bad_paper_is_a_400_naming_the_parameter(client):
    body = (EXAMPLES / "into-the-dark-source-examples.json").read_bytes()
    response = client.post("/api/v1/roster.pdf?paper=a3", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"error": "paper: 'a3' is not one of a4, letter", "path": "paper"}
