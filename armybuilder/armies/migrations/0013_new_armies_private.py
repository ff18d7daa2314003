# A new army is private until its owner shares it; existing tokens stay as they are.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('armies', '0012_revision_item_id'),
    ]

    operations = [
        migrations.AlterField(
            model_name='army',
            name='share_token',
            field=models.CharField(blank=True, default=None, max_length=64, null=True, unique=True),
        ),
    ]
