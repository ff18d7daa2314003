"""The one small interface every rule set implements, and the values it deals in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from rules.costs import Cost, FigureCost
from rules.fields import Field
from rules.list_ids import id_problems
from rules.list_shape import ListShape

Severity = Literal["error", "warning"]
Unit = dict[str, Any]
General = dict[str, Any]


class NamedLists(dict[str, Mapping[str, Any]]):
    """A ListLookup's answer, ``{slug: list data}``, that also knows each list's name
    (``names``: ``{slug: name}``, as the list is stored and its muster.list/1 file says),
    so messages name lists as players know them. A plain dict still works: no names.

    ``families`` (``{slug: family}``) says which lists are one list: a player's copy
    answers the slug of the list it was copied from (``viking-1a2b3c4d`` -> ``viking``), so
    rules that speak of "the army's own list" see through copies. A list it leaves out is
    its own family."""

    __slots__ = ("families", "names")

    def __init__(
        self,
        lists: Mapping[str, Mapping[str, Any]] | None = None,
        names: Mapping[str, str] | None = None,
        families: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(lists or {})
        self.names: dict[str, str] = dict(names or {})
        self.families: dict[str, str] = dict(families or {})


def list_names(lists: Mapping[str, Mapping[str, Any]]) -> Mapping[str, str]:
    """The names a ListLookup's answer carries (none for a plain mapping)."""
    names = getattr(lists, "names", None)
    return names if isinstance(names, Mapping) else {}


def list_families(lists: Mapping[str, Mapping[str, Any]]) -> Mapping[str, str]:
    """The families a ListLookup's answer carries (none for a plain mapping)."""
    families = getattr(lists, "families", None)
    return families if isinstance(families, Mapping) else {}


@dataclass(frozen=True)
class Issue:
    """A problem with an army: ``unit``/``general`` index the item concerned, else None."""

    severity: Severity
    code: str
    message: str
    rule: str
    unit: int | None = None
    general: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "unit": self.unit,
            "rule": self.rule,
        }
        if self.general is not None:
            data["general"] = self.general
        return data


def entry_preset(entry: Mapping[str, Any], fallback: str) -> tuple[str, Unit]:
    """(label, unit values) for an army-list entry of the usual shape: a ``name``, a
    ``match`` of field -> allowed values (the first is taken) and optional preset ``unit``
    values."""
    values: Unit = {
        key: allowed[0]
        for key, allowed in (entry.get("match") or {}).items()
        if isinstance(allowed, list) and allowed
    }
    values.update(entry.get("unit") or {})
    label = str(entry.get("name") or entry.get("key") or fallback).strip()
    values.setdefault("name", label[:120])
    return label, values


@dataclass(frozen=True)
class EntryStatus:
    """One entry of an army list, as the "Add a unit" picker shows it for this army."""

    key: str  # stable within the list; the picker posts preset "entry:<key>"
    label: str  # what the player reads, e.g. "Hirdmen"
    values: Mapping[str, Any]  # unit field values a unit added from this entry starts with
    cost: int | None  # points of one unit added with `values` (None: no points)
    have: int  # units of this army that count against this entry now
    minimum: int  # the list requires at least this many (0 when none required)
    maximum: int | None  # the list allows at most this many (None: no upper limit)
    note: str = ""  # a further condition in words, or ""
    group: str = ""  # the picker's heading for it ("" for the army's own list), e.g. allies
    # a stand-in: the unit type it replaces, in words, and the unit of this army it would
    # replace (None: this army has none left to replace); "" when the entry adds a unit
    replaces: str = ""
    replace_index: int | None = None
    # the ids (Army.unit_ids) of the units counted in ``have``; a unit is in one entry's only
    unit_ids: tuple[str, ...] = ()

    @property
    def still_required(self) -> int:
        return max(0, self.minimum - self.have)

    @property
    def remaining(self) -> int | None:
        return None if self.maximum is None else max(0, self.maximum - self.have)


@dataclass(frozen=True)
class Allowed:
    """The values a field may take for one unit, and why the others are not offered."""

    values: tuple[Any, ...]  # in the vocabulary's order (the same Python values as the Field's)
    reason: str  # e.g. "Hirdmen: armour armoured or mailed only", "Serjeants only"


