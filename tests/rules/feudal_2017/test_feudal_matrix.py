"""The force-matrix solver: exhaustive, exact, and honest about the nearest row."""

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import check_document
from rules.rulesets.feudal_2017.matrix import (
    COLUMNS,
    MATRIX,
    ForceList,
    Replacement,
    fit_row,
    force_list,
    matching_rows,
    mismatch_message,
)
from rules.rulesets.feudal_2017.troops import MATRIX_TYPES
from tests.support import army, fixture_lists

LISTS = fixture_lists("feudal-2017")
FEUDAL = force_list(LISTS["feudal"])
NORTH_WELSH = force_list(LISTS["north-welsh"])
ISLES = force_list(LISTS["scots-isles-highlands"])


def test_every_row_of_the_standard_matrix_fits_exactly_that_row():
    for row, counts in MATRIX.items():
        types = [t for c, n in zip(COLUMNS, counts, strict=True) for t in [FEUDAL.columns[c]] * n]
        assert matching_rows(types, FEUDAL) == [row]


def test_the_matrix_rows_are_the_digests():
    assert MATRIX == {
        1: (1, 1, 2, 2),
        2: (3, 1, 1, 1),
        3: (3, 2, 1, 0),
        4: (4, 1, 0, 1),
        5: (4, 1, 1, 0),
        6: (4, 2, 0, 0),
    }


def test_mismatch_names_what_the_nearest_row_needs():
    # Early feudal: core knights, T1 freemen, T2 bowmen, T3 brigans. Row 4 is 4 core, 1 T1,
    # 1 T3: these units have one brigans too many and one freemen too few.
    force = force_list(LISTS["early-feudal-french-german"])
    types = ["knights"] * 4 + ["brigans"] * 2
    fit = fit_row(types, force, 4)
    assert (fit.missing, fit.surplus, fit.changes) == ({"t1": 1}, {"brigans": 1}, 2)
    assert matching_rows(types, force) == []
    assert mismatch_message(types, force).endswith(
        "Nearest: row 4 needs 1 more freemen and 1 fewer brigans."
    )


def test_a_row_the_units_fill_exactly_has_nothing_missing():
    fit = fit_row(["knights"] * 4 + ["bowmen", "brigans"], FEUDAL, 5)
    assert fit.fits
    assert (fit.placed, fit.missing, fit.surplus) == (6, {}, {})


def test_nearest_rows_are_all_named_when_tied():
    types = ["knights"] * 3 + ["bowmen"] + ["brigans"] * 2
    message = mismatch_message(types, FEUDAL)
    assert message == (
        "These units fit no row of the force matrix (core knights, T1 bowmen, T2 brigans, "
        "T3 freemen). Nearest: row 2 needs 1 more freemen and 1 fewer brigans; or row 3 needs "
        "1 more bowmen and 1 fewer brigans; or row 5 needs 1 more knights and 1 fewer brigans."
    )


def test_a_replacement_may_be_used_or_not():
    # North Welsh: brigans may fill core (as freemen) or T2 (as themselves)
    row5_plain = ["freemen"] * 4 + ["knights", "brigans"]
    row5_replaced = ["freemen"] * 3 + ["brigans", "knights", "brigans"]
    assert matching_rows(row5_plain, NORTH_WELSH) == [5]
    assert matching_rows(row5_replaced, NORTH_WELSH) == [5]


def test_not_greedy_brigans_spread_over_three_columns_through_two_replacements():
    # Isles: core serjeants, T1 brigans, T2 freemen, T3 bowmen; bowmen and freemen may be
    # brigans. Row 1 (1, 1, 2, 2) with five brigans: one as itself, two as freemen, two as
    # bowmen.
    assert matching_rows(["serjeants"] + ["brigans"] * 5, ISLES) == [1]


def test_a_replacement_capped_at_one_cannot_be_used_twice():
    one = ["freemen"] * 2 + ["serjeants", "knights", "brigans", "bowmen"]
    # row 2: 3 core (2 freemen + serjeants); row 4: 4 core (+ brigans as freemen)
    assert matching_rows(one, NORTH_WELSH) == [2, 4]
    two = ["freemen", "serjeants", "serjeants", "knights", "brigans", "bowmen"]
    assert matching_rows(two, NORTH_WELSH) == []
    assert "1 fewer serjeants" in mismatch_message(two, NORTH_WELSH)


def test_a_type_with_no_column_and_no_replacement_fits_nothing():
    types = ["knights"] * 3 + ["bowmen", "brigans", "cavalry"]
    assert matching_rows(types, FEUDAL) == []
    assert "row 2 needs 1 more freemen and 1 fewer cavalry" in mismatch_message(types, FEUDAL)


def test_more_or_fewer_than_six_units_fit_no_row():
    assert matching_rows(["knights"] * 4 + ["bowmen"], FEUDAL) == []
    assert matching_rows(["knights"] * 4 + ["bowmen"] * 3, FEUDAL) == []


# -- property tests ------------------------------------------------------------------------


def brute_force_rows(types, force):
    """Every way of putting each unit in a column, checked against rows and caps."""
    caps = {(r.source, r.to): r.limit for r in force.replacements}
    found = set()
    for columns in itertools.product(COLUMNS, repeat=len(types)):
        used = Counter()
        ok = True
        for kind, column in zip(types, columns, strict=True):
            wanted = force.columns[column]
            if kind == wanted:
                continue
            if (wanted, kind) not in caps:
                ok = False
                break
            used[(wanted, kind)] += 1
        if not ok or any(
            caps[key] is not None and n > caps[key] for key, n in used.items()
        ):  # fmt: skip
            continue
        counts = tuple(Counter(columns)[c] for c in COLUMNS)
        found.update(row for row, want in MATRIX.items() if want == counts)
    return sorted(found)


