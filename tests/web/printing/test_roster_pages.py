"""A roster is compact: a twelve-unit army of twelve different units (each its own card,
no two alike) fits two pages of A4 and of Letter, its text still at 9pt or more."""

import io

import pytest
from pypdf import PdfReader

from armybuilder.printing import services
from bench.pdf import twelve_different_units

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_twelve_unit_army_of_different_units_prints_on_two_pages(paper):
    printed = services.army_sheet_pdf(twelve_different_units(), sheet="roster", paper=paper)
    pages = PdfReader(io.BytesIO(printed.pdf)).pages
    text = " ".join(page.extract_text() for page in pages)
    assert all(f"Unit number {n} of the host" in text for n in range(1, 13))
    assert len(pages) == 2
