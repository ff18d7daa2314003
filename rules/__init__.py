"""Muster's rules engine: plain Python, no Django.

The public surface: ``parse_document`` (strict parser of ``muster.army/1``),
``check`` (the check report), ``check_document`` (both in one call, the core that the
CLI, the API and the web pages share), ``check_state``/``recheck_document`` (the same
check, reusable by an edit of one unit) and the registry of rule sets.
"""

from rules.base import (
    Allowed,
    Army,
    Cost,
    EntryStatus,
    Issue,
    ListDescription,
    NamedLists,
    Report,
    RuleSet,
)
from rules.document import FORMAT, ListLookup, parse_document
from rules.engine import CheckState, check, check_document, check_state, recheck_document
from rules.errors import MalformedDocument
from rules.registry import all_rulesets, get_ruleset

__all__ = [
    "FORMAT",
    "Allowed",
    "CheckState",
    "Army",
    "Cost",
    "EntryStatus",
    "Issue",
    "ListDescription",
    "ListLookup",
    "MalformedDocument",
    "NamedLists",
    "Report",
    "RuleSet",
    "all_rulesets",
    "check",
    "check_document",
    "check_state",
    "get_ruleset",
    "parse_document",
    "recheck_document",
]
