"""The engine answers exactly as the golden file recorded: every check report, QRS, list
description, preset and rolled force of the shipped armies and lists (see report_golden)."""

import json

from tests.rules.report_golden import GOLDEN, compute, dumps


def _differences(want, got, path="", found=None):
    found = [] if found is None else found
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            if key not in got or key not in want:
                found.append(f"{path}/{key}: {'missing' if key not in got else 'new'}")
            else:
                _differences(want[key], got[key], f"{path}/{key}", found)
    elif want != got:
        found.append(f"{path}: {json.dumps(want)[:200]} -> {json.dumps(got)[:200]}")
    return found


def test_engine_output_matches_the_golden_file():
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = json.loads(dumps(compute()))
    assert _differences(want, got)[:20] == []
