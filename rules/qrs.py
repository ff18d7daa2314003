"""Quick-reference sheets (QRS) as plain data: the table-side tables of each rule set.

``qrs_sheet(slug, army)`` returns a :class:`Sheet`: the *core* sections every player of the
rule set needs (their contents are the list each digest in ``shared/spec/rulesets/`` gives,
taken from the source seeds), and the *army* sections: the stat lines of the units this
army fields and the special rules it actually uses. Distances are computed from the
army's options (Into the Dark and Dewitt 15 mm halving, Feudal base width), so the sheet a
player prints matches the table they play on. Without an army the sheet uses the rule
set's defaults (or the options given) and lists every special rule for reference.

No Django here: the printing app renders these dataclasses with a template.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.base import Army, RuleSet
from rules.fields import exact_number
from rules.registry import all_rulesets, get_ruleset

__all__ = [
    "Section",
    "Sheet",
    "Table",
    "available",
    "inches",
    "qrs_sheet",
    "stat_line_section",
]


@dataclass(frozen=True)
class Table:
    """One dense table: a title, column headings and rows of strings.

    ``row_notes`` (when given) holds one note per row, printed under that row across the
    whole table (used for the long notes of a unit's stat line).
    """

    title: str
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    note: str = ""
    key: str = ""
    row_notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for row in self.rows:
            if self.columns and len(row) != len(self.columns):
                raise ValueError(f"{self.title}: row {row!r} does not fit {self.columns!r}")
        if self.row_notes and len(self.row_notes) != len(self.rows):
            raise ValueError(f"{self.title}: one row note per row")

    @property
    def notes_by_row(self) -> list[tuple[tuple[str, ...], str]]:
        notes = self.row_notes or ("",) * len(self.rows)
        return list(zip(self.rows, notes, strict=True))

    def text(self) -> str:
        parts = [self.title, " ".join(self.columns)]
        parts += [" ".join(row) for row in self.rows]
        parts += [n for n in self.row_notes if n]
        parts.append(self.note)
        return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class Section:
    """A block of the sheet: tables and short bullet points, with the source section."""

    title: str
    tables: tuple[Table, ...] = ()
    items: tuple[str, ...] = ()
    key: str = ""
    rule: str = ""
    wide: bool = False  # print across the page instead of in a column

    def text(self) -> str:
        parts = [self.title, *(t.text() for t in self.tables), *self.items]
        return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class Sheet:
    """A whole QRS: core tables (at most two A4 pages) then the army's own part."""

    ruleset: str
    title: str
    source: str
    settings: tuple[tuple[str, str], ...]
    core: tuple[Section, ...]
    army: tuple[Section, ...] = ()
    army_name: str | None = None
    army_title: str = "This army"
    extras: tuple[str, ...] = ()
    optional_extras: tuple[tuple[str, str], ...] = ()  # (key, label) a player may add

    def sections(self) -> tuple[Section, ...]:
        return self.core + self.army

    def section(self, key: str) -> Section:
        for s in self.sections():
            if s.key == key:
                return s
        raise KeyError(key)

    def table(self, key: str) -> Table:
        for s in self.sections():
            for t in s.tables:
                if t.key == key:
                    return t
        raise KeyError(key)

    def text(self) -> str:
        parts = [self.title, *(f"{a}: {b}" for a, b in self.settings)]
        parts += [s.text() for s in self.sections()]
        return "\n".join(parts)


# -- helpers the rule-set modules share -----------------------------------------------------


def number(value: Fraction | int | float | str) -> str:
    """An exact quantity as a player writes it: 4, 2.5, 1.25."""
    exact = exact_number(value) if not isinstance(value, Fraction) else value
    if exact.denominator == 1:
        return str(exact.numerator)
    text = f"{float(exact):.3f}".rstrip("0").rstrip(".")
    return text


def inches(value: Fraction | int | float | str, scale: Fraction = Fraction(1)) -> str:
    """A distance in inches, after the figure-scale factor: ``inches(6, 1/2)`` is ``3"``."""
    exact = exact_number(value) if not isinstance(value, Fraction) else value
    return f'{number(exact * scale)}"'


def signed(n: int) -> str:
    """A modifier as printed on a QRS: +1, −2 (a real minus sign), 0 as ±0."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "±0"  # plus-minus zero: no modifier


def die(base: str, modifier: int) -> str:
    """``die("d6", -2)`` is ``d6−2``; a zero modifier prints the bare die."""
    return base if modifier == 0 else f"{base}{signed(modifier)}"


_STAT_LABELS = {
    "code": "Code",
    "move": "Move",
    "rout_evade": "Rout/evade",
    "hit_on": "Hit on",
    "combat_dice": "Combat dice",
    "close": "Close",
    "long": "Long",
    "zoc": "ZOC",
    "morale": "Morale",
    "melee_points": "Melee pts",
    "fighting_rows": "Rows",
    "shoot": "Shoot",
    "melee": "Melee",
    "attack": "Attack",
    "hits": "Hits",
    "type": "Type",
    "fast": "Fast",
    "road": "Road",
    "turns": "Turns",
    "range": "Range",
}


def stat_label(key: str) -> str:
    """The column heading of a stat-line key (rule sets may add their own keys)."""
    return _STAT_LABELS.get(key, key.replace("_", " ").capitalize())


def stat_line_section(army: Army, stats: Iterable[Mapping[str, Any]]) -> Section:
    """The stat lines of the units an army fields, one row per distinct line.

    Units with exactly the same stat line share a row (``Spearmen ×3``), so a 300-unit army
    still prints a table a player can read at the table.
    """
    lines: list[Mapping[str, Any]] = list(stats)
    keys: list[str] = []
    for line in lines:
        previous: str | None = None
        for key in line:
            if key == "notes":
                continue
            if key not in keys:  # keep each rule set's own order of its stat keys
                keys.insert(keys.index(previous) + 1 if previous else 0, key)
            previous = key
    groups: dict[tuple[tuple[str, str], ...], list[str]] = {}
    notes: dict[tuple[tuple[str, str], ...], str] = {}
    for unit, line in zip(army.units, lines, strict=True):
        signature = tuple((k, str(line.get(k, "–"))) for k in keys) + (
            ("notes", str(line.get("notes", ""))),
        )
        groups.setdefault(signature, []).append(unit["name"])
        notes[signature] = str(line.get("notes", ""))
    rows = []
    row_notes = []
    for signature, names in groups.items():
        rows.append((_names(names), *(value for k, value in signature if k != "notes")))
        row_notes.append(notes[signature])
    table = Table(
        "Stat lines of the units this army fields",
        ("Unit", *(stat_label(k) for k in keys)),
        tuple(rows),
        key="army-stat-lines",
        row_notes=tuple(row_notes) if any(row_notes) else (),
        note="Units with the same stat line share a row.",
    )
    return Section("Stat lines", (table,), key="stat-lines", wide=True)


def _names(names: list[str]) -> str:
    counted: dict[str, int] = {}
    for name in names:
        counted[name] = counted.get(name, 0) + 1
    parts = [f"{n} \u00d7{c}" if c > 1 else n for n, c in counted.items()]
    if len(parts) > 4:
        return f"{', '.join(parts[:3])} and {len(parts) - 3} more"
    return ", ".join(parts)


# -- the sheet of a rule set -------------------------------------------------------------


def _ruleset(slug: str) -> RuleSet:
    try:
        ruleset = get_ruleset(slug)
    except KeyError:
        raise KeyError(f"no quick-reference sheet for rule set {slug!r}") from None
    if not ruleset.has_quick_reference():
        raise KeyError(f"no quick-reference sheet for rule set {slug!r}")
    return ruleset


def available() -> list[str]:
    """The slugs that have a QRS."""
    return [r.slug for r in all_rulesets() if r.has_quick_reference()]


def qrs_sheet(
    ruleset_slug: str,
    army: Army | None,
    *,
    options: Mapping[str, Any] | None = None,
    extras: Iterable[str] = (),
) -> Sheet:
    """The QRS of a rule set; with ``army`` its options and units shape the sheet.

    ``options`` (rule-set-only sheets) are the option values to print for, already parsed;
    missing keys take the digest's defaults. ``extras`` names optional sections a player
    asked for (e.g. Dewitt's siege rules); unknown names raise ``KeyError``.
    """
    ruleset = _ruleset(ruleset_slug)
    if army is not None and army.ruleset != ruleset_slug:
        raise ValueError(f"the army is {army.ruleset}, not {ruleset_slug}")
    chosen = dict(army.options) if army is not None else dict(options or {})
    sheet: Sheet = ruleset.quick_reference(chosen, army, extras=tuple(dict.fromkeys(extras)))
    return sheet


def army_stats(army: Army) -> list[dict[str, Any]]:
    """Each unit's stat line, from its rule set (the same call the check report makes)."""
    ruleset = get_ruleset(army.ruleset)
    return [ruleset.stats(unit, army) for unit in army.units]


def check_extras(extras: tuple[str, ...], offered: Mapping[str, str]) -> None:
    """KeyError naming the offered sections when a player asks for one that is not."""
    for name in extras:
        if name not in offered:
            allowed = ", ".join(offered) or "none"
            raise KeyError(f"no optional section {name!r}; this sheet offers: {allowed}")


def sections(*items: Section | None) -> tuple[Section, ...]:
    """The sections that apply (``None`` marks one the army does not need)."""
    return tuple(s for s in items if s is not None)


def assemble_sheet(
    ruleset: str,
    title: str,
    source: str,
    *,
    settings: tuple[tuple[str, str], ...],
    core: tuple[Section, ...],
    army: Army | None,
    army_sections: Iterable[Section | None],
    reference_title: str,
    extras: tuple[str, ...],
    offered: Mapping[str, str],
) -> Sheet:
    """The :class:`Sheet` every rule-set module returns.

    With an army its part opens with the army's stat lines, then ``army_sections`` (``None``
    marks one it does not need), headed with the army's name; without one it holds the
    reference sections under ``reference_title``. ``offered`` is the module's optional
    sections (key: label).
    """
    stat_lines = () if army is None else (stat_line_section(army, army_stats(army)),)
    return Sheet(
        ruleset=ruleset,
        title=title,
        source=source,
        settings=settings,
        core=core,
        army=sections(*stat_lines, *army_sections),
        army_name=army.name if army else None,
        army_title=f"Army: {army.name}" if army else reference_title,
        extras=extras,
        optional_extras=tuple(offered.items()),
    )


def variant_section(army: Army | None, texts: Mapping[str, str], title: str) -> Section | None:
    """The rules of unit variants (by ``variant`` key): all of them, or those the army fields."""
    if army is None:
        return Section(title, items=tuple(texts.values()), key="variants")
    fielded = [v for v in texts if any(u.get("variant") == v for u in army.units)]
    if not fielded:
        return None
    return Section(
        f"{title} this army fields",
        items=tuple(texts[v] for v in fielded),
        key="variants",
    )


def personality_section(army: Army | None, texts: Mapping[str, str]) -> Section | None:
    """Personalities (``personality`` and ``banner`` unit fields): who leads whom, and the
    rules of those the army fields; without an army, every personality's rule."""
    if army is None:
        return Section("Personalities", items=tuple(texts.values()), key="personalities")
    rows = []
    used: list[str] = []
    for unit in army.units:
        who = unit.get("personality")
        if who:
            banner = " with banner" if unit.get("banner") else ""
            rows.append((f"{who.capitalize()}{banner}", unit["name"]))
            used += [who] + (["banner"] if unit.get("banner") else [])
    if not rows:
        return None
    return Section(
        "Personalities this army fields",
        tables=(Table("Who leads whom", ("Personality", "With unit"), tuple(rows)),),
        items=tuple(texts[p] for p in texts if p in used),
        key="personalities",
    )