def brute_force_placed(types, force, row):
    """The most units that can stand in ``row`` (the rest left out), by enumeration."""
    caps = {(r.source, r.to): r.limit for r in force.replacements}
    need = dict(zip(COLUMNS, MATRIX[row], strict=True))
    best = 0
    for columns in itertools.product((*COLUMNS, None), repeat=len(types)):
        counts = Counter(c for c in columns if c)
        if any(counts[c] > need[c] for c in COLUMNS):
            continue
        used = Counter()
        ok = True
        for kind, column in zip(types, columns, strict=True):
            if column is None or force.columns[column] == kind:
                continue
            key = (force.columns[column], kind)
            if key not in caps:
                ok = False
                break
            used[key] += 1
        if ok and all(caps[k] is None or n <= caps[k] for k, n in used.items()):
            best = max(best, sum(counts.values()))
    return best


@st.composite
def force_lists(draw):
    kinds = draw(st.permutations(MATRIX_TYPES))[:4]
    columns = dict(zip(COLUMNS, kinds, strict=True))
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(kinds), st.sampled_from(MATRIX_TYPES)).filter(
                lambda p: p[0] != p[1]
            ),
            max_size=4,
            unique=True,
        )
    )
    replacements = tuple(
        Replacement(a, b, draw(st.one_of(st.none(), st.integers(1, 2)))) for a, b in pairs
    )
    return ForceList(columns, replacements)


FIXTURE_FORCES = st.sampled_from(sorted(LISTS)).map(lambda slug: (slug, force_list(LISTS[slug])))


@st.composite
def list_and_row_army(draw, forces=None):
    """A list, a row, and an army built from that row using replacements within their caps."""
    if forces is None:
        forces = st.one_of(FIXTURE_FORCES, force_lists().map(lambda f: (None, f)))
    slug, force = draw(forces)
    row = draw(st.sampled_from(sorted(MATRIX)))
    used = Counter()
    types = []
    for column, count in zip(COLUMNS, MATRIX[row], strict=True):
        own = force.columns[column]
        for _ in range(count):
            options = [own] + [
                r.to
                for r in force.replacements
                if r.source == own and (r.limit is None or used[(r.source, r.to)] < r.limit)
            ]
            choice = draw(st.sampled_from(options))
            if choice != own:
                used[(own, choice)] += 1
            types.append(choice)
    return slug, force, row, draw(st.permutations(types))


@given(list_and_row_army())
@settings(max_examples=300, deadline=None)
def test_any_army_built_from_a_row_with_allowed_replacements_fits_that_row(case):
    _, force, row, types = case
    assert row in matching_rows(types, force)


@given(list_and_row_army(FIXTURE_FORCES), st.data())
@settings(max_examples=150, deadline=None)
def test_the_same_army_as_a_document_reports_the_row(case, data):
    slug, _, row, types = case
    units = []
    for i, kind in enumerate(types):
        unit = {"name": f"Unit {i + 1}", "type": kind}
        if kind == "knights" and data.draw(st.booleans(), label="dismount"):
            unit = {"name": f"Unit {i + 1}", "type": "serjeants", "dismounted": True}
        elif kind == "brigans":
            unit["type"] = data.draw(
                st.sampled_from(["brigans", "brigans_bows", "mounted_brigans"]), label="brigans"
            )
        units.append(unit)
    _, report = check_document(
        army("feudal-2017", units, army_list=slug), lambda _rs: fixture_lists("feudal-2017")
    )
    assert row in report.composition["matrix_rows"]
    assert "matrix-mismatch" not in [i.code for i in report.issues]
    assert report.valid


@given(
    st.sampled_from([s for s, d in LISTS.items() if not d["replacements"]]),
    st.lists(st.sampled_from(COLUMNS), min_size=6, max_size=6),
)
@settings(max_examples=300, deadline=None)
def test_any_army_whose_column_counts_fit_no_row_is_refused(slug, columns):
    counts = tuple(columns.count(c) for c in COLUMNS)
    force = force_list(LISTS[slug])
    units = [{"name": f"U{i}", "type": force.columns[c]} for i, c in enumerate(columns)]
    _, report = check_document(
        army("feudal-2017", units, army_list=slug), lambda _rs: fixture_lists("feudal-2017")
    )
    fits_a_row = counts in MATRIX.values()
    assert report.valid is fits_a_row
    assert ("matrix-mismatch" in [i.code for i in report.issues]) is not fits_a_row
    if not fits_a_row:
        assert report.composition["matrix_rows"] == []
        assert "Nearest: row" in report.errors[0].message


@given(force_lists(), st.lists(st.sampled_from(MATRIX_TYPES), min_size=6, max_size=6))
@settings(max_examples=200, deadline=None)
def test_solver_agrees_with_brute_force_enumeration(force, types):
    assert matching_rows(types, force) == brute_force_rows(types, force)


@given(
    force_lists(),
    st.lists(st.sampled_from(MATRIX_TYPES), min_size=1, max_size=6),
    st.sampled_from(sorted(MATRIX)),
)
@settings(max_examples=40, deadline=None)
def test_nearest_row_counts_the_fewest_changes(force, types, row):
    fit = fit_row(types, force, row)
    best = brute_force_placed(types, force, row)
    assert fit.placed == best
    assert sum(fit.missing.values()) == 6 - best
    assert sum(fit.surplus.values()) == len(types) - best
