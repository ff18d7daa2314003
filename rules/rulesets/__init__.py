"""One module per rule set; each defines ``RULESET``, an instance of ``rules.base.RuleSet``.

The registry imports every module in this package, so adding a rule set is adding a file.
"""
