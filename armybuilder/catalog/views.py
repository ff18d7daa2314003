"""Browse the rule sets and their army lists."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

import rules
from armybuilder.catalog import selectors
from armybuilder.catalog.list_page import army_list_page, takes_allies


def home(request: HttpRequest) -> HttpResponse:
    counts = selectors.list_counts()
    rulesets = [(r, counts.get(r.slug, 0)) for r in rules.all_rulesets()]
    return render(request, "catalog/home.html", {"rulesets": rulesets})


def ruleset_or_404(slug: str) -> rules.RuleSet:
    """The rule set for ``slug``, or a 404 (pages and the API alike)."""
    try:
        return rules.get_ruleset(slug)
    except KeyError:
        raise Http404("no such rule set") from None


def ruleset_detail(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset = ruleset_or_404(slug)
    return render(
        request,
        "catalog/ruleset.html",
        {"ruleset": ruleset, "army_lists": selectors.lists_for(slug)},
    )


def army_list_detail(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    ruleset = ruleset_or_404(slug)
    army_list = selectors.get_list(slug, list_slug)
    if army_list is None:
        raise Http404("no such army list")
    others = selectors.lists_for(slug) if takes_allies(ruleset) else []
    page = army_list_page(ruleset, army_list, others)
    return render(
        request,
        "catalog/army_list.html",
        {"ruleset": ruleset, "army_list": army_list, "page": page},
    )
