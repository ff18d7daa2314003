"""The list editor's changes, one pipeline for the page's script and its no-JS forms.

An *operation* is what the page's script sends (``static/js/list-editor.js`` through the
change queue of ``static/js/changes/queue.js``), as JSON to the list's ``operations/``:
``{key, base_version, op, section, target, field, value, from}``: ``op`` one of set,
values, add, remove, meta, undo, redo; ``target`` the item's stable id (``rules.list_ids``;
"" for a single object or the list's own fields; for an add inside a choice group, the
group's id), never a position. Without JavaScript a form posts the same names (``item``
for ``target``) and no key.

Each operation runs in the operation kernel's transaction under the list's row lock
(``armybuilder.operations.kernel``): its one-time ``key`` is applied once (sent again, it is
answered "duplicate"; a refused one may be sent again); a ``set`` or ``values`` whose
field moved on since the ``from`` the page drew is refused with both values, as a
conflict, never saved over the other tab's (different fields, and the other items, merge: each change is applied to the
list as it is now); every change made is one revision (``services.edit_list``), and undo
and redo walk them (``list_history``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.http import QueryDict

import rules
from armybuilder.catalog import list_history, services
from armybuilder.catalog.list_refusals import explain, rebalanced
from armybuilder.catalog.models import ArmyList
from armybuilder.jsonbody import BadOperation
from armybuilder.operations.kernel import (
    APPLIED,
    CONFLICT,
    DUPLICATE,
    GONE,
    REFUSED,
    Duplicate,
    Outcome,
    Refused,
    apply_once,
    is_once_key,
)
from armybuilder.operations.kernel import RULE as KEY_RULE
from rules.list_changes import META, Place, Refusal, apply, meta_change
from rules.list_ids import ID, find
from rules.list_shape import ListShape, Section

OPS = ("set", "values", "add", "remove", "meta", "undo", "redo")
SUBJECT = "list"  # the list's name in the ledger of applied keys
# what the change queue sends (static/js/changes/queue.js); "army" is the queue's own
# name for the list ("list-<pk>"), "typing" the builder's, both read by no one here
WIRE = ("key", "army", "base_version", "op", "section", "target", "field", "value", "from",
        "then", "then_text", "typing")  # fmt: skip


@dataclass(frozen=True)
class Change:
    """One operation, read: what to change, where, and what the page drew there."""

    op: str
    section: str = ""
    target: str = ""
    field: str = ""
    value: Any = ""  # text, or a list of texts for ``values``
    drawn: Any = None  # "from": the field as the page drew it (None: not said, no check)
    key: str = ""
    base_version: int | None = None
    then: str = ""
    then_text: str = ""

    def posted(self) -> QueryDict:
        """The change as the editor's form posts it (what ``list_changes`` reads)."""
        post = QueryDict(mutable=True)
        for name, value in (("op", self.op), ("section", self.section), ("item", self.target),
                            ("field", self.field), ("then", self.then),
                            ("then_text", self.then_text)):  # fmt: skip
            if value:
                post[name] = value
        values = self.value if isinstance(self.value, list) else [self.value]
        post.setlist("value", [str(v) for v in values])
        return post


def change_of_form(post: QueryDict) -> Change:
    """A no-JS form's post as a change (no key, no check of what it was drawn from)."""
    op = post.get("op", "")
    values: Any = post.getlist("value") if op == "values" else post.get("value", "")
    return Change(op=op, section=post.get("section", ""), target=post.get("item", ""),
                  field=post.get("field", ""), value=values, then=post.get("then", ""),
                  then_text=post.get("then_text", ""))  # fmt: skip


