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
from armybuilder.catalog.selectors import readable_lists
from armybuilder.events.models import Event
from armybuilder.textrule import validate_line
from rules.document import load_json
from rules.errors import MalformedDocument
from rules.registry import all_rulesets, get_ruleset
from rules.restriction_kinds import KIND_CLASSES as KINDS
from rules.restriction_kinds import MAX_COUNT, FormField
from rules.restrictions import parse_restrictions

# the event's fields a form field holds as the model keeps them
AS_STORED = (
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
# every event field the form sets: those, the restrictions and the two times read in the zone
EVENT_FIELDS = (*AS_STORED, "restrictions", "deadline", "reveal_at")


@cache
def zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


def local_input(moment: datetime, zone: str) -> str:
    """An aware time as the ``datetime-local`` value of the event's time zone."""
    return moment.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M")


def list_choices(user: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every revision of every list the organiser may read, grouped by rule set:
    "<ruleset>/<slug>/<revision>"."""
    # only what the organiser may pass on: never a list they read through another event
    revisions = (
        ArmyListRevision.objects.filter(
            army_list__in=ArmyList.objects.filter(readable_lists(user.pk, granted=False))
        )
        .select_related("army_list")
        .order_by("army_list__ruleset", "army_list__name", "-number")
    )
    groups: dict[str, list[tuple[str, str]]] = {}
    for rev in revisions:
        key = f"{rev.army_list.ruleset}/{rev.army_list.slug}/{rev.number}"
        latest = " (latest)" if rev.number == rev.army_list.latest_revision else ""
        groups.setdefault(rev.army_list.ruleset, []).append(
            (key, f"{rev.name}, revision {rev.number}{latest}{_sharing(rev.army_list, user)}")
        )
    titles = {r.slug: r.title for r in all_rulesets()}
    return [(titles.get(slug, slug), items) for slug, items in groups.items()]


def _sharing(army_list: ArmyList, user: Any) -> str:
    """What ticking a list that is not public shares, said beside it."""
    if army_list.is_public:
        return ""
    if army_list.author_id == user.pk:
        return " — your own list, not public: the event shares it with its entrants"
    return " — shared with you by link: the event shares it with its entrants"


def choice_key(ruleset: str, name: str, value: Any) -> str:
    """One restriction choice as the form posts it: rule set, field and JSON value."""
    return f"{ruleset}|{name}|{json.dumps(value)}"


@cache
def kind_choices(kind: str) -> list[tuple[str, Any]]:
    """A choice kind's values in every rule set, grouped by rule set, after (none)."""
    groups: list[tuple[str, Any]] = [("", "(none)")]
    for ruleset in all_rulesets():
        asked = KINDS[kind].form_field(ruleset)
        if asked is not None and asked.choices:
            choices = [(choice_key(ruleset.slug, n, v), words) for n, v, words in asked.choices]
            groups.append((ruleset.title, choices))
    return groups


@cache
def kind_fields() -> dict[str, FormField]:
    """Each kind's field as some rule set asks for it (its label and type are the same in
    every rule set; only the choices differ, each rule set's grouped under its title)."""
    found: dict[str, FormField] = {}
    for ruleset in all_rulesets():
        for name, kind in KINDS.items():
            asked = kind.form_field(ruleset)
            if asked is not None and name not in found:
                found[name] = asked
    return {name: found[name] for name in KINDS if name in found}


def restriction_form_fields() -> dict[str, forms.Field]:
    """The form's field for each kind of restriction (the first of its kind an event has),
    made from the kinds' own descriptions (``rules.restriction_kinds``)."""
    made: dict[str, forms.Field] = {}
    for name, asked in kind_fields().items():
        if asked.value == "count":
            made[name] = forms.IntegerField(
                min_value=1, max_value=MAX_COUNT, required=False, label=asked.label
            )
        elif asked.value == "flag":
            made[name] = forms.BooleanField(required=False, label=asked.label)
        else:
            made[name] = forms.ChoiceField(
                required=False, label=asked.label, choices=kind_choices(name)
            )
            if asked.count:
                made[asked.count] = forms.IntegerField(
                    required=False, min_value=1, max_value=MAX_COUNT, label=asked.count_label
                )
    return made


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
        widget=forms.CheckboxSelectMultiple,
        help_text="Grouped by rule set; each pinned to the revision you tick: the event's "
        "data cut-off. Tick one revision of each list. A list that is not public (your own, "
        "or one shared with you by link) is shared by the event: until the end of the "
        "event's day everyone in it may read it and build armies on it (not copy it), and "
        "its rules file carries its data for them.",
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
        # the restriction kinds' fields, after the event's own and before More restrictions
        self.fields.update(restriction_form_fields())
        tail = ("more_restrictions", "co_organisers")
        self.order_fields([n for n in self.fields if n not in tail] + list(tail))
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
            for name, asked in kind_fields().items():
                if asked.value == "choice":
                    field = self.fields[name]
                    field.choices = [g for g in field.choices if g[0] in ("", title)]

    def list_groups(self) -> list[dict[str, Any]]:
        """The allowed-list choices as the page draws them: one group of checkboxes per
        rule set (its slug, for the page's script to show the chosen rule set's), each box
        with its id and whether it is ticked."""
        ticked = set(self["lists"].value() or ())
        slugs = {r.title: r.slug for r in all_rulesets()}
        groups, number = [], 0
        for title, items in self.fields["lists"].choices:
            boxes = []
            for value, label in items:
                boxes.append(
                    {"id": f"id_lists_{number}", "value": value, "label": label,
                     "ticked": value in ticked}
                )  # fmt: skip
                number += 1
            groups.append({"title": title, "ruleset": slugs.get(title, ""), "boxes": boxes})
        return groups

    @classmethod
    def initial_for(cls, event: Event) -> dict[str, Any]:
        simple: dict[str, Any] = {}
        more = []
        for r in event.restrictions:  # the first of each kind in its own field, the rest as data
            kind = r.get("kind")
            if kind in kind_fields() and kind not in simple:
                simple[kind] = r
            else:
                more.append(r)
        structured: dict[str, Any] = {}
        for name, r in simple.items():
            asked = kind_fields()[name]
            if asked.value == "count":
                structured[name] = r.get("count")
            elif asked.value == "flag":
                structured[name] = True
            else:
                named = r.get(KINDS[name].keys[0])
                structured[name] = choice_key(event.ruleset, named, r.get("value"))
                if asked.count:
                    structured[asked.count] = r.get("count")
        return {
            **{f: getattr(event, f) for f in AS_STORED},
            "deadline": local_input(event.deadline, event.time_zone),
            "reveal_at": local_input(event.reveal_at, event.time_zone),
            "lists": [
                f"{event.ruleset}/{a.army_list.slug}/{a.revision}"
                for a in event.allowed_lists.select_related("army_list")
            ],
            **structured,
            "more_restrictions": json.dumps(more) if more else "",
            "co_organisers": ", ".join(event.co_organisers.values_list("username", flat=True)),
        }

    def event_fields(self) -> dict[str, Any]:
        """The valid form's values of the event's own fields, as the model keeps them."""
        return {name: self.cleaned_data[name] for name in EVENT_FIELDS}

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
        restrictions = self._kinds_chosen(data, ruleset)
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
                allowed = "; ".join(
                    label for title, items in list_choices(self.user)
                    if title == ruleset.title for _, label in items
                )  # fmt: skip
                self.add_error(
                    "lists",
                    f"Allowed army lists: every allowed list must be a {ruleset.title} list "
                    f"({allowed or 'none you may use'}).",
                )
                break
            found = ArmyList.objects.filter(
                Q(readable_lists(self.user.pk, granted=False)), ruleset=slug, slug=list_slug
            ).first()
            if found is None or any(a.pk == found.pk for a, _ in chosen):
                self.add_error("lists", "Choose each list once, at one revision.")
                break
            chosen.append((found, int(number)))
        data["allowed"] = chosen
        names = [n.strip() for n in (data.get("co_organisers") or "").split(",") if n.strip()]
        data["co_names"] = names
        return data

    def _kinds_chosen(self, data: dict[str, Any], ruleset: Any) -> list[dict[str, Any]]:
        """The restrictions the kinds' fields ask for, as data; a choice of another rule
        set, or a kind this rule set cannot have, is refused at its field."""
        chosen: list[dict[str, Any]] = []
        for name, asked in kind_fields().items():
            value = data.get(name)
            if not value:
                continue
            kind = KINDS[name]
            if kind.form_field(ruleset) is None:
                self.add_error(name, f"{ruleset.title} has {kind.missing}.")
            elif asked.value == "count":
                chosen.append({"kind": name, "count": value})
            elif asked.value == "flag":
                chosen.append({"kind": name})
            else:
                of, field, raw = value.split("|", 2)
                if of != ruleset.slug:
                    mine = kind.form_field(ruleset)
                    allowed = "; ".join(words for _, _, words in mine.choices) if mine else ""
                    self.add_error(
                        name,
                        f"{asked.label}: choose one of {ruleset.title}'s ({allowed}), or (none).",
                    )
                    continue
                item = {"kind": name, kind.keys[0]: field, "value": json.loads(raw)}
                if asked.count:
                    if not data.get(asked.count):
                        self.add_error(asked.count, "How many units of that kind, at least?")
                        continue
                    item["count"] = data[asked.count]
                chosen.append(item)
        return chosen
