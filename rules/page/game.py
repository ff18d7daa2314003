"""The game companion on the phone: the actions it has not seen saved yet, worked out by
the same engine and the same code the server records them with (``rules.table``), from
the seeds the phone chose, so the hits and steps show at once, offline too, and the
server's log then says exactly the same.

The page keeps two things (``static/js/game-ops.js``): the game's table, which never
changes for a game (each side's units as the engine read them, its list, the options;
``GET .../offers.json``, kept on the phone), and where the game stood when the page was
drawn (the ``data-table`` of the game's page). ``work`` replays the phone's own actions
onto it in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import initiative, table, table_rolls, table_words
from rules.combat import CombatRules, Phase
from rules.registry import get_ruleset

# an action's outcome on the phone
WORKED = "worked"  # worked out as the server will work it out
REFUSED = "refused"  # the server will refuse it, in these words
TAKEN_BACK = "taken back"  # an undo of the phone's own waiting action
# not worked out here: its dice are rolled when it is sent (no seed chosen), or it follows
# such an action or an undo of an action already saved
WAITS = "waits"


@dataclass(frozen=True)
class Unit:
    """A unit of a side, as the server's page read it (``rules.table.Piece``)."""

    key: str
    side: str
    name: str
    unit: Mapping[str, Any]


@dataclass(frozen=True)
class Game:
    engine: CombatRules
    options: Mapping[str, Any]
    phases: tuple[Phase, ...]
    names: dict[str, str]  # each side's name
    units: dict[str, Unit]
    sides: dict[str, tuple[str, ...]]  # each side's units' keys, in order
    lists: dict[str, Mapping[str, Any] | None]  # each side's army list


def _game(raw: Mapping[str, Any]) -> Game:
    engine = get_ruleset(raw["ruleset"]).combat()
    if engine is None:
        raise ValueError(f"{raw['ruleset']} has no combat rules")
    options = raw.get("options") or {}
    units: dict[str, Unit] = {}
    sides: dict[str, tuple[str, ...]] = {}
    for side, found in raw["sides"].items():
        keys = []
        for u in found["units"]:
            units[u["key"]] = Unit(u["key"], side, u["name"], u["unit"])
            keys.append(u["key"])
        sides[side] = tuple(keys)
    names = {side: found["name"] for side, found in raw["sides"].items()}
    lists = {side: found.get("list") for side, found in raw["sides"].items()}
    return Game(engine, options, engine.phases(options), names, units, sides, lists)


def _unit(game: Game, key: Any) -> Unit:
    found = game.units.get(key) if isinstance(key, str) else None
    if found is None:
        raise table.Refused("No unit of this game has that name; choose one from the list.")
    return found


def _payload(game: Game, at: table.Table, op: str, v: Mapping[str, Any]) -> dict[str, Any]:
    """The action's payload as the server records it (``armybuilder.games.operations``
    reads the same fields the same way), or Refused."""
    if op == "combat":
        target = _unit(game, v.get("target"))
        worked = table.work_out(
            game.engine, game.options, at, _unit(game, v.get("attacker")), target,
            game.lists.get(target.side), v.get("modifiers") or [],
            table_words.read_dice(v.get("die") or ""), seed=v.get("seed") or "",
            numbers=table_words.read_numbers(v.get("numbers") or ""),
        )  # fmt: skip
        return worked.payload()
    if op == "rally":
        die = table_words.read_rally_die(v.get("die") or "")
        facts = table_rolls.check_facts(v.get("facts") or [])
        table.checked_seed(v.get("seed") or "")
        table_rolls.rally_allowed(game.engine, game.options, at, facts)
        return table_rolls.rally(game.engine, game.options, at, _unit(game, v.get("unit")), facts, die,
                           seed=v.get("seed") or "")  # fmt: skip
    if op == "force_morale":
        side = v.get("side")
        if side not in game.sides:
            raise table.Refused("Choose one of the game's two sides.")
        dice = table_words.read_dice(v.get("dice") or "")
        return table_rolls.force_morale(game.engine, game.options, at, side, game.names[side],
                                  game.sides[side], dice, count=int(v.get("count") or 1),
                                  seed=v.get("seed") or "", bonus=int(v.get("bonus") or 0))  # fmt: skip
    if op == "initiative":
        dice = table_words.read_dice(str(v.get("dice") or "")[:40])
        lost = None
        if v.get("penalty") is True:
            lost = {
                side: sum(1 for k in keys if at.of(k).lost) for side, keys in game.sides.items()
            }
        return initiative.roll_off(game.engine, game.options, game.phases, at, game.names, dice,
                                   seed=v.get("seed") or "", lost=lost)  # fmt: skip
    if op == "keep_or_pass":
        # the seat is the server's to check: on the phone, the choice of whoever holds it
        return initiative.keep_or_pass(game.engine, game.options, at, game.names,
                                       str(v.get("choice") or ""))  # fmt: skip
    if op == "remove":
        return table.removal(at, _unit(game, v.get("unit")), str(v.get("why") or "").strip()[:200])
    if op == "next_phase":
        return table.next_phase(game.phases, at)
    raise ValueError(f"{op!r} is not an action the phone works out")


