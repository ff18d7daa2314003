"""What a batch of operations changed, drawn as htmx out-of-band fragments.

The answer to a change sent by the page (``HX-Request``) draws only what the batch
changed: the summary of each unit or general it touched (and the controls the builder
set along with it, or whose allowed values moved), a new card inserted in its place, a
deleted card removed, a moved card taken out and put back at its new place, the title
on a rename, every unit's summary when a setting changes what units cost; then the
totals, the issues, the army's version, the undo target and the toast. A batch that
rolled, undid or replaced the settings redraws the builder. Every top element carries
``hx-swap-oob``; the page applies it with ``htmx.swap(document.body, html,
{swapStyle: "none"})``. Cards are numbered by a CSS counter (``builder.css``), so no
other card is redrawn when one is added, deleted or moved.

``message`` draws what a refused or conflicting operation shows at its field.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from armybuilder.armies.builder import builder_page, presenters
from armybuilder.armies.builder.builder_page import TEMPLATE
from armybuilder.armies.builder.controls import Control, control_id
from armybuilder.armies.changes.operations import Batch, Outcome
from armybuilder.armies.documents import Checked, check_army
from armybuilder.catalog.selectors import lists_for
from rules import presentation
from rules.base import EntryStatus

WHOLE = ("settings", "roll", "undo", "restore")  # the builder is redrawn after these
CHEAP_SETTINGS = ("name", "notes")  # settings that change no unit's cost
SETTING_IDS = {
    "name": "army-name",
    "army_list": "army-list",
    "points_limit": "army-limit",
    "notes": "army-notes",
}
LEAVES = ("select", "checkbox", "multi")
STRUCTURAL = (
    "add",
    "delete",
    "duplicate",
)  # these change what the list's picker counts  # controls whose allowed values can move
DRAWN = (*STRUCTURAL, "move")  # these draw a card (added, or put back at its new place)


def _render(request: HttpRequest | None, name: str, ctx: dict[str, Any]) -> str:
    return render_to_string(f"{TEMPLATE}#{name}", ctx, request)


def message_id(batch: Batch, outcome: Outcome) -> str:
    """The id of the element that shows an operation's message at its field."""
    if outcome.target == "army":
        name = outcome.field
        return (SETTING_IDS.get(name) or control_id("opt", name.removeprefix("options."))) + "-msg"
    kind = "generals" if outcome.target in item_ids(batch.before, "generals") else "units"
    return control_id(presenters.control_prefix(kind, outcome.target, 0), outcome.field) + "-msg"


def message(request: HttpRequest | None, outcome: Outcome) -> str:
    """A refused or conflicting operation's message, as the field shows it."""
    if outcome.ok:
        return ""
    ctx = {"conflict": outcome.refusal, "field_message": outcome.message}
    return _render(request, "field-message", ctx)


def with_messages(request: HttpRequest | None, batch: Batch) -> list[Outcome]:
    """Each refused or conflicting outcome with its field's message drawn."""
    return [o if o.ok else replace(o, html=message(request, o)) for o in batch.outcomes]


def item_ids(document: Any, kind: str) -> list[str]:
    items = document.get(kind) if isinstance(document, dict) else None
    return [i.get("id") for i in items or () if isinstance(i, dict) and i.get("id")]


def fragments(request: HttpRequest, batch: Batch) -> str:
    """The out-of-band fragments of what ``batch`` changed ("" when it changed nothing)."""
    if any(o.status == "duplicate" for o in batch.outcomes):
        # sent again after its answer was lost: the page never got what it changed
        return _whole(request, check_army(batch.army), {})
    checked = batch.checked
    if checked is None:
        return ""
    ops = [a.operation for a in batch.applied]
    toast = builder_page.toast(
        checked,
        always=any(
            (o.op == "set" and o.target == "army" and o.field == "army_list")
            or (
                a.checked.revision is not None and a.checked.revision.op == "edit" and o.op == "add"
            )
            for o, a in zip(ops, batch.applied, strict=True)
        ),
    )
    # a new army list changes the picker and what every unit may take: all of it redrawn
    new_list = any(o.op == "set" and o.target == "army" and o.field == "army_list" for o in ops)
    if checked.parsed is None or new_list or any(o.op in WHOLE for o in ops):
        return _whole(request, checked, toast)
    ctx = builder_page.context(request, checked, full=False, rows=False, **toast)
    ruleset = ctx["ruleset"]
    # the list's entries, once, for the cards drawn here (each names its entry) and the picker
    statuses = (
        builder_page.entry_statuses(checked, ruleset) if any(o.op in DRAWN for o in ops) else ()
    )
    ctx["unit_entries"] = builder_page.unit_entries(statuses)
    parts: list[str] = []
    settings = {o.field for o in ops if o.op == "set" and o.target == "army"}
    if "name" in settings:
        parts.append(_render(request, "title", {**ctx, "oob": True}))
    for kind in ("units", "generals"):
        parts += _items(request, batch, checked, ctx, kind)
    if settings - set(CHEAP_SETTINGS):  # every unit may cost differently
        view = presenters.builder(checked, ruleset, controls=False)
        parts.append(_render(request, "unit-summaries", {**ctx, "b": view}))
    if any(o.op in STRUCTURAL for o in ops):  # the headings' counts follow the cards
        for kind in ("units", "generals") if ruleset.has_generals else ("units",):
            count = len(checked.army.document.get(kind) or [])
            parts.append(_render(request, f"{kind}-count", {**ctx, "oob": True, "count": count}))
    if checked.army.document.get("army_list") and any(o.op in STRUCTURAL for o in ops):
        parts.append(_picker(request, checked, toast, statuses))
    parts.append(_render(request, "oob", ctx))
    return "".join(parts)


