"""Feudal 2017: the rule set, its troop tables, force matrix, list entries, checks and QRS."""

from rules.rulesets.feudal_2017.ruleset import RULESET

__all__ = ["RULESET"]
