"""A roster card holds its unit's table: on A4 and on Letter, no table, cell or word of it
runs past the card's edge, as WeasyPrint lays out the page the PDF is drawn from."""

import pytest
import weasyprint

from armybuilder.printing import pdf, services
from tests.support import EXAMPLES, example

pytestmark = pytest.mark.django_db

ARMIES = sorted(p.name for p in EXAMPLES.glob("*.json") if p.name != "expected.json")


def boxes(box):
    yield box
    for child in getattr(box, "children", None) or ():
        yield from boxes(child)


def is_card(box) -> bool:
    element = getattr(box, "element", None)
    return (
        element is not None
        and element.tag == "article"
        and "unit" in (element.get("class") or "").split()
        and getattr(box, "element_tag", "") == "article"
    )


def overflows(document) -> list[str]:
    """What runs past a unit card's right edge (inside its border), in points, and where."""
    found = []
    for number, page in enumerate(document.pages, 1):
        cards = [b for b in boxes(page._page_box) if is_card(b)]
        assert cards, f"page {number} has no unit card"
        for card in cards:
            inner = card.border_box_x() + card.border_width() - card.border_right_width
            name = " ".join(card.element.findtext(".//h3", "").split())
            for inside in boxes(card):
                kind = type(inside).__name__
                if kind.startswith("Table") or kind in ("TextBox", "LineBox"):
                    right = inside.position_x + inside.margin_width()
                    if right > inner + 0.01:
                        text = getattr(inside, "text", "")
                        found.append(
                            f"page {number}, {name}: {kind} {text!r} by {right - inner:.2f}pt"
                        )
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("army", ARMIES)
def test_no_unit_table_runs_past_its_card_edge(army, paper):
    html = services.army_sheet_html(example(army), sheet="roster", paper=paper, for_pdf=True)
    document = weasyprint.HTML(
        string=html, base_url=pdf.BASE_URL, url_fetcher=pdf.SafeFetcher()
    ).render()
    assert overflows(document) == []
