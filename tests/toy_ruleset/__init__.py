"""A toy rule set that exists only in the tests: everything it is lives in this one package.

It is registered with ``rules.registry.register_package("tests.toy_ruleset")``; nothing in
``rules/`` or ``armybuilder/`` names it. tests/web/test_toy_ruleset.py shows that with that
one registration it appears on the rule-set pages, checks through the API and the CLI,
builds in the builder and prints. Beside it, ``game_kinds.py`` is what a plug-in adds to
games at the table: one kind of action (a note in the log) and its form's partial.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from rules.base import OVER_POINTS_LIMIT, Army, CheckDoc, Cost, Issue, RuleSet, Ruling, Unit, error
from rules.fields import Field, bool_field, choice_field, name_field

PER_FIGURE = {"spearmen": 2, "archers": 3}
MOVE = {"spearmen": '6"', "archers": '8"'}


class ToySkirmish(RuleSet):
    slug = "toy-skirmish"
    title = "Toy Skirmish"
    source = "Muster's test suite (no printed source)"
    summary = "Spearmen and archers bought by the figure; never more archer units than spearmen."
    order = 999
    uses_points = True
    points_rule = "Toy Points"
    options = (
        bool_field("veterans", "Veterans", help="Veteran units pay one point more per figure."),
    )
    unit_fields = (
        name_field(),
        choice_field("kind", "Kind", [("spearmen", "Spearmen"), ("archers", "Archers")]),
        Field("figures", "Figures", "integer", default=6, minimum=1, maximum=24),
        bool_field("veteran", "Veteran"),
    )
    rulings = (Ruling("T1", "Spearmen cost 2 a figure, archers 3; a veteran pays 1 more."),)
    checks = (
        CheckDoc("veteran-disabled", "error", "unit", "A veteran unit while veterans are off."),
        CheckDoc("too-many-archers", "error", "army", "More archer units than spearmen units."),
        OVER_POINTS_LIMIT,
    )

    def cost_unit(self, unit: Unit, army: Army) -> Cost:
        each = PER_FIGURE[unit["kind"]] + (1 if unit["veteran"] else 0)
        total = each * unit["figures"]
        return Cost(Fraction(total), (f"{unit['figures']} figures x {each} = {total}",))

    def stats(self, unit: Unit, army: Army) -> dict[str, Any]:
        return {"move": MOVE[unit["kind"]], "shoot": '12"' if unit["kind"] == "archers" else "–"}

    def check_unit(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        if unit["veteran"] and not army.options["veterans"]:
            yield error("veteran-disabled",
                        f"{unit['name']}: veterans are switched off; switch them on or make "
                        "the unit ordinary.", "Toy Veterans", unit=index)  # fmt: skip

    def check_army(self, army: Army) -> Iterable[Issue]:
        kinds = [u["kind"] for u in army.units]
        archers, spearmen = kinds.count("archers"), kinds.count("spearmen")
        if archers > spearmen:
            yield error("too-many-archers",
                        f"{archers} archer units but {spearmen} spearmen: never more archers "
                        "than spearmen.", "Toy Bands")  # fmt: skip


RULESET = ToySkirmish()