@dataclass(frozen=True)
class ListDescription:
    """An army list in words for its page: what each entry fixes, and the list's further
    rules (share limits, choice groups, the force matrix...)."""

    # entry key -> field -> the values the entry allows (vocabulary order)
    choices: Mapping[str, Mapping[str, tuple[Any, ...]]] = field(default_factory=dict)
    rules: tuple[str, ...] = ()


def error(code: str, message: str, rule: str, **where: int | None) -> Issue:
    return Issue("error", code, message, rule, **where)


def warning(code: str, message: str, rule: str, **where: int | None) -> Issue:
    return Issue("warning", code, message, rule, **where)


@dataclass(frozen=True)
class CheckDoc:
    """Documentation of one check code, for the rule-set page and the API."""

    code: str
    severity: str
    scope: Literal["unit", "general", "army", "army_list"]
    text: str

    def to_json(self) -> dict[str, str]:
        return {
            "code": self.code,
            "severity": self.severity,
            "scope": self.scope,
            "text": self.text,
        }


# raised by the engine itself (rules.engine) for every rule set with points; each such rule
# set lists it among its ``checks``
OVER_POINTS_LIMIT = CheckDoc(
    "over-points-limit", "error", "army", "The army costs more than its limit."
)


@dataclass(frozen=True)
class Ruling:
    code: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "text": self.text}


@dataclass(frozen=True)
class Army:
    """A parsed, normalised ``muster.army/1`` document (every default filled in)."""

    name: str
    ruleset: str
    army_list: str | None
    points_limit: int | None
    options: Mapping[str, Any]
    generals: tuple[General, ...]
    units: tuple[Unit, ...]
    notes: str
    list_data: Mapping[str, Any] | None = field(default=None, compare=False)
    # every army list of this rule set, {slug: data}: for allies drawn from other lists
    ruleset_lists: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False)
    # each list's name, {slug: name}, when the lists were given with names (NamedLists)
    list_names: Mapping[str, str] = field(default_factory=dict, compare=False)
    # each unit's and general's stable ``id`` (None where the document gave none), in the
    # order of ``units`` and ``generals``: the engine never reads them, the builder names
    # items by them (rules.document.item_ids)
    unit_ids: tuple[str | None, ...] = ()
    general_ids: tuple[str | None, ...] = ()
    # each copied list's family, {slug: family slug} (NamedLists.families)
    list_families: Mapping[str, str] = field(default_factory=dict, compare=False)

    def list_family(self, slug: str | None) -> str | None:
        """The list ``slug`` is a copy of (itself when it is no copy): one family, one list
        for the rules."""
        if slug is None:
            return None
        return self.list_families.get(slug) or slug

    def list_title(self, slug: str) -> str:
        """What a player calls army list ``slug``: its name, else (lists given without
        names) the slug as words, "north-welsh" -> "North Welsh"; never the slug itself."""
        name = self.list_names.get(slug)
        if name:
            return name
        return " ".join(word.capitalize() for word in slug.replace("_", "-").split("-") if word)

    def to_document(self) -> dict[str, Any]:
        """The normalised document: what is stored, exported and shared."""
        return {
            "format": "muster.army/1",
            "name": self.name,
            "ruleset": self.ruleset,
            "army_list": self.army_list,
            "points_limit": self.points_limit,
            "options": dict(self.options),
            "generals": _with_ids(self.generals, self.general_ids),
            "units": _with_ids(self.units, self.unit_ids),
            "notes": self.notes,
        }


def _with_ids(items: tuple[Mapping[str, Any], ...], ids: tuple[str | None, ...]) -> list[Any]:
    """The items as a document holds them: each one's ``id`` first, when it has one."""
    found = []
    for i, item in enumerate(items):
        given = ids[i] if i < len(ids) else None
        found.append({"id": given, **item} if given is not None else dict(item))
    return found


@dataclass(frozen=True)
class ItemReport:
    index: int
    name: str
    points: int | None
    breakdown: tuple[str, ...] = ()
    stats: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self, *, with_stats: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "index": self.index,
            "name": self.name,
            "points": self.points,
            "breakdown": list(self.breakdown),
        }
        if with_stats:
            data["stats"] = dict(self.stats)
        return data


