"""The table of operation kinds: a subject registers a handler per kind; an operation's
value is read by its kind's handler, and a kind the subject does not take is refused
naming the kinds it does."""

import pytest

from armybuilder.jsonbody import BadOperation
from armybuilder.operations import kernel


@pytest.fixture
def table(monkeypatch):
    monkeypatch.setattr(kernel, "HANDLERS", {})
    return kernel


def _side(value, path):
    if value not in ("a", "b"):
        raise BadOperation(f'{path}.side: "a" or "b"')
    return value


def test_a_kinds_handler_reads_the_value_and_its_apply_makes_the_change(table):
    made = []
    table.register("toy", "flip", kernel.Handler(_side, lambda row, side, _: made.append(side)))
    found, parsed = table.parse_value("toy", "flip", "b", "operations[0].value")
    found.apply(None, parsed, None)
    assert (parsed, made) == ("b", ["b"])
    with pytest.raises(BadOperation, match=r'operations\[1\]\.value\.side: "a" or "b"'):
        table.parse_value("toy", "flip", "c", "operations[1].value")


def test_a_kind_the_subject_does_not_take_is_refused_naming_those_it_does(table):
    table.register("toy", "flip", kernel.Handler(_side, lambda *_: None))
    table.register("toy", "spin", kernel.Handler(_side, lambda *_: None))
    table.register("other", "jump", kernel.Handler(_side, lambda *_: None))
    with pytest.raises(BadOperation, match="op: one of flip, spin$"):
        table.handler("toy", "jump")
    assert table.kinds("toy") == ("flip", "spin")


def test_a_kind_is_registered_once(table):
    handler = kernel.Handler(_side, lambda *_: None)
    table.register("toy", "flip", handler)
    table.register("toy", "flip", handler)  # the same module imported again
    with pytest.raises(ValueError, match="has a handler already"):
        table.register("toy", "flip", kernel.Handler(_side, lambda *_: None))
