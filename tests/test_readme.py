"""The README is a page a newcomer reads in one go, and every page it hands off to is
reachable from it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_readme_is_under_250_lines():
    assert len(README.read_text().splitlines()) < 250


def test_every_page_under_docs_is_linked_from_the_readme():
    linked = {m for m in LINK.findall(README.read_text()) if m.startswith("docs/")}
    on_disk = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert on_disk - linked == set()


def test_every_local_link_of_the_readme_and_docs_leads_to_a_file():
    broken = []
    for page in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in LINK.findall(page.read_text()):
            if "://" in target:
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert broken == []


def test_the_readme_keeps_the_two_commands_and_the_configuration():
    text = README.read_text()
    assert "make run" in text and "make test" in text
    assert "## Configuration" in text
