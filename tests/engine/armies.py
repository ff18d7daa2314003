"""Random armies for comparing the browser's engine with the server's: every rule set, on
no list and on each of its army lists, units from the lists' own presets and from the whole
vocabulary, changed at random so that checks fail as well as pass."""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

import rules
from tests.web.api.test_views_properties import documents, json_values, value_for

LISTED = "muster.army/1"


@st.composite
def listed_armies(draw, lists: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """An army on one of ``lists`` ({ruleset: {slug: data}}): the list's presets, some
    changed field by field, some repeated past an entry's maximum, a points limit that
    may be too low."""
    slug = draw(st.sampled_from(sorted(lists)))
    ruleset = rules.get_ruleset(slug)
    list_slug = draw(st.sampled_from(sorted(lists[slug])))
    presets = ruleset.unit_presets(lists[slug][list_slug]) or [("unit", {})]
    units = []
    for _ in range(draw(st.integers(0, 12))):
        _, values = draw(st.sampled_from(presets))
        unit = copy.deepcopy(values)
        unit.setdefault("name", "Unit")
        for field in draw(
            st.lists(st.sampled_from(ruleset.unit_fields), max_size=2, unique_by=lambda f: f.name)
        ):
            if field.name != "ally":
                unit[field.name] = draw(value_for(field))
        units.append(unit)
    document: dict[str, Any] = {
        "format": LISTED,
        "name": "Random army",
        "ruleset": slug,
        "army_list": list_slug,
        "units": units,
    }
    if ruleset.uses_points:
        document["points_limit"] = draw(st.one_of(st.none(), st.integers(50, 2000)))
    if ruleset.has_generals and draw(st.booleans()):
        general = {f.name: draw(value_for(f)) for f in ruleset.general_fields if f.required}
        document["generals"] = [general]
    return document


JS_SAFE = 2**53  # JavaScript's numbers are doubles: whole numbers past this lose digits


def same_in_javascript(value: Any) -> bool:
    """``value`` reads back unchanged from JSON parsed by JavaScript: a page holds its army
    as JavaScript values, so a whole number past 2**53, or a float such as 2.0 (which reads
    back as 2), never reaches a page's engine as the server read it. The server never saves
    one: every number field is bounded, and a whole-number field takes 2.0 as 2."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int):
        return -JS_SAFE <= value <= JS_SAFE
    if isinstance(value, float):  # JSON has no Infinity: a page never holds one
        return math.isfinite(value) and not value.is_integer()
    if isinstance(value, list):
        return all(same_in_javascript(item) for item in value)
    if isinstance(value, dict):
        return all(same_in_javascript(item) for item in value.values())
    return False


@st.composite
def mangled_armies(draw, lists: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """An army on a list with one value the parser refuses (or, by chance, accepts)."""
    document = draw(listed_armies(lists))
    junk = draw(json_values.filter(same_in_javascript))
    where = draw(st.sampled_from(["unit", "top", "new"]))
    if where == "unit" and document["units"]:
        unit = draw(st.sampled_from(document["units"]))
        unit[draw(st.sampled_from(sorted(unit)))] = junk
    elif where == "top":
        document[draw(st.sampled_from(["name", "points_limit", "army_list", "units"]))] = junk
    else:
        document[draw(st.text(min_size=1, max_size=8))] = junk
    return document


def armies(lists: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> st.SearchStrategy[Any]:
    """Armies on a list (most), on none, and mangled ones, any rule set."""
    listed = listed_armies(lists)
    return st.one_of(listed, listed, listed, documents(), mangled_armies(lists))
