"""The builder's forms, posted without JavaScript: each turns into operations and runs
the one pipeline (``operations.apply_operations``), with its one error mapping
(``operations.outcome_of``).

A unit's whole form (and the settings form) becomes one ``set`` per field the player
changed, each made from the value the form was drawn with (the army at the posted
``version``): another tab's change of another field is kept, and only a change of the
same field is a conflict. The answer is Post/Redirect/Get back to the card, or the page
drawn again with the message at the field (4xx, never 500). Sent by htmx, the same forms
answer with the out-of-band fragments the operations endpoint sends (``armies.answers``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from armybuilder.armies import selectors
from armybuilder.armies.builder import answers, builder_page
from armybuilder.armies.builder.builder_page import army_url, page, parts
from armybuilder.armies.changes import commands
from armybuilder.armies.changes.conflicts import SETTINGS, UNSET
from armybuilder.armies.changes.operations import (
    Batch,
    Operation,
    Outcome,
    apply_operations,
    refused,
)
from armybuilder.armies.documents import StaleVersion, check_army, item_fields, ruleset_of
from armybuilder.armies.field_values import PREFIX, values_from_post
from armybuilder.armies.history.revisions import HistoryMissing, ItemGone, document_at, index_of
from armybuilder.armies.models import Army
from rules.errors import MalformedDocument


class BadPost(ValueError):
    """A post no form of the builder makes: 400 with the reason."""


def _plain(message: str, status: int = 400) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def keyed(request: HttpRequest, operations: list[Operation]) -> list[Operation]:
    """Each operation with its one-time key: the form's ``_once`` (numbered when the form
    makes several), or none for a form posted without JavaScript."""
    try:
        key = builder_page.posted_once(request)
    except builder_page.BadOnceKey as exc:
        raise BadPost(str(exc)) from None
    if not key:
        return operations
    if len(operations) == 1:
        return [_with_key(operations[0], key)]
    return [_with_key(o, f"{key[:58]}-{i}") for i, o in enumerate(operations)]


def _with_key(operation: Operation, key: str) -> Operation:
    return dataclasses.replace(operation, key=key)


def drawn_from(army: Army, version: int | None) -> dict[str, Any]:
    """The document the posted form was drawn from (StaleVersion: no such version, or
    one whose history is not kept)."""
    if version is None or not 1 <= version <= army.version:
        raise StaleVersion(army)
    if version == army.version:
        return army.document
    try:
        return document_at(army, version)
    except HistoryMissing:
        raise StaleVersion(army) from None


def _kind_or_404(army: Army, kind: str) -> None:
    if kind == "generals" and not ruleset_of(army).has_generals:
        raise Http404("this rule set has no generals")


def run(
    request: HttpRequest, army: Army, operations: list[Operation], anchor: str = ""
) -> HttpResponse:
    """Apply ``operations`` and answer: Post/Redirect/Get, or the refusal shown."""
    try:
        operations = keyed(request, operations)
    except BadPost as exc:
        return _plain(str(exc))
    return answer(request, apply_operations(army, operations), anchor)


def answer(request: HttpRequest, done: Batch, anchor: str = "") -> HttpResponse:
    not_done = [o for o in done.outcomes if not o.ok]
    if request.htmx:
        if not_done:
            return _refused_htmx(request, done, not_done[0])
        return reswap(HttpResponse(answers.fragments(request, done)), "none")
    if not_done:
        return _refused_page(request, done, not_done)
    return HttpResponseRedirect(army_url(done.army, _made(done) or anchor))


def _made(done: Batch) -> str:
    """The anchor of the card a batch added, if it added one."""
    made = done.checked.revision if done.checked is not None else None
    if made is None or made.op != "add" or not made.item_id:
        return ""
    return f"{'unit' if made.target == 'units' else 'general'}-{made.item_id}"


def _refused_htmx(request: HttpRequest, done: Batch, outcome: Outcome) -> HttpResponse:
    if outcome.at_field:
        response = HttpResponse(answers.message(request, outcome), status=outcome.http_status)
        return reswap(retarget(response, f"#{answers.message_id(done, outcome)}"), "innerHTML")
    return whole(request, done.army, outcome.http_status, notice=outcome.notice)


def whole(request: HttpRequest, army: Army, status: int = 200, **extra: Any) -> HttpResponse:
    """The whole builder as the army is now: the page, or for htmx ``#builder`` in place."""
    checked = check_army(army)
    if not request.htmx:
        return page(request, checked, status, **extra)
    ctx = builder_page.context(request, checked, **extra)
    return reswap(retarget(parts(request, ctx, ["builder"], status), "#builder"), "outerHTML")


def _refused_page(request: HttpRequest, done: Batch, not_done: list[Outcome]) -> HttpResponse:
    """The page again, with each message where the player made the change."""
    first = not_done[0]
    status = first.http_status
    if first.redraws:
        return whole(request, done.army, status, notice=first.notice)
    message = "; ".join(o.message for o in not_done)
    extra: dict[str, Any] = {"error": message}
    if first.target == "army" and first.field:
        extra["settings_error"] = message
    elif first.target != "army":
        kinds = ("generals",) if first.target in answers.item_ids(done.before, "generals") else ()
        extra["errors"] = {((kinds or ("units",))[0], first.target): message}
    return page(request, check_army(done.army), status, **extra)


