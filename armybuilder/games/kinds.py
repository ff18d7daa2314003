"""The kinds of game action, one class each, in one table (``KINDS``): what an action of
that kind takes (``parse``, strict, refusing a field by name with what it allows), what it
does to the game (``apply``, through the services' one log), how the log's refusals name
it (``what``), and its no-JavaScript form: how the form's post is read into the same value
the page's script sends (``fields``, or ``from_form``), the words said once it is done,
where the page opens after it, and the template partial that draws it, if any.

The batch endpoint (``games.operations``) and the one form view (``views.act``, at
``<game>/<kind's path>/``) read every kind through this table, so a new kind is one class
here (or one ``register``) and nothing else in the web layer. A handler is handed parsed
values, never a request.

``apply(game, parsed, seat, made)``: ``seat`` is the phone's side on two phones (None:
one phone plays both); ``made`` how the action came (``Made``: a form's version, or an
operation's key and where it was made; by default neither).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django.http import QueryDict

from armybuilder.games import initiative, morale, presenters, selectors, services
from armybuilder.games.models import Game, GameAction
from armybuilder.games.services import Keyed, Refused
from armybuilder.jsonbody import BadOperation
from armybuilder.operations import kernel as table
from armybuilder.operations.kernel import RULE as KEY_RULE
from armybuilder.operations.kernel import is_once_key
from rules.combat import counted

MAX_MODIFIERS = 50
MAX_FACTS = 20
PATH = "[a-z][a-z0-9-]{0,39}"  # a kind's form's URL segment (``urls.KindPath``)
KIND_LENGTH = GameAction._meta.get_field("kind").max_length

Parsed = Mapping[str, Any]  # a value as its kind's ``parse`` answered it
Side = str | None  # the phone's seat, "a" or "b" (None: one phone plays both sides)


@dataclass(frozen=True)
class Made:
    """How an action came: ``version``, the game's version a form was drawn at (refused as
    stale once the game moved on); ``keyed``, what an operation of the page's script adds
    (its one-time key, the turn and phase it was made in). Neither: recorded as it stands."""

    version: int | None = None
    keyed: Keyed | None = None


BARE = Made()
SUBJECT = "game"  # the games' name in the operation kernel's table of kinds


@dataclass(frozen=True)
class Context:
    """What a game's operation adds to its parsed value when applied through the kernel's
    table: the phone's seat and how the action came."""

    seat: Side
    made: Made = BARE


# -- reading a value strictly ----------------------------------------------------------------


def text(value: Mapping[str, Any], name: str, path: str, longest: int, shortest: int = 0) -> str:
    """``value[name]``, text of ``shortest`` to ``longest`` characters (absent: "" when
    it may be empty), else BadOperation naming ``path.name``."""
    found = value.get(name, "" if not shortest else None)
    if not isinstance(found, str) or not shortest <= len(found) <= longest:
        least = f"{shortest} to " if shortest else "up to "
        raise BadOperation(f"{path}.{name}: text of {least}{longest} characters")
    return found


def keys(value: Mapping[str, Any], name: str, path: str, most: int) -> list[str]:
    """``value[name]``, a list of at most ``most`` keys (absent: none)."""
    found = value.get(name, [])
    if (not isinstance(found, list) or len(found) > most
            or not all(isinstance(k, str) and len(k) <= 60 for k in found)):  # fmt: skip
        raise BadOperation(f"{path}.{name}: a list of at most {most} keys (text)")
    return found


def whole(value: Mapping[str, Any], name: str, path: str, least: int, most: int) -> int:
    """``value[name]``, a whole number from ``least`` to ``most`` (absent: ``least``)."""
    number = value.get(name, least)
    if type(number) is not int or not least <= number <= most:
        raise BadOperation(f"{path}.{name}: a whole number from {least} to {most}")
    return number


def unit_name(game: Game, unit: str) -> str:
    try:
        return services.unit_card(game, key=unit).name
    except Refused:
        return "a unit this game does not have"


# -- the no-JavaScript form --------------------------------------------------------------------


@dataclass(frozen=True)
class Posted:
    """One field of a kind's form, read into its value: the form's ``name``, the value's
    key (``key``, the form's name when ""), all the boxes ticked (``many``, at most
    ``most``) or the one value, cut to ``longest`` characters as a form's text always was."""

    name: str
    key: str = ""
    many: bool = False
    most: int = 20
    longest: int = 1000

    def read(self, post: QueryDict) -> Any:
        if self.many:
            return post.getlist(self.name)[: self.most]
        return post.get(self.name, "")[: self.longest]


