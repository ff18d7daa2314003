"""The one door from a page's worker into the engine (``static/js/engine/worker.js``).

``call("rules.page.builder:report", '{"army": ...}')`` imports the module, calls the
function with the JSON object as keyword arguments and answers JSON: ``{"ok": result}``,
or ``{"error": "<ExceptionType>: <message>"}``. Only modules under ``rules.page`` answer:
the worker is no general way into Python.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

PREFIX = "rules.page."


class UnknownTarget(ValueError):
    """A target that is not a function of a module under ``rules.page``."""


def resolve(target: str) -> Any:
    """The function ``target`` ("rules.page.<module>:<function>") names."""
    module_name, _, function_name = target.partition(":")
    if (
        not module_name.startswith(PREFIX)
        or module_name == f"{PREFIX}bridge"
        or not function_name
        or function_name.startswith("_")
    ):
        raise UnknownTarget(f"{target!r} is not a function of a module under rules.page")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        raise UnknownTarget(f"no module {module_name!r}") from missing
    function = getattr(module, function_name, None)
    if not callable(function):
        raise UnknownTarget(f"{module_name} has no function {function_name!r}")
    return function


def call(target: str, arguments: str) -> str:
    """Run ``target`` with the keyword arguments ``arguments`` (a JSON object); JSON answer."""
    try:
        kwargs = json.loads(arguments) if arguments else {}
        if not isinstance(kwargs, dict):
            raise TypeError("the arguments must be a JSON object")
        result = resolve(target)(**kwargs)
        return json.dumps({"ok": result}, separators=(",", ":"), allow_nan=False)
    except Exception as failure:  # the page is told, never left waiting
        return json.dumps({"error": f"{type(failure).__name__}: {failure}"})
