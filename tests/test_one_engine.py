"""One copy of the engine: the browser reaches the rules only through the page's worker
(static/js/engine/, running rules/ itself) and the server's answers. No script of ours names
a value of a rule set's vocabulary, prices anything, or rounds points; each scan is shown to
fail on a small planted source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "static" / "js"
# words of a rule set's vocabulary that are also the page's own words: a card is "open",
# "roll" is the army operation that asks the server for a rolled force, "general" is a kind
# of item, "hand" a CSS cursor word
PAGE_WORDS = {"open", "roll", "general", "hand"}
STRING = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`")
PRICING = [
    (
        re.compile(r"Math\.(ceil|floor|round)\([^)]*\b(points?|cost|per|fixed|den)\b"),
        "rounds points",
    ),
    (re.compile(r"\b(per|fixed|den)\s*[*/]\s*\w|\w\s*[*/]\s*(per|fixed|den)\b"), "a cost formula"),
    (
        re.compile(r"data-estimate|dataset\.estimate|figure_cost|FigureCost"),
        "the figure-cost estimate",
    ),
]


def ours() -> list[Path]:
    return sorted(p for p in SCRIPTS.rglob("*.js") if "vendor" not in p.relative_to(SCRIPTS).parts)


def vocabulary() -> set[str]:
    words: set[str] = set()
    for ruleset in rules.all_rulesets():
        fields = [*ruleset.unit_fields, *ruleset.options, *getattr(ruleset, "general_fields", ())]
        for field in fields:
            for value in getattr(field, "values", None) or ():
                text = str(value)
                if not text.isdigit() and text not in PAGE_WORDS:
                    words.add(text)
    return words


def rule_words_in(source: str, words: set[str]) -> set[str]:
    found = set()
    for match in STRING.finditer(source):
        literal = next(group for group in match.groups() if group is not None)
        found |= {word for word in re.findall(r"[A-Za-z0-9_]+", literal) if word in words}
    return found


def pricing_in(source: str) -> list[str]:
    return [why for pattern, why in PRICING if pattern.search(source)]


def test_no_script_names_a_value_of_a_rule_sets_vocabulary():
    words = vocabulary()
    found = {
        str(path.relative_to(ROOT)): sorted(hits)
        for path in ours()
        if (hits := rule_words_in(path.read_text(encoding="utf-8"), words))
    }
    assert not found, f"scripts that know the rules' vocabulary: {found}"


def test_no_script_prices_a_unit_or_rounds_points():
    found = {
        str(path.relative_to(ROOT)): why
        for path in ours()
        if (why := pricing_in(path.read_text(encoding="utf-8")))
    }
    assert not found, f"scripts that work out points themselves: {found}"


@pytest.mark.parametrize(
    "planted",
    [
        'if (unit.armour === "mailed") { cost += 2; }',
        "var extra = card.dataset.quality == 'elite' ? 3 : 0;",
    ],
)
def test_the_vocabulary_scan_finds_a_planted_rule(planted):
    assert rule_words_in(planted, vocabulary())


@pytest.mark.parametrize(
    "planted",
    [
        "return Math.ceil((data.per * count + data.fixed) / data.den);",
        "var top = per * count + fixed;",
        "var data = JSON.parse(points.dataset.estimate);",
    ],
)
def test_the_pricing_scan_finds_a_planted_formula(planted):
    assert pricing_in(planted)


def test_the_page_reaches_the_rules_through_the_engine_worker():
    worker = (SCRIPTS / "engine" / "worker.js").read_text(encoding="utf-8")
    assert "rules.page.bridge" in worker
    assert (ROOT / "rules" / "page" / "bridge.py").exists()
