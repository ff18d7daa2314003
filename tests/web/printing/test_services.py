"""The printed sheets read back with pypdf: roster contents, QRS tables, pages and paper."""

import io
import re

import pytest
from pypdf import PdfReader

from armybuilder.printing import services
from rules.qrs import qrs_sheet
from tests.support import army, example

pytestmark = pytest.mark.django_db

ITD_UNIT = {
    "name": "Town Militia",
    "figures": 12,
    "quality": "levy",
    "density": "close",
    "armour": "unarmoured",
}


def pages_text(pdf: bytes) -> list[str]:
    """Each page's text with whitespace runs folded, as a reader finds it."""
    reader = PdfReader(io.BytesIO(pdf))
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in reader.pages]


def text_of(pdf: bytes) -> str:
    return " ".join(pages_text(pdf))


def test_roster_of_the_source_examples_reads_back_names_costs_total_and_general():
    printed = services.army_sheet_pdf(example("into-the-dark-source-examples.json"), sheet="roster")
    assert printed.pdf.startswith(b"%PDF")
    text = text_of(printed.pdf)
    for name in ("Town Militia", "Knights", "Combat Archers", "Champion"):
        assert name in text
    for points in ("44 pts", "242 pts", "160 pts", "60 pts", "75 pts"):
        assert points in text
    assert "581 points of 1000" in text
    assert "Count Odo" in text
    assert "LEGAL" in text and "NOT LEGAL" not in text
    # the breakdown a player checks the sums with
    assert "12 figures x 16 = 192" in text


def test_illegal_army_roster_shows_not_legal_and_lists_its_errors():
    knights = dict(ITD_UNIT, name="Mounted Bowmen", mounted=True, training="missile")
    knights["missile_weapon"] = "foot_bow"
    doc = army("into-the-dark", [ITD_UNIT, knights], points_limit=50)
    text = text_of(services.army_sheet_pdf(doc, sheet="roster").pdf)
    assert "NOT LEGAL" in text
    assert "Army costs" in text and "the limit is 50" in text
    assert "Mounted Bowmen: foot bow is a foot weapon" in text
    assert "Errors (2)" in text


def test_roster_groups_units_under_their_generals_division():
    doc = army(
        "into-the-dark",
        [
            dict(ITD_UNIT, name="Stray Levy"),
            *(dict(ITD_UNIT, name=f"Hugh's Militia {i}", division="Hugh") for i in (1, 2, 3)),
            *(dict(ITD_UNIT, name=f"Odo's Militia {i}", division="Count Odo") for i in (1, 2, 3)),
        ],
        generals=[
            {"name": "Count Odo", "rating": "good", "commanding": True},
            {"name": "Hugh", "rating": "poor"},
        ],
    )
    text = text_of(services.army_sheet_pdf(doc, sheet="roster").pdf)
    assert "Warnings" not in text  # divisions of 3: nothing else names the generals
    order = [
        text.index(s)
        for s in (
            "Count Odo's division",
            "Odo's Militia",
            "Hugh's division",
            "Hugh's Militia",
            "Units in no division",
            "Stray Levy",
        )
    ]
    assert order == sorted(order)


def test_roster_of_a_stand_based_army_shows_stands_and_the_commander():
    text = text_of(
        services.army_sheet_pdf(example("dewitt-medieval-lance-and-bow.json"), sheet="roster").pdf
    )
    assert "358 points" in text
    assert "4 stands × 3 = 12 figures" in text
    assert "C-in-C" in text


def test_force_matrix_roster_prints_its_matrix_row_instead_of_points():
    text = text_of(services.army_sheet_pdf(example("feudal-2017-roll-4.json"), sheet="roster").pdf)
    assert "Force matrix row 4" in text
    assert "points" not in text.split("Printed")[0]
    assert "Knight errant with banner" in text


@pytest.mark.parametrize(
    ("slug", "units"),
    [
        ("dark-ages-2015", [{"name": "Shieldwall", "type": "infantry"}]),
        ("dark-ages-d5", [{"name": "Teulu", "type": "cavalry", "missile": "javelin"}]),
    ],
)
def test_roster_of_the_unit_count_rulesets_prints_units_and_stat_lines(slug, units):
    text = text_of(services.army_sheet_pdf(army(slug, units), sheet="roster").pdf)
    assert units[0]["name"] in text
    assert "1 unit" in text
    assert "Hits" in text


MORALE_IN_PRINT = {
    "into-the-dark": ["Morale results", "over by 2 or 3", 'Driven back 4"', "over by 4 or more"],
    "dewitt-medieval": ["Morale by hits", "4 hits Unit destroyed"],
    "dark-ages-2015": ["Removed from the table at", "Standard 15 hits", "Elite / stubborn 18 hits"],
    "dark-ages-d5": ["Removed from the table at", "Determined (upgrade) 18 hits"],
    "feudal-2017": ["Rallies (phase 4)", "never rallies below 5"],
}


