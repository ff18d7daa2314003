""" "Try it" on the list editor's page: the sample army of an author's list
(``rules.list_trial``, the one copy the page's engine runs too), beside the rule set's
public lists as the server checks any army.
"""

from __future__ import annotations

from typing import Any

import rules
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import list_lookup
from rules.list_document import ListDocument
from rules.list_trial import Trial
from rules.list_trial import try_list as try_document


def listed_of(ruleset: rules.RuleSet, army_list: ArmyList) -> ListDocument:
    """The list as "Try it" reads it (and the editor's page hands its engine)."""
    data: Any = army_list.data if isinstance(army_list.data, dict) else {}
    return ListDocument(ruleset.slug, army_list.slug, army_list.name, army_list.period, "", data)


def try_list(ruleset: rules.RuleSet, army_list: ArmyList) -> Trial:
    return try_document(listed_of(ruleset, army_list), list_lookup)
