"""No text in an army makes the PDF renderer read a local file or call the network."""

import io
import json
import re
import socket
import threading
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from pypdf import PdfReader

from armybuilder.printing import pdf as pdf_module
from armybuilder.printing import services
from tests.support import army

pytestmark = pytest.mark.django_db

PASSWD = Path("/etc/passwd")
HOSTILE_NAME = '<img src="file:///etc/passwd"><link href="http://127.0.0.1:9/x">'
HOSTILE_NOTES = "\n".join(
    [
        '<img src="file:///etc/passwd">',
        '<link rel="stylesheet" href="http://127.0.0.1:9/x">',
        "<style>@import url(file:///etc/passwd); body { background: url('http://127.0.0.1:9/bg') }</style>",
        '<div style="background-image: url(file:///etc/passwd)">styled</div>',
        '</p></section><object data="file:///etc/passwd"></object>',
        "@font-face { font-family: x; src: url(file:///etc/passwd) }",
        '<svg><image href="file:///etc/passwd"/></svg>',
        '<iframe src="file:///etc/passwd"></iframe>',
    ]
)
HOSTILE_UNIT = "x{background:url(file:///etc/passwd)}</style><img src=file:///etc/passwd>"


class RecordingFetcher(services.SafeFetcher):
    """The real fetcher, remembered so a test can read what it was asked for."""

    made: list["RecordingFetcher"] = []

    def __init__(self) -> None:
        super().__init__()
        RecordingFetcher.made.append(self)


@pytest.fixture
def recording(monkeypatch, settings):
    settings.MUSTER_PDF_TIME_LIMIT = 0  # render in-process so the record is this one
    cache.clear()
    RecordingFetcher.made = []
    monkeypatch.setattr(pdf_module, "SafeFetcher", RecordingFetcher)
    return RecordingFetcher.made


def passwd_lines() -> list[str]:
    if not PASSWD.exists():
        pytest.skip("no /etc/passwd on this machine")
    lines = [line.strip() for line in PASSWD.read_text().splitlines()]
    return [line for line in lines if len(line) > 8]


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def hostile_army() -> dict:
    unit = {
        "name": HOSTILE_UNIT,
        "figures": 12,
        "quality": "levy",
        "density": "close",
        "armour": "unarmoured",
    }
    return army("into-the-dark", [unit], name=HOSTILE_NAME, notes=HOSTILE_NOTES)


@pytest.mark.parametrize("sheet", ["roster", "qrs"])
def test_hostile_army_text_renders_as_text_and_fetches_nothing_outside_static(recording, sheet):
    printed = services.army_sheet_pdf(hostile_army(), sheet=sheet)
    text = pdf_text(printed.pdf)
    for line in passwd_lines():
        assert line not in text
    assert "root:x:" not in text
    assert recording, "the render went through the safe fetcher"
    fetched = [url for fetcher in recording for url in fetcher.fetched]
    refused = [url for fetcher in recording for url in fetcher.refused]
    assert refused == []  # escaping kept every trick from even reaching the fetcher
    assert fetched == [
        services.BASE_URL + "static/css/print.css",
        services.BASE_URL + "static/fonts/NotoEmoji-Regular.ttf",
        services.BASE_URL + "static/css/paper-a4.css",
    ]
    # the army's own words are printed as the player typed them
    assert "file:///etc/passwd" in text.replace("\n", "")


def test_hostile_text_is_escaped_in_the_html_preview():
    html = services.army_sheet_html(hostile_army(), sheet="roster")
    assert "<img" not in html and "<link href=" not in html and "<iframe" not in html
    assert "&lt;img src=&quot;file:///etc/passwd&quot;&gt;" in html


