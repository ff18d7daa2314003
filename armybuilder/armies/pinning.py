"""An army's list pins changed: the catalog works out which revisions, armies stores them.

An upgrade accepted (and undone), a pin to an event's revision, an imported file's named
revisions: each asks ``catalog.pins`` for the pins and writes them here, the one place an
army's row is changed outside its save path.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils import timezone

from armybuilder.armies.models import Army
from armybuilder.catalog import pins
from armybuilder.catalog.models import ArmyListRevision


def store(army: Army, list_pins: Mapping[str, int]) -> None:
    """The pins and ``updated``: the document and its version stay as they are (an edit in
    flight still lands), while the pages cached for this army's state (the share page) and
    its last check are renewed, since what it is checked against changed."""
    now = timezone.now()
    Army.objects.filter(pk=army.pk).update(list_pins=dict(list_pins), updated=now)
    army.list_pins = dict(list_pins)
    army.updated = now


def accept_upgrade(army: Army) -> dict[str, int]:
    """Check the army against the latest revisions from now on; answers the pins it had
    (what ``restore_pins`` needs to undo)."""
    previous = dict(army.list_pins or {})
    store(army, pins.upgraded_pins(army))
    return previous


def restore_pins(army: Army, previous: Mapping[str, int] | ArmyListRevision) -> None:
    """Undo ``accept_upgrade`` (the pins it answered), or pin one list to a revision."""
    store(army, pins.restored_pins(army, previous))


def pin_to_named(army: Army, wanted: Mapping[str, int]) -> list[str]:
    """Pin an imported army to the revisions its file names, where Muster has them;
    answers a sentence for each it has not."""
    named, notes = pins.named_pins(army, wanted)
    if named != army.list_pins:
        store(army, named)
    return notes