def _picker(
    request: HttpRequest, checked: Checked, toast: dict[str, Any], statuses: tuple[EntryStatus, ...]
) -> str:
    """The army list's picker, out of band: its counts and what is still required moved."""
    ctx = builder_page.context(request, checked, statuses=statuses, **toast)
    if not ctx["picker_entries"]:
        return ""
    return _render(request, "picker", {**ctx, "root_oob": True})


def _allies(ruleset: Any) -> tuple[tuple[str, str], ...]:
    """The army lists a unit's ally menu offers (one query, only for a rule set whose
    units name an ally list)."""
    if not any(f.name == "ally" for f in ruleset.unit_fields):
        return ()
    return presenters.ally_choices(ruleset, lists_for(ruleset.slug))


def _whole(request: HttpRequest, checked: Checked, toast: dict[str, Any]) -> str:
    ctx = builder_page.context(request, checked, **toast)
    # the builder partial's root is the page's #builder, swapped whole out of band (only
    # the root: htmx would swap any element inside marked so on its own as well)
    return _render(request, "builder", {**ctx, "root_oob": True})


def _items(
    request: HttpRequest,
    batch: Batch,
    checked: Checked,
    ctx: dict[str, Any],
    kind: str,
) -> list[str]:
    """The cards of ``kind`` the batch removed, added, moved or changed."""
    before, after = item_ids(batch.before, kind), item_ids(checked.army.document, kind)
    kept = set(before) & set(after)
    stayed = _in_order(before, [i for i in after if i in kept])
    parts = [_gone(kind, item_id) for item_id in before if item_id not in kept]
    placed: set[str] = set()
    ops = [a.operation for a in batch.applied]
    set_by_page = {(o.target, o.field) for o in ops if o.op == "set"}
    ruleset = ctx["ruleset"]
    was = {i.get("id"): i for i in batch.before.get(kind) or () if isinstance(i, dict)}
    now = checked.army.document[kind]
    set_targets = {t for t, _ in set_by_page}
    called_before, called_now = _called(batch.before, kind), _called(checked.army.document, kind)
    for at, item_id in enumerate(after):
        if item_id in stayed:
            old_item = was.get(item_id)
            # a change copies only what it changes: an untouched unit is the very same dict
            same = old_item is now[at] or old_item == now[at]
            if same and item_id not in set_targets:
                if called_before.get(item_id) != called_now.get(item_id):
                    # another unit took or left its name: only its numbered name moved
                    row = presenters.item_row(checked, ruleset, kind, at, with_controls=False)
                    parts.append(_render(request, "item-summary", {**ctx, "row": row, "oob": True}))
                continue  # untouched: nothing of its card is sent
            old = was.get(item_id) or {}
            parts += _changed(request, checked, ctx, kind, item_id, at, old, set_by_page)
            continue
        if item_id in kept:  # moved: out of its old place, into its new one
            parts.append(_gone(kind, item_id))
        focus = any(_focuses(o) for o in ops)
        row = presenters.item_row(
            checked,
            ruleset,
            kind,
            at,
            focus=focus and item_id not in kept,
            ally_lists=_allies(ruleset),
            entry=ctx["unit_entries"].get(item_id, ""),
        )
        row = replace(row, open=True)
        previous = next((p for p in reversed(after[:at]) if p in stayed or p in placed), None)
        where = (
            f"afterend:#{presenters.item_anchor(kind, previous, 0)}"
            if previous
            else f"afterbegin:#{'unit' if kind == 'units' else 'general'}-list"
        )
        card = _render(request, "item-row", {**ctx, "row": row})
        parts.append(f'<div hx-swap-oob="{where}">{card}</div>')
        placed.add(item_id)
    return parts


