"""The game's operation protocol: every action the page's script makes, in one JSON shape,
applied in order, each once, including those made while the phone was offline and sent
later.

A batch is ``{"operations": [...]}`` (anything else in the body, such as ``own``, is
ignored); an operation is ``{"key", "base_version", "op", "value"}`` (other keys a record
of the page's queue carries are ignored):

- ``key``: the operation's one-time key, 1 to 64 letters, digits, ``-`` or ``_``
  (``armybuilder.operations.kernel``, as for armies and lists), made by
  the page when the player acts. A key applied to this game already answers
  ``duplicate`` with its action's number: a retry or a replayed queue never applies it
  twice. A key refused before may be sent again, and is then applied if it can be (the
  one rule of the operation kernel, ``armybuilder.operations.kernel``).
- ``base_version``: the game's version the page showed (a whole number, 0 or more). It
  refuses nothing by itself: what conflicts is the turn and phase (below).
- ``op`` and ``value``: one of the kinds of ``games.kinds.KINDS``, whose ``parse`` reads
  the value: ``combat`` (``attacker``, ``target``, ``modifiers``, ``die`` and
  ``numbers`` as typed, ``seed``), ``rally`` (``unit``, ``facts``, ``die``,
  ``seed``: the die is rolled from it when none is typed, so a resend rolls the same),
  ``force_morale`` (``side``: "a" or "b", ``dice`` as typed, ``count``: how many to roll
  when none is typed, ``seed``, ``bonus``: the source's +1s ticked), ``remove``
  (``unit``, ``why``), ``next_phase`` (the phase it leaves), each with the ``turn`` and
  ``phase`` the player made it in; ``undo`` (``of``: the key of the operation it takes
  back, or none: the last action standing, as the Undo form).

An operation made at another turn or phase than the game's (the other phone acted first)
is answered ``conflict`` in words, never applied in the wrong phase; so two phones pressing
Next phase for the same phase advance the game once. One made on a unit removed since (the
other phone's combat took it off) is answered ``gone``. Neither uses up its key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from armybuilder.games import kinds, presenters, selectors, services
from armybuilder.games.models import Game, GameAction
from armybuilder.games.services import Keyed, Refused
from armybuilder.jsonbody import BadOperation
from armybuilder.operations import kernel
from armybuilder.operations.kernel import (
    ABSENT,
    CONFLICT,
    GONE,
    REFUSED,
    Duplicate,
    Outcome,
    apply_once,
)
from rules.table import Gone

MAX_BATCH = 200
MAX_TURN = 100_000
SUBJECT = "game"  # the game's name in the ledger of applied keys


@dataclass(frozen=True)
class Operation:
    key: str
    op: str
    base_version: int | None  # a form's: None when it was not drawn with one
    value: Mapping[str, Any]  # read strictly by its kind (``kinds.KINDS[op].parse``)
    turn: int | None = None  # where the player made it (None: undo)
    phase: str | None = None


def answer_of(outcome: Outcome) -> dict[str, Any]:
    """One operation's outcome as the game's page reads it: ``key``, ``status``, and the
    ``number`` of the action it made or found, or the ``message`` of its refusal."""
    found: dict[str, Any] = {"key": outcome.key, "status": outcome.status}
    if outcome.number is not None:
        found["number"] = outcome.number
    if outcome.message:
        found["message"] = outcome.message
    return found


# -- reading ---------------------------------------------------------------------------------


def parse_operations(raw: Any) -> list[Operation]:
    """The batch as posted, read strictly (BadOperation names the first field wrong)."""
    if not isinstance(raw, Mapping):
        raise BadOperation('body: a JSON object, {"operations": [...]}')
    found = raw.get("operations")
    if not isinstance(found, list) or not found:
        raise BadOperation("operations: a non-empty list of operations")
    if len(found) > MAX_BATCH:
        raise BadOperation(f"operations: at most {MAX_BATCH} in one batch")
    return [_operation(item, f"operations[{i}]") for i, item in enumerate(found)]


def _operation(raw: Any, path: str) -> Operation:
    return read_operation(raw, path, version_required=True)


def read_operation(
    raw: Any, path: str, *, version_required: bool = False, value_path: str = ""
) -> Operation:
    """One operation read through the kernel's envelope and its kind's ``parse``: the batch's
    (``path`` its place in it) or a form's, whose post its kind read into the same value
    (no key, the version the form was drawn at, its value's fields named ``value_path``)."""
    keyed = not value_path
    read = kernel.read_envelope(
        raw, kinds.SUBJECT, path, version_required=version_required, keyed=keyed
    )
    value = {} if read.value is ABSENT else read.value
    if not isinstance(value, Mapping):
        raise BadOperation(f"{read.at('value')}: an object")
    where = value_path or read.at("value")
    parsed = kernel.handler(kinds.SUBJECT, read.op).parse(value, where)
    base = read.base_version
    if not kinds.KINDS[read.op].placed or not read.key:
        return Operation(read.key, read.op, base, parsed)
    phase = kinds.text(value, "phase", where, 40, 1)
    return Operation(read.key, read.op, base, parsed, _turn(value, where), phase)


def _turn(value: Mapping[str, Any], path: str) -> int:
    found = value.get("turn")
    if type(found) is not int or not 1 <= found <= MAX_TURN:
        raise BadOperation(f"{path}.turn: the turn it was made in, a whole number from 1")
    return found


# -- applying --------------------------------------------------------------------------------


def apply_operations(
    game: Game, operations: list[Operation], *, seat: str | None = None
) -> list[Outcome]:
    """Each operation applied in order, in its own transaction, each key once (the
    operation kernel, ``armybuilder.operations.kernel``: the game's row locked, the key
    checked and recorded with its action); a refused one changes nothing, its key either,
    and the next is applied all the same. ``game`` is read anew. ``seat``: the phone's
    side ("a" or "b") in a game on two phones (``rules.seats``)."""
    outcomes = []
    for operation in operations:
        try:
            action = _once(game, operation, seat)
        except Duplicate as exc:
            outcomes.append(Outcome(operation.key, "duplicate", version=exc.version))
        except services.Duplicate as exc:  # what it undoes was taken back already
            outcomes.append(Outcome(operation.key, "duplicate", version=exc.action.number))
        except services.MovedOn as exc:  # overtaken by the other phone's action
            message = _moved_on(game, operation, exc.state)
            status = CONFLICT if operation.phase in presenters.phase_names(game) else REFUSED
            outcomes.append(Outcome(operation.key, status, message=message))
        except Gone as exc:  # made on a unit removed since
            outcomes.append(Outcome(operation.key, GONE, message=exc.message))
        except Refused as exc:
            outcomes.append(Outcome(operation.key, "refused", message=exc.message))
        else:
            outcomes.append(Outcome(operation.key, "applied", version=action.number))
    game.refresh_from_db()
    return outcomes


def _once(game: Game, operation: Operation, seat: str | None) -> GameAction:
    def change(locked: Game) -> GameAction:
        return _apply(game, operation, seat)

    rows = Game.objects.filter(pk=game.pk)
    return apply_once(SUBJECT, rows, operation.key, change, lambda action: action.number)


def apply_form(game: Game, operation: Operation, seat: str | None) -> GameAction:
    """A no-JS form's operation (no key) applied by its kind's handler at the version the
    form was drawn at: refused as stale once the game moved on."""
    context = kinds.Context(seat, kinds.Made(version=operation.base_version))
    return kernel.handler(kinds.SUBJECT, operation.op).apply(game, operation.value, context)


def _apply(game: Game, operation: Operation, seat: str | None) -> GameAction:
    keyed = Keyed(operation.key, operation.turn, operation.phase)
    context = kinds.Context(seat, kinds.Made(keyed=keyed))
    return kernel.handler(kinds.SUBJECT, operation.op).apply(game, operation.value, context)


def _moved_on(game: Game, operation: Operation, state: selectors.GameState) -> str:
    """The refusal of an operation made at another turn or phase, in names: where the game
    is, what the operation was and where it was made."""
    phases = [p.key for p in selectors.phases(game)]
    names = presenters.phase_names(game)
    what = _what(game, operation)
    if operation.phase not in names:
        return f"Not applied: this {what} was made in a phase this game does not have."
    now = f"Turn {state.turn}, {names.get(state.phase, state.phase)}"
    made = f"Turn {operation.turn}, {names[operation.phase]}"
    at = (state.turn, phases.index(state.phase) if state.phase in phases else len(phases))
    if (operation.turn, phases.index(operation.phase)) > at:
        return (f"Not applied: the game was back at {now} (an undo on the other phone?) when "
                f"this {what} from {made} arrived.")  # fmt: skip
    return (f"Not applied: the game had moved on to {now} (the other phone?) when this "
            f"{what} from {made} arrived.")  # fmt: skip


def _what(game: Game, operation: Operation) -> str:
    return kinds.KINDS[operation.op].what(game, operation.value)
