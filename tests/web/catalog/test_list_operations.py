"""The list's kinds are handlers in the operation kernel's table, as an army's and a game's
are: the endpoint and the no-JS form read their change into the same parsed values, and a
handler is handed those values, never a form post."""

import pytest
from django.http import QueryDict

from armybuilder.catalog import list_operations
from armybuilder.jsonbody import BadOperation
from armybuilder.operations import kernel

KINDS = ("set", "values", "add", "remove", "meta", "undo", "redo")


def test_the_lists_kinds_are_in_the_kernels_table():
    assert kernel.kinds("list") == KINDS
    with pytest.raises(BadOperation, match="^op: one of set, values, add, remove, meta"):
        kernel.handler("list", "move")


def test_an_operation_and_a_form_post_read_into_the_same_change():
    raw = {"key": "k-1", "base_version": 3, "op": "values", "section": "entries",
           "target": "e1", "field": "armour", "value": ["a", "b"], "from": ["a"]}  # fmt: skip
    read = list_operations.change_of(raw)
    post = QueryDict(mutable=True)
    post.update({"op": "values", "section": "entries", "item": "e1", "field": "armour"})
    post.setlist("value", ["a", "b"])
    form = list_operations.change_of_form(post)
    assert isinstance(read, list_operations.Change) and not isinstance(read.value, QueryDict)
    assert (read.op, read.section, read.target, read.field, read.value) == (
        form.op, form.section, form.target, form.field, form.value,
    )  # fmt: skip
    assert (read.key, read.base_version, read.drawn) == ("k-1", 3, ["a"])
    assert (form.key, form.drawn) == ("", None)
    assert form.form_fields()[-2:] == [("value", "a"), ("value", "b")]


def test_a_form_post_no_form_of_the_editor_makes_is_refused_by_name():
    post = QueryDict(mutable=True)
    post.update({"op": "move", "item": "e1"})
    with pytest.raises(BadOperation, match="^op: one of set, values"):
        list_operations.change_of_form(post)
