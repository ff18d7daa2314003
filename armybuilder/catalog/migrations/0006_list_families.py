import re

from django.db import migrations, models

# a player's list slug is the slug they asked for plus "-" and 8 hex digits
_SUFFIX = re.compile(r"^(?P<base>.+)-[0-9a-f]{8}$")


def find_families(apps, schema_editor):
    """A player's list made before families were recorded is a copy when the slug it
    was given from (its slug without the random suffix) is another list of its rule set:
    a copy of a shipped list or of a player's list (followed back to the first)."""
    ArmyList = apps.get_model("catalog", "ArmyList")  # noqa: N806
    slugs = {
        (ruleset, slug) for ruleset, slug in ArmyList.objects.values_list("ruleset", "slug")
    }
    for army_list in ArmyList.objects.filter(author__isnull=False).only("ruleset", "slug"):
        family, slug = "", army_list.slug
        while (found := _SUFFIX.match(slug)) and (army_list.ruleset, found["base"]) in slugs:
            family = slug = found["base"]
        if family:
            ArmyList.objects.filter(pk=army_list.pk).update(family=family)


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0005_list_revision_kinds"),
    ]

    operations = [
        migrations.AddField(
            model_name="armylist",
            name="family",
            field=models.SlugField(
                blank=True,
                help_text="The slug of the list this one is a copy of (empty: a list of its "
                "own). A list and its copies are one list for the rules, e.g. for allies.",
                max_length=80,
            ),
        ),
        migrations.RunPython(find_families, migrations.RunPython.noop),
    ]
