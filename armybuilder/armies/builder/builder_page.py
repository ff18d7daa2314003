"""The builder page: its context and its answers, for the page views (``armies.views``)
and the field views (``armies.field_views``) alike, and its "Add a unit" picker: the army
list's entries as buttons, with their cost and how many more the list requires or allows,
grouped by list (the army's own first).

A full answer draws the page (or the whole ``#builder`` for htmx); a partial answer draws
named partials of ``armies/builder.html``. Every answer that draws the Undo button names
the change it takes back (``undo_revision``): the change this page made last, or, drawn
whole, the newest one it shows. The server then undoes exactly that change.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse

from armybuilder import pageengine
from armybuilder.armies.builder import cards, presenters
from armybuilder.armies.documents import Checked, ItemNotFound, ruleset_of
from armybuilder.armies.history.revisions import undoable
from armybuilder.armies.models import Army, Revision
from armybuilder.catalog.selectors import army_lists_for, army_lookup
from armybuilder.operations.kernel import RULE as KEY_RULE
from armybuilder.operations.kernel import is_once_key
from rules.base import EntryStatus, RuleSet
from rules.presentation import descriptor, entry_counts, entry_dom_id, size_text

TEMPLATE = "armies/builder.html"
TOASTED_OPS = ("delete", "replace")  # a change the toast offers to undo at once


def posted_version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


class BadOnceKey(ValueError):
    """The action's one-time key is not one the builder makes."""


def posted_once(request: HttpRequest) -> str:
    """The action's one-time key (``_once``; builder.js makes one per action), or ""."""
    key = request.POST.get("_once", "")
    if key and not is_once_key(key):
        raise BadOnceKey(f"The action's one-time key (_once) must be {KEY_RULE}.")
    return key


def army_url(army: Army, anchor: str = "") -> str:
    return reverse("armies:builder", args=[army.pk]) + (f"#{anchor}" if anchor else "")


def _undo_target(checked: Checked) -> Any:
    """The revision the Undo button names: the one this answer's change recorded (no
    query), else the newest the page shows, looked up only if the button is drawn."""
    made = checked.revision
    if made is not None and made.undo_of_id is None:
        return made.pk

    @functools.cache
    def newest() -> int | str:
        found = undoable(checked.army)
        return found.pk if found is not None else ""

    return newest


def _edited_item(request: HttpRequest) -> tuple[str, str] | None:
    """The unit (or general) a refused or stale change was made on, by its address: its
    card is drawn open again, with its editor, where the player was."""
    match = request.resolver_match
    kwargs = match.kwargs if match is not None and request.method == "POST" else {}
    if "kind" in kwargs and "item_id" in kwargs:
        return str(kwargs["kind"]), str(kwargs["item_id"])
    return None


