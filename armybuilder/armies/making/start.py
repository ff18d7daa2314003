"""Starting an army list first: which army list the new army is built on, or none.

"Start an army" (the home page's cards, a rule set's page) posts the rule set and
``first=list``; when the rule set has lists the player may build on, the army is not made yet: the player is
sent here to choose one, grouped and filterable, or to build freely. The page is a plain
form of radio buttons, so it works without JavaScript; the filter box is a GET form that
htmx also runs as the player types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

import rules
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import readable_lists, shared_with


@dataclass(frozen=True)
class Group:
    key: str
    title: str
    lists: tuple[ArmyList, ...]


def buildable(user: Any, ruleset: str) -> Q:
    """The lists of ``ruleset`` a new army of ``user`` may be built on (as ``lookup_of``)."""
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    visible = readable_lists(user.pk if signed_in else None)
    return visible & Q(ruleset=ruleset)


def list_groups(user: Any, ruleset: str, query: str = "") -> list[Group]:
    """Muster's lists, the player's own, the lists shared with them by a link that still
    works, then the lists players published; each by name, only those whose name or period
    holds ``query`` (any case). Empty groups are left out."""
    found = ArmyList.objects.filter(buildable(user, ruleset)).select_related("author")
    query = query.strip()
    if query:
        found = found.filter(Q(name__icontains=query) | Q(period__icontains=query))
    ours, mine, shared, published, granted = [], [], [], [], []
    user_pk = getattr(user, "pk", None)
    # opened by a share link; any other list is read through an event's grant, and its
    # page, not its share link (which is not the player's), tells about it
    linked = set(
        ArmyList.objects.filter(shared_with(user_pk), ruleset=ruleset).values_list("pk", flat=True)
        if user_pk is not None
        else ()
    )
    for army_list in found.order_by("name"):
        if army_list.author_id is None:
            ours.append(army_list)
        elif army_list.author_id == user_pk:
            mine.append(army_list)
        elif army_list.is_public:
            published.append(army_list)
        elif army_list.pk in linked:  # readable through a share link this player opened
            shared.append(army_list)
        else:
            granted.append(army_list)
    groups = [
        Group("muster", "Muster's lists", tuple(ours)),
        Group("mine", "My lists", tuple(mine)),
        Group("shared", "Lists shared with me", tuple(shared)),
        Group("event", "Lists of my events", tuple(granted)),
        Group("published", "Lists published by players", tuple(published)),
    ]
    return [g for g in groups if g.lists]


def has_lists(user: Any, ruleset: str) -> bool:
    return ArmyList.objects.filter(buildable(user, ruleset)).exists()


@require_GET
def choose_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The list picker for a new army of rule set ``slug``."""
    try:
        ruleset = rules.get_ruleset(slug)
    except KeyError:
        raise Http404("no such rule set") from None
    query = request.GET.get("q", "")[:100]
    context = {
        "ruleset": ruleset,
        "query": query,
        "groups": list_groups(request.user, slug, query),
    }
    if request.htmx:
        return render(request, "armies/start.html#list-groups", context)
    return render(request, "armies/start.html", context)
