"""The table of operation kinds, one handler per subject and kind, as an event's
restriction kinds are one class each in one table (``rules.restriction_kinds``).

A subject (``"army"``, ``"list"``, ``"game"``) registers each kind of operation it takes
(``register(subject, kind, handler)``, at import of the module that defines them). A
``Handler`` is two functions:

- ``parse(operation, path)``: the subject's operation (its envelope already read: key,
  base version, op, target, field, value, from) read strictly into the parsed values the
  change is made from (an army's command, a game's action values), or ``BadOperation``
  naming the field at fault (``path`` is where the operation sits in the batch) and, for
  a choice, its allowed values. A subject whose kinds read only the value (a game's)
  reads ``operation.value`` at ``f"{path}.value"``;
- ``apply(subject, parsed, context)``: the change made to the subject (the row the
  subject's pipeline hands it, inside the kernel's ``once.apply_once``) from the parsed
  values, ``context`` being what that subject's pipeline adds (the army's operation key,
  a game's seat, ...). A handler never sees a form post or a request: a no-JS form is
  read into the same operations first.

Armies register theirs in ``armies/changes/kinds.py``, games in ``games/kinds.py`` (whose
``parse`` is handed the operation's value, its envelope read by ``games.operations``, and
whose ``apply`` context is the phone's seat and how the action came, ``games.kinds.Context``).

``handler(subject, kind)`` finds the kind's handler (``BadOperation`` naming the kinds
there are when there is none); ``parse_value(subject, kind, operation, path)`` reads the
operation with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from armybuilder.jsonbody import BadOperation


@dataclass(frozen=True)
class Handler:
    parse: Callable[[Any, str], Any]
    apply: Callable[[Any, Any, Any], Any]


HANDLERS: dict[tuple[str, str], Handler] = {}


def register(subject: str, kind: str, handler: Handler) -> None:
    """Register ``handler`` for the operations of ``kind`` on ``subject`` (once each)."""
    if HANDLERS.get((subject, kind), handler) is not handler:
        raise ValueError(f"{subject}: the kind {kind!r} has a handler already")
    HANDLERS[(subject, kind)] = handler


def unregister(subject: str, kind: str) -> None:
    """``kind`` taken out of ``subject``'s table (a plug-in's, or a test's, once done)."""
    HANDLERS.pop((subject, kind), None)


def kinds(subject: str) -> tuple[str, ...]:
    """The kinds ``subject`` takes, in the order they were registered."""
    return tuple(kind for (named, kind) in HANDLERS if named == subject)


def handler(subject: str, kind: Any, path: str = "op") -> Handler:
    """The handler of ``kind`` on ``subject``, or ``BadOperation`` naming the kinds."""
    found = HANDLERS.get((subject, kind)) if isinstance(kind, str) else None
    if found is None:
        raise BadOperation(f"{path}: one of {', '.join(kinds(subject))}")
    return found


def parse_value(subject: str, kind: Any, operation: Any, path: str) -> tuple[Handler, Any]:
    """The kind's handler and ``operation`` read by it."""
    found = handler(subject, kind)
    return found, found.parse(operation, path)