def _moved_on(game: Game, at: table.Table, v: Mapping[str, Any]) -> str:
    names = {p.key: p.name for p in game.phases}
    made = f"Turn {v.get('turn')}, {names.get(v.get('phase'), v.get('phase'))}"
    return (f"Not applied: it was made in {made}; the game is at Turn {at.turn}, "
            f"{names.get(at.phase, at.phase)}.")  # fmt: skip


def _shown(unit: table.UnitState) -> str:
    """A unit's state in the page's words (``templates/games/game.html``)."""
    if unit.removed:
        return f"Removed: {unit.removal}"
    text = unit.damage_text()
    if unit.pending is not None:
        text += f". To be removed, fighting on till then: {unit.removal}"
    return text


def work(
    game: Mapping[str, Any], state: Mapping[str, Any], operations: list[Mapping[str, Any]]
) -> dict[str, Any]:
    """The phone's own actions not yet seen saved (``operations``: its queue's records,
    ``{"key", "op", "value"}``, in order) worked out on the game's ``table`` (``game``) as
    it stood when the page was drawn (``state``, ``Table.to_json``).

    Answers ``{"results": [...], "table": <where the game then stands>, "units": {key:
    its state in words, for each unit they changed}, "routed": {side: why}}``; a result is
    ``{"key", "op", "status"}``, with, for an action worked out, its ``payload`` as the
    server records it and its ``line`` (text, dice, steps) and ``digest`` as the server's
    log words it, or the refusal's ``message``."""
    found = _game(game)
    at = table.Table.from_json(state)
    before = {k: _shown(u) for k, u in at.units.items()}
    mine = {r.get("key") for r in operations}
    undone = {
        r["value"].get("of")
        for r in operations
        if r.get("op") == "undo" and isinstance(r.get("value"), Mapping)
    }
    names = {p.key: p.name for p in found.phases}
    results: list[dict[str, Any]] = []
    stopped = False
    for record in operations:
        key, op = record.get("key"), record.get("op")
        value = record.get("value") if isinstance(record.get("value"), Mapping) else {}
        answer: dict[str, Any] = {"key": key, "op": op}
        results.append(answer)
        if op == "undo":
            if value.get("of") in mine:
                answer["status"] = TAKEN_BACK
            else:  # an action already saved taken back: what follows waits for the server
                answer["status"], stopped = WAITS, True
            continue
        if key in undone:
            answer["status"] = TAKEN_BACK
            continue
        if stopped:
            answer["status"] = WAITS
            continue
        if (value.get("turn"), value.get("phase")) != (at.turn, at.phase):
            answer |= {"status": REFUSED, "message": _moved_on(found, at, value)}
            continue
        try:
            payload = _payload(found, at, op, value)
        except table.Refused as refused:
            answer |= {"status": REFUSED, "message": refused.message}
            continue
        if payload.get("seed") and not value.get("seed"):
            # rolled here from a seed of its own: the server rolls another when it is sent
            answer["status"] = WAITS
            stopped = True
            continue
        at.record(op, payload, found.phases)
        said = table_words.line(op, payload, names)
        answer |= {"status": WORKED, "payload": payload, "line": said.to_json(),
                   "digest": said.digest()}  # fmt: skip
    units = {k: _shown(u) for k, u in at.units.items() if before.get(k, "no hits") != _shown(u)}
    return {"results": results, "table": at.to_json(), "units": units, "routed": dict(at.routed)}
