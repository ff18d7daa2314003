"""The page engine under Node answers as the server's engine does, and refuses as it says."""

import pytest

from rules.page.status import ping
from tests.engine.node import EngineError


def test_the_browsers_engine_has_every_rule_set_the_server_has(node_engine):
    answer = node_engine.call("rules.page.status:ping")
    assert answer["rulesets"] == ping()["rulesets"]
    assert node_engine.ready_ms > 0


def test_the_browsers_engine_answers_only_modules_under_rules_page(node_engine):
    with pytest.raises(EngineError, match=r"^UnknownTarget: 'os:getcwd' is not a function"):
        node_engine.call("os:getcwd")
    with pytest.raises(EngineError, match=r"^UnknownTarget: 'rules.page.status:_private'"):
        node_engine.call("rules.page.status:_private")
    with pytest.raises(EngineError, match=r"^TypeError: .*unexpected keyword argument 'x'"):
        node_engine.call("rules.page.status:ping", x=1)
