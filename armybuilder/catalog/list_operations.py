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
from armybuilder.operations import kernel
from armybuilder.operations.kernel import (
    ABSENT,
    APPLIED,
    CONFLICT,
    DUPLICATE,
    GONE,
    REFUSED,
    Duplicate,
    Outcome,
    Refused,
    apply_once,
)
from rules.list_changes import META, Place, Posted, Refusal, apply, meta_change
from rules.list_ids import ID, find
from rules.list_shape import ListShape, Section

SUBJECT = "list"  # the list's name in the ledger of applied keys and the table of kinds
# what the change queue sends besides the envelope (static/js/changes/queue.js); "army" is
# the queue's own name for the list ("list-<pk>"), "typing" the builder's, both read by no
# one here
OWN = ("army", "section", "then", "then_text", "typing")


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

    def posted(self) -> Posted:
        """The change as ``list_changes`` reads it (shared with the page's engine)."""
        return Posted(self.op, self.section, self.target, self.field, self.value, self.then,
                      self.then_text)  # fmt: skip

    def form_fields(self) -> list[tuple[str, str]]:
        """The change as the editor's form posts it, field by field (a refusal's buttons
        post it again)."""
        named = (("op", self.op), ("section", self.section), ("item", self.target),
                 ("field", self.field), ("then", self.then), ("then_text", self.then_text))  # fmt: skip
        values = self.value if isinstance(self.value, list) else [self.value]
        return [(n, v) for n, v in named if v] + [("value", str(v)) for v in values]


@dataclass(frozen=True)
class Context:
    """What a list's kind is applied with besides its change: who edits, and the rule set
    and list format the change is checked against."""

    user: Any
    ruleset: rules.RuleSet
    shape: ListShape


def change_of_form(post: QueryDict) -> Change:
    """A no-JS form's post read into the same change as an operation (no key, no check of
    what it was drawn from): the handler never sees the post. ``BadOperation`` for a post
    no form of the editor makes."""
    op = post.get("op", "")
    values: Any = post.getlist("value") if op == "values" else post.get("value", "")
    raw = {"op": op, "section": post.get("section", ""), "target": post.get("item", ""),
           "field": post.get("field", ""), "value": values, "then": post.get("then", ""),
           "then_text": post.get("then_text", "")}  # fmt: skip
    read = kernel.read_envelope(raw, SUBJECT, keyed=False)
    return kernel.handler(SUBJECT, read.op).parse(read, "")


def change_of(raw: Any) -> Change:
    """An operation's JSON as a change, or ``BadOperation`` naming the field at fault."""
    if isinstance(raw, dict) and "index" in raw:
        raise BadOperation("index: items are named by their id (target), never by a place")
    read = kernel.read_envelope(raw, SUBJECT, own=OWN)
    return kernel.handler(SUBJECT, read.op).parse(read, "")


def _parse(read: kernel.Envelope, path: str) -> Change:
    """Every list kind's: the envelope's fields read as texts (``value`` and ``from``: a
    list of texts for ticked values)."""
    given = {"section": read.rest.get("section", ""), "target": read.target,
             "field": read.field, "then": read.rest.get("then", ""),
             "then_text": read.rest.get("then_text", "")}  # fmt: skip
    texts = {}
    for name, text in given.items():
        text = "" if text is ABSENT else text
        if not isinstance(text, str):
            raise BadOperation(f"{read.at(name)}: must be text")
        texts[name] = text
    value = "" if read.value is ABSENT else read.value
    drawn = None if read.made_from is ABSENT else read.made_from
    for name, found in (("value", value), ("from", drawn)):
        fine = found is None if name == "from" else False
        fine = fine or isinstance(found, str)
        fine = fine or (isinstance(found, list) and all(isinstance(v, str) for v in found))
        if not fine:
            raise BadOperation(f"{read.at(name)}: text, or a list of texts for ticked values")
    return Change(op=read.op, value=value, drawn=drawn, key=read.key,
                  base_version=read.base_version, **texts)  # fmt: skip


def run(user: Any, army_list: ArmyList, ruleset: rules.RuleSet, shape: ListShape,
        change: Change) -> Outcome:  # fmt: skip
    """Make one change as one revision (or refuse it) by its kind's handler, once for its
    key, in the operation kernel's transaction under the list's lock
    (``armybuilder.operations.kernel``)."""
    rows = ArmyList.objects.filter(pk=army_list.pk)
    kind, context = kernel.handler(SUBJECT, change.op), Context(user, ruleset, shape)

    def made(locked: ArmyList) -> Outcome:
        return kind.apply(locked, change, context)

    try:
        return apply_once(SUBJECT, rows, change.key, made, lambda done: done.version)
    except Duplicate as exc:
        return Outcome(change.key, DUPLICATE, "Already saved.", version=exc.version)
    except Refused as exc:
        return exc.outcome
    except Refusal as exc:
        gone = "no longer there" in exc.message
        return Outcome(change.key, GONE if gone else REFUSED, exc.message, refusal=exc)


def _history(locked: ArmyList, change: Change, context: Context) -> Outcome:
    """Undo and redo: the list as in the revision before (or after) the one it is at."""
    op = change.op
    steps = list_history.steps_of(locked)
    target = steps.undo if op == "undo" else steps.redo
    if target is None:
        why = "this is the list as first written" if op == "undo" else "nothing was undone"
        raise Refusal(f"Nothing to {op}: {why}.", Place(op))
    found = locked.revisions.get(number=target)
    done = f"{op.capitalize()}: the list is as in revision {target} again."
    content = list_history.content_of(found)
    return _saved(locked, change, context, content, Place(op), done, op, target)


def _meta(locked: ArmyList, change: Change, context: Context) -> Outcome:
    """The list's own fields (name, period, source note)."""
    content, place = meta_change(change.posted())
    now = getattr(locked, change.field, "")
    if _moved(now, change.drawn, str(change.value).strip()):
        raise Refused(_conflict(META.get(change.field, change.field), now, change))
    return _saved(locked, change, context, content, place, "Saved.")


def _edit(locked: ArmyList, change: Change, context: Context) -> Outcome:
    """A change of the list's data (set, values, add, remove), checked by the rule set."""
    ruleset, shape, post, done = context.ruleset, context.shape, change.posted(), "Saved."
    data = locked.data if isinstance(locked.data, dict) else {}
    if change.op in ("set", "values") and change.drawn is not None:
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
    return _saved(locked, change, context, {"data": changed}, place, done)


def _saved(locked: ArmyList, change: Change, context: Context, content: dict[str, Any],
           place: Place, done: str, kind: str = "edit", restores: int | None = None,
           ) -> Outcome:  # fmt: skip
    try:
        services.edit_list(context.user, army_list=locked, kind=kind, restores=restores, **content)
    except ValidationError as exc:
        raise Refusal(said(exc), place if change.op == "meta" else Place(change.op)) from None
    except services.ListRefused as exc:
        raise Refusal(str(exc), Place(change.op)) from None
    return Outcome(change.key, APPLIED, done, done=done, version=locked.latest_revision)


for _kind, _apply in (
    ("set", _edit), ("values", _edit), ("add", _edit), ("remove", _edit), ("meta", _meta),
    ("undo", _history), ("redo", _history),
):  # fmt: skip
    kernel.register(SUBJECT, _kind, kernel.Handler(_parse, _apply))


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
