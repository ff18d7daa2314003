"""Printing for players: emoji in names print with the bundled font, any
character no font has is named on the sheet, and the roster's running text is >= 9pt."""

import io
import re

import pytest
from pypdf import PdfReader

from armybuilder.printing import services
from tests.support import army, example

pytestmark = pytest.mark.django_db


def fonts_of(pdf: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(pdf))
    names = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).split("+", 1)[-1])
    return names


def text_of(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    text = " ".join(page.extract_text() or "" for page in reader.pages).replace("\x00", "")
    return re.sub(r"\s+", " ", text)


def sized_spans(pdf: bytes) -> list[tuple[str, float]]:
    """(text, size in points) of each text run on the first page."""
    spans: list[tuple[str, float]] = []

    def visit(text, cm, tm, font, size):
        text = text.replace("\x00", "").strip()
        if text:
            spans.append((text, round(size * (tm[0] or 1) * (cm[0] or 1), 1)))

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return spans


def test_emoji_in_names_print_with_the_bundled_emoji_font():
    doc = army("into-the-dark", [{"name": "Dragon 🐉 Guard 🛡️"}], name="Swiss 👑 Pike Block")
    pdf = services.army_sheet_pdf(doc, sheet="roster").pdf
    assert "Muster-Emoji" in fonts_of(pdf)
    text = text_of(pdf)
    assert "🐉" in text and "👑" in text
    assert "could not print" not in text and "No font here" not in text


def test_a_character_no_font_has_is_named_on_the_sheet():
    doc = army("into-the-dark", [{"name": "Levy \U0001fa7f"}], name="Host \U0010fffd")
    pdf = services.army_sheet_pdf(doc, sheet="roster").pdf
    text = text_of(pdf)
    assert "No font here can print these characters" in text
    assert "U+10FFFD" in text and "U+1FA7F" in text


def test_roster_running_text_is_at_least_9pt():
    pdf = services.army_sheet_pdf(example("into-the-dark-source-examples.json"), sheet="roster").pdf
    spans = sized_spans(pdf)
    body = [(t, s) for t, s in spans if t.startswith(("Quality:", "Points:", "Printed"))]
    assert body, spans[:20]
    assert all(size >= 9 for _, size in body), body
    chars = sum(len(t) for t, _ in spans)
    small = sum(len(t) for t, s in spans if s < 9)
    assert small / chars < 0.2, [(t, s) for t, s in spans if s < 9]