def change_of(raw: Any) -> Change:
    """An operation's JSON as a change, or ``BadOperation`` naming the field at fault."""
    if not isinstance(raw, dict):
        raise BadOperation("an operation must be a JSON object")
    if "index" in raw:
        raise BadOperation("index: items are named by their id (target), never by a place")
    unknown = sorted(set(raw) - set(WIRE))
    if unknown:
        raise BadOperation(f"{unknown[0]}: not part of an operation; allowed: {', '.join(WIRE)}")
    op = raw.get("op")
    if op not in OPS:
        raise BadOperation(f"op: {op!r} is not one of {', '.join(OPS)}")
    key = raw.get("key")
    if not is_once_key(key):
        raise BadOperation(f"key: a one-time key, {KEY_RULE}")
    version = raw.get("base_version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise BadOperation("base_version: the list's revision number the page showed")
    texts = {}
    for name in ("section", "target", "field", "then", "then_text"):
        text = raw.get(name, "")
        if not isinstance(text, str):
            raise BadOperation(f"{name}: must be text")
        texts[name] = text
    value, drawn = raw.get("value", ""), raw.get("from")
    for name, given in (("value", value), ("from", drawn)):
        fine = given is None if name == "from" else False
        fine = fine or isinstance(given, str)
        fine = fine or (isinstance(given, list) and all(isinstance(v, str) for v in given))
        if not fine:
            raise BadOperation(f"{name}: text, or a list of texts for ticked values")
    return Change(op=op, value=value, drawn=drawn, key=key, base_version=version, **texts)


def run(user: Any, army_list: ArmyList, ruleset: rules.RuleSet, shape: ListShape,
        change: Change) -> Outcome:  # fmt: skip
    """Make one change as one revision (or refuse it), once for its key, in the operation
    kernel's transaction under the list's lock (``armybuilder.operations.kernel``)."""
    rows = ArmyList.objects.filter(pk=army_list.pk)

    def made(locked: ArmyList) -> Outcome:
        return _made(user, locked, ruleset, shape, change)

    try:
        return apply_once(SUBJECT, rows, change.key, made, lambda done: done.version)
    except Duplicate as exc:
        return Outcome(change.key, DUPLICATE, "Already saved.", version=exc.version)
    except Refused as exc:
        return exc.outcome
    except Refusal as exc:
        gone = "no longer there" in exc.message
        return Outcome(change.key, GONE if gone else REFUSED, exc.message, refusal=exc)


def _made(
    user: Any, locked: ArmyList, ruleset: rules.RuleSet, shape: ListShape, change: Change
) -> Outcome:
    post = change.posted()
    op = change.op
    kind, restores, done, place = "edit", None, "Saved.", Place(op)
    if op in ("undo", "redo"):
        steps = list_history.steps_of(locked)
        target = steps.undo if op == "undo" else steps.redo
        if target is None:
            why = "this is the list as first written" if op == "undo" else "nothing was undone"
            raise Refusal(f"Nothing to {op}: {why}.", place)
        found = locked.revisions.get(number=target)
        content, kind, restores = list_history.content_of(found), op, target
        done = f"{op.capitalize()}: the list is as in revision {target} again."
    elif op == "meta":
        content, place = meta_change(post)
        now = getattr(locked, change.field, "")
        if _moved(now, change.drawn, str(change.value).strip()):
            raise Refused(_conflict(META.get(change.field, change.field), now, change))
    else:
        data = locked.data if isinstance(locked.data, dict) else {}
        if op in ("set", "values") and change.drawn is not None:
            now = drawn_value(shape, data, change)
            if now is not None and _moved(now, change.drawn, _typed(change)):
                raise Refused(_conflict(_label(shape, change), now, change))
        changed, place = apply(data, shape, post, lambda d: not ruleset.validate_army_list(d))
        if change.then:
            chosen = rebalanced(shape, changed, place, change.then, change.then_text)
            if chosen is None:
                raise Refusal("The list changed meanwhile: choose again.", place)
            changed, done = chosen, f"Saved, and {change.then_text[5:]}"
        problems = ruleset.validate_army_list(changed)
        if problems:
            raise explain(ruleset, shape, data, changed, place, post, problems)
        content = {"data": changed}
    try:
        services.edit_list(user, locked, kind=kind, restores=restores, **content)
    except ValidationError as exc:
        raise Refusal(said(exc), place if op == "meta" else Place(op)) from None
    except services.ListRefused as exc:
        raise Refusal(str(exc), Place(op)) from None
    return Outcome(change.key, APPLIED, done, done=done, version=locked.latest_revision)


def said(exc: ValidationError) -> str:
    if hasattr(exc, "message_dict"):
        return " ".join(
            f"{META.get(k, k)}: {m}" if k != "__all__" else m
            for k, ms in exc.message_dict.items()
            for m in ms
        )
    return " ".join(exc.messages)


def _typed(change: Change) -> Any:
    return sorted(change.value) if isinstance(change.value, list) else str(change.value).strip()


def _moved(now: Any, drawn: Any, typed: Any) -> bool:
    """Whether the field moved on since the page drew it (to something else than what this
    change sets: two tabs setting the same value agree)."""
    if drawn is None:
        return False
    drawn = sorted(drawn) if isinstance(drawn, list) else str(drawn).strip()
    return now != drawn and now != typed


def _conflict(label: str, now: Any, change: Change) -> Outcome:
    theirs = ", ".join(now) if isinstance(now, list) else now
    message = (
        f"{label}: changed elsewhere meanwhile (now “{theirs}”); yours was not saved. "
        "Choose which to keep."
    )
    return Outcome(change.key, CONFLICT, message, theirs=now)


def _label(shape: ListShape, change: Change) -> str:
    section = shape.section(change.section)
    if section is None:
        return change.field
    spec = next((f for f in (*section.fields, *section.values) if f.name == change.field), None)
    return spec.label if spec is not None else change.field


def drawn_value(shape: ListShape, data: dict[str, Any], change: Change) -> Any:
    """The field's stored value as the page draws it in its control (the text of an input,
    the posted value of a choice, the ticked values of a values field); None when the
    item or field is not there (the change then says why)."""
    section = shape.section(change.section)
    if section is None:
        return None
    item = _item(section, data, change.target)
    if item is None:
        return None
    if change.op == "values":
        spec = next((v for v in section.values if v.name == change.field), None)
        if spec is None:
            return None
        match = item.get(section.values_key, {}) if section.values_key else {}
        ticked = match.get(spec.name, []) if isinstance(match, dict) else []
        return sorted(json.dumps(v) for v in ticked)
    spec = next((f for f in section.fields if f.name == change.field), None)
    if spec is None:
        return None
    return control_text(spec, item.get(spec.name))


def control_text(spec: Any, value: Any) -> str:
    """A stored value as its control shows it (``list_page_controls`` draws the same)."""
    if spec.kind == "boolean":
        return "true" if value else "false"
    if spec.kind == "choice":
        return "" if value is None else json.dumps(value)
    if spec.kind == "lines" and isinstance(value, list):
        return "\n".join(str(line) for line in value)
    return "" if value is None else str(value)


def _item(section: Section, data: dict[str, Any], target: str) -> dict[str, Any] | None:
    if section.single:
        item = data if not section.key else data.get(section.key)
        return item if isinstance(item, dict) else None
    found = find(data, target)
    if found is None:
        return None
    holder, n = found
    item = holder[n]
    return item if isinstance(item, dict) and item.get(ID) == target else None
