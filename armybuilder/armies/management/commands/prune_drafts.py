"""``python manage.py prune_drafts``: delete visitors' drafts nobody can reach any more.

A draft belongs to a browser session; once that session has expired (and the draft has
not been touched for a whole session lifetime) no one can open, claim or share it. The
worker also runs this every hour (``armybuilder.ops.maintenance``).
"""

from typing import Any

from django.core.management.base import BaseCommand

from armybuilder.armies.making.drafts import abandoned_drafts


class Command(BaseCommand):
    help = "Delete visitors' draft armies whose browser session has expired."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="Count what would go, delete nothing."
        )

    def handle(self, *args: Any, dry_run: bool = False, **options: Any) -> None:
        stale = abandoned_drafts()
        count = stale.count()
        if not dry_run:
            stale.delete()
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(f"{verb} {count} abandoned draft{'s' if count != 1 else ''}")
