"""Rendered PDFs are cached under a hash of everything that shapes them."""

import io
import json

import pytest
from django.core.cache import cache
from pypdf import PdfReader

from armybuilder.printing import pdf as pdf_module
from armybuilder.printing import services
from tests.support import army, example

pytestmark = pytest.mark.django_db


@pytest.fixture
def weasyprint_calls(monkeypatch, settings):
    """A spy on WeasyPrint's entry point, rendering in-process so every call is seen."""
    settings.MUSTER_PDF_TIME_LIMIT = 0
    cache.clear()
    calls: list[str] = []
    real = pdf_module.weasyprint.HTML

    def spy(*args, **kwargs):
        calls.append(kwargs.get("base_url", ""))
        return real(*args, **kwargs)

    monkeypatch.setattr(pdf_module.weasyprint, "HTML", spy)
    return calls


def test_second_render_is_served_from_the_cache_without_calling_weasyprint(weasyprint_calls):
    doc = example("into-the-dark-source-examples.json")
    first = services.army_sheet_pdf(doc, sheet="roster")
    assert len(weasyprint_calls) == 1 and not first.cached
    second = services.army_sheet_pdf(doc, sheet="roster")
    assert len(weasyprint_calls) == 1
    assert second.cached and second.pdf == first.pdf


def test_the_same_army_in_another_form_hits_the_same_cache_entry(weasyprint_calls):
    """The key is the normalised document: defaults spelled out or left out are one army."""
    short = army("into-the-dark", [{"name": "Levy", "figures": 12}])
    spelled = army(
        "into-the-dark",
        [{"name": "  Levy ", "figures": 12, "quality": "average", "division": None}],
        options={"command_and_control": False},
        generals=[],
        notes="",
    )
    services.army_sheet_pdf(short, sheet="qrs")
    assert services.army_sheet_pdf(spelled, sheet="qrs").cached
    assert len(weasyprint_calls) == 1


@pytest.mark.parametrize(
    "change",
    [
        {"paper": "letter"},
        {"sheet": "qrs"},
        {"share_url": "https://muster.example/s/token/"},
        {"document": {"name": "Another name"}},
        {"document": {"options": {"figure_scale": "15mm"}}},
    ],
)
def test_anything_that_changes_the_pdf_changes_the_cache_key(weasyprint_calls, change):
    doc = example("into-the-dark-source-examples.json")
    services.army_sheet_pdf(doc, sheet="roster")
    args = {"sheet": "roster", "paper": "a4", "share_url": None}
    args.update({k: v for k, v in change.items() if k != "document"})
    changed = dict(doc, **change.get("document", {}))
    printed = services.army_sheet_pdf(
        changed, sheet=args["sheet"], paper=args["paper"], share_url=args["share_url"]
    )
    assert not printed.cached
    assert len(weasyprint_calls) == 2


def test_a_new_template_version_renders_afresh(weasyprint_calls, monkeypatch):
    doc = example("into-the-dark-source-examples.json")
    services.army_sheet_pdf(doc, sheet="qrs")
    monkeypatch.setattr(services, "TEMPLATE_VERSION", services.TEMPLATE_VERSION + "-next")
    assert not services.army_sheet_pdf(doc, sheet="qrs").cached
    assert len(weasyprint_calls) == 2


def test_rule_set_qrs_is_cached_per_options(weasyprint_calls):
    services.ruleset_qrs_pdf("feudal-2017", options={"base_width_in": 4})
    assert services.ruleset_qrs_pdf("feudal-2017", options={"base_width_in": 4}).cached
    assert not services.ruleset_qrs_pdf("feudal-2017", options={"base_width_in": 6}).cached
    assert len(weasyprint_calls) == 2


def test_api_says_when_a_pdf_came_from_the_cache(client, weasyprint_calls):
    body = json.dumps(example("dewitt-medieval-lance-and-bow.json"))
    first = client.post("/api/v1/qrs.pdf", body, content_type="application/json")
    second = client.post("/api/v1/qrs.pdf", body, content_type="application/json")
    assert (first["X-Muster-Cache"], second["X-Muster-Cache"]) == ("miss", "hit")
    assert first.content == second.content
    assert len(weasyprint_calls) == 1


def test_a_cache_outage_still_prints(weasyprint_calls, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(services.cache, "get", down)
    monkeypatch.setattr(services.cache, "set", down)
    printed = services.army_sheet_pdf(example("into-the-dark-source-examples.json"), sheet="qrs")
    assert printed.pdf.startswith(b"%PDF") and not printed.cached


def page_size(pdf: bytes) -> tuple[int, int]:
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


A4, LETTER = (595, 842), (612, 792)  # in points


def test_rule_set_qrs_is_cached_per_paper_size(weasyprint_calls):
    assert (
        services.ruleset_qrs_key("feudal-2017", paper="a4")[0]
        != (services.ruleset_qrs_key("feudal-2017", paper="letter")[0])
    )
    a4 = services.ruleset_qrs_pdf("feudal-2017", paper="a4")
    letter = services.ruleset_qrs_pdf("feudal-2017", paper="letter")
    assert not letter.cached and services.ruleset_qrs_pdf("feudal-2017", paper="letter").cached
    assert (page_size(a4.pdf), page_size(letter.pdf)) == (A4, LETTER)
    assert len(weasyprint_calls) == 2


def test_the_rule_set_qrs_page_serves_each_paper_size_its_own_pdf(client, weasyprint_calls):
    a4 = client.get("/rulesets/feudal-2017/qrs.pdf?paper=a4")
    letter = client.get("/rulesets/feudal-2017/qrs.pdf?paper=letter")
    assert (a4["Content-Type"], letter["Content-Type"]) == ("application/pdf",) * 2
    assert (page_size(a4.content), page_size(letter.content)) == (A4, LETTER)
