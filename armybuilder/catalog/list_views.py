"""The author's buttons on a list page (who sees it, a new link, delete) and copying a list.

Every change is a POST; a list the visitor may not change is not found (404), so a URL
never tells whether someone else's private list exists. Services refuse what the access
rules refuse (``services.can``); the views only turn that into a message.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from armybuilder.catalog import list_lifecycle, selectors, services
from armybuilder.catalog.models import ArmyList, SharedList

JUST_DELETED = "muster_just_deleted_list"  # session: the list its rule set's page offers to undo

# what the author may ask for from the list page (staff publish in the admin)
STATUS_WORDS = {
    services.PRIVATE: "The list is private: only you can read it.",
    services.LINK: "Anyone with the link can now read and copy the list.",
    services.SUBMITTED: "Submitted: the list is private until staff publish it.",
}


def authored_list_or_404(
    request: HttpRequest, slug: str, list_slug: str, *, record: bool = True
) -> ArmyList:
    """The list if the request may edit it, else 404; ``record=False``: a support use is
    not logged again (``services.can``), for what an open editor asks every second."""
    army_list = selectors.get_list(slug, slug=list_slug)
    if army_list is None or not services.can(
        request.user, action="edit", army_list=army_list, record=record
    ):
        raise Http404("no such army list")
    return army_list


def editor_url(army_list: ArmyList) -> str:
    return reverse("catalog:list_edit", args=[army_list.ruleset, army_list.slug])


def list_page_url(army_list: ArmyList) -> str:
    return reverse("catalog:army_list", args=[army_list.ruleset, army_list.slug])


@require_POST
def list_status(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    status = request.POST.get("status", "")
    if status not in STATUS_WORDS:
        messages.error(request, "Choose private, shared by link or submitted for publishing.")
        return redirect(list_page_url(army_list))
    try:
        services.set_status(request.user, army_list=army_list, status=status)
    except services.ListRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, STATUS_WORDS[status])
    return redirect(list_page_url(army_list))


@require_POST
def list_revoke(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    services.revoke_link(request.user, army_list=army_list)
    messages.success(request, "The old link no longer works.")
    return redirect(list_page_url(army_list))


@require_POST
def list_delete(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    """Deletes at once; the rule set's page then offers "Undo" (and "Restore" for
    ``LIST_RESTORE_DAYS`` days)."""
    army_list = authored_list_or_404(request, slug, list_slug)
    try:
        kept = list_lifecycle.delete_list(request.user, army_list)
    except services.ListRefused as exc:
        messages.error(request, str(exc))
        return redirect(list_page_url(army_list))
    request.session[JUST_DELETED] = army_list.pk
    if kept:
        messages.info(
            request,
            f"Nobody can read it or build on it any more; {kept} "
            "and keep the revision they were checked against, for them alone.",
        )
    return redirect(reverse("catalog:ruleset", args=[slug]))


@require_POST
def list_undelete(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    """Undo a delete (its author, within ``LIST_RESTORE_DAYS`` days); back to its page."""
    army_list = selectors.deleted_list(slug, slug=list_slug)
    if army_list is None or not getattr(request.user, "is_authenticated", False):
        raise Http404("no such army list")
    try:
        list_lifecycle.restore_list(request.user, army_list)
    except services.ListRefused as exc:
        raise Http404("no such army list") from exc
    messages.success(request, f"Restored {army_list.name}.")
    return redirect(list_page_url(army_list))


def remember_shared(request: HttpRequest, army_list: ArmyList, token: str) -> None:
    """A signed-in player read someone else's list through its share link: offer it to
    them when they start an army, while this link works."""
    user = request.user
    if not user.is_authenticated or army_list.is_public or army_list.author_id == user.pk:
        return
    SharedList.objects.update_or_create(
        army_list=army_list, user_id=user.pk, defaults={"token": token}
    )


def _copy(request: HttpRequest, army_list: ArmyList, token: str = "") -> HttpResponse:
    saved = services.copy_list(request.user, army_list=army_list, token=token)
    messages.success(request, f"{army_list.name} copied to your lists: change it as you like.")
    return redirect(list_page_url(saved.army_list))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def list_copy(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    """GET: what copying does, with the button (works without JS); POST: copy it."""
    army_list = selectors.get_list(slug, slug=list_slug)
    if army_list is None or not services.can(request.user, action="copy", army_list=army_list):
        raise Http404("no such army list")
    if request.method == "POST":
        return _copy(request, army_list)
    return render(request, "catalog/list_copy.html", {"army_list": army_list})


@require_POST
def shared_list_copy(request: HttpRequest, token: str) -> HttpResponse:
    """Copy a list shared by link: the link is checked first, so a made-up one is 404
    even for a visitor, who is then asked to sign in."""
    army_list = selectors.get_list_by_token(token)
    if army_list is None or not services.can(
        request.user, action="view", army_list=army_list, token=token
    ):
        raise Http404("no such army list")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return _copy(request, army_list, token)
