"""The organiser's event form: times are entered in the event's own time zone."""

from __future__ import annotations

import json
import zoneinfo
from datetime import datetime
from functools import cache
from typing import Any

from django import forms
from django.db.models import Q

from armybuilder.catalog.models import ArmyList, ArmyListRevision
from armybuilder.catalog.pins import readable_by
from armybuilder.events.models import Event
from armybuilder.textrule import validate_line
from rules.document import load_json
from rules.errors import MalformedDocument
from rules.registry import all_rulesets, get_ruleset
from rules.restrictions import (
    FORBIDDEN_OPTION,
    MAX_UNITS,
    MIN_UNIT_TYPE,
    NO_PERSONALITIES,
    PERSONALITY,
    REQUIRED_OPTION,
    parse_restrictions,
)


@cache
def zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


def local_input(moment: datetime, zone: str) -> str:
    """An aware time as the ``datetime-local`` value of the event's time zone."""
    return moment.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M")


def list_choices(user: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every revision of every list the organiser may read, grouped by rule set:
    "<ruleset>/<slug>/<revision>"."""
    revisions = (
        ArmyListRevision.objects.filter(army_list__in=ArmyList.objects.filter(readable_by(user.pk)))
        .select_related("army_list")
        .order_by("army_list__ruleset", "army_list__name", "-number")
    )
    groups: dict[str, list[tuple[str, str]]] = {}
    for rev in revisions:
        key = f"{rev.army_list.ruleset}/{rev.army_list.slug}/{rev.number}"
        latest = " (latest)" if rev.number == rev.army_list.latest_revision else ""
        groups.setdefault(rev.army_list.ruleset, []).append(
            (key, f"{rev.name}, revision {rev.number}{latest}")
        )
    titles = {r.slug: r.title for r in all_rulesets()}
    return [(titles.get(slug, slug), items) for slug, items in groups.items()]


def _values(field: Any) -> list[Any]:
    return [True, False] if field.kind == "boolean" else list(field.values)


def _value_label(field: Any, value: Any) -> str:
    if field.kind == "boolean":
        return "on" if value else "off"
    return field.label_for(value)


def choice_key(ruleset: str, name: str, value: Any) -> str:
    """One restriction choice as the form posts it: rule set, field and JSON value."""
    return f"{ruleset}|{name}|{json.dumps(value)}"


@cache
def option_choices() -> list[tuple[str, Any]]:
    """Every option value of every rule set, grouped by rule set."""
    groups: list[tuple[str, Any]] = [("", "(none)")]
    for ruleset in all_rulesets():
        items = [
            (choice_key(ruleset.slug, o.name, v), f"{o.label}: {_value_label(o, v)}")
            for o in ruleset.options
            if o.kind in ("choice", "boolean")
            for v in _values(o)
        ]
        if items:
            groups.append((ruleset.title, items))
    return groups


@cache
def unit_type_choices() -> list[tuple[str, Any]]:
    """Every value of every choice or yes/no unit field, grouped by rule set."""
    groups: list[tuple[str, Any]] = [("", "(none)")]
    for ruleset in all_rulesets():
        items = [
            (choice_key(ruleset.slug, f.name, v), f"{f.label}: {_value_label(f, v)}")
            for f in ruleset.unit_fields
            if f.kind in ("choice", "boolean") and f.name != PERSONALITY
            for v in _values(f)
            if v is not None
        ]
        if items:
            groups.append((ruleset.title, items))
    return groups


# the structured fields' restriction kinds (more of any kind go in More restrictions)
STRUCTURED = {
    "required_option": REQUIRED_OPTION,
    "forbidden_option": FORBIDDEN_OPTION,
    "min_unit_type": MIN_UNIT_TYPE,
}


class EventForm(forms.Form):
    name = forms.CharField(max_length=200, validators=[validate_line])
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    place = forms.CharField(max_length=200, validators=[validate_line])
    time_zone = forms.ChoiceField(
        choices=zone_choices,
        initial="Europe/London",
        help_text="Deadline and reveal are kept in this time zone.",
    )
    ruleset = forms.ChoiceField(label="Rule set")
    points_limit = forms.IntegerField(
        min_value=1, max_value=100000, required=False, help_text="Points rule sets only."
    )
    lists = forms.MultipleChoiceField(
        label="Allowed army lists",
        widget=forms.SelectMultiple(attrs={"size": 12}),
        help_text="Each pinned to the revision you choose: the event's data cut-off. Hold "
        "Ctrl (⌘ on a Mac) to choose more than one.",
    )
    deadline = forms.DateTimeField(
        label="Submission deadline",
        input_formats=["%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    reveal_at = forms.DateTimeField(
        label="Reveal time",
        input_formats=["%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    accept_late = forms.BooleanField(required=False, label="Accept late submissions (marked late)")
    cap = forms.IntegerField(
        min_value=1,
        max_value=10000,
        required=False,
        label="Most entrants",
        help_text="Empty: no cap. Beyond it players join a waiting list.",
    )
    public_after_reveal = forms.BooleanField(
        required=False, label="After the reveal anyone may see the approved armies"
    )
    forces_rolled = forms.BooleanField(
        required=False, label="Forces are rolled (force-matrix rule sets)"
    )
    max_units = forms.IntegerField(
        min_value=1, max_value=500, required=False, label="At most this many units"
    )
    no_personalities = forms.BooleanField(required=False, label="No personalities")
    required_option = forms.ChoiceField(
        required=False, label="An option every army must have", choices=option_choices
    )
    forbidden_option = forms.ChoiceField(
        required=False, label="An option no army may have", choices=option_choices
    )
    min_unit_type = forms.ChoiceField(
        required=False, label="Armies need units of this kind", choices=unit_type_choices
    )
    min_unit_count = forms.IntegerField(
        required=False, min_value=1, max_value=500, label="At least this many of that kind"
    )
    more_restrictions = forms.CharField(
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="More restrictions (JSON)",
        help_text="Further restrictions as data, a list, e.g. "
        '[{"kind": "required_option", "option": "dice", "value": "d6"}, '
        '{"kind": "min_unit_type", "field": "type", "value": "knights", "count": 2}]',
    )
    co_organisers = forms.CharField(
        label="Co-organisers",
        required=False,
        max_length=1000,
        help_text="Usernames, separated by commas.",
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["ruleset"].choices = [(r.slug, r.title) for r in all_rulesets()]
        self.fields["lists"].choices = list_choices(user)
        self.fields["time_zone"].choices = zone_choices()
        # an event's rule set is known: its form offers only that rule set's lists and
        # options (a posted form keeps every choice, so a mismatch is named, not unknown)
        chosen = None if self.is_bound else self.initial.get("ruleset")
        title = {r.slug: r.title for r in all_rulesets()}.get(chosen)
        if title is not None:
            self.fields["lists"].choices = [
                g for g in self.fields["lists"].choices if g[0] == title
            ]
            for name in ("required_option", "forbidden_option", "min_unit_type"):
                field = self.fields[name]
                field.choices = [g for g in field.choices if g[0] in ("", title)]

    @classmethod
    def initial_for(cls, event: Event) -> dict[str, Any]:
        restrictions = list(event.restrictions)
        simple: dict[str, Any] = {}
        more = []
        for r in restrictions:  # the first of each kind in its own field, the rest as data
            kind = r.get("kind")
            if kind in (MAX_UNITS, NO_PERSONALITIES, *STRUCTURED.values()) and kind not in simple:
                simple[kind] = r
            else:
                more.append(r)
        structured = {}
        for name, kind in STRUCTURED.items():
            found = simple.get(kind)
            if found is not None:
                field = found.get("option") or found.get("field")
                structured[name] = choice_key(event.ruleset, field, found.get("value"))
        if MIN_UNIT_TYPE in simple:
            structured["min_unit_count"] = simple[MIN_UNIT_TYPE].get("count")
        return {
            **{
                f: getattr(event, f)
                for f in (
                    "name",
                    "date",
                    "place",
                    "time_zone",
                    "ruleset",
                    "points_limit",
                    "accept_late",
                    "cap",
                    "public_after_reveal",
                    "forces_rolled",
                )
            },
            "deadline": local_input(event.deadline, event.time_zone),
            "reveal_at": local_input(event.reveal_at, event.time_zone),
            "lists": [
                f"{event.ruleset}/{a.army_list.slug}/{a.revision}"
                for a in event.allowed_lists.select_related("army_list")
            ],
            "max_units": simple.get(MAX_UNITS, {}).get("count"),
            "no_personalities": NO_PERSONALITIES in simple,
            **structured,
            "more_restrictions": json.dumps(more) if more else "",
            "co_organisers": ", ".join(event.co_organisers.values_list("username", flat=True)),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        zone = zoneinfo.ZoneInfo(data.get("time_zone") or "UTC")
        for name in ("deadline", "reveal_at"):
            if data.get(name) is not None:  # read in the event's zone, whatever the server's
                data[name] = data[name].replace(tzinfo=None).replace(tzinfo=zone)
        if data.get("deadline") and data.get("reveal_at") and data["reveal_at"] < data["deadline"]:
            self.add_error("reveal_at", "The reveal comes at or after the submission deadline.")
        slug = data.get("ruleset")
        if not slug:
            return data
        ruleset = get_ruleset(slug)
        if not ruleset.uses_points:
            data["points_limit"] = None
        if data.get("forces_rolled") and not ruleset.can_roll:
            self.add_error("forces_rolled", f"{ruleset.title} has no force matrix to roll on.")
        restrictions: list[Any] = []
        if data.get("max_units"):
            restrictions.append({"kind": MAX_UNITS, "count": data["max_units"]})
        if data.get("no_personalities"):
            if not any(f.name == PERSONALITY for f in ruleset.unit_fields):
                self.add_error("no_personalities", f"{ruleset.title} has no personalities.")
            else:
                restrictions.append({"kind": NO_PERSONALITIES})
        for name, kind in STRUCTURED.items():
            chosen = data.get(name)
            if not chosen:
                continue
            of, field, value = chosen.split("|", 2)
            if of != slug:
                self.add_error(name, f"Choose one of {ruleset.title}'s, or (none).")
                continue
            item = {"kind": kind, "value": json.loads(value)}
            if kind == MIN_UNIT_TYPE:
                if not data.get("min_unit_count"):
                    self.add_error("min_unit_count", "How many units of that kind, at least?")
                    continue
                item.update(field=field, count=data["min_unit_count"])
            else:
                item["option"] = field
            restrictions.append(item)
        text = (data.get("more_restrictions") or "").strip()
        if text:
            try:
                more = load_json(text)  # strict, and deep nesting refused, not a crash
            except MalformedDocument as exc:
                self.add_error("more_restrictions", exc.message)
                more = []
            if not isinstance(more, list):
                self.add_error("more_restrictions", "A JSON list of restrictions, [ … ].")
                more = []
            restrictions.extend(more)
        try:
            parsed = parse_restrictions(restrictions, ruleset)
        except MalformedDocument as exc:
            self.add_error("more_restrictions", exc.message)
        else:
            data["restrictions"] = [r.to_json() for r in parsed]
        chosen = []
        for key in data.get("lists") or []:
            list_ruleset, list_slug, number = key.rsplit("/", 2)
            if list_ruleset != slug:
                self.add_error("lists", f"Every allowed list must be a {ruleset.title} list.")
                break
            found = ArmyList.objects.filter(
                Q(readable_by(self.user.pk)), ruleset=slug, slug=list_slug
            ).first()
            if found is None or any(a.pk == found.pk for a, _ in chosen):
                self.add_error("lists", "Choose each list once, at one revision.")
                break
            chosen.append((found, int(number)))
        data["allowed"] = chosen
        names = [n.strip() for n in (data.get("co_organisers") or "").split(",") if n.strip()]
        data["co_names"] = names
        return data
