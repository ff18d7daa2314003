"""Players read names, never slugs or codes: an army on every shipped list (a d5 army with allies
from another list, its history holding an ally change) is walked through every page a
player reads (the builder and its list panel, My armies, history, the share page, the
roster and QRS previews), and no slug of a list, a rule set or an option value, no issue
code and none of a rule set's composition data (a force matrix's column ids and the unit
types it holds) shows in the text a player reads (tags, attributes and URLs are not read). Both PDFs are read too, for
the first list of each rule set: they are drawn from the same templates as the previews
(so every list's text is read there), and each render takes a second."""

import html
import io
import json
import re

import pytest
from django.contrib.auth.models import User
from pypdf import PdfReader

import rules
from armybuilder.armies import services as armies
from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from armybuilder.armies.models import Army
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from tests.support import army

pytestmark = pytest.mark.django_db

SHIPPED = sorted(
    (row["ruleset"], row["slug"])
    for path in sorted(services.FIXTURES_DIR.glob("*.json"))
    for row in (r["fields"] for r in json.loads(path.read_text(encoding="utf-8")))
)
PDF_READ = {ruleset: slug for ruleset, slug in reversed(SHIPPED)}  # the first of each
TAG = re.compile(r"<(script|style|template)\b.*?</\1>|<[^>]*>", re.S)


def slugs() -> set[str]:
    """Every slug a player must not read: of lists, rule sets, and option and field values,
    those written as identifiers (with a hyphen or an underscore: a plain word such as
    "viking" or "elite" cannot be told from the word in a sentence)."""
    found = {slug for _, slug in SHIPPED} | {r.slug for r in rules.all_rulesets()}
    for ruleset in rules.all_rulesets():
        found |= {check.code for check in ruleset.checks}  # issue codes: a problem's words
        found |= {ruling.code for ruling in ruleset.rulings}
        for field in (*ruleset.options, *ruleset.unit_fields, *ruleset.general_fields):
            for sub in (field, *field.fields):
                found |= {str(v) for v in sub.values}
    return {s for s in found if re.search(r"[-_]", s)}


SLUGS = slugs()
WORD = re.compile(r"[\w-]+")


def readable(page: str) -> str:
    return html.unescape(TAG.sub(" ", page))


def slugs_in(text: str) -> set[str]:
    return {w for w in WORD.findall(text) if w in SLUGS}


def composition_pairs(saved: Army) -> set[str]:
    """The "key: value" pairs of the army's composition data as a raw print would show
    them (the force matrix's columns, ``core: brigans``): none is for a player to read."""
    from armybuilder.armies.documents import check_army

    report = check_army(saved).report
    composition = report.composition if report is not None else None
    pairs = set()
    for value in (composition or {}).values():
        if isinstance(value, dict):
            pairs |= {f"{k}: {v}".replace("_", " ") for k, v in value.items()}
    return pairs


def leaked(text: str, pairs: set[str]) -> set[str]:
    flat = " ".join(text.split())
    return slugs_in(flat) | {p for p in pairs if p in flat}


def pdf_text(content: bytes) -> str:
    return " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(content)).pages)


def built_army(owner, ruleset, slug):
    rs = rules.get_ruleset(ruleset)
    data = ArmyList.objects.get(ruleset=ruleset, slug=slug).data
    entries = rs.list_entries(data, None)
    units = [dict(e.values) for e in entries for _ in range(max(1, e.minimum or 0))][:8]
    saved = armies.create_army(army(ruleset, units, army_list=slug), owner=owner)
    if "ally" in rs.list_fields:
        other = next(s for r, s in SHIPPED if r == ruleset and s != slug)
        ally = rs.list_entries(ArmyList.objects.get(ruleset=ruleset, slug=other).data, None)[0]
        document = json.loads(json.dumps(saved.document))
        document["units"].append({**ally.values, "ally": other})
        saved = armies.create_army(document, owner=owner)
        # History: the allies change list ("Allied from list ... → ...")
        third = next(s for r, s in SHIPPED if r == ruleset and s not in (slug, other))
        pipeline.run(saved, SetValue(saved.document["units"][-1]["id"], "ally", third))
    # History: an option changed ("Option ...: ... → ..."), one with identifier values
    choices = [o for o in rs.options if o.kind == "choice" and len(o.values) > 1]
    option = next((o for o in choices if any(re.search(r"[-_]", str(v)) for v in o.values)),
                  next(iter(choices), None))  # fmt: skip
    if option is not None:
        saved.refresh_from_db()
        value = next(v for v in option.values if v != option.default)
        pipeline.run(saved, SetValue("army", f"options.{option.name}", value))
    saved.refresh_from_db()
    return saved


@pytest.mark.parametrize(("ruleset", "slug"), SHIPPED)
def test_no_page_or_sheet_of_an_army_shows_a_slug(client, ruleset, slug):
    owner = User.objects.create_user("reader", password="a-long-Pass-123")
    saved = built_army(owner, ruleset, slug)
    client.force_login(owner)
    client.post(f"/armies/{saved.pk}/share/regenerate/")
    saved = Army.objects.get(pk=saved.pk)
    pages = [
        f"/armies/{saved.pk}/",
        f"/armies/{saved.pk}/lists/",
        "/armies/",
        f"/armies/{saved.pk}/history/",
        f"/armies/{saved.pk}/roster/",
        f"/armies/{saved.pk}/qrs/",
        f"/s/{saved.share_token}/",
        f"/s/{saved.share_token}/roster/",
    ]
    history = client.get(f"/armies/{saved.pk}/history/").content.decode()
    if "ally" in rules.get_ruleset(ruleset).list_fields:
        assert "Allied from list" in readable(history)
    seen = {}
    pairs = composition_pairs(saved)
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        seen[url] = leaked(readable(response.content.decode()), pairs)
    sheets = ("roster.pdf", "qrs.pdf") if PDF_READ[ruleset] == slug else ()
    for url in (f"/armies/{saved.pk}/{sheet}" for sheet in sheets):
        response = client.get(url)
        assert response["Content-Type"] == "application/pdf", url
        seen[url] = leaked(pdf_text(response.content), pairs)
    assert {url: found for url, found in seen.items() if found} == {}
