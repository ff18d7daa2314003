"""Browse the rule sets and their army lists."""

import hashlib
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

import rules
from armybuilder.catalog import list_views, presenters, selectors, services
from armybuilder.catalog.list_page import army_list_page, takes_allies
from armybuilder.catalog.models import LIST_RESTORE_DAYS, ArmyList
from armybuilder.catalog.selectors import public_lists
from armybuilder.pages import Version, versioned_page


@require_safe  # pages that show: any other method is a 405 (badinput.MethodsMiddleware)
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


def _public_lists_shown(slug: str) -> tuple[tuple[Any, ...], Any, dict[str, tuple[Any, Any]]]:
    """The version parts of a rule set's public lists as a page names them (each with its
    last change: one made private, deleted, published or renamed changes them), the latest
    change, and each list's (pk, updated) by slug: one query."""
    rows = list(
        ArmyList.objects.filter(public_lists(), ruleset=slug)
        .order_by("pk")
        .values_list("pk", "slug", "updated")
    )
    shown = hashlib.sha256(repr([(pk, u.isoformat()) for pk, _, u in rows]).encode())
    last = max((updated for _, _, updated in rows), default=None)
    by_slug = {list_slug: (pk, updated) for pk, list_slug, updated in rows}
    return (len(rows), shown.hexdigest()[:32]), last, by_slug


def ruleset_version(slug: str, **_: Any) -> Version | None:
    """The cache version of a rule set's page: the public lists it names."""
    parts, last, _ = _public_lists_shown(slug)
    return (("ruleset", slug, *parts), last)


@require_safe
def ruleset_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A rule set's page; a player who wrote lists for it also reads them there ("Your
    lists"), drawn fresh: the cached page's version follows the public lists only."""
    own = selectors.lists_of_user(request.user, ruleset=slug)
    deleted = selectors.deleted_lists_of_user(request.user, ruleset=slug)
    if own or deleted:
        return _ruleset_page(request, slug, own, deleted)
    return _cached_ruleset_page(request, slug)


def _ruleset_page(
    request: HttpRequest,
    slug: str,
    own: list[ArmyList] | None = None,
    deleted: list[selectors.DeletedList] | None = None,
) -> HttpResponse:
    ruleset = ruleset_or_404(slug)
    army_lists = selectors.lists_for(slug)
    just_deleted = request.session.pop(list_views.JUST_DELETED, None) if deleted else None
    return render(
        request,
        "catalog/ruleset.html",
        {
            "ruleset": ruleset,
            "army_lists": army_lists,
            "own_lists": own or [],
            "deleted_lists": deleted or [],
            "undo": next(
                (d.army_list for d in deleted or [] if d.army_list.pk == just_deleted), None
            ),
            "restore_days": LIST_RESTORE_DAYS,
            "lists_text": presenters.lists_text(ruleset, len(army_lists)),
            "points_text": presenters.points_text(ruleset),
            "options": presenters.reference(ruleset.options),
            "unit_fields": presenters.reference(ruleset.unit_fields),
            "general_fields": presenters.reference(ruleset.general_fields),
            "checks": presenters.checks(ruleset),
        },
    )


_cached_ruleset_page = versioned_page(ruleset_version)(_ruleset_page)  # ETag, 304, cached


def public_list_version(slug: str, list_slug: str, **_: Any) -> Version | None:
    """The cache version of a public list's page; None (never cached, never a 304 made
    from another visitor's page) for a list only some may read."""
    try:
        allies = takes_allies(rules.get_ruleset(slug))
    except KeyError:
        allies = False
    if allies:  # the page names the rule set's other public lists as allies
        others, last, by_slug = _public_lists_shown(slug)
        if list_slug not in by_slug:
            return None
        pk, updated = by_slug[list_slug]
        return (("list", slug, pk, updated.isoformat(), *others), last)
    row = (
        ArmyList.objects.filter(public_lists(), ruleset=slug, slug=list_slug)
        .values_list("pk", "updated")
        .first()
    )
    if row is None:
        return None
    pk, updated = row
    return (("list", slug, pk, updated.isoformat()), updated)


@require_safe
@versioned_page(public_list_version)  # ETag, 304, cached HTML for public lists
def army_list_detail(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    ruleset = ruleset_or_404(slug)
    army_list = selectors.get_list(slug, slug=list_slug)
    # a list only its author (or staff) may read is not found for anyone else
    if army_list is None or not services.can(request.user, action="view", army_list=army_list):
        raise Http404("no such army list")
    return _list_page(request, ruleset, army_list)


@require_safe
def shared_list(request: HttpRequest, token: str) -> HttpResponse:
    """A list shared by link: readable by whoever has the link, until it is revoked."""
    army_list = selectors.get_list_by_token(token)
    if army_list is None or not services.can(
        request.user, action="view", army_list=army_list, token=token
    ):
        raise Http404("no such army list")
    list_views.remember_shared(request, army_list, token)
    response = _list_page(request, ruleset_or_404(army_list.ruleset), army_list, token)
    response["X-Robots-Tag"] = "noindex"
    return response


def _list_page(
    request: HttpRequest, ruleset: rules.RuleSet, army_list: ArmyList, token: str = ""
) -> HttpResponse:
    others = selectors.lists_for(ruleset.slug) if takes_allies(ruleset) else []
    page = army_list_page(ruleset, army_list, others)
    response = render(
        request,
        "catalog/army_list.html",
        {
            "ruleset": ruleset,
            "army_list": army_list,
            "page": page,
            "token": token,
            # only whether to show the author's buttons: using them is what gets logged
            "is_author": services.can(
                request.user, action="edit", army_list=army_list, record=False
            ),
            # an event's entrant may read a list shared with the event, never copy it (a
            # visitor is offered the copy, which asks them to sign in first)
            "may_copy": not request.user.is_authenticated
            or services.can(
                request.user, action="copy", army_list=army_list, token=token, record=False
            ),
            "shared_url": (
                request.build_absolute_uri(
                    reverse("catalog:shared_list", args=[army_list.share_token])
                )
                if army_list.share_token
                else ""
            ),
        },
    )
    if not army_list.is_public:
        patch_cache_control(response, private=True, no_store=True)
    return response
