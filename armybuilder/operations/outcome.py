"""What became of one operation, for every subject: one ``Outcome``, its statuses and the
one table of the HTTP status a page answers a refusal with."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

APPLIED, DUPLICATE, CONFLICT, GONE, STALE, REFUSED = (
    "applied", "duplicate", "conflict", "gone", "stale", "refused",
)  # fmt: skip
STATUSES = (APPLIED, DUPLICATE, CONFLICT, GONE, STALE, REFUSED)
# A page's HTTP status per refused outcome (a batch endpoint answers 200 and says each
# operation's status in its body; a form's page answers with its one operation's).
HTTP_STATUS = {REFUSED: 400, CONFLICT: 409, STALE: 409, GONE: 409}


@dataclass(frozen=True)
class Outcome:
    """What became of one operation: ``applied``, ``duplicate`` (its key was applied
    before: nothing changed), ``conflict`` (its field moved on since the value it was
    made from: ``theirs`` holds the value now), ``gone`` (what it was made on is no
    longer there), ``stale`` (a whole-form change made from an older version),
    ``refused`` (the value or the change does not read: ``message`` says why, field
    named).

    ``version``: the subject's version after it (an army's version, a list's revision, a
    game's action number). ``refusal``: the subject's own account of a refusal, for the
    page that draws it (an army's field conflict, a list's refusal and its place).
    ``html``: the field's message as the page shows it (set by the answer); ``notice``:
    a refusal's words when the page is drawn whole around it; ``done``: the words said of
    a change made; ``http``: a page's status for this refusal when it is not its
    status's own."""

    key: str
    status: str
    message: str = ""
    value: Any = None
    theirs: Any = None
    version: int | None = None
    target: str = ""
    field: str = ""
    html: str = ""
    refusal: Any = dataclasses.field(default=None, compare=False, repr=False)
    notice: str = ""
    done: str = ""
    http: int = 0

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"an outcome's status is one of {', '.join(STATUSES)}")

    @property
    def number(self) -> int | None:
        """A game's word for its version: the number of the action it made or found."""
        return self.version

    @property
    def ok(self) -> bool:
        return self.status in (APPLIED, DUPLICATE)

    @property
    def http_status(self) -> int:
        """A refused operation's status for a page's answer (200 when it was not refused)."""
        return self.http or HTTP_STATUS.get(self.status, 200)

    @property
    def at_field(self) -> bool:
        """Shown at the field the player changed (else the page is drawn whole)."""
        return bool(self.field) and self.status in (REFUSED, CONFLICT)

    @property
    def redraws(self) -> bool:
        """A refusal that a no-JS page answers with the whole page and its notice."""
        return self.status in (CONFLICT, STALE, GONE)

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"key": self.key, "status": self.status}
        if self.message:
            found["message"] = self.message
        if self.status == APPLIED:
            found["value"] = self.value
        if self.status == CONFLICT:
            found["theirs"] = self.theirs
        if self.version is not None:
            found["version"] = self.version
        if self.target:
            found["target"] = self.target
        if self.field:
            found["field"] = self.field
        if self.html:
            found["html"] = self.html
        return found