@pytest.fixture
def listener():
    """A local TCP server that counts connections: proof the renderer never called it."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    hits: list[int] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            hits.append(1)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], hits
    stop.set()
    thread.join(timeout=2)
    server.close()


def test_fetcher_blocks_raw_hostile_html_even_without_escaping(listener):
    port, hits = listener
    html = f"""<!doctype html><html><head>
      <link rel="stylesheet" href="http://127.0.0.1:{port}/x.css">
      <link rel="stylesheet" href="file:///etc/passwd">
      <style>
        @import url(http://127.0.0.1:{port}/import.css);
        @font-face {{ font-family: evil; src: url(file:///etc/passwd); }}
        body {{ background: url(http://127.0.0.1:{port}/bg.png); font-family: evil; }}
      </style></head><body>
      <p>Safe text</p>
      <img src="file:///etc/passwd">
      <img src="http://127.0.0.1:{port}/pixel.png">
      <object data="file:///etc/passwd"></object>
      <embed src="file:///etc/shadow">
      <svg><image href="file:///etc/passwd" width="10" height="10"/></svg>
    </body></html>"""
    fetcher = services.SafeFetcher()
    pdf = pdf_module.html_to_pdf(html, fetcher)
    text = pdf_text(pdf)
    assert "Safe text" in text
    for line in passwd_lines():
        assert line not in text
    assert hits == []
    assert fetcher.fetched == []
    assert f"http://127.0.0.1:{port}/x.css" in fetcher.refused
    assert "file:///etc/passwd" in fetcher.refused
    assert all(url.startswith(("file://", f"http://127.0.0.1:{port}")) for url in fetcher.refused)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://127.0.0.1:9/x",
        "https://example.com/static/css/print.css",
        "http://muster.invalid/static/css/print.css",
        "https://muster.invalid/etc/passwd",
        "https://muster.invalid/static/../../../etc/passwd",
        "https://muster.invalid/static/%2e%2e/%2e%2e/etc/passwd",
        "https://muster.invalid/static//etc/passwd",
        "https://muster.invalid/static/css/..%2f..%2fsettings.py",
        "https://muster.invalid/static/css/missing.css",
        "https://muster.invalid/static/css/print.css%00.png",
        "data:text/css,body{color:red}",
        "ftp://muster.invalid/static/css/print.css",
    ],
)
def test_fetcher_refuses_everything_but_our_static_files(url):
    fetcher = services.SafeFetcher()
    with pytest.raises(pdf_module.FetchRefused):
        fetcher(url)
    assert fetcher.refused == [url]
    assert fetcher.fetched == []


def test_fetcher_serves_the_print_stylesheet_from_our_static_files():
    fetcher = services.SafeFetcher()
    url = services.BASE_URL + "static/css/print.css"
    result = fetcher(url)
    assert result.headers.get_content_type() == "text/css"
    assert b"@page" in result.read()
    assert fetcher.fetched == [url]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Normans at Hastings", "normans-at-hastings-roster-a4.pdf"),
        ('Ælfred\'s "Fyrd"; rm -rf /\r\nX-Evil: 1', "lfreds-fyrd-rm-rf-x-evil-1-roster-a4.pdf"),
        ("ᚠᚢᚦᚨᚱᚲ", "army-roster-a4.pdf"),
        ("../../etc/passwd", "etcpasswd-roster-a4.pdf"),
    ],
)
def test_pdf_filename_is_a_safe_ascii_slug_of_the_army_name(name, expected):
    filename = services.pdf_filename(name, sheet="roster")
    assert filename == expected
    header = services.content_disposition(filename)
    assert header == f'attachment; filename="{expected}"'
    assert re.fullmatch(r'attachment; filename="[a-z0-9-]+-roster-a4\.pdf"', header)


def test_pdf_filename_says_army_sheet_and_paper():
    assert services.pdf_filename("Swiss Pike Block", sheet="roster", paper="letter") == (
        "swiss-pike-block-roster-letter.pdf"
    )
    assert (
        services.pdf_filename("Swiss Pike Block", sheet="qrs", paper="a4")
        == "swiss-pike-block-qrs-a4.pdf"
    )


def test_more_than_500_units_is_a_clear_error_not_a_render(client):
    unit = {"name": "Levy", "figures": 4, "quality": "levy"}
    doc = army("into-the-dark", [unit] * 501)
    response = client.post("/api/v1/roster.pdf", json.dumps(doc), content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "error": "units: 501 units; an army has at most 500",
        "path": "units",
    }


def test_a_render_that_fails_is_a_clear_400_everywhere(client, monkeypatch, settings, tmp_path):
    settings.MUSTER_PDF_TIME_LIMIT = 0
    cache.clear()

    def broken(*args, **kwargs):
        raise RecursionError("layout blew up")

    monkeypatch.setattr(pdf_module.weasyprint, "HTML", broken)
    doc = army("into-the-dark", [{"name": "Levy"}])
    response = client.post("/api/v1/qrs.pdf", json.dumps(doc), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"].startswith("The PDF could not be made")
    page = client.get("/rulesets/into-the-dark/qrs.pdf")
    assert page.status_code == 400
    assert b"The PDF could not be made" in page.content
    source = tmp_path / "army.json"
    source.write_text(json.dumps(doc))
    with pytest.raises(SystemExit) as exit_info:
        call_command("muster", "pdf", str(source), "--sheet", "roster", "--output", "x.pdf")
    assert exit_info.value.code == 2


def test_a_render_past_the_time_limit_is_stopped_with_a_clear_error():
    units = [{"name": f"Levy {i}", "figures": 4 + i % 9} for i in range(120)]
    html = services.army_sheet_html(army("into-the-dark", units), sheet="roster", for_pdf=True)
    with pytest.raises(services.RenderError, match="took longer than 0.2 seconds"):
        services.render_pdf(html, limit=0.2)


def test_the_time_limited_render_returns_the_same_pdf_and_fetch_record():
    html = services.army_sheet_html(
        army("into-the-dark", [{"name": "Levy"}]), sheet="qrs", for_pdf=True
    )
    fetcher = services.SafeFetcher()
    pdf = services.render_pdf(html, fetcher, limit=60)
    assert pdf.startswith(b"%PDF")
    assert "Morale results" in pdf_text(pdf)
    assert fetcher.fetched == [
        services.BASE_URL + "static/css/print.css",
        services.BASE_URL + "static/fonts/NotoEmoji-Regular.ttf",
        services.BASE_URL + "static/css/paper-a4.css",
    ]
