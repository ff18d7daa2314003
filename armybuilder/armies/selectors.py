"""Finding armies with their access rules in one place: others get 404, never 403."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.http import Http404, HttpRequest

import rules
from armybuilder.armies.documents import attach_document
from armybuilder.armies.models import (
    RESTORE_DAYS,
    Army,
    restore_cutoff,
)
from armybuilder.catalog.selectors import army_lookup
from armybuilder.catalog.services import check_document

DRAFT_SESSION_KEY = "muster_draft_key"


# Other apps' reasons to keep a shared army hidden for now (an event's armies before its
# reveal): each takes the army's pk and answers True to hide it; registered in their ready().
SHARE_GUARDS: list[Callable[[int], bool]] = []


def _guarded(pk: int) -> bool:
    return any(guard(pk) for guard in SHARE_GUARDS)


def live_armies() -> QuerySet[Army]:
    """Armies not deleted: every page, share link and list reads from here."""
    return Army.objects.filter(deleted_at__isnull=True)


def shared_army_version_row(token: str) -> tuple[int, int, datetime] | None:
    """(pk, version, updated) of the live army shared under ``token``, or None.

    The share page asks this on every visit before serving its cached HTML, so it is one
    plain SELECT on the unique token (the same as ``live_armies().filter(share_token=...)
    .values_list(...)``, without building that query each time: it was half the cost of a
    cached page)."""
    with connection.cursor() as cursor:
        cursor.execute(_shared_version_sql(connection.vendor), [token])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, version, updated = row
    if _guarded(int(pk)):
        return None
    column = Army._meta.get_field("updated").get_col(Army._meta.db_table)
    for convert in connection.ops.get_db_converters(column):  # e.g. SQLite's text to datetime
        updated = convert(updated, column, connection)
    return int(pk), int(version), updated


@functools.cache
def _shared_version_sql(vendor: str) -> str:
    """The SELECT of ``shared_army_version_row``, written once per database vendor."""
    meta, quote = Army._meta, connection.ops.quote_name
    name = {f: quote(meta.get_field(f).column) for f in ("id", "version", "updated")}
    token, deleted = (quote(meta.get_field(f).column) for f in ("share_token", "deleted_at"))
    return (
        f"SELECT {name['id']}, {name['version']}, {name['updated']} "  # noqa: S608 (names from the model)
        f"FROM {quote(meta.db_table)} WHERE {token} = %s AND {deleted} IS NULL"
    )


def owned_army_or_404(request: HttpRequest, pk: int) -> Army:
    """The army with ``pk`` if the request's user owns it (or it is this visitor's draft)."""
    army = live_armies().filter(pk=pk).first()
    if army is None or not can_edit(request, army):
        raise Http404("no such army")
    return army


def owned_army_version_or_404(request: HttpRequest, pk: int) -> int:
    """The version of the army with ``pk`` if the request may edit it (else 404), read
    without its document: open builders ask it every second."""
    army = live_armies().filter(pk=pk).only("pk", "owner_id", "session_key", "version").first()
    if army is None or not can_edit(request, army):
        raise Http404("no such army")
    return army.version


def army_to_change(request: HttpRequest, pk: int) -> Army:
    """``owned_army_or_404`` for a builder change: the same one query, with the document
    read as its stored text and decoded only when this process does not remember the row
    as it is (``documents.attach_document``), so an edit skips reading the whole army.
    Whether an operation's key was applied is read when the change locks the row (the
    operation kernel, ``armybuilder.operations.kernel``)."""
    found = (
        live_armies()
        .filter(pk=pk)
        .defer("document")
        .annotate(stored_document=Cast("document", output_field=TextField()))
    )
    army = found.first()
    if army is None or not can_edit(request, army):
        raise Http404("no such army")
    attach_document(army, army.__dict__.pop("stored_document", None))
    return army


def visitor_draft_key(request: HttpRequest) -> str:
    """The key this visitor's drafts carry ('' when the visitor has none)."""
    session = getattr(request, "session", None)
    if session is None:
        return ""
    return str(session.get(DRAFT_SESSION_KEY) or "")


def can_edit(request: HttpRequest, army: Army) -> bool:
    user = request.user
    if army.owner_id is not None:
        return user.is_authenticated and army.owner_id == user.pk
    key = visitor_draft_key(request)
    return bool(key) and army.session_key == key


def shared_army_or_404(token: str) -> Army:
    """The army shared under ``token``; 404 for a made-up, revoked or regenerated token."""
    army = live_armies().filter(share_token=token).first() if token else None
    if army is None or _guarded(army.pk):
        raise Http404("no such shared army")
    return army


