"""The builder's change protocol: one field at a time, never lost, never on the wrong unit.

A change names what it changes (an army setting, or a field of the unit or general with
a given id), the value it was made from (``_from``, JSON) and the version of the page it
was made on. It is applied to the army as it is now unless that same field changed since
(its value is no longer the one the change was made from): then ``FieldConflict`` carries
both values and the player chooses. Changes to different fields, from two tabs, both
land. The unit is found by its id wherever other tabs' adds, deletes and moves put it
(``revisions.index_of``).

Undo names the change it takes back and takes back only that: a one-value change is set
back on the army as it is now (a conflict when that value moved on since), a whole-army
change only while nothing came after it. Each function here answers an ``edits.Edit``
for ``armies.editing.apply_edit``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.http import QueryDict

from armybuilder.armies.controls import PREFIX, as_text, values_from_post
from armybuilder.armies.documents import (
    ItemNotFound,
    item_fields,
    items_of,
    ruleset_of,
    working_copy,
)
from armybuilder.armies.edits import (
    Change,
    Edit,
    follow_renamed_general,
    follow_ups,
    settings_document,
)
from armybuilder.armies.models import Army, Revision
from armybuilder.armies.revisions import (
    ItemGone,
    RevisionNote,
    document_at,
    get_value,
    index_of,
    undoable,
    with_value,
)
from armybuilder.armies.wording import field_value, list_namer
from rules.errors import MalformedDocument

SETTINGS = {
    "name": "Army name",
    "army_list": "Army list",
    "points_limit": "Points limit",
    "notes": "Notes",
}
UNSET = object()


@dataclass(eq=False)  # not frozen: raising through a context manager sets __traceback__
class FieldConflict(Exception):
    """The field changed since the change was made from it: both values, for a choice."""

    army: Army
    field: str
    label: str
    theirs: Any
    yours: Any

    @property
    def theirs_text(self) -> str:
        return shown(self.theirs)

    @property
    def yours_text(self) -> str:
        return shown(self.yours)

    @property
    def theirs_json(self) -> str:
        return json.dumps(self.theirs)


class NothingToUndo(LookupError):
    """No change left to undo, or the one named can no longer be taken back alone."""


def shown(value: Any) -> str:
    """A value as a player reads it in a conflict message."""
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(as_text(v) for v in value) or "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k} {as_text(v)}" for k, v in value.items())
    return as_text(value)


@dataclass(frozen=True)
class SentBefore:
    """A change made from ``value`` by a page that had also sent this field's values in
    ``sent`` (each the control's form values as a query string) without waiting for their
    answer: a newer keystroke replaced that request in flight. The army may hold any of
    them, and none of them is another tab's change."""

    value: Any
    sent: tuple[str, ...]


def made_from_post(data: QueryDict | Mapping[str, Any]) -> Any:
    """The posted ``_from``, with ``_sent`` (a JSON list of query strings) when the page
    replaced earlier requests for the field in flight."""
    made_from = parse_from(data.get("_from"))
    raw = data.get("_sent")
    if made_from is UNSET or not raw:
        return made_from
    try:
        sent = json.loads(raw)
    except ValueError:
        raise MalformedDocument("_sent", "_sent: not a JSON list") from None
    if not isinstance(sent, list) or not all(isinstance(s, str) for s in sent):
        raise MalformedDocument("_sent", "_sent: not a list of form values")
    return SentBefore(made_from, tuple(sent[-20:]))


def _also(made_from: Any, read: Callable[[QueryDict], Any]) -> list[Any]:
    """The values a ``SentBefore`` page sent for the field, read as the field reads them
    (a value the field refuses is left out: it was never saved)."""
    if not isinstance(made_from, SentBefore):
        return []
    found = []
    for text in made_from.sent:
        try:
            found.append(read(QueryDict(text)))
        except MalformedDocument:
            continue
    return found


def parse_from(text: str | None) -> Any:
    """The posted ``_from`` (JSON), or UNSET when the change was not made from a value."""
    if text is None:
        return UNSET
    try:
        return json.loads(text)
    except ValueError:
        raise MalformedDocument("_from", "_from: not a JSON value") from None


def _only(data: QueryDict | Mapping[str, Any], name: str) -> dict[str, list[str]]:
    """The posted values of one control (and its sub-controls), nothing else."""
    keep: dict[str, list[str]] = {}
    for key in data:
        if key == name or key.startswith(name + "."):
            values = data.getlist(key) if isinstance(data, QueryDict) else data[key]
            keep[key] = list(values) if isinstance(values, list | tuple) else [str(values)]
    return keep


def _querydict(posted: Mapping[str, list[str]]) -> QueryDict:
    result = QueryDict(mutable=True)
    for key, values in posted.items():
        result.setlist(key, values if isinstance(values, list) else [values])
    return result


def check_conflict(
    army: Army,
    field: str,
    label: str,
    made_from: Any,
    old: Any,
    new: Any,
    also: list[Any] | None = None,
) -> None:
    """Same field changed since the change was made, to something else: the player chooses.
    ``also``: values this page itself sent for the field and did not wait for."""
    base = made_from.value if isinstance(made_from, SentBefore) else made_from
    if base is UNSET or base == old or new == old or old in (also or ()):
        return
    raise FieldConflict(army, field, label, theirs=old, yours=new)


def setting(field: str, data: QueryDict | Mapping[str, Any], made_from: Any) -> Edit:
    """Change one army setting (``name``, ``army_list``, ``points_limit``, ``notes`` or
    ``options.<name>``) on the army as it is now."""

    def apply(army: Army) -> Change:
        ruleset = ruleset_of(army)
        if field in SETTINGS:
            label, posted = SETTINGS[field], _only(data, field)
        elif field.startswith("options.") and field[8:] in {f.name for f in ruleset.options}:
            option = ruleset.option_field(field[8:])
            label, posted = f"Option {option.label}", _only(data, PREFIX + option.name)
        else:
            raise ItemNotFound(f"no setting {field!r}")
        if not posted:
            raise MalformedDocument(field, f"{field}: no value was sent")
        document = settings_document(army, _querydict(posted))
        old = get_value(army.document, "army", None, field)
        new = get_value(document, "army", None, field)

        def read(sent: QueryDict) -> Any:
            name = field if field in SETTINGS else PREFIX + field[8:]
            return get_value(
                settings_document(army, _querydict(_only(sent, name))), "army", None, field
            )

        check_conflict(army, field, label, made_from, old, new, _also(made_from, read))
        said = _setting_words(army, ruleset, field)
        note = RevisionNote(
            f"{label}: {said(old)} → {said(new)}",
            field=field,
            retell=lambda first: f"{label}: {said(first)} → {said(new)}",
        )
        if old == new and document == army.document:
            return Change(None, note)
        return Change(document, note)

    return apply


def _setting_words(army: Army, ruleset: Any, field: str) -> Callable[[Any], str]:
    """A setting's value in words: the army's list by its name, an option by its label."""
    if field == "army_list":
        namer = list_namer(army, ruleset.slug)
        return lambda value: field_value(None, value, shown) if not value else namer(value)
    if field.startswith("options."):
        option = ruleset.option_field(field[8:])
        return lambda value: field_value(option, value, shown)
    return shown


def typed(edit: Edit) -> Edit:
    """``edit`` as a keystroke after others in the same field: it may extend their revision
    (``revisions.record``) rather than record one of its own."""

    def apply(army: Army) -> Change:
        change = edit(army)
        return replace(change, note=replace(change.note, typing=True))

    return apply


def item_field(
    kind: str, item_id: str, field: str, data: QueryDict | Mapping[str, Any], made_from: Any
) -> Edit:
    """Change one field of the unit (or general) ``item_id``, wherever it is now.

    The change's ``index`` is the item's index now; ``revisions.ItemGone`` when that item
    is no longer there.
    """

    def apply(army: Army) -> Change:
        ruleset = ruleset_of(army)
        chosen = next((f for f in item_fields(ruleset, kind) if f.name == field), None)
        if chosen is None:
            raise ItemNotFound(f"no field {field!r}")
        posted = _only(data, PREFIX + field)
        if not posted:
            raise MalformedDocument(field, f"{field}: no value was sent")
        now = index_of(army.document, kind, item_id)
        document = working_copy(army)
        items = items_of(document, kind)
        current = items[now] if isinstance(items[now], dict) else {}
        path = f"{kind}[{now}]"
        items[now] = values_from_post((chosen,), _querydict(posted), current, path)
        old, new = current.get(field), items[now].get(field)
        label = f"{current.get('name') or kind[:-1]}: {chosen.label}"

        def read(sent: QueryDict) -> Any:
            sent_posted = _querydict(_only(sent, PREFIX + field))
            return values_from_post((chosen,), sent_posted, current, path).get(field)

        check_conflict(army, field, label, made_from, old, new, _also(made_from, read))
        namer = list_namer(army, ruleset.slug) if field in ruleset.list_fields else None

        def said(value: Any) -> str:
            return field_value(chosen, value, shown, namer)

        note = RevisionNote(
            f"{label} {said(old)} → {said(new)}", target=kind, index=now, item_id=item_id,
            field=field,
            retell=lambda first: f"{label} {said(first)} → {said(new)}",
        )  # fmt: skip
        if old == new:
            return Change(None, note, index=now)
        adjusted: list[str] = []
        if kind == "units":
            adjusted = follow_ups(ruleset, current, items[now])
        else:
            follow_renamed_general(document, old if field == "name" else None, new)
        return Change(document, note, tuple(adjusted), now)

    return apply


def undo(revision_pk: int | None = None, made_from: Any = UNSET) -> Edit:
    """Take back the change ``revision_pk`` (None: the newest one not yet undone).

    A one-value change is set back on the army as it is now, on its unit wherever that
    unit went, when the value is still the one the change made (or ``made_from``, the
    value the player was shown when choosing to undo anyway); otherwise FieldConflict. A
    whole-army change is taken back only while it is the latest (NothingToUndo).
    """

    def apply(army: Army) -> Change:
        revision = undoable(army, revision_pk)
        if revision is None:
            raise NothingToUndo("nothing to undo")
        summary = f"Undid: {revision.summary}"
        if revision.kind != Revision.FIELD:
            if revision.document is None or _in_effect_since(army, revision):
                raise NothingToUndo("other changes were made since")
            return Change(dict(revision.document), _inverse(revision, summary))
        target, field = revision.target, revision.field
        now = revision.index
        if target != "army":
            try:
                now = index_of(army.document, target, revision.item_id)
            except ItemGone:
                raise NothingToUndo("that item is gone") from None
        value = get_value(army.document, target, now, field)
        expected = revision.after if made_from is UNSET else made_from
        if value != expected:
            label = _label(army, target, now, field)
            raise FieldConflict(army, field, label, theirs=value, yours=revision.before)
        document = with_value(army.document, target, now, field, revision.before)
        note = RevisionNote(
            summary, op="edit", target=target, index=now, item_id=revision.item_id,
            field=field, undo_of=revision,
        )  # fmt: skip
        return Change(document, note, index=now)

    return apply


def _inverse(revision: Revision, summary: str) -> RevisionNote:
    """The note of taking back a whole-document change: the opposite move of the items,
    as History tells it."""
    op, target, index = revision.op, revision.target, revision.index
    if op in ("add", "delete", "edit"):
        back = {"add": "delete", "delete": "add", "edit": "edit"}[op]
        return RevisionNote(
            summary, op=back, target=target, index=index, item_id=revision.item_id,
            undo_of=revision,
        )  # fmt: skip
    if op == "move":
        return RevisionNote(
            summary, op="move", target=target, index=revision.op_to, op_to=index, undo_of=revision
        )
    return RevisionNote(summary, op="replace", undo_of=revision)


def _in_effect_since(army: Army, revision: Revision) -> bool:
    """Whether a change made after ``revision`` still counts: putting back the whole
    document from before ``revision`` would take it back too. Changes undone since, and
    the undos of them, do not count."""
    if revision.version == army.version:
        return False
    later = Revision.objects.filter(army=army, version__gt=revision.version, undone=False)
    return later.exclude(undo_of__version__gt=revision.version).exists()


def _label(army: Army, target: str, index: int | None, field: str) -> str:
    """How a conflict names a value: "Army name", or "Knights: Figures"."""
    if target == "army":
        if field in SETTINGS:
            return SETTINGS[field]
        try:
            return f"Option {ruleset_of(army).option_field(field.removeprefix('options.')).label}"
        except LookupError:  # no such option (ItemNotFound: no such rule set)
            return field
    item = army.document[target][index]
    name = item.get("name") if isinstance(item, dict) else None
    try:
        fields = item_fields(ruleset_of(army), target)
    except ItemNotFound:
        fields = ()
    chosen = next((f.label for f in fields if f.name == field), field)
    return f"{name or target[:-1]}: {chosen}"


def restore(version: int) -> Edit:
    """Make the army what it was at ``version`` (a new change: it can be undone too)."""

    def apply(army: Army) -> Change:
        note = RevisionNote(f"Restored version {version}", op="replace")
        return Change(document_at(army, version), note)

    return apply


def restore_snapshot(name: str, document: dict[str, Any]) -> Edit:
    """Make the army the named snapshot's document (a new change: it can be undone too)."""

    def apply(army: Army) -> Change:
        return Change(dict(document), RevisionNote(f"Restored “{name}”", op="replace"))

    return apply
