"""Dark Ages: the 2015 rules and the d5 revision, side by side on one core."""

from rules.rulesets.dark_ages.dark_ages_2015 import RULESET as DARK_AGES_2015
from rules.rulesets.dark_ages.dark_ages_d5 import RULESET as DARK_AGES_D5

RULESETS = (DARK_AGES_2015, DARK_AGES_D5)

__all__ = ["RULESETS"]
