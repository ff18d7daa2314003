"""Dewitt Medieval: the rule set and its QRS."""

from rules.rulesets.dewitt_medieval.ruleset import RULESET

__all__ = ["RULESET"]
