"""Django forms for the army-creation and import pages (the builder's own controls come
from the rule set's vocabulary: see ``controls.py``)."""

from __future__ import annotations

from typing import Any

from django import forms

import rules
from armybuilder.catalog.selectors import lists_for, lists_of_user, lists_shared_with
from armybuilder.textrule import validate_line


def ruleset_choices() -> list[tuple[str, str]]:
    return [(r.slug, r.title) for r in rules.all_rulesets()]


class NewArmyForm(forms.Form):
    """Start an army: rule set, optional army list, optional points limit, name."""

    ruleset = forms.ChoiceField(label="Rule set")
    army_list = forms.CharField(label="Army list", required=False, validators=[validate_line])
    points_limit = forms.IntegerField(
        label="Points limit",
        required=False,
        min_value=1,
        max_value=100000,
        help_text="Points rule sets only; leave empty for no limit.",
    )
    name = forms.CharField(
        label="Army name",
        required=False,
        max_length=120,
        help_text="You can change it later; empty names it after its list.",
        validators=[validate_line],
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = ruleset_choices()
        self.user = user  # whose own lists may be chosen too

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        slug = data.get("ruleset")
        if not slug:
            return data
        ruleset = rules.get_ruleset(slug)
        list_slug = (data.get("army_list") or "").strip()
        if list_slug:
            known = {a.slug: a for a in lists_for(slug)}
            known.update((a.slug, a) for a in lists_of_user(self.user, ruleset=slug))
            known.update((a.slug, a) for a in lists_shared_with(self.user, ruleset=slug))
            if list_slug not in known:
                names = ", ".join(a.name for a in known.values()) or "none yet"
                self.add_error(
                    "army_list",
                    f"{list_slug!r} is not an army list of {ruleset.title} (its lists: {names}).",
                )
        chosen = known.get(list_slug) if list_slug else None
        data["army_list"] = list_slug or None
        if not ruleset.uses_points:
            data["points_limit"] = None
        name = (data.get("name") or "").strip()
        # a new army is named after its list (the player renames it at will)
        data["name"] = name or (chosen.name if chosen else f"New {ruleset.title} army")
        return data


class ImportForm(forms.Form):
    document = forms.FileField(
        label="Army document (.json)",
        help_text="A muster.army/1 file, as exported from Muster or written by hand.",
    )
