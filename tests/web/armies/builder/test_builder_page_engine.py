"""The page's engine draws what the server draws: from the data the builder page embeds
(``builder_page.engine_data``) and the operations the page sends, ``rules.page.builder``
gives every figure and word the server's presenters give once those operations landed."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.armies import services
from armybuilder.armies.builder import builder_page, presenters
from armybuilder.armies.documents import check_army, ruleset_of
from rules.page import builder
from tests.support import army
from tests.web.armies.sending import operation, send_batch

FIELDS = {
    "feudal-2017": [
        ("type", st.sampled_from(["knights", "serjeants", "freemen", "bowmen", "cavalry"])),
        ("advantage", st.sampled_from([None, "determined", "melee_plus"])),
        ("disadvantage", st.sampled_from([None, "unenthusiastic"])),
    ],
    "into-the-dark": [
        ("figures", st.integers(min_value=1, max_value=30)),
        ("quality", st.sampled_from(["levy", "average", "elite", "fanatic"])),
        ("armour", st.sampled_from(["unarmoured", "protected", "armoured", "mailed"])),
    ],
    "dark-ages-d5": [
        ("change", st.sampled_from([None, "household", "determined", "levy", "reluctant"])),
        ("type", st.sampled_from(["infantry", "warriors", "cavalry", "skirmishers"])),
    ],
}
ARMIES = {
    "feudal-2017": lambda: army(
        "feudal-2017",
        [{"name": f"Serjeants {i}", "type": "serjeants"} for i in range(5)],
        army_list="north-welsh",
    ),
    "into-the-dark": lambda: army(
        "into-the-dark",
        # two of one name: the engine numbers them as the server does, copies and renames too
        [
            {"name": "Militia", "quality": "levy", "figures": 12},
            {"name": "Spears", "figures": 8},
            {"name": "Militia", "quality": "levy", "figures": 10},
        ],
        points_limit=150,
    ),
    "dark-ages-d5": lambda: army(
        "dark-ages-d5",
        [{"name": f"Hird {i}", "type": "infantry"} for i in range(3)],
        army_list="viking",
    ),
}


def server_drawing(saved: Any) -> dict[str, Any]:
    """What the server's presenters draw of the army as saved."""
    checked = check_army(saved)
    ruleset = ruleset_of(saved)
    view = presenters.builder(checked, ruleset, controls=False)
    assert view.totals is not None
    statuses = builder_page.entry_statuses(checked, ruleset)
    return {
        "units": [
            {
                "id": row.item_id,
                "name": row.name,
                "points": row.points,
                "breakdown": list(row.breakdown),
                "stats": [[s.label, s.value] for s in row.stats],
                "descriptor": row.descriptor,
                "size": row.size,
                "code": row.code,
                "problems": [p.message for p in row.problems],
                "mark": row.mark if not row.valid else "",
            }
            for row in view.unit_rows
        ],
        "issues": [(i.severity, i.code, i.message, i.rule, i.href, i.target) for i in view.issues],
        "totals": {
            "total": view.totals.total,
            "valid": view.totals.valid,
            "errors": view.totals.errors,
            "warnings": view.totals.warnings,
            "verdict": view.totals.verdict,
            "left": view.totals.left,
            "percent": view.totals.percent,
            "matrix_text": view.totals.matrix_text,
        },
        "counts": {
            e.dom_id: e.counts for e in builder_page.picker_entries(checked, ruleset, statuses)
        },
    }


def engine_drawing(figures: dict[str, Any]) -> dict[str, Any]:
    """The same, from the page engine's answer."""
    return {
        "units": [
            {
                "id": u["id"],
                "name": u["name"],
                "points": u["points"],
                "breakdown": u["breakdown"],
                "stats": u["stats"],
                "descriptor": u["descriptor"],
                "size": u["size"],
                "code": u["code"],
                "problems": [p["message"] for p in u["problems"]],
                "mark": u["mark"] if not u["valid"] else "",
            }
            for u in figures["units"]
        ],
        "issues": [
            (i["severity"], i["code"], i["message"], i["rule"], i["href"], i["target"])
            for i in figures["issues"]
        ],
        "totals": {
            k: figures["totals"][k]
            for k in (
                "total",
                "valid",
                "errors",
                "warnings",
                "verdict",
                "left",
                "percent",
                "matrix_text",
            )
        },
        "counts": {e["dom_id"]: e["counts"] for e in figures["entries"]},
    }


@st.composite
def edits(draw: Any, ruleset: str, ids: list[str]) -> list[tuple[str, str, str, Any]]:
    ids = list(ids)
    made: list[tuple[str, str, str, Any]] = []
    for n in range(draw(st.integers(min_value=1, max_value=6))):
        kind = draw(st.sampled_from(["set", "set", "set", "duplicate", "move", "delete"]))
        if not ids:
            break
        target = draw(st.sampled_from(ids))
        if kind == "set":
            field, values = draw(st.sampled_from(FIELDS[ruleset]))
            made.append(("set", target, field, draw(values)))
        elif kind == "duplicate":
            made.append(("duplicate", target, "", {"id": f"dup{n:05d}"}))
            ids.append(f"dup{n:05d}")
        elif kind == "move":
            made.append(("move", target, "", draw(st.sampled_from(["up", "down"]))))
        else:
            made.append(("delete", target, "", None))
            ids.remove(target)
    return made


@pytest.mark.django_db
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), ruleset=st.sampled_from(sorted(ARMIES)))
def test_the_page_engines_figures_for_unanswered_edits_are_the_servers_once_they_land(
    owner_client: Any, user: Any, data: Any, ruleset: str
):
    saved = services.create_army(ARMIES[ruleset](), owner=user)
    embedded = builder_page.engine_data(saved)
    page = embedded["engine_army"]
    ids = [u["id"] for u in page["document"]["units"]]
    ops = [operation(saved, *made) for made in data.draw(edits(ruleset, ids))]
    builder.forget(page["army"])
    figures = builder.report(
        army=page["army"],
        version=page["version"],
        document=page["document"],
        lists=embedded["engine_lists"],
        lists_key=page["lists_key"],
        operations=ops,
    )
    answer = send_batch(owner_client, saved, ops).json()
    statuses = {r["key"]: r["status"] for r in answer["results"]}
    refused_here = set(figures["refused"])
    assert {k for k, s in statuses.items() if s != "applied"} == refused_here
    saved.refresh_from_db()
    assert engine_drawing(figures) == server_drawing(saved)


def test_the_builder_page_embeds_the_saved_document_and_its_pinned_lists(
    owner_client, user, settings
):
    from armybuilder.pageengine import runtime_available

    if not runtime_available():
        pytest.fail("the page engine's runtime is not vendored: run `make vendor`")
    settings.MUSTER_PAGE_ENGINE = True
    saved = services.create_army(ARMIES["dark-ages-d5"](), owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    found = re.search(r'<script id="engine-army" type="application/json">(.*?)</script>', page)
    assert found is not None
    embedded = json.loads(found.group(1))
    assert embedded["version"] == saved.version and embedded["document"] == saved.document
    lists = re.search(r'<script id="engine-lists" type="application/json">(.*?)</script>', page)
    assert lists is not None and "viking" in json.loads(lists.group(1))["data"]


def test_a_builder_page_without_the_engine_carries_no_lists_as_data(owner_client, user):
    saved = services.create_army(ARMIES["dark-ages-d5"](), owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert 'id="engine-army"' not in page and 'id="engine-lists"' not in page
