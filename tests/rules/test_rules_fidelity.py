"""Every rule set is faithful to its sources: documented codes against raised ones,
citations that name a section of the source (or a ruling), and messages that agree with
their counts."""

import ast
import json
import re
from pathlib import Path

import pytest

import rules
from rules.registry import all_rulesets, get_ruleset
from tests.rules.check_corpus import CORPUS, LISTS
from tests.support import DATA, ROOT, example

HEADINGS = {
    slug: {h.casefold() for h in headings}
    for slug, headings in json.loads((DATA / "source_headings.json").read_text()).items()
    if not slug.startswith("_")
}
SLUGS = sorted(CORPUS)
CASES = [
    (slug, code, n)
    for slug in SLUGS
    for code, docs in sorted(CORPUS[slug].items())
    for n in range(len(docs))
]


def test_every_rule_set_has_a_corpus_and_its_sources_headings():
    assert set(SLUGS) == {r.slug for r in all_rulesets()} == set(HEADINGS)


# -- documented codes and raised codes ----------------------------------------------------------


@pytest.mark.parametrize(("slug", "code", "n"), CASES)
def test_corpus_army_raises_its_code_with_the_documented_severity(slug, code, n):
    report = rules.check_document(CORPUS[slug][code][n], _lists(slug))[1]
    raised = [i for i in report.issues if i.code == code]
    assert raised, [i.to_json() for i in report.issues]
    documented = {c.code: c.severity for c in get_ruleset(slug).checks}
    if code != "c-in-c-count":  # an error for two C-in-Cs, a warning for none
        assert {i.severity for i in raised} == {documented[code]}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_documented_code_has_a_test_army_and_every_test_army_code_is_documented(slug):
    assert set(CORPUS[slug]) == {c.code for c in get_ruleset(slug).checks}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_code_the_engine_can_raise_is_documented(slug):
    """Every ``error("code", ...)``/``warning("code", ...)`` in the rule set's module and the
    rules modules it imports, plus the engine's points limit where it has points."""
    assert raisable_codes(slug) == {c.code for c in get_ruleset(slug).checks}


@pytest.mark.parametrize("slug", ["into-the-dark", "dewitt-medieval"])
def test_range_errors_are_documented_as_malformed_documents_not_as_codes(slug):
    """Range errors are refused by the parser (400 / exit 2), never saved: the rule set
    documents that as a ruling (shown on the page and in the API), with no check code."""
    ruleset = get_ruleset(slug)
    assert not {"figures-out-of-range", "stands-out-of-range", "bad-figures-per-stand"} & {
        c.code for c in ruleset.checks
    }
    assert any("malformed document" in r.text for r in ruleset.rulings)
    assert any("malformed document" in r["text"] for r in ruleset.vocabulary()["rulings"])


def raisable_codes(slug: str) -> set[str]:
    ruleset = get_ruleset(slug)
    module = Path(type(ruleset).__module__.replace(".", "/") + ".py")
    files = [ROOT / module, *_imported_rules_modules(ROOT / module)]
    codes = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("error", "warning")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                codes.add(node.args[0].value)
    if ruleset.uses_points:
        codes.add("over-points-limit")  # rules/engine.py, for every rule set with points
    return codes


def _imported_rules_modules(path: Path) -> list[Path]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rules"):
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            candidate = ROOT / (name.replace(".", "/") + ".py")
            if candidate.exists() and candidate.name not in ("base.py", "fields.py"):
                found.append(candidate)
    return sorted(set(found))


# -- citations --------------------------------------------------------------------------------


def _all_issues(slug):
    for docs in CORPUS[slug].values():
        for doc in docs:
            yield from rules.check_document(doc, _lists(slug))[1].issues


@pytest.mark.parametrize("slug", SLUGS)
def test_every_citation_names_a_section_of_its_source_or_a_ruling(slug):
    rulings = {f"ruling {r.code}".casefold() for r in get_ruleset(slug).rulings}
    wrong = {
        (i.code, i.rule)
        for i in _all_issues(slug)
        if i.rule.casefold() not in HEADINGS[slug] | rulings
    }
    assert wrong == set()


def test_citation_test_fails_on_a_made_up_section():
    rulings = {"ruling r4"}
    assert "SWAT, part 9".casefold() not in HEADINGS["into-the-dark"] | rulings
    assert "Ruling R4".casefold() in rulings
    assert "Unit sizes".casefold() not in HEADINGS["dewitt-medieval"]


@pytest.mark.parametrize(
    ("slug", "code", "n", "rule"),
    [
        ("into-the-dark", "weapon-wrong-arm", 2, "Ruling R4"),
        ("dewitt-medieval", "weapon-wrong-arm", 0, "Ruling R2"),
        ("into-the-dark", "too-few-figures", 0, "COMBAT"),
    ],
)
def test_the_issue_reports_citations_point_at_the_rule(slug, code, n, rule):
    """A pike on a mounted unit is ruling R4, not SWAT; Dewitt's lance on foot is ruling R2,
    not MODIFICATION COST; one die per four figures is under COMBAT, not Melee."""
    report = rules.check_document(CORPUS[slug][code][n], _lists(slug))[1]
    assert [i.rule for i in report.issues if i.code == code] == [rule]