# -- the whole forms: a unit's (or general's) card, the settings ------------------------------


def _version(data: Mapping[str, Any]) -> int | None:
    try:
        return int(str(data.get("version", "")))
    except ValueError:
        return None


def _posted(data: Mapping[str, Any], name: str) -> bool:
    return any(k == name or k.startswith(name + ".") for k in data)


def item_operations(army: Army, kind: str, item_id: str, data: Any) -> list[Operation]:
    """The posted card as operations: a ``set`` for each field the player changed, made
    from the value the form showed (StaleVersion: the form's version is unknown)."""
    drawn = drawn_from(army, _version(data))
    try:
        shown = drawn[kind][index_of(drawn, kind, item_id)]
    except (KeyError, TypeError, ItemGone):
        shown = None  # added after the form's version: made from nothing
    found = []
    for field in item_fields(ruleset_of(army), kind):
        if not _posted(data, PREFIX + field.name):
            continue
        base = shown if isinstance(shown, dict) else {}
        try:
            value = values_from_post((field,), data, base, kind).get(field.name)
        except MalformedDocument:  # the parser words the refusal, as for the page's script
            value = data.get(PREFIX + field.name)
        if shown is None or value != base.get(field.name):
            made_from = base.get(field.name) if shown is not None else UNSET
            found.append(Operation("", "set", item_id, field.name, value, None, made_from))
    return found


@require_POST
def edit_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    """A unit's (or general's) whole form, posted without JavaScript."""
    army = selectors.army_to_change(request, pk)
    _kind_or_404(army, kind)
    if item_id not in answers.item_ids(army.document, kind):
        return answer(request, refused(army, Operation("", "set", item_id), ItemGone(item_id)))
    anchor = f"{'unit' if kind == 'units' else 'general'}-{item_id}"
    try:
        found = item_operations(army, kind, item_id, request.POST)
    except StaleVersion as exc:
        return answer(request, refused(army, Operation("", "set", item_id), exc))
    if not found:  # nothing changed: the card as it is
        if request.htmx:
            return reswap(HttpResponse(""), "none")
        return HttpResponseRedirect(army_url(army, anchor))
    return run(request, army, found, anchor)


def settings_operations(army: Army, data: Any) -> list[Operation]:
    """The posted settings form as operations: a ``set`` for each setting the player
    changed, made from the value the form showed (StaleVersion, MalformedDocument)."""
    drawn = drawn_from(army, _version(data))
    ruleset = ruleset_of(army)
    names = [n for n in SETTINGS if n in data]
    names += [f"options.{o.name}" for o in ruleset.options if _posted(data, PREFIX + o.name)]
    posted = commands.apply_settings(ruleset, drawn, data)
    found = []
    for name in names:
        old, new = _setting(drawn, name), _setting(posted, name)
        if new != old:
            found.append(Operation("", "set", "army", name, new, None, old))
    return found


def _setting(document: Mapping[str, Any], name: str) -> Any:
    if name.startswith("options."):
        options = document.get("options")
        return options.get(name[8:]) if isinstance(options, dict) else None
    return document.get(name)


@require_POST
def update_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The settings form (name, list, limit, options, notes), posted without JavaScript."""
    army = selectors.army_to_change(request, pk)
    try:
        found = settings_operations(army, request.POST)
    except StaleVersion as exc:
        return answer(request, refused(army, Operation("", "set", "army"), exc))
    except MalformedDocument as exc:  # at the setting the parser names
        return answer(request, refused(army, Operation("", "set", "army", exc.path or ""), exc))
    if not found:
        if request.htmx:
            return reswap(HttpResponse(""), "none")
        return HttpResponseRedirect(army_url(army, "settings"))
    return run(request, army, found, "settings")


# -- one-button forms: add, duplicate, move, delete, roll -------------------------------------


@require_POST
def add_item(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    _kind_or_404(army, kind)
    preset = request.POST.get("preset", "blank")
    version = builder_page.posted_version(request)
    value = {"preset": preset}
    return run(request, army, [Operation("", "add", "army", kind, value, version)], kind)


def _item_op(request: HttpRequest, pk: int, kind: str, item_id: str, op: str, value: Any = None):
    army = selectors.owned_army_or_404(request, pk)
    _kind_or_404(army, kind)
    anchor = f"{'unit' if kind == 'units' else 'general'}-{item_id}" if op != "delete" else kind
    version = builder_page.posted_version(request)
    return run(request, army, [Operation("", op, item_id, "", value, version)], anchor)


@require_POST
def duplicate_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    return _item_op(request, pk, kind, item_id, "duplicate")


@require_POST
def move_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    direction = request.POST.get("direction", "")
    if direction not in ("up", "down"):
        selectors.owned_army_or_404(request, pk)  # another's army is not there at all
        return _plain("Say which way to move: up or down.")
    return _item_op(request, pk, kind, item_id, "move", direction)


@require_POST
def delete_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    return _item_op(request, pk, kind, item_id, "delete")


@require_POST
def roll_force(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    version = builder_page.posted_version(request)
    return run(request, army, [Operation("", "roll", base_version=version)], "units")
