"""No message prints a list's slug: players know lists by their names.

For every shipped list an example army is built from the list's own entries (every entry
once, so counts, limits and groups all have something to say) and, where the rule set has
allied units, units from two other lists (one allied contingent too many, units that are
not their list's required units). Every issue message of every such army is scanned for
the slug of any shipped list.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import rules
from tests.support import _fixture_lists, army, fixture_lists

LISTS = [(ruleset, slug) for ruleset, found in _fixture_lists().items() for slug in found]
SLUGS = sorted({slug for _ruleset, slug in LISTS}, key=len, reverse=True)
# a slug as a word of its own, not part of a longer word or slug
SLUG = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, SLUGS)) + r")(?![\w-])")


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
    return [issue.message for issue in rules.check(parsed).issues]


def test_the_example_armies_have_messages_to_scan():
    assert LISTS
    found = [m for ruleset, slug in LISTS for m in messages(ruleset, slug)]
    assert any("Allies from 2 lists" in m for m in found)


@pytest.mark.parametrize(("ruleset", "slug"), LISTS, ids=[f"{r}/{s}" for r, s in LISTS])
def test_no_message_of_a_lists_example_army_prints_a_slug(ruleset, slug):
    printed = {m: SLUG.findall(m) for m in messages(ruleset, slug)}
    assert {m: found for m, found in printed.items() if found} == {}
