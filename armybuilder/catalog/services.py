"""The one core call every interface shares, and the army-list loader."""

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

import rules
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import list_lookup

FIXTURES_DIR = Path(settings.BASE_DIR) / "fixtures"


def check_document(raw: Any) -> tuple[rules.Army, rules.Report]:
    """Parse and check a raw document against the lists in the database.

    Raises ``rules.MalformedDocument`` (with ``path``) for input that is not well formed.
    """
    return rules.check_document(raw, list_lookup)


class ListFileError(ValueError):
    pass


def read_list_file(path: Path) -> list[dict[str, Any]]:
    """The army lists of one fixture file (Django fixture format, natural keys)."""
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ListFileError(f"{path.name}: cannot read: {exc}") from exc
    if not isinstance(records, list):
        raise ListFileError(f"{path.name}: must be a JSON list of fixture records")
    lists = []
    for n, record in enumerate(records):
        if not isinstance(record, dict) or record.get("model") != "catalog.armylist":
            raise ListFileError(f"{path.name}[{n}]: not a catalog.armylist record")
        lists.append(record.get("fields", {}))
    return lists


@transaction.atomic
def load_lists(directory: Path = FIXTURES_DIR) -> int:
    """Create or update every army list in ``directory``, each validated by its rule set.

    Idempotent; all or nothing: one invalid list aborts the load with its message.
    """
    count = 0
    for path in sorted(directory.glob("*.json")):
        for fields in read_list_file(path):
            key = {"ruleset": fields.get("ruleset"), "slug": fields.get("slug")}
            army_list = ArmyList.objects.filter(**key).first() or ArmyList(**key)
            for name in ("name", "period", "source_note", "data"):
                if name in fields:
                    setattr(army_list, name, fields[name])
            try:
                army_list.full_clean()
            except ValidationError as exc:
                raise ListFileError(f"{path.name}: {key['ruleset']}/{key['slug']}: {exc}") from exc
            army_list.save()
            count += 1
    return count