@dataclass(frozen=True)
class Report:
    """The check report of ``army-format.md`` section 2."""

    ruleset: str
    total_points: int | None
    points_limit: int | None
    units: tuple[ItemReport, ...]
    generals: tuple[ItemReport, ...]
    issues: tuple[Issue, ...]
    composition: Mapping[str, Any] | None = None

    @property
    def valid(self) -> bool:
        return not any(i.severity == "error" for i in self.issues)

    @property
    def errors(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity == "error")

    @property
    def warnings(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity == "warning")

    def issues_for_unit(self, index: int) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.unit == index)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "valid": self.valid,
            "total_points": self.total_points,
            "points_limit": self.points_limit,
            "units": [u.to_json() for u in self.units],
            "generals": [g.to_json(with_stats=False) for g in self.generals],
            "issues": [i.to_json() for i in self.issues],
            "composition": dict(self.composition) if self.composition is not None else None,
        }


class RuleSet:
    """One rule set: vocabulary as data plus cost, stat line and checks.

    Subclasses set the class attributes and override the hooks they need. Nothing
    here knows about Django; the web layer hands in army-list data as plain dicts.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]
    summary: ClassVar[str] = ""
    order: ClassVar[int] = 100
    uses_points: ClassVar[bool] = False
    points_rule: ClassVar[str] = "Choosing Your Army"
    has_generals: ClassVar[bool] = False
    options: ClassVar[tuple[Field, ...]] = ()
    # Options the rule set no longer offers: a stored document that still carries one parses
    # (its value checked against the old field, then dropped), so no saved army is lost.
    retired_options: ClassVar[tuple[Field, ...]] = ()
    unit_fields: ClassVar[tuple[Field, ...]] = ()
    # unit fields whose value is the slug of another army list of this rule set (a d5
    # unit's ``ally``): pages and sheets print that list's name, never the slug
    list_fields: ClassVar[tuple[str, ...]] = ()
    general_fields: ClassVar[tuple[Field, ...]] = ()
    rulings: ClassVar[tuple[Ruling, ...]] = ()
    checks: ClassVar[tuple[CheckDoc, ...]] = ()
    not_offered: ClassVar[tuple[str, ...]] = ()
    source_has_lists: ClassVar[bool] = True  # False: the source itself has no army lists
    can_roll: ClassVar[bool] = False  # force-matrix rule sets: "Roll a force"
    # What an editor sets for the player when a field takes a value:
    # (field, value, {other field: value it implies}), e.g. a champion is one open figure.
    follow_ups: ClassVar[tuple[tuple[str, Any, Mapping[str, Any]], ...]] = ()

    # -- parsing ---------------------------------------------------------------
    def normalise_unit(self, unit: Unit, options: Mapping[str, Any], path: str) -> Unit:
        """Hook after field parsing (cross-field normalisation); may raise MalformedDocument."""
        return unit

    def normalise_general(self, general: General, options: Mapping[str, Any], path: str) -> General:
        return general

    def normalise_army(self, army: Army) -> Army:
        """Hook after the whole document is parsed (e.g. references to other army lists);
        may raise MalformedDocument. Returns the army, possibly replaced."""
        return army

    # -- costing ---------------------------------------------------------------
    # ``cost_unit``, ``stats`` and ``check_unit`` read the unit (and its index) and the army
    # apart from its units: options, list, generals, limit, name. A rule set whose unit
    # results also read something else (other units, another list's data) returns it from
    # ``unit_context``: the per-unit memo and an edit's re-check key on it (rules/memo.py).
    def unit_context(self, army: Army) -> Any:
        """What one unit's cost, stat line and checks read beyond the unit and the army's
        settings (plain JSON values; None when nothing)."""
        return None

    def cost_unit(self, unit: Unit, army: Army) -> Cost | None:
        """Exact cost with breakdown; None in rule sets without points."""
        return None

    def cost_general(self, general: General, army: Army) -> Cost | None:
        return None

    def figure_cost(self, unit: Unit, army: Army) -> FigureCost | None:
        """How ``cost_unit`` follows the unit's figure count, the rest of it as it stands
        (None: not that simple, or no points): what a page prices a change with offline."""
        return None

    # -- roster ------------------------------------------------------------------
    def stats(self, unit: Unit, army: Army) -> dict[str, Any]:
        """The roster stat line of one unit, as strings a player reads."""
        return {}

    # -- checks ------------------------------------------------------------------
    def check_unit(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        return ()

    def check_general(self, general: General, index: int, army: Army) -> Iterable[Issue]:
        return ()

    def check_army(self, army: Army) -> Iterable[Issue]:
        """Army-wide checks, including the army-list checks when ``army.list_data`` is set."""
        return ()

    def composition(self, army: Army) -> dict[str, Any] | None:
        return None

    def roll_force(
        self,
        list_slug: str | None,
        list_data: Mapping[str, Any] | None,
        seed: int,
        *,
        list_name: str | None = None,
    ) -> dict[str, Any]:
        """A legal army document rolled on the force matrix (only when ``can_roll``),
        named after ``list_name`` (the list as players know it).

        Seeded, so the same seed gives the same army.
        """
        raise NotImplementedError(f"{self.slug} has no force matrix to roll on")

    # -- army lists ----------------------------------------------------------------
    def unit_presets(self, list_data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
        """The units an army list offers to add, in the list's order: (label, field values).

        Each rule set reads its own list format; the values are a starting point the
        player edits (the first allowed value of each matched field), never a constraint.
        """
        return []

    def list_entries(
        self, list_data: Mapping[str, Any] | None, army: Army | None
    ) -> tuple[EntryStatus, ...]:
        """The army list's entries with this army's counts; () without a list or entries."""
        return ()

    def allowed_values(
        self, list_data: Mapping[str, Any] | None, unit: Mapping[str, Any]
    ) -> Mapping[str, Allowed]:
        """For one unit (its document dict): field name -> Allowed, only for the fields that
        are restricted for it (by the list entry it matches or is nearest to, or by a rule of
        the rule set). {} when nothing is restricted."""
        return {}

    def describe_list(self, list_data: Mapping[str, Any] | None) -> ListDescription:
        """What each entry of ``list_entries`` fixes, and the list's rules in sentences."""
        return ListDescription()

    def list_shape(self) -> ListShape | None:
        """What the list editor shows for this rule set's lists (None: no editor yet)."""
        return None

    def validate_army_list(self, data: Any) -> list[str]:
        """Messages for everything wrong with an army list's constraint data (empty: fine)."""
        if not isinstance(data, dict):
            return ["constraint data must be a JSON object"]
        return id_problems(data)

    # -- quick-reference sheet -------------------------------------------------------
    def quick_reference(
        self, options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()
    ) -> Any:
        """The rule set's QRS (a ``rules.qrs.Sheet``) for these option values and, when given,
        this army; ``extras`` are optional sections asked for (unknown ones: KeyError).
        Only rule sets that have a sheet override this."""
        raise KeyError(f"no quick-reference sheet for rule set {self.slug!r}")

    # -- at the table ---------------------------------------------------------------------
    combat_rules: ClassVar[Any] = None  # a ``rules.combat.CombatRules``, or None

    def combat(self) -> Any:
        """Its combat and removal rules (a ``rules.combat.CombatRules``), or None."""
        return self.combat_rules

    def has_quick_reference(self) -> bool:
        return type(self).quick_reference is not RuleSet.quick_reference

    # -- description -----------------------------------------------------------------
    def unit_field(self, name: str) -> Field:
        for f in self.unit_fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def option_field(self, name: str) -> Field:
        for f in self.options:
            if f.name == name:
                return f
        raise KeyError(name)

    def default_options(self) -> dict[str, Any]:
        return {f.name: f.default for f in self.options}

    def summary_json(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "title": self.title,
            "source": self.source,
            "summary": self.summary,
            "points": self.uses_points,
            "generals": self.has_generals,
            "options": [f.to_json() for f in self.options],
        }

    def vocabulary(self) -> dict[str, Any]:
        data = self.summary_json()
        data["unit_fields"] = [f.to_json() for f in self.unit_fields]
        data["general_fields"] = [f.to_json() for f in self.general_fields]
        data["rulings"] = [r.to_json() for r in self.rulings]
        data["checks"] = [c.to_json() for c in self.checks]
        data["not_offered"] = list(self.not_offered)
        return data
