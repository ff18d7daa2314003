"""A JSON object that gives one key twice is refused, naming the key (Python's json would
keep the last value silently: a document could then say two things and mean one)."""

import pytest

from rules.document import load_json
from rules.errors import MalformedDocument


def test_a_key_given_twice_is_refused_with_the_key_named():
    with pytest.raises(MalformedDocument) as refused:
        load_json('{"format": "muster.army/1", "name": "A", "name": "B"}')
    assert "'name' appears twice" in refused.value.message


def test_a_repeat_deep_inside_is_refused_too():
    with pytest.raises(MalformedDocument) as refused:
        load_json('{"units": [{"id": "u1", "count": 1, "count": 2}]}')
    assert "'count' appears twice" in refused.value.message


def test_the_same_key_in_two_objects_is_fine():
    assert load_json('[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]
