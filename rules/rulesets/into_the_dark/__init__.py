"""Into the Dark: the rule set, its army lists, mixed units and QRS."""

from rules.rulesets.into_the_dark.ruleset import RULESET

__all__ = ["RULESET"]
