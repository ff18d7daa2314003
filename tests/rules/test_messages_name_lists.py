"""No message prints a list's slug: players know lists by their names.

For every shipped list an example army is built from the list's own entries (every entry
once, so counts, limits and groups all have something to say) and, where the rule set has
allied units, units from two other lists (one allied contingent too many, units that are
not their list's required units). Every issue message (and every unit's stat line) of
every such army is scanned for the slug of any shipped list, and for a slug turned into
words ("North Welsh") where the list's name says more ("North Welsh (Gwynedd)").
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import rules
from tests.support import _fixture_lists, army, fixture_list_names, fixture_lists

LISTS = [(ruleset, slug) for ruleset, found in _fixture_lists().items() for slug in found]
SLUGS = sorted({slug for _ruleset, slug in LISTS}, key=len, reverse=True)
# a slug as a word of its own, not part of a longer word or slug
SLUG = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, SLUGS)) + r")(?![\w-])")
NAMED = [(slug, name) for found in fixture_list_names().values() for slug, name in found.items()]
TITLES = sorted({name for _slug, name in NAMED}, key=len, reverse=True)


def as_words(slug: str) -> str:
    return " ".join(word.capitalize() for word in slug.replace("_", "-").split("-") if word)


# a slug of two words or more turned into words, for the lists whose name is something else
# (a one-word slug, "feudal" or "viking", is a word the messages use as a word)
WORDS = sorted({as_words(s) for s, name in NAMED if "-" in s and as_words(s) != name}, key=len)
SLUG_WORDS = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, reversed(WORDS))) + r")(?!\w)")


def example_army(ruleset: str, slug: str) -> dict[str, Any]:
    engine = rules.get_ruleset(ruleset)
    lists = fixture_lists(ruleset)
    units = [{"name": label, **values} for label, values in engine.unit_presets(lists[slug])]
    if any(f.name == "ally" for f in engine.unit_fields):
        others = [other for other in lists if other != slug][:2]
        for other in others:
            for n in range(4):
                units.append({"name": f"Ally {n}", "quality": "levy", "ally": other})
    return army(ruleset, units, army_list=slug)


def messages(ruleset: str, slug: str) -> list[str]:
    document = example_army(ruleset, slug)
    parsed = rules.parse_document(document, fixture_lists)
    report = rules.check(parsed)
    stat_lines = [str(v) for unit in report.units for v in unit.stats.values()]
    return [issue.message for issue in report.issues] + stat_lines


def slug_words(message: str) -> list[str]:
    """The slugs-as-words left in ``message`` once every list's real name is taken out."""
    for title in TITLES:
        message = message.replace(title, "")
    return SLUG_WORDS.findall(message)


def test_the_example_armies_have_messages_to_scan():
    assert LISTS
    assert WORDS  # some lists' names are more than their slug in words
    found = [m for ruleset, slug in LISTS for m in messages(ruleset, slug)]
    assert any("Allies from 2 lists" in m for m in found)
    assert any("allied (" in m for m in found)  # an allied unit's stat line names its list


def test_the_scan_finds_a_slug_turned_into_words():
    slug, name = next((s, n) for s, n in NAMED if "-" in s and as_words(s) != n)
    assert slug_words(f"Allies from {as_words(slug)}.") == [as_words(slug)]
    assert slug_words(f"Allies from {name}.") == []


@pytest.mark.parametrize(("ruleset", "slug"), LISTS, ids=[f"{r}/{s}" for r, s in LISTS])
def test_no_message_of_a_lists_example_army_prints_a_slug(ruleset, slug):
    printed = {m: SLUG.findall(m) + slug_words(m) for m in messages(ruleset, slug)}
    assert {m: found for m, found in printed.items() if found} == {}


def test_an_allied_contingent_is_named_by_its_lists_name():
    ruleset, own = next((r, s) for r, s in LISTS if r == "dark-ages-d5")
    found = messages(ruleset, own)
    others = [other for other in fixture_lists(ruleset) if other != own][:2]
    names = fixture_list_names()[ruleset]
    wanted = f"Allies from 2 lists ({names[others[0]]}, {names[others[1]]})"
    assert any(m.startswith(wanted) for m in found), found