def context(
    request: HttpRequest,
    checked: Checked,
    *,
    full: bool = True,
    rows: bool = True,
    statuses: tuple[EntryStatus, ...] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The builder's context; ``full`` adds what only whole sections need (one query).
    ``statuses``: the list's entries (``entry_statuses``), when the caller has them."""
    army = checked.army
    try:
        ruleset = ruleset_of(army)
    except ItemNotFound:
        raise Http404("this army's rule set is no longer offered") from None
    # the public lists, the owner's own and those the army is pinned to (one query)
    lists = army_lists_for(army) if full else []
    focus = extra.pop("focus", None)
    opened = extra.pop("opened", None) or _edited_item(request)
    # the list's entries, worked out once for the picker and the cards
    if statuses is None:
        statuses = entry_statuses(checked, ruleset) if rows or full else ()
    entries_of = unit_entries(statuses)
    view = presenters.builder(
        checked,
        ruleset,
        rows=rows,
        focus=focus,
        errors=extra.pop("errors", None),
        ally_lists=presenters.ally_choices(ruleset, lists),
        lazy=True,
        # one card open at a time: the one to focus (just added), else the one changed
        opened=None if focus else opened,
        entries=entries_of,
    )
    result: dict[str, Any] = {
        "b": view,
        "army": army,
        "ruleset": ruleset,
        "base": reverse("armies:builder", args=[army.pk]),
        "settings_url": reverse("armies:settings", args=[army.pk]),
        "editing": True,
        "undo_revision": _undo_target(checked),
        "undo_moved": checked.revision is not None,  # the partials redraw the button's target
        "unit_entries": entries_of,
    }
    if rows:
        # the cards as HTML, each drawn once per content (armies.cards)
        result["unit_cards"] = cards.cards(view.unit_rows, request, army)
        result["general_cards"] = cards.cards(view.general_rows, request, army)
    if full:
        list_data = checked.parsed.list_data if checked.parsed is not None else None
        result.update(
            option_controls=presenters.option_controls(checked, ruleset),
            army_lists=lists,
            presets=[
                p
                for p in presenters.add_presets(ruleset, list_data)
                if not p.key.startswith("entry:")  # those are the picker's buttons
            ],
            picker_entries=(entries := picker_entries(checked, ruleset, statuses)),
            picker_groups=picker_groups(entries),
            setting_from=presenters.setting_from(army.document),
            share_url=presenters.share_url(request, army.share_token),
            print_links=presenters.print_links(reverse("armies:builder", args=[army.pk])),
        )
        if checked.parsed is not None and pageengine.enabled():
            # a page without the engine has no use for the army's lists as data
            result.update(engine_data(army))
    result.update(extra)
    return result


def engine_data(army: Army) -> dict[str, Any]:
    """What the page's engine checks the army from (``rules.page.builder.report``): the
    saved document at its version, and the army's rule-set lists at the revisions it is
    pinned to (``catalog.selectors.army_lookup``), named by a digest of their content so
    the engine keeps them once across the page's redraws."""
    found = army_lookup(army)(army.ruleset)
    lists = {
        "data": dict(found),
        "names": dict(getattr(found, "names", {})),
        "families": dict(getattr(found, "families", {})),
    }
    text = json.dumps(lists, sort_keys=True, default=str)
    key = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    return {
        "engine_army": {
            "army": str(army.pk),
            "version": army.version,
            "document": army.document,
            "lists_key": key,
        },
        "engine_lists": lists,
    }


def parts(
    request: HttpRequest, ctx: dict[str, Any], names: list[str], status: int = 200
) -> HttpResponse:
    html = "".join(render_to_string(f"{TEMPLATE}#{name}", ctx, request) for name in names)
    return HttpResponse(html, status=status)


def page(request: HttpRequest, checked: Checked, status: int = 200, **extra: Any) -> HttpResponse:
    return render(request, TEMPLATE, context(request, checked, **extra), status=status)


def toast(checked: Checked, *, always: bool = False) -> dict[str, Any]:
    """The "Undo" toast for a change that acts at once: a delete or a replacement of the
    army (``always``: any change, e.g. a new army list), naming the revision it recorded."""
    made: Revision | None = checked.revision
    if made is None or not (always or made.op in TOASTED_OPS):
        return {}
    return {"toast": made, "undo_url": reverse("armies:undo", args=[checked.army.pk])}


# -- the "Add a unit" picker ------------------------------------------------------------


@dataclass(frozen=True)
class PickerEntry:
    """One button of the "Add a unit" picker: an entry of the army list."""

    key: str  # the preset posted: "entry:<key>"
    label: str
    cost: int | None
    still_required: int = 0
    remaining: int | None = None
    have: int = 0
    # the entry's bounds: what the page's offline drawing works the counts out from
    minimum: int = 0
    maximum: int | None = None
    note: str = ""
    group: str = ""  # "" for the army's own list; else e.g. "Allies from Irish"
    replaces: str = ""  # a stand-in: the unit type it replaces, in words
    nothing_to_replace: bool = False
    # the card a tap draws at once, before the server answers (offline too): its name,
    # size and kind in words, as the server will draw them (JSON for a data- attribute)
    drawn: str = ""

    @property
    def dom_id(self) -> str:
        return entry_dom_id(self.key)

    @property
    def full(self) -> bool:
        return self.remaining == 0 or self.nothing_to_replace

    @property
    def counts(self) -> str:
        """How many more the list requires or allows, in words."""
        return entry_counts(
            still_required=self.still_required,
            remaining=self.remaining,
            have=self.have,
            replaces=self.replaces,
            nothing_to_replace=self.nothing_to_replace,
        )


@dataclass(frozen=True)
class PickerGroup:
    """The picker's tiles under one heading: the army's own list ("") or one allied list."""

    heading: str
    entries: tuple[PickerEntry, ...]
    first_other: bool = False  # the first group after the army's own list

    @property
    def taken(self) -> bool:
        return any(e.have for e in self.entries)


def picker_groups(entries: list[PickerEntry]) -> list[PickerGroup]:
    """``entries`` by group, in their order (the army's own list first)."""
    grouped: dict[str, list[PickerEntry]] = {}
    for entry in entries:
        grouped.setdefault(entry.group, []).append(entry)
    found, others = [], 0
    for heading, members in grouped.items():
        found.append(PickerGroup(heading, tuple(members), first_other=bool(heading) and not others))
        others += bool(heading)
    return found


def drawn_unit(ruleset: RuleSet, values: Mapping[str, Any]) -> str:
    """What the card of a unit added with ``values`` shows before the server drew it (no
    name: the server names it "Unit <its number>")."""
    return json.dumps(
        {
            "name": str(values.get("name") or ""),
            "size": size_text(values),
            "kind": descriptor(ruleset, "units", values),
        },
        separators=(",", ":"),
    )


def entry_statuses(checked: Checked, ruleset: RuleSet) -> tuple[EntryStatus, ...]:
    """The army list's entries with this army's counts (``RuleSet.list_entries``): what
    the picker's tiles and the cards' entries are drawn from, worked out once a page."""
    parsed = checked.parsed
    list_entries = getattr(ruleset, "list_entries", None)
    if parsed is None or list_entries is None:
        return ()
    return tuple(list_entries(parsed.list_data, parsed))


def unit_entries(statuses: Iterable[EntryStatus]) -> dict[str, str]:
    """Unit id -> the preset of the tile that unit counts against: its card names it, so
    the page's offline drawing counts a copy or a delete of it on that tile."""
    return {unit_id: f"entry:{e.key}" for e in statuses for unit_id in e.unit_ids}


def picker_entries(
    checked: Checked, ruleset: RuleSet, statuses: tuple[EntryStatus, ...] | None = None
) -> list[PickerEntry]:
    """The army list's entries with their cost and counts (``RuleSet.list_entries``, or
    ``statuses`` when the page already has them), or, before a rule set offers that, its
    ``unit_presets`` without counts."""
    parsed = checked.parsed
    if parsed is None:
        return []
    list_data = parsed.list_data
    list_entries = getattr(ruleset, "list_entries", None)
    if list_entries is not None:
        if statuses is None:
            statuses = entry_statuses(checked, ruleset)
        return [
            PickerEntry(
                key=f"entry:{e.key}",
                label=e.label,
                cost=e.cost,
                still_required=e.still_required,
                remaining=e.remaining,
                have=e.have,
                minimum=e.minimum,
                maximum=e.maximum,
                note=e.note,
                group=e.group,
                replaces=e.replaces,
                nothing_to_replace=bool(e.replaces) and e.replace_index is None,
                # a stand-in changes a unit already there: only the server draws it
                drawn="" if e.replaces else drawn_unit(ruleset, e.values),
            )
            for e in statuses
        ]
    return [
        PickerEntry(key=f"entry:{i}", label=label, cost=None, drawn=drawn_unit(ruleset, values))
        for i, (label, values) in enumerate(ruleset.unit_presets(list_data))
    ]