# -- the kinds -------------------------------------------------------------------------------


class GameKind:
    """One kind of game action. ``name`` is its ``op`` in a batch and the kind its action
    is logged as; ``path`` its form's URL segment (``<game>/<path>/``); ``placed``: an
    operation of it carries the turn and phase it was made in (refused in another)."""

    name: ClassVar[str]
    path: ClassVar[str]
    placed: ClassVar[bool] = True
    fields: ClassVar[tuple[Posted, ...]] = ()  # its form's fields, read by ``from_form``
    anchor: ClassVar[str] = ""  # where the game's page opens once the form is done
    partial: ClassVar[str] = ""  # its form's template, drawn by the game page's loop

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        raise NotImplementedError

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        raise NotImplementedError

    def what(self, game: Game, parsed: Parsed) -> str:
        """The action in a refusal's words ("this combat of ... was made in ...")."""
        return self.name.replace("_", " ")

    def done(self, action: GameAction) -> str:
        """What the form's page says once the action is recorded."""
        return "Done."

    def from_form(self, post: QueryDict, game: Game) -> dict[str, Any]:
        """The form's post as the value ``parse`` reads: its ``fields``, one by one."""
        return {f.key or f.name: f.read(post) for f in self.fields}

    def redraw(self, value: Mapping[str, Any]) -> dict[str, Any]:
        """What the page needs to draw the form again as it was sent, when refused."""
        return {}

    def form(self, game: Game, state: selectors.GameState, seat: Side) -> Any:
        """What ``partial`` draws its form with (None: not drawn on this page)."""
        return None


class Combat(GameKind):
    # the form that records a combat is the Apply of the one worked out (``views.work_out``)
    name, path, anchor = "combat", "apply", "log"
    fields = (Posted("attacker"), Posted("target"), Posted("modifier", "modifiers", many=True,
              most=MAX_MODIFIERS), Posted("die"), Posted("seed", longest=64),
              Posted("numbers", longest=400))  # fmt: skip

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        return {
            "attacker": text(value, "attacker", path, 100, 1),
            "target": text(value, "target", path, 100, 1),
            "modifiers": keys(value, "modifiers", path, MAX_MODIFIERS),
            "die": text(value, "die", path, 1000),
            "numbers": text(value, "numbers", path, 400),
            "seed": text(value, "seed", path, 64),
        }

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        v = parsed  # the dice and numbers read as the Work out form reads them
        dice, numbers = presenters.read_dice(v["die"]), presenters.read_numbers(v["numbers"])
        return services.apply_combat(
            game,
            version=made.version,
            attacker_id=v["attacker"],
            target_id=v["target"],
            modifiers=v["modifiers"],
            die=dice,
            seed=v["seed"],
            numbers=numbers,
            keyed=made.keyed,
            seat=seat,
        )

    def what(self, game: Game, parsed: Parsed) -> str:
        attacker, target = unit_name(game, parsed["attacker"]), unit_name(game, parsed["target"])
        return f"combat of {attacker} against {target}"

    def done(self, action: GameAction) -> str:
        result = action.payload["result"]
        return (f"{action.payload['target_name']}: {counted(result['hits'], result['unit'])} "
                f"({result['total']} in all).")  # fmt: skip

    def redraw(self, value: Mapping[str, Any]) -> dict[str, Any]:
        # the combat worked out drawn again with the modifiers ticked and the dice typed
        return {"given": dict(value), "ticked": value.get("modifiers", []),
                "attacker": value.get("attacker", ""), "target": value.get("target", "")}  # fmt: skip


class Rally(GameKind):
    name, path, anchor = "rally", "rally", "log"
    fields = (Posted("unit"), Posted("fact", "facts", many=True, most=MAX_FACTS), Posted("die"))
    partial = "games/_rally.html"

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        return {
            "unit": text(value, "unit", path, 100, 1),
            "facts": keys(value, "facts", path, MAX_FACTS),
            "die": text(value, "die", path, 100),
            "seed": text(value, "seed", path, 64),
        }

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        v = parsed
        die = presenters.read_rally_die(v["die"])
        return services.rally(
            game,
            version=made.version,
            unit_id=v["unit"],
            facts=v["facts"],
            die=die,
            seed=v["seed"],
            keyed=made.keyed,
            seat=seat,
        )

    def what(self, game: Game, parsed: Parsed) -> str:
        return f"rally of {unit_name(game, parsed['unit'])}"

    def done(self, action: GameAction) -> str:
        return f"{action.payload['unit_name']}: {action.payload['result']['steps'][-1]['text']}."

    def form(self, game: Game, state: selectors.GameState, seat: Side) -> Any:
        """What the form asks (the engine's facts), drawn in the source's rally phase (and
        hidden outside it, for the page's script to show offline); None for a rule set
        without rallies, or a phone whose seat rallies no unit this turn."""
        engine, options = selectors.combat_rules(game), selectors.options(game)
        when = engine.rally_phase(options)
        sides = presenters.seat_offer(game, seat, state.turn, state)["rally_sides"]
        if when is None or not sides:
            return None
        return {"now": state.phase == when, "key": when,
                "phase": engine.phase(when, options).name, "facts": engine.rally_facts(options),
                "sides": sides}  # fmt: skip


