"""The envelope every subject reads its operations by: the key by the one key rule, the op
a kind the subject registered, the base version a whole number; the rest kept as given.
A field that does not read is refused by name, with what it may be."""

import pytest

from armybuilder.jsonbody import BadOperation
from armybuilder.operations import kernel


@pytest.fixture
def table(monkeypatch):
    monkeypatch.setattr(kernel, "HANDLERS", {})
    kernel.register("toy", "flip", kernel.Handler(lambda value, path: value, lambda *_: None))
    kernel.register("toy", "spin", kernel.Handler(lambda value, path: value, lambda *_: None))
    return kernel


def test_the_shared_fields_are_read_and_the_rest_kept_as_given(table):
    raw = {"key": "k-1", "op": "flip", "base_version": 0, "target": 3, "value": {"a": 1},
           "from": None, "section": "units"}  # fmt: skip
    read = table.read_envelope(raw, "toy", "operations[0]", own=("section",))
    assert (read.key, read.op, read.base_version, read.target) == ("k-1", "flip", 0, 3)
    assert (read.value, read.made_from, read.rest) == ({"a": 1}, None, {"section": "units"})
    assert read.field is kernel.ABSENT and read.at("value") == "operations[0].value"


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ([], "operations[0]: an operation is an object"),
        (
            {"key": "k", "op": "flip", "colour": 1},
            "operations[0].colour: unknown key; allowed: key",
        ),
        ({"op": "flip"}, "operations[0].key: 1 to 64 letters, digits, '-' or '_'"),
        ({"key": "a b", "op": "flip"}, "operations[0].key: 1 to 64"),
        ({"key": "k", "op": "jump"}, "operations[0].op: one of flip, spin"),
        (
            {"key": "k", "op": "flip", "base_version": -1},
            "operations[0].base_version: a whole number, 0 or more",
        ),
        (
            {"key": "k", "op": "flip", "base_version": True},
            "operations[0].base_version: a whole number",
        ),
    ],
)
def test_a_field_that_does_not_read_is_refused_by_name(table, raw, said):
    with pytest.raises(BadOperation) as refused:
        table.read_envelope(raw, "toy", "operations[0]", own=())
    assert refused.value.message.startswith(said)


def test_a_base_version_may_be_required_and_a_forms_key_left_out(table):
    with pytest.raises(BadOperation, match="^base_version: a whole number, 0 or more$"):
        table.read_envelope({"key": "k", "op": "flip"}, "toy", version_required=True)
    assert table.read_envelope({"op": "spin"}, "toy", keyed=False).key == ""
    with pytest.raises(BadOperation, match="^key: "):
        table.read_envelope({"key": "a b", "op": "spin"}, "toy", keyed=False)
