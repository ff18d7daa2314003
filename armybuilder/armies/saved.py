"""What follows a player's army being saved, called explicitly by each save path.

An app above armies that acts on a saved army (printing renders its sheets ahead of Print)
adds its function to ``FOLLOWERS`` in its ``AppConfig.ready``, the same way events adds a
share guard (``selectors.SHARE_GUARDS``): armies cannot import it, and a model signal would
fire from any ``save()`` anywhere, unseen. Here the save paths name the call: an army made
(``making.lifecycle``), a revision recorded (``history.revisions.record``), a change in
the admin.
"""

from __future__ import annotations

from collections.abc import Callable

from armybuilder.armies.models import Army

# each is given the army's id and its new version
FOLLOWERS: list[Callable[[int, int], None]] = []


def army_saved(army: Army) -> None:
    """A player's army now stands at ``army.version``; a visitor's draft and an army in
    the bin have nothing to follow."""
    if army.owner_id is None or army.deleted_at is not None:
        return
    for follow in FOLLOWERS:
        follow(army.pk, army.version)