class Remove(GameKind):
    name, path = "remove", "remove"
    fields = (Posted("unit"), Posted("why"))

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        return {"unit": text(value, "unit", path, 100, 1), "why": text(value, "why", path, 1000)}

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        why = parsed["why"].strip()[:200]
        return services.remove_unit(
            game, version=made.version, unit_id=parsed["unit"], why=why, keyed=made.keyed, seat=seat
        )

    def what(self, game: Game, parsed: Parsed) -> str:
        return f"removal of {unit_name(game, parsed['unit'])}"

    def done(self, action: GameAction) -> str:
        return "Unit removed."


class NextPhase(GameKind):
    name, path = "next_phase", "next-phase"

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        return {}

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        return services.next_phase(game, version=made.version, keyed=made.keyed, seat=seat)

    def what(self, game: Game, parsed: Parsed) -> str:
        return "Next phase"

    def done(self, action: GameAction) -> str:
        return "Next phase."


class Undo(GameKind):
    # an undo is never refused for its turn: it names what it takes back, wherever it is
    name, path, placed = "undo", "undo", False

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        of, number = value.get("of"), value.get("number")
        if of is not None and not is_once_key(of):
            raise BadOperation(f"{path}.of: the key of the operation to take back, {KEY_RULE}")
        # an action made by a form has no key: the page names it by its number in the log
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, int) or not 1 <= number < 10**9
        ):
            raise BadOperation(f"{path}.number: the number of the action to take back, from 1")
        return {"of": of, "number": number if of is None else None}

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        # the form's Undo names nothing: the last action standing, at the page's version
        keyed = made.keyed
        if keyed is not None and parsed["of"] is not None:
            return services.undo_keyed(game, of=parsed["of"], keyed=keyed, seat=seat)
        if keyed is not None and parsed["number"] is not None:
            return services.undo_keyed(
                game, of=None, keyed=keyed, number=parsed["number"], seat=seat
            )
        return services.undo_last(game, version=made.version, keyed=made.keyed, seat=seat)

    def done(self, action: GameAction) -> str:
        return "Taken back."


class ForceMorale(GameKind):
    name, path, anchor = "force_morale", "force-morale", "log"
    partial = "games/_force_morale.html"
    COUNT = "Choose how many dice to roll from those offered."

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        side = value.get("side")
        if side not in ("a", "b"):
            raise BadOperation(f'{path}.side: "a" or "b"')
        # the engine bounds the dice and the +1s by the source
        return {"side": side, "dice": text(value, "dice", path, 40),
                "seed": text(value, "seed", path, 64),
                "bonus": whole(value, "bonus", path, 0, 20),
                "count": whole(value, "count", path, 1, 20)}  # fmt: skip

    def from_form(self, post: QueryDict, game: Game) -> dict[str, Any]:
        # the form ticks the +1s that hold by name (only those offered count) and picks
        # how many dice to roll; the script sends both as numbers
        offered = morale.offer(game)
        ticked = set(post.getlist("bonus")[:20])
        count = post.get("count", "1")
        if not count.isdigit() or len(count) > 2:
            raise Refused(self.COUNT)
        return {"side": post.get("side", "")[:2], "dice": post.get("dice", "")[:40],
                "count": int(count),
                "bonus": len(ticked & {k for k, _ in offered["bonuses"]}) if offered else 0}  # fmt: skip

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        v, dice = parsed, presenters.read_dice(parsed["dice"])
        return morale.force_morale(game, made.version, v["side"], dice, count=v["count"],
                                   seed=v["seed"], bonus=v["bonus"], keyed=made.keyed,
                                   seat=seat)  # fmt: skip

    def what(self, game: Game, parsed: Parsed) -> str:
        return f"force morale of {selectors.side_view(game, key=parsed['side']).name}"

    def done(self, action: GameAction) -> str:
        return f"{action.payload['side_name']}: {action.payload['verdict']['text']}."

    def form(self, game: Game, state: selectors.GameState, seat: Side) -> Any:
        return morale.offer(game)


