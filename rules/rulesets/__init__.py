"""One package per rule set family; each offers ``RULESET`` (an instance of
``rules.base.RuleSet``) or, for a family of several on one core, ``RULESETS``.

Everything a rule set is (its RuleSet, checks, list shape, QRS, tables) lives in its package.
A package imports only the engine at the ``rules`` root, never another package, and the root
reaches packages only through ``rules.registry``, which imports every package here: adding a
rule set is adding a folder.
"""