def _lists(slug):
    from tests.support import fixture_lists

    lists = {**fixture_lists(slug), **LISTS.get(slug, {})}
    return lambda _ruleset: lists


def test_example_armies_cite_sections_too():
    for name in ("feudal-2017-roll-4.json", "dewitt-medieval-lance-and-bow.json"):
        doc = example(name)
        for issue in rules.check_document(doc, _lists(doc["ruleset"]))[1].issues:
            assert issue.rule.casefold() in HEADINGS[doc["ruleset"]]


# -- one mistake, one error -------------------------------------------------------------------


@pytest.mark.parametrize(("slug", "code", "n"), CASES)
def test_one_mistake_gives_one_error_of_its_code(slug, code, n):
    """Each test army makes one mistake, and it is reported once."""
    report = rules.check_document(CORPUS[slug][code][n], _lists(slug))[1]
    mine = [i for i in report.issues if i.code == code]
    assert len(mine) == 1, [i.message for i in mine]
    assert len(report.errors) <= 1, [i.to_json() for i in report.errors]


# -- messages agree with their counts ------------------------------------------------------------

PLURAL_NOUNS = ("figure", "unit", "stand", "upgrade", "downgrade", "personalit", "C-in-C",
                "Elite unit", "Levy unit", "balancing unit", "mercenary crossbow unit")  # fmt: skip


def _builders():
    from rules.rulesets.dark_ages import common
    from rules.rulesets.dark_ages import dark_ages_d5 as d5
    from rules.rulesets.dewitt_medieval import ruleset as dewitt
    from rules.rulesets.feudal_2017 import checks as feudal
    from rules.rulesets.into_the_dark import command
    from rules.rulesets.into_the_dark import ruleset as itd
    from rules.rulesets.into_the_dark.mixed import figures_phrase

    names = ["A", "B", "C"]
    return {
        "itd too-few-figures": lambda n: itd.too_few_figures_message("Scouts", n),
        "itd division-size": lambda n: command.division_size_message("Harold", n),
        "itd no-commanding-general": command.commanding_message,
        "itd mixed figures": figures_phrase,
        "dewitt stands step": lambda n: dewitt.stands_step(n, n, 8, 8 * n * n),
        "dewitt unit-size": lambda n: dewitt.unit_size_message("Archers", n),
        "dewitt c-in-c-count": lambda n: dewitt.c_in_c_message(n, ", ".join(names[:n])),
        "d5 downgrade-required (upgrades)": lambda n: d5.downgrade_message(n + 1, n),
        "d5 downgrade-required (downgrades)": lambda n: d5.downgrade_message(n, n + 1),
        "d5 downgrade-required (n upgrades)": lambda n: d5.downgrade_message(n, 0 if n else 1),
        "dark ages elite-limit": lambda n: common.quality_count_message(n, n, n),
        "dark ages elite-needs-levy": lambda n: common.levy_balance_message(n, n),
        "dark ages plural": lambda n: common.plural(n, "personality"),
        "feudal army-size": feudal.army_size_message,
        "feudal too-many-personalities": lambda n: feudal.personality_count_message(n, n),
        "feudal crossbows": lambda n: feudal.crossbow_count_message(names[:n]),
        "feudal balances": lambda n: feudal.balance_count_message(names[:n]),
        "feudal advantages": lambda n: feudal.advantage_count_message(names[:n], "advantage"),
        "feudal disadvantages": lambda n: feudal.advantage_count_message(names[:n], "disadvantage"),
    }


def number_slips(text: str) -> list[str]:
    """ "1 figures", "2 figure", "0 unit": a count that disagrees with its noun."""
    slips = []
    for noun in PLURAL_NOUNS:
        stem = re.escape(noun)
        slips += re.findall(rf"\b1 {stem}(?:s|ies)\b", text)
        slips += re.findall(rf"\b(?:[02-9]|\d\d+) {stem}(?:y)?\b(?!s|ies)", text)
    slips += re.findall(r"\b1 \w+ roll\b|\b[02-9] figures rolls\b", text)
    return slips


@pytest.mark.parametrize("name", sorted(_builders()))
@pytest.mark.parametrize("n", [0, 1, 2])
def test_message_builder_agrees_in_number(name, n):
    text = _builders()[name](n)
    assert number_slips(text) == [], text


def test_number_slip_finder_finds_a_count_that_disagrees_with_its_noun():
    for slip in ("1 figures roll no combat die", "3 downgrades but 1 upgrades",
                 "1 stands x 2 figures", "2 unit", "0 personality"):  # fmt: skip
        assert number_slips(slip), slip
    assert number_slips("1 figure rolls no combat die; 2 units, 0 personalities") == []


def test_c_in_c_message_says_the_count_and_the_rule_without_contradicting_itself():
    """The message names how many C-in-Cs the army has, then what the rule allows: never
    "The army has 2 C-in-Cs (...); it has one." """
    from rules.rulesets.dewitt_medieval.ruleset import c_in_c_message

    assert c_in_c_message(2, "A, B") == (
        "The army has 2 C-in-Cs (A, B); an army has one C-in-C: make the others generals."
    )