def _called(document: Any, kind: str) -> dict[str, str]:
    """Each unit's id -> what its card calls it (numbered among units of one name)."""
    items = document.get(kind) if isinstance(document, dict) else None
    items = [i for i in items or () if isinstance(i, dict)]
    if kind != "units":
        return {}
    return {
        i["id"]: n
        for i, n in zip(items, presentation.called_units(items), strict=True)
        if i.get("id")
    }


def _focuses(operation: Any) -> bool:
    """Whether the card a change adds takes the focus: a unit added from the menu or a
    copy, never one tapped in the list's picker (the player stays in the picker)."""
    if operation.op == "duplicate":
        return True
    if operation.op != "add" or operation.field == "generals":
        return False
    value = operation.value if isinstance(operation.value, dict) else {}
    return not str(value.get("preset", "")).startswith("entry:")


def _gone(kind: str, item_id: str) -> str:
    return f'<li id="{presenters.item_anchor(kind, item_id, 0)}" hx-swap-oob="delete"></li>'


def _in_order(before: list[str], after: list[str]) -> set[str]:
    """The ids of ``after`` that keep their order from ``before`` (a longest run in
    order): the others moved and are put back at their new places."""
    kept = set(after)
    if [i for i in before if i in kept] == after:  # nothing moved (every edit): no search
        return kept
    place = {item_id: i for i, item_id in enumerate(before)}
    positions = [place[i] for i in after]
    best: list[list[str]] = []  # best[k]: a run in order of length k+1 ending lowest
    for item_id, position in zip(after, positions, strict=True):
        low, high = 0, len(best)
        while low < high:
            middle = (low + high) // 2
            if place[best[middle][-1]] < position:
                low = middle + 1
            else:
                high = middle
        run = (best[low - 1] if low else []) + [item_id]
        if low == len(best):
            best.append(run)
        else:
            best[low] = run
    return set(best[-1]) if best else set()


def _changed(
    request: HttpRequest,
    checked: Checked,
    ctx: dict[str, Any],
    kind: str,
    item_id: str,
    at: int,
    old: dict[str, Any],
    set_by_page: set[tuple[str, str]],
) -> list[str]:
    """A card that stayed in place: its summary when the batch changed it, and the
    controls the page did not set itself (the builder's follow-ups, a renamed general's
    division) or whose allowed values moved."""
    new = checked.army.document[kind][at]
    ruleset = ctx["ruleset"]
    row = presenters.item_row(checked, ruleset, kind, at, with_controls=False)
    parts = [_render(request, "item-summary", {**ctx, "row": row, "oob": True})]
    # the stat line of its card's editor (left out by the page where never loaded)
    parts.append(_render(request, "item-stats", {**ctx, "row": row, "oob": True}))
    fields = {k for k in set(old) | set(new) if old.get(k) != new.get(k)}
    redraw = {f for f in fields if (item_id, f) not in set_by_page}
    own = {f for t, f in set_by_page if t == item_id}
    list_data = checked.parsed.list_data if checked.parsed is not None else None
    moved = kind == "units" and ruleset.allowed_values(list_data, old) != ruleset.allowed_values(
        list_data, new
    )
    if not fields:
        return parts
    full = presenters.item_row(checked, ruleset, kind, at, ally_lists=_allies(ruleset))
    # a choice changed (training, mounted...): the rules may now allow or forbid options of
    # the unit's other menus (a missile weapon once it trains for missiles), so they come too
    chosen = {c.field.split(".")[0] for c in _leaves(full.controls) if c.widget in LEAVES}
    moved = moved or (kind == "units" and bool(fields & chosen))
    if not redraw and not moved:
        return parts
    controls = [
        c
        for c in _leaves(full.controls)
        if c.field.split(".")[0] in redraw or (moved and c.widget in LEAVES and c.field not in own)
    ]
    if controls:
        # the row names the unit each redrawn control belongs to (its data-target)
        parts.append(
            _render(request, "controls-oob", {**ctx, "row": full, "oob_controls": controls})
        )
    return parts


def _leaves(controls: tuple[Control, ...]) -> list[Control]:
    """The controls an out-of-band swap can replace: those with a wrapper id of their own
    (an object's fieldset has none; its parts are typed, never restricted)."""
    return [c for c in controls if c.widget != "object" and c.field]
