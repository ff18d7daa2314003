"""One search for an army list across every rule set: "Irish" finds the Irish lists of
Into the Dark, both Dark Ages editions and Feudal at once, grouped by rule set, each with
its period and size, and starts an army on the one the player picks. A GET form (works
without JavaScript) that htmx also runs as the player types; home, the page after
sign-up and every rule set's start page lead here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

import rules
from armybuilder.armies.making.start import buildable
from armybuilder.catalog.models import ArmyList

QUERY_MAX = 100


@dataclass(frozen=True)
class Found:
    army_list: ArmyList
    size: str


@dataclass(frozen=True)
class RulesetGroup:
    ruleset: rules.RuleSet
    lists: tuple[Found, ...]


def size_text(ruleset: rules.RuleSet, army_list: ArmyList) -> str:
    """How big the list is, in the player's words: its kinds of unit."""
    try:
        entries = len(ruleset.list_entries(army_list.data, None))
    except (TypeError, ValueError, KeyError, AttributeError):
        return ""
    return f"{entries} kind{'s' if entries != 1 else ''} of unit"


def find_lists(user: Any, query: str) -> list[RulesetGroup]:
    """The lists ``user`` may build on whose name or period holds ``query`` (any case), in
    every rule set, grouped by rule set in the home page's order; empty groups left out."""
    query = query.strip()[:QUERY_MAX]
    if not query:
        return []
    groups = []
    for ruleset in sorted(rules.all_rulesets(), key=lambda r: (r.order, r.title)):
        found = ArmyList.objects.filter(
            buildable(user, ruleset.slug), Q(name__icontains=query) | Q(period__icontains=query)
        ).order_by("name")
        rows = tuple(Found(a, size_text(ruleset, a)) for a in found)
        if rows:
            groups.append(RulesetGroup(ruleset, rows))
    return groups


@require_GET
def find_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:QUERY_MAX]
    context = {"query": query, "groups": find_lists(request.user, query)}
    if request.htmx:
        return render(request, "armies/find.html#results", context)
    return render(request, "armies/find.html", context)
