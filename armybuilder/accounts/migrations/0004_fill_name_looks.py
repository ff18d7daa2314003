"""Every account made before names' looks were stored gets them (the oldest account keeps
a look two old accounts share)."""

from django.conf import settings
from django.db import migrations


def fill_name_looks(apps, schema_editor):
    from armybuilder.accounts.names import record_all

    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    record_all(apps.get_model(app_label, model_name), apps.get_model("accounts", "NameLook"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_name_looks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(fill_name_looks, migrations.RunPython.noop)]
