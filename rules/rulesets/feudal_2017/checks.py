"""Feudal 2017: the advantage/disadvantage checks and the message
builders whose counts a test runs at 0, 1 and 2 (split from the rule set module).

Source (seeds/003, "Advantages and Disadvantages"): "Extra Missiles for 4 Shots total",
"Freemen / Bowmen that enter Woods, or only have 3 shots, or run out on a 5-6"; "Missile
Units that are well-supplied ... have a 4-Shot limit, not 3" (Missile Supply Variants).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.base import Issue, Unit, error, warning
from rules.rulesets.feudal_2017.troops import TYPE_NAME, WOODS_TYPES, modifications_cancel

ADVANTAGE_RULE = "Advantages and Disadvantages"
# advantages and disadvantages that change a unit's shooting or its missiles
MISSILE_MODIFICATIONS = ("shoot_plus", "shoot_minus", "extra_missiles", "three_shots",
                         "runs_out_5_6")  # fmt: skip


def modification_issues(
    unit: Unit, index: int, supply: str, *, shoots: bool, type_name: str
) -> Iterable[Issue]:
    """modifications-cancel: an opposite pair on one unit (a warning: legal, but wasted);
    modification-not-applicable: a missile or shooting modification that changes nothing
    ("Extra Missiles for 4 Shots total", "only have 3 shots, or run out on a 5-6")."""
    name = unit["name"]
    if modifications_cancel(unit):
        yield warning("modifications-cancel",
                      f"{name}: {CANCEL_LABEL[unit['advantage']]} cancel out "
                      f"({CANCEL_RESULT[unit['advantage']]}): they use up the army's advantage "
                      "and disadvantage for nothing.", ADVANTAGE_RULE, unit=index)  # fmt: skip
        return  # the pair changes nothing, which the warning says once
    for slot in ("advantage", "disadvantage"):
        value = unit[slot]
        if value not in MISSILE_MODIFICATIONS:
            continue
        label = MODIFICATION_LABEL[value]
        if not shoots:
            reason = f"{type_name} do not shoot"
        elif value == "extra_missiles" and supply != "three_shots":
            reason = (
                "the army is well supplied with 4 shots already"
                if supply == "four_shots"
                else "the army rolls for its missiles (out on a natural 5), it counts no shots"
            )
        elif value == "three_shots" and supply == "three_shots":
            reason = "every unit has 3 shots already"
        else:
            continue
        yield error("modification-not-applicable",
                    f"{name}: {label} changes nothing: {reason}.", ADVANTAGE_RULE,
                    unit=index)  # fmt: skip


def advantage_issues(units: Sequence[Unit]) -> Iterable[Issue]:
    """advantage-limit and advantage-unbalanced: one advantage and one disadvantage an army,
    the woods for freemen or bowmen only, and no advantage without its disadvantage."""
    advantaged = [u["name"] for u in units if u["advantage"] is not None]
    disadvantaged = [u["name"] for u in units if u["disadvantage"] is not None]
    if len(advantaged) > 1:
        yield error("advantage-limit",
                    f"{advantage_count_message(advantaged, 'advantage')}.",
                    ADVANTAGE_RULE)  # fmt: skip
    if len(disadvantaged) > 1:
        yield error("advantage-limit",
                    f"{advantage_count_message(disadvantaged, 'disadvantage')}.",
                    ADVANTAGE_RULE)  # fmt: skip
    for i, unit in enumerate(units):
        if unit["advantage"] == "woods" and unit["type"] not in WOODS_TYPES:
            yield error("advantage-limit",
                        f"{unit['name']}: only freemen or bowmen take the woods advantage, "
                        f"not {TYPE_NAME[unit['type']].lower()}.", ADVANTAGE_RULE, unit=i)  # fmt: skip
    if advantaged and not disadvantaged:
        yield error("advantage-unbalanced",
                    f"{advantaged[0]} has an advantage with no disadvantage to balance it: "
                    "downgrade another unit.", ADVANTAGE_RULE)  # fmt: skip


CANCEL_LABEL = {
    "determined": "determined and unenthusiastic",
    "melee_plus": "mêlée +1 and mêlée -1",
    "shoot_plus": "shoot +1 and shoot -1",
    "extra_missiles": "extra missiles and only 3 shots",
}
CANCEL_RESULT = {
    "determined": "15 hits",
    "melee_plus": "its own mêlée dice",
    "shoot_plus": "its own shooting dice",
    "extra_missiles": "the army's own missile supply",
}

MODIFICATION_LABEL = {
    "shoot_plus": "shoot +1",
    "shoot_minus": "shoot -1",
    "extra_missiles": "extra missiles (4 shots)",
    "three_shots": "only 3 shots",
    "runs_out_5_6": "running out on a 5-6",
}


def crossbow_count_message(names: list[str]) -> str:
    return (
        f"{_plural(len(names), 'mercenary crossbow unit')} ({', '.join(names)}); an army "
        "fields one at most"
    )


def balance_count_message(names: list[str]) -> str:
    return (
        f"{_plural(len(names), 'balancing unit')} ({', '.join(names)}); one balances the "
        "mercenary crossbows"
    )


def advantage_count_message(names: list[str], kind: str) -> str:
    """kind: "advantage" or "disadvantage"."""
    what = "improve" if kind == "advantage" else "downgrade"
    return (
        f"{_plural(len(names), 'unit')} with {'an' if kind == 'advantage' else 'a'} {kind} "
        f"({', '.join(names)}); an army may {what} one"
    )


def personality_count_message(used: int, units: int) -> str:
    return (
        f"{_plural(used, 'personality')} (banners count as one each); "
        f"{_plural(units, 'unit')} allow {units // 3}, one for every three"
    )


def army_size_message(units: int) -> str:
    return (
        f"The army has {_plural(units, 'unit')}; a Feudal force is six (one row of the force "
        "matrix)."
    )


def _plural(n: int, word: str) -> str:
    if n != 1 and word.endswith("ty"):
        return f"{n} {word[:-1]}ies"
    return f"{n} {word}{'' if n == 1 else 's'}"