@pytest.mark.parametrize("slug", sorted(MORALE_IN_PRINT))
def test_qrs_pdf_of_each_ruleset_contains_its_morale_or_result_table(slug):
    text = text_of(services.ruleset_qrs_pdf(slug).pdf)
    for expected in MORALE_IN_PRINT[slug]:
        assert expected in text, (slug, expected)


def test_feudal_qrs_of_an_army_at_bw_4_prints_moves_in_inches_for_that_bw():
    doc = example("feudal-2017-roll-4.json")
    doc["options"] = {"base_width_in": 4}
    text = text_of(services.army_sheet_pdf(doc, sheet="qrs").pdf)
    assert 'Movement at BW 4"' in text
    assert '3 Knights, cavalry 4" +4" +2" 8"' in text
    assert '1 Serjeants, freemen, bowmen 2" +2" +2" 4"' in text
    assert 'BW 4", BD 2"' in text
    assert '2BW = 8"' in text


@pytest.mark.parametrize("slug", sorted(MORALE_IN_PRINT))
def test_core_tables_of_each_qrs_fit_on_two_a4_pages(slug):
    sheet = qrs_sheet(slug, None)
    pages = pages_text(services.ruleset_qrs_pdf(slug, paper="a4").pdf)
    core_pages = len(pages)
    if sheet.army:  # the army/reference part starts on a page of its own
        core_pages = next(i for i, t in enumerate(pages) if sheet.army_title in t)
    assert core_pages <= 2, (slug, core_pages)
    core_text = " ".join(pages[:core_pages])
    for section in sheet.core:
        assert section.title in core_text


def test_army_qrs_keeps_core_on_two_pages_then_adds_the_army_part():
    doc = example("into-the-dark-source-examples.json")
    pages = pages_text(services.army_sheet_pdf(doc, sheet="qrs").pdf)
    start = next(i for i, t in enumerate(pages) if "Army: Worked examples" in t)
    assert 1 <= start <= 2
    assert "Stat lines of the units this army fields" in pages[start]


@pytest.mark.parametrize(("paper", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_sheets_print_on_a4_or_us_letter(paper, size):
    doc = example("into-the-dark-source-examples.json")
    for sheet in ("roster", "qrs"):
        reader = PdfReader(io.BytesIO(services.army_sheet_pdf(doc, sheet=sheet, paper=paper).pdf))
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == size


def test_long_roster_numbers_pages_and_never_splits_a_unit_block():
    units = [dict(ITD_UNIT, name=f"Levy band {i:02d}", figures=4 + i) for i in range(40)]
    pages = pages_text(services.army_sheet_pdf(army("into-the-dark", units), sheet="roster").pdf)
    total = len(pages)
    assert total >= 3
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of {total}" in page
    for i in range(40):
        # the block's heading and its last line (the cost breakdown) share a page
        heading = next(p for p, t in enumerate(pages) if f"Levy band {i:02d}" in t)
        assert f"{4 + i} figures x 2 = {2 * (4 + i)}" in pages[heading], i


def test_roster_prints_the_share_link_and_its_qr_code_only_when_shared():
    doc = example("into-the-dark-source-examples.json")
    url = "https://muster.example/s/abcdefghijklmnopqrstuvwxyz012345/"
    shared = services.army_sheet_html(doc, sheet="roster", share_url=url, for_pdf=True)
    private = services.army_sheet_html(doc, sheet="roster", for_pdf=True)
    assert shared.count("<svg") == 1 and 'class="qr"' in shared
    assert "<svg" not in private and 'class="qr"' not in private
    printed = text_of(services.army_sheet_pdf(doc, sheet="roster", share_url=url).pdf)
    assert url in printed.replace(" ", "")


def test_roster_header_shows_rule_set_list_date_and_notes():
    doc = example("into-the-dark-source-examples.json")
    text = text_of(services.army_sheet_pdf(doc, sheet="roster").pdf)
    assert "Into the Dark" in text
    assert "No army list" in text
    assert "Printed" in text
    assert "the good general costs 3 x 25 = 75" in text


ARMIES = {
    "into-the-dark": army("into-the-dark", [ITD_UNIT]),
    "dewitt-medieval": example("dewitt-medieval-lance-and-bow.json"),
    "dark-ages-2015": army(
        "dark-ages-2015",
        [{"name": "Teulu", "type": "cavalry", "missile": "javelin", "personality": "hero"}],
    ),
    "dark-ages-d5": army("dark-ages-d5", [{"name": "Picts", "type": "warriors"}]),
    "feudal-2017": example("feudal-2017-roll-4.json"),
}


@pytest.mark.parametrize("slug", sorted(ARMIES))
def test_army_qrs_of_each_ruleset_adds_the_stat_lines_of_its_units(slug):
    doc = ARMIES[slug]
    pages = pages_text(services.army_sheet_pdf(doc, sheet="qrs").pdf)
    start = next(i for i, t in enumerate(pages) if f"Army: {doc['name']}" in t)
    assert start <= 2
    army_part = " ".join(pages[start:])
    assert "Stat lines of the units this army fields" in army_part
    assert doc["units"][0]["name"] in army_part
