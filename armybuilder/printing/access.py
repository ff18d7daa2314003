"""Who may fetch a stored render by its id: only while what led to it still holds.

A render is reached from a page that checked access (the owner's army, a share link, a
rule set, the API); that page records a ``RenderGrant``, and ``/prints/<id>/``,
``/prints/<id>/pdf`` and ``/api/v1/prints/<id>`` answer only when one of the render's
grants still holds for this request: a share link that was regenerated or switched off,
or an army that was deleted, takes its renders with it, and a render of a private army is
its owner's alone. Anyone else gets 404, as for an id that never existed.

A grant through a share link also answers to the share guards on every request (an army
submitted to a club event is hidden by its link until the reveal): a render id learnt
through the link before then answers to no one but its owner meanwhile.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import Http404, HttpRequest

from armybuilder.armies.models import Army
from armybuilder.armies.selectors import SHARE_GUARDS, visitor_draft_key
from armybuilder.printing.models import Render, RenderGrant


def _grant(render: Render, army: Army | None, token: str = "") -> Render:
    try:
        with transaction.atomic():
            RenderGrant.objects.get_or_create(render=render, army=army, share_token=token)
    except IntegrityError:  # two requests granted it at once: the other one's row stands
        pass
    return render


def for_anyone(render: Render) -> Render:
    """A sheet anyone may ask for again (a rule set's QRS, a document posted to the API)."""
    return _grant(render, None)


def for_owner(render: Render, army: Army) -> Render:
    """A sheet of the owner's own army (or the visitor's draft): theirs alone."""
    return _grant(render, army)


def for_link(render: Render, army: Army, token: str) -> Render:
    """A sheet reached through a share link: for whoever holds it while the link lives."""
    return _grant(render, army, token)


def holding(request: HttpRequest) -> Q:
    """The grants that hold for this request."""
    live = Q(army__deleted_at__isnull=True)
    link = Q(share_token__gt="", army__share_token=F("share_token")) & live
    own = Q(share_token="") & live
    user = getattr(request, "user", None)
    mine = Q(pk__in=[])
    if user is not None and user.is_authenticated:
        mine |= Q(army__owner_id=user.pk)
    draft = visitor_draft_key(request)
    if draft:
        mine |= Q(army__owner__isnull=True, army__session_key=draft)
    return Q(army__isnull=True) | link | (own & mine)


def allowed(request: HttpRequest, render_id: Any) -> bool:
    """Whether some grant of the render holds for this request.

    One code path whatever the id: a render that exists but is hidden from this request
    (no grant holds, or its link is under a share guard) and an id that never existed ask
    the same queries, so neither the answer nor its cost tells them apart. The share
    guards run even when no link grant holds, on an army id that matches nothing."""
    grants = RenderGrant.objects.filter(holding(request), render_id=render_id)
    user = getattr(getattr(request, "user", None), "pk", None)
    links: list[int] = []
    for army_id, token, owner in grants.values_list("army_id", "share_token", "army__owner_id"):
        if not token or (user is not None and owner == user):
            return True
        links.append(army_id)
    free = [not any(guard(army_id) for guard in SHARE_GUARDS) for army_id in links or [0]]
    return bool(links) and any(free)


def render_or_404(request: HttpRequest, render_id: UUID, *, with_pdf: bool = False) -> Render:
    """The render if some grant of it holds for this request, else 404 (the render is read
    only once access is settled: a hidden id costs what a made-up one does)."""
    render = None
    if allowed(request, render_id):
        rows = Render.objects.all() if with_pdf else Render.objects.defer("pdf")
        render = rows.filter(pk=render_id).first()
    if render is None:
        raise Http404("no such print")
    return render