def deleted_army_or_404(request: HttpRequest, pk: int) -> Army:
    """A deleted army its owner may still restore (``RESTORE_DAYS``); else 404."""
    army = _restorable().filter(pk=pk).first()
    if army is None or not can_edit(request, army):
        raise Http404("no such deleted army")
    return army


def _restorable() -> QuerySet[Army]:
    return Army.objects.filter(deleted_at__gte=restore_cutoff())


def _mine(request: HttpRequest, armies: QuerySet[Army]) -> QuerySet[Army]:
    if request.user.is_authenticated:
        return armies.filter(owner=request.user)
    key = visitor_draft_key(request)
    if not key:
        return armies.none()
    return armies.filter(owner__isnull=True, session_key=key)


def armies_for(request: HttpRequest) -> QuerySet[Army]:
    """The user's armies, or this visitor's drafts, newest first (deleted ones left out)."""
    return _mine(request, live_armies()).order_by("-updated", "-pk")


def armies_and_deleted_for(request: HttpRequest) -> tuple[list[Army], list[Army]]:
    """(live armies newest first, restorable deleted ones last deleted first): one query."""
    both = Army.objects.filter(Q(deleted_at__isnull=True) | Q(deleted_at__gte=restore_cutoff()))
    rows = list(_mine(request, both).order_by("-updated", "-pk"))
    live = [a for a in rows if a.deleted_at is None]
    deleted = sorted((a for a in rows if a.deleted_at is not None), key=_deleted_order)
    return live, deleted


def _deleted_order(army: Army) -> tuple[float, int]:
    assert army.deleted_at is not None
    return (-army.deleted_at.timestamp(), -army.pk)


@dataclass(frozen=True)
class ArmySummary:
    """One line of "My armies": what a player needs to pick an army."""

    army: Army
    ruleset_title: str
    valid: bool | None
    total_points: int | None
    points_limit: int | None
    matrix_rows: tuple[int, ...] | None
    units: int
    errors: int
    warnings: int
    problem: str = ""
    list_name: str = ""


@dataclass(frozen=True)
class DeletedArmy:
    """One line of "Recently deleted": what it was and until when it can come back."""

    army: Army
    ruleset_title: str
    restorable_until: datetime


def deleted_rows(armies: Iterable[Army]) -> list[DeletedArmy]:
    return [
        DeletedArmy(a, _title(a.ruleset), a.deleted_at + timedelta(days=RESTORE_DAYS))
        for a in armies
        if a.deleted_at is not None
    ]


def _title(slug: str) -> str:
    try:
        return rules.get_ruleset(slug).title
    except KeyError:
        return slug


def army_summaries(armies: Iterable[Army]) -> list[ArmySummary]:
    """Check every army as its builder does: against the revisions it is pinned to and the
    lists its owner may build on (``catalog.selectors.army_lookup``), its list named as at
    that revision. Armies with the same owner and pins share one read of the lists."""
    lookups: dict[tuple[Any, ...], Any] = {}

    def lookup_of(army: Army) -> Any:
        key = (army.owner_id, tuple(sorted((army.list_pins or {}).items())))
        if key not in lookups:
            read = army_lookup(army)
            lookups[key] = functools.cache(read)
        return lookups[key]

    def list_name(army: Army) -> str:
        slug = army.document.get("army_list")
        if not slug:
            return ""
        lists = lookup_of(army)(army.ruleset)
        names = getattr(lists, "names", {})
        return names.get(str(slug)) or "an army list no longer in Muster"

    summaries = []
    for army in armies:
        try:
            title = rules.get_ruleset(army.ruleset).title
        except KeyError:
            title = army.ruleset
        try:
            _, report = check_document(army.document, lookup=lookup_of(army))
        except rules.MalformedDocument as exc:
            summaries.append(
                ArmySummary(
                    army, title, None, None, None, None, 0, 0, 0, exc.message, list_name(army)
                )
            )
            continue
        composition = report.composition or {}
        rows = composition.get("matrix_rows") if isinstance(composition, Mapping) else None
        summaries.append(
            ArmySummary(
                army=army,
                ruleset_title=title,
                valid=report.valid,
                total_points=report.total_points,
                points_limit=report.points_limit,
                matrix_rows=tuple(rows) if isinstance(rows, list | tuple) else None,
                units=len(report.units),
                errors=len(report.errors),
                warnings=len(report.warnings),
                list_name=list_name(army),
            )
        )
    return summaries
