"""Names are one line: the parser refuses a line break in the army's name and in every
one-line field of a unit or a general, in every rule set; a stored document is repaired
(a line break becomes a space) and only the notes keep theirs."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.text import repair, text_problem
from tests.support import army

# Every way text can break a line: the C0 breaks, NEL and the Unicode separators.
LINE_BREAKS = [
    "\n",
    "\r",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x85",
    "\u2028",
    "\u2029",
]
WORDS = st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=12)


def one_line_fields() -> list[tuple[str, str, str]]:
    """(rule set, where, field) for the army's name and every one-line string field."""
    found = []
    for ruleset in rules.all_rulesets():
        found.append((ruleset.slug, "army", "name"))
        found += [
            (ruleset.slug, "units", f.name) for f in ruleset.unit_fields if f.kind == "string"
        ]
        if ruleset.has_generals:
            found += [
                (ruleset.slug, "generals", f.name)
                for f in ruleset.general_fields
                if f.kind == "string"
            ]
    return found


FIELDS = one_line_fields()


def test_every_rule_set_has_a_one_line_unit_name():
    assert {slug for slug, where, name in FIELDS if (where, name) == ("units", "name")} == {
        r.slug for r in rules.all_rulesets()
    }


def document(slug: str, where: str, field: str, value: str) -> tuple[dict, str]:
    """A small army of ``slug`` with ``value`` in the field, and that field's path."""
    doc = army(slug, [{"name": "Huscarls"}])
    if where == "army":
        doc[field] = value
        return doc, field
    item = {"name": "Harold"} if where == "generals" else doc["units"][0]
    item[field] = value
    if where == "generals":
        doc["generals"] = [item]
    return doc, f"{where}[0].{field}"


@given(
    target=st.sampled_from(FIELDS),
    line_break=st.sampled_from(LINE_BREAKS),
    before=WORDS,
    after=WORDS,
)
def test_a_line_break_in_a_name_is_refused_with_its_path(target, line_break, before, after):
    doc, path = document(*target, f"{before}{line_break}{after}")
    with pytest.raises(rules.MalformedDocument) as refused:
        rules.parse_document(doc)
    assert refused.value.path == path
    assert f"U+{ord(line_break[0]):04X}" in refused.value.message


@pytest.mark.parametrize("slug", sorted({slug for slug, _, _ in FIELDS}))
def test_the_same_name_on_one_line_is_accepted(slug):
    doc, _ = document(slug, "units", "name", "Two words")
    assert rules.parse_document(doc).units[0]["name"] == "Two words"


def test_a_unit_name_says_it_is_one_line():
    doc, _ = document("into-the-dark", "units", "name", "Two\nlines")
    with pytest.raises(rules.MalformedDocument) as refused:
        rules.parse_document(doc)
    assert refused.value.message.endswith("this field is one line")


@given(target=st.sampled_from(FIELDS), line_break=st.sampled_from(LINE_BREAKS))
def test_a_stored_name_with_a_line_break_is_repaired_to_one_line(target, line_break):
    doc, _ = document(*target, f"Two{line_break}lines")
    doc["notes"] = "Line one\nLine two"
    fixed, changed = repair(doc)
    where, field = target[1], target[2]
    value = fixed[field] if where == "army" else fixed[where][0][field]
    assert changed and text_problem(value) is None  # one line now
    assert value.replace(" ", "") == "Twolines"  # the break became a space or went
    assert fixed["notes"] == "Line one\nLine two"


def test_repairing_one_string_keeps_its_line_breaks_only_when_it_is_multi_line():
    assert repair("Two\nlines") == ("Two lines", True)
    assert repair("Two\u2028lines", multiline=False) == ("Two lines", True)
    assert repair("Two\nlines", multiline=True) == ("Two\nlines", False)


def test_a_document_on_one_line_is_not_changed_by_repair():
    good, _ = document("into-the-dark", "units", "name", "Two words")
    fixed, changed = repair(good)
    assert fixed is good and changed is False
