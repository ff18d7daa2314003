"""Browse the rule sets and their army lists."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

import rules
from armybuilder.catalog import presenters, selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request, "catalog/home.html", {"cards": presenters.cards(selectors.list_counts())}
    )


def ruleset_or_404(slug: str) -> rules.RuleSet:
    """The rule set for ``slug``, or a 404 (pages and the API alike)."""
    try:
        return rules.get_ruleset(slug)
    except KeyError:
        raise Http404("no such rule set") from None


def ruleset_detail(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset = ruleset_or_404(slug)
    army_lists = selectors.lists_for(slug)
    return render(
        request,
        "catalog/ruleset.html",
        {
            "ruleset": ruleset,
            "army_lists": army_lists,
            "lists_text": presenters.lists_text(ruleset, len(army_lists)),
            "points_text": presenters.points_text(ruleset),
            "options": presenters.reference(ruleset.options),
            "unit_fields": presenters.reference(ruleset.unit_fields),
            "general_fields": presenters.reference(ruleset.general_fields),
            "checks": presenters.checks(ruleset),
        },
    )


def army_list_detail(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    ruleset = ruleset_or_404(slug)
    army_list = selectors.get_list(slug, list_slug)
    if army_list is None:
        raise Http404("no such army list")
    return render(request, "catalog/army_list.html", {"ruleset": ruleset, "army_list": army_list})
