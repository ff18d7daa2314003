"""Everything the engine answers for the armies and lists we ship, as one JSON value.

The golden file holds every answer the engine gives for them (check reports, QRS sheets, list
descriptions, presets, rolled forces), so a change of layout inside the engine is proved to
change none; the test beside this module recomputes it. Regenerate only for a deliberate
ruling or wording change:

    .venv/bin/python -m tests.rules.report_golden --write

and say in the commit which entries changed and why.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import rules
from rules.errors import MalformedDocument
from rules.qrs import qrs_sheet
from tests.support import DATA, EXAMPLES, fixture_lists

GOLDEN = DATA / "engine_answers.json"
ROLL_SEEDS = (1, 2, 3, 4)


def _plain(value: Any) -> Any:
    """JSON-ready: dataclasses, tuples, Fractions and the like made plain."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return f"Fraction({value})"
    if isinstance(value, float) and value.is_integer():
        return f"float({value})"  # keep 12.0 apart from 12
    return value


def _lookup(ruleset: str) -> Mapping[str, Mapping[str, Any]]:
    return fixture_lists(ruleset)


def _check(doc: Any) -> dict[str, Any]:
    """The check report and the army's QRS, or the parser's refusal."""
    try:
        army, report = rules.check_document(copy.deepcopy(doc), _lookup)
    except MalformedDocument as refused:
        return {"malformed": str(refused)}
    out: dict[str, Any] = {"report": _plain(report.to_json())}
    try:
        out["qrs"] = _plain(qrs_sheet(army.ruleset, army))
    except KeyError as missing:
        out["qrs"] = f"KeyError: {missing}"
    return out


def _example_armies() -> dict[str, Any]:
    return {
        path.name: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(EXAMPLES.glob("*.json"))
        if path.name != "expected.json"
    }


def _corpus_armies() -> dict[str, Any]:
    from tests.rules.check_corpus import CORPUS  # the armies the rule tests build

    return {
        f"{slug}/{code}/{n}": doc
        for slug, codes in sorted(CORPUS.items())
        for code, docs in sorted(codes.items())
        for n, doc in enumerate(docs)
    }


def _ruleset_part(ruleset: rules.RuleSet) -> dict[str, Any]:
    out: dict[str, Any] = {
        "vocabulary": _plain(ruleset.vocabulary()),
        "defaults": _plain(ruleset.default_options()),
        "qrs": _plain(qrs_sheet(ruleset.slug, None)),
        "presets": _plain(ruleset.unit_presets(None)),
        "lists": {},
    }
    lists = fixture_lists(ruleset.slug)
    for slug, data in sorted(lists.items()):
        presets = ruleset.unit_presets(data)
        army_doc = {
            "format": "muster.army/1",
            "name": f"Every entry of {slug}",
            "ruleset": ruleset.slug,
            "army_list": slug,
            "units": [dict(values) for _, values in presets],
        }
        part: dict[str, Any] = {
            "valid_data": ruleset.validate_army_list(copy.deepcopy(data)),
            "presets": _plain(presets),
            "entries": _plain(ruleset.list_entries(data, None)),
            "description": _plain(ruleset.describe_list(data)),
            "every_entry_army": _check(army_doc),
        }
        if ruleset.can_roll:
            rolled = {}
            for seed in ROLL_SEEDS:
                document = ruleset.roll_force(
                    slug, copy.deepcopy(data), seed, list_name=lists.names.get(slug)
                )
                rolled[str(seed)] = {"document": _plain(document), "check": _check(document)}
            part["rolled"] = rolled
        out["lists"][slug] = part
    return out


def compute() -> dict[str, Any]:
    """The whole golden value (sorted keys, so a diff reads well)."""
    examples = _example_armies()
    by_list: dict[str, Any] = {}
    for name, doc in examples.items():
        for slug in sorted(fixture_lists(doc["ruleset"])):
            by_list[f"{name} @ {slug}"] = _check(dict(doc, army_list=slug))
    return {
        "rulesets": {r.slug: _ruleset_part(r) for r in rules.all_rulesets()},
        "examples": {name: _check(doc) for name, doc in examples.items()},
        "examples_on_every_list": by_list,
        "corpus": {key: _check(doc) for key, doc in _corpus_armies().items()},
    }


def dumps(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.rules.report_golden --write")
    GOLDEN.write_text(dumps(compute()), encoding="utf-8")
    print(f"wrote {GOLDEN}")