class Initiative(GameKind):
    # a roll-off: either player's phone may roll it, the seat that did is recorded
    name, path, anchor = "initiative", "initiative", "log"
    partial = "games/_initiative.html"

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        penalty = value.get("penalty", False)
        if not isinstance(penalty, bool):
            raise BadOperation(f"{path}.penalty: true or false (the source's -1 a unit lost)")
        return {"dice": text(value, "dice", path, 40), "seed": text(value, "seed", path, 64),
                "penalty": penalty}  # fmt: skip

    def from_form(self, post: QueryDict, game: Game) -> dict[str, Any]:
        return {"dice": post.get("dice", "")[:40], "seed": post.get("seed", "")[:64],
                "penalty": post.get("penalty") == "on"}  # fmt: skip

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        dice = presenters.read_dice(parsed["dice"])
        return initiative.roll(game, made.version, dice, seed=parsed["seed"],
                               penalty=parsed["penalty"], keyed=made.keyed, seat=seat)  # fmt: skip

    def what(self, game: Game, parsed: Parsed) -> str:
        return "Initiative roll"

    def done(self, action: GameAction) -> str:
        p = action.payload
        if "winner" in p:  # the winner keeps or passes it next (KeepOrPass)
            return f"{p['names'][p['winner']]} win the Initiative roll: keep it or pass it."
        return f"{p['names'][p['holder']]} hold the Initiative."

    def form(self, game: Game, state: selectors.GameState, seat: Side) -> Any:
        return initiative.offer(game, state, seat)


class KeepOrPass(GameKind):
    # after a roll whose winner chooses (Into the Dark): the winner's seat keeps or passes
    name, path, anchor = "keep_or_pass", "keep-or-pass", "log"
    partial = "games/_keep_or_pass.html"
    fields = (Posted("choice"),)

    def parse(self, value: Mapping[str, Any], path: str) -> dict[str, Any]:
        choice = value.get("choice")
        if choice not in ("keep", "pass"):
            raise BadOperation(f"{path}.choice: keep or pass (the Initiative, by its winner)")
        return {"choice": choice}

    def apply(self, game: Game, parsed: Parsed, seat: Side, made: Made = BARE) -> GameAction:
        return initiative.keep_or_pass(game, made.version, parsed["choice"], keyed=made.keyed,
                                       seat=seat)  # fmt: skip

    def what(self, game: Game, parsed: Parsed) -> str:
        return f"{'keeping' if parsed['choice'] == 'keep' else 'passing'} the Initiative"

    def done(self, action: GameAction) -> str:
        p = action.payload
        return f"{p['names'][p['holder']]} hold the Initiative and move first."

    def form(self, game: Game, state: selectors.GameState, seat: Side) -> Any:
        return initiative.choice_offer(game, state, seat)


# every kind of action, by its ``op``, in the order the batch's refusal lists them
KINDS: dict[str, GameKind] = {}


def _handler(kind: GameKind) -> table.Handler:
    def apply(game: Game, parsed: Parsed, context: Context) -> GameAction:
        return kind.apply(game, parsed, context.seat, context.made)

    return table.Handler(kind.parse, apply)


def register(kind: GameKind) -> GameKind:
    """A kind added to the table (a plug-in's, or a test's): the batch and the form view
    take it at once. Refused when its name or its form's path is taken."""
    if kind.name in KINDS or by_path(kind.path) is not None:
        raise ValueError(f"a game action kind {kind.name!r} (or at {kind.path!r}) exists")
    if not re.fullmatch(PATH, kind.path) or len(kind.name) > KIND_LENGTH:
        raise ValueError(f"{kind.name!r}: a name of at most {KIND_LENGTH} characters (as the "
                         f"log keeps it) and a path of {PATH}")  # fmt: skip
    KINDS[kind.name] = kind
    table.register(SUBJECT, kind.name, _handler(kind))
    return kind


def unregister(name: str) -> None:
    KINDS.pop(name, None)
    table.unregister(SUBJECT, name)


def by_path(path: str) -> GameKind | None:
    """The kind whose form is at ``path`` (its URL segment), None when none is."""
    return next((k for k in KINDS.values() if k.path == path), None)


for _kind in (Combat(), Rally(), Remove(), NextPhase(), Undo(), ForceMorale(), Initiative(),
              KeepOrPass()):  # fmt: skip
    register(_kind)
