"""Army lists: curated constraint data for one rule set, edited in the admin."""

from django.core.exceptions import ValidationError
from django.db import models

from armybuilder.textrule import validate_json, validate_line, validate_text
from rules.registry import get_ruleset, slugs


class ArmyListManager(models.Manager["ArmyList"]):
    def get_by_natural_key(self, ruleset: str, slug: str) -> "ArmyList":
        return self.get(ruleset=ruleset, slug=slug)


class ArmyList(models.Model):
    """A historical army list; ``data`` is the rule set's own constraint format."""

    ruleset = models.CharField(max_length=40, help_text="Rule set slug, e.g. feudal-2017.")
    slug = models.SlugField(max_length=80)
    name = models.CharField(max_length=200)
    period = models.CharField(max_length=200, blank=True, help_text="Period or dates.")
    source_note = models.TextField(
        blank=True, help_text="Where the list comes from (or that Muster compiled it)."
    )
    data = models.JSONField(default=dict, help_text="Constraint data in the rule set's format.")
    updated = models.DateTimeField(auto_now=True)

    objects = ArmyListManager()

    class Meta:
        ordering = ["ruleset", "name"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "slug"], name="unique_list_per_ruleset")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.ruleset})"

    def natural_key(self) -> tuple[str, str]:
        return (self.ruleset, self.slug)

    def clean(self) -> None:
        """Run the rule set's own list validator: a malformed list cannot be saved.

        Every string keeps the text rule first (rules/text.py): list data reaches pages,
        PDFs and the API as it is stored.
        """
        faults = {}
        for name, check in (
            ("ruleset", validate_line),
            ("slug", validate_line),
            ("name", validate_line),
            ("period", validate_line),
            ("source_note", validate_text),
            ("data", validate_json),
        ):
            try:
                check(getattr(self, name))
            except ValidationError as exc:
                faults[name] = exc.messages
        if faults:
            raise ValidationError(faults)
        if self.ruleset not in slugs():
            raise ValidationError(
                {"ruleset": f"{self.ruleset!r} is not one of {', '.join(slugs())}"}
            )
        problems = get_ruleset(self.ruleset).validate_army_list(self.data)
        if problems:
            raise ValidationError({"data": problems})
