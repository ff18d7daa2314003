"""Page 1 of each sheet as a PNG in test-artifacts/, for a person to look at after CI.

pdftoppm comes from Debian's poppler-utils (``make test`` installs it when missing and
root); without it these tests are skipped, saying why.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from armybuilder.printing import services
from tests.support import ROOT, example

pytestmark = pytest.mark.django_db

ARTIFACTS = ROOT / "test-artifacts"
PDFTOPPM = shutil.which("pdftoppm")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

ARMY_SHEETS = [
    ("into-the-dark-source-examples.json", "roster"),
    ("into-the-dark-source-examples.json", "qrs"),
    ("dewitt-medieval-lance-and-bow.json", "roster"),
    ("feudal-2017-roll-4.json", "roster"),
    ("feudal-2017-roll-4.json", "qrs"),
]
RULESETS = ["into-the-dark", "dewitt-medieval", "dark-ages-2015", "dark-ages-d5", "feudal-2017"]


def first_page_png(pdf: bytes, name: str) -> Path:
    if PDFTOPPM is None:
        pytest.skip("pdftoppm (Debian package poppler-utils) is not installed")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = ARTIFACTS / name
    source = ARTIFACTS / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(  # noqa: S603 - fixed program, our own file names
        [
            PDFTOPPM,
            "-png",
            "-r",
            "110",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(source),
            str(stem),
        ],
        check=True,
        timeout=60,
    )
    return stem.with_suffix(".png")


def assert_is_a_rendered_page(png: Path) -> None:
    data = png.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    assert height > width > 500  # a portrait page, not an empty stub
    assert len(data) > 20_000  # text and rules drawn on it


@pytest.mark.parametrize(("source", "sheet"), ARMY_SHEETS)
def test_page_one_of_each_army_sheet_is_kept_as_a_png(source, sheet):
    printed = services.army_sheet_pdf(example(source), sheet=sheet)
    png = first_page_png(printed.pdf, f"{source.removesuffix('.json')}-{sheet}")
    assert_is_a_rendered_page(png)


@pytest.mark.parametrize("slug", RULESETS)
def test_page_one_of_each_rule_set_qrs_is_kept_as_a_png(slug):
    png = first_page_png(services.ruleset_qrs_pdf(slug).pdf, f"{slug}-qrs")
    assert_is_a_rendered_page(png)
