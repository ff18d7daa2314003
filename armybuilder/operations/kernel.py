"""The operation kernel: what every subject a page changes by operations (an army, an
army list, a game) shares, below every app, in one module.

- **The envelope** (``Envelope``, ``read_envelope``): an operation's shared fields, ``{key,
  base_version, op, target, field, value, from}``, read once for every subject: the key by
  the key rule, the op a kind the subject registered, the base version a whole number;
  each refused as one ``BadOperation`` naming the field and what it may be. The rest is
  kept as given for the subject and its kind's ``parse``.
- **The key rule** (``is_once_key``, ``RULE``): an operation's one-time key, whatever it
  changes. The page makes one per action (``static/js/changes/keys.js``) and the server
  applies each key once; a UUID fits it, and so does the page's random hex.
- **The outcome** (``Outcome``, its ``STATUSES`` and ``HTTP_STATUS``): what became of one
  operation, for every subject, and the one table of the HTTP status a page answers a
  refusal with.
- **The ledger** (``applied``, ``locked``, ``record``, ``prune``; the rows are
  ``models.AppliedKey``): the one ledger of applied keys, a subject named by its kind
  (``"army"``, ``"list"``, ``"game"``) and its primary key. Whether a key was applied is
  best read with the subject's row, in the query that locks it (``locked``): the check
  then costs no statement of its own.
- **The per-operation transaction** (``apply_once``): the subject's row locked with
  whether the key was applied read in the same query, the change applied, the key
  recorded, all committed together. A second arrival waits for the lock and then finds
  the key; should it get past the check anyway (a caller that holds no lock, a database
  that ignores ``FOR UPDATE``), the ledger's unique key fails its insert, its change rolls
  back with it, and it is answered ``Duplicate`` all the same. A refused change writes
  nothing, its key either: the one rule for a refused key, for every subject, is that it
  may be sent again, and is applied then if it can be (the value was fixed, the turn came
  round).
- **The table of kinds** (``register``, ``handler``, ``Handler(parse, apply)``): one
  handler per subject and kind, as an event's restriction kinds are one class each in one
  table (``rules.restriction_kinds``). A subject registers each kind it takes at import of
  the module that defines them. ``parse(operation, path)`` reads the subject's operation
  (its envelope already read) strictly into the parsed values the change is made from (an
  army's command, a game's action values, a list's change), or ``BadOperation`` naming the
  field at fault (``path`` is where the operation sits in the batch) and, for a choice,
  its allowed values; ``apply(subject, parsed, context)`` makes the change to the row the
  subject's pipeline hands it, inside ``apply_once``, ``context`` being what that
  subject's pipeline adds (the army's operation key, a game's seat, ...). A handler never
  sees a form post or a request: a no-JS form is read into the same values first.
  Armies register theirs in ``armies/changes/operations.py``, lists in
  ``catalog/list_operations.py``, games in ``games/kinds.py``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from armybuilder.jsonbody import BadOperation
from armybuilder.operations.models import AppliedKey

# -- the key rule -------------------------------------------------------------------------

MAX_LENGTH = 64  # the columns that keep applied keys hold this many characters
ONCE_KEY = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_LENGTH}}}")
RULE = f"1 to {MAX_LENGTH} letters, digits, '-' or '_'"


def is_once_key(value: Any) -> bool:
    """Whether ``value`` reads as a one-time key."""
    return isinstance(value, str) and ONCE_KEY.fullmatch(value) is not None


# -- the outcome ------------------------------------------------------------------------

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


# -- the ledger of applied keys ----------------------------------------------------------

KEY_DAYS = 30  # a page's queue holds an operation far less long than this


def applied(subject: str, subject_id: int, keys: Iterable[str]) -> dict[str, int | None]:
    """Which of ``keys`` were applied to the subject, each with the version it made."""
    wanted = sorted({k for k in keys if k})
    if not wanted:
        return {}
    found = AppliedKey.objects.filter(subject=subject, subject_id=subject_id, key__in=wanted)
    return dict(found.values_list("key", "version"))


def was_applied(subject: str, key: str) -> Exists:
    """An expression for a query of the subject's rows: whether ``key`` was applied to
    the row (``OuterRef("pk")``)."""
    return Exists(AppliedKey.objects.filter(subject=subject, subject_id=OuterRef("pk"), key=key))


def locked(rows: QuerySet[Any], subject: str, key: str) -> Any:
    """The one row of ``rows`` held for the caller's transaction (``SELECT ... FOR
    UPDATE``; on SQLite the transaction itself holds the database's write lock), with
    ``key_applied``: whether ``key`` was applied to it. None when there is no such row."""
    found = rows.select_for_update()
    if key:
        found = found.annotate(key_applied=was_applied(subject, key))
    return found.first()


def record(subject: str, subject_id: int, key: str, version: int | None) -> None:
    """Write ``key`` as applied, in the caller's transaction: a second arrival of it that
    got past the check (it cannot under the lock; a caller without one) fails on the
    ledger's unique key, and the caller's transaction rolls back with its change."""
    AppliedKey.objects.create(subject=subject, subject_id=subject_id, key=key, version=version)


def prune(now: datetime | None = None) -> int:
    """Forget keys older than ``KEY_DAYS``; how many went. For the worker's housekeeping."""
    cutoff = (now or timezone.now()) - timedelta(days=KEY_DAYS)
    count, _ = AppliedKey.objects.filter(created__lt=cutoff).delete()
    return count


def moved_in(apps: Any, subject: str, rows: Iterable[tuple[int, str, int | None, Any]]) -> None:
    """For a data migration moving a subject's old ledger into this one: each
    ``(subject_id, key, version, created)`` written as an applied key (``apps``: the
    migration's historical models; a key found twice is kept once)."""
    model = apps.get_model("operations", "AppliedKey")
    made = [
        model(subject=subject, subject_id=pk, key=key, version=version, created=created)
        for pk, key, version, created in rows
    ]
    model.objects.bulk_create(made, batch_size=500, ignore_conflicts=True)


def moved_out(apps: Any, subject: str) -> list[tuple[int, str, int | None, Any]]:
    """The reverse of ``moved_in``: the subject's keys, taken out of this ledger."""
    model = apps.get_model("operations", "AppliedKey")
    found = model.objects.filter(subject=subject)
    rows = list(found.values_list("subject_id", "key", "version", "created"))
    found.delete()
    return rows


# -- the per-operation transaction -------------------------------------------------------

T = TypeVar("T")


class Duplicate(Exception):
    """The key was applied to the subject before: nothing changed. ``version`` is the
    subject's version that change made (None: not known)."""

    def __init__(self, key: str, version: int | None) -> None:
        super().__init__(key)
        self.key = key
        self.version = version


def apply_once(
    subject: str,
    rows: QuerySet[Any],
    key: str,
    change: Callable[[Any], T],
    version_of: Callable[[T], int | None],
) -> T:
    """``change(row)`` on the locked row of ``rows`` (the one subject), once for ``key``
    (no key: applied without one), answering what it answered. ``version_of(done)``: the
    subject's version it made, kept with the key for a duplicate's answer.

    Raises ``Duplicate`` for a key applied before; ``rows.model.DoesNotExist`` when the
    subject is gone; whatever ``change`` raises, with nothing written."""
    try:
        # inside a caller's transaction (a test's) this is a savepoint: a refused change
        # rolls back to it and the caller's transaction goes on
        with transaction.atomic():
            row = locked(rows, subject, key)
            if row is None:
                raise rows.model.DoesNotExist(f"no such {subject}")
            if key and row.key_applied:
                found = applied(subject, row.pk, [key])
                raise Duplicate(key, found.get(key))
            done = change(row)
            if key:
                record(subject, row.pk, key, version_of(done))
            return done
    except IntegrityError:
        if not key:
            raise
        found = _applied_to(subject, rows, key)
        if found is None:
            raise
        raise Duplicate(key, found[1]) from None


def _applied_to(subject: str, rows: QuerySet[Any], key: str) -> tuple[str, int | None] | None:
    pk = rows.values_list("pk", flat=True).first()
    if pk is None:
        return None
    done = applied(subject, pk, [key])
    return (key, done[key]) if key in done else None


class Refused(Exception):
    """A change refused with the outcome it is answered with (a conflict a subject words
    itself): raised from the change, so nothing it did is written, its key either."""

    def __init__(self, outcome: Any) -> None:
        super().__init__(outcome.status)
        self.outcome = outcome


# -- the table of kinds -----------------------------------------------------------------


@dataclass(frozen=True)
class Handler:
    parse: Callable[[Any, str], Any]
    apply: Callable[[Any, Any, Any], Any]


HANDLERS: dict[tuple[str, str], Handler] = {}


def register(subject: str, kind: str, handler: Handler) -> None:
    """Register ``handler`` for the operations of ``kind`` on ``subject`` (once each)."""
    if HANDLERS.get((subject, kind), handler) is not handler:
        raise ValueError(f"{subject}: the kind {kind!r} has a handler already")
    HANDLERS[(subject, kind)] = handler


def unregister(subject: str, kind: str) -> None:
    """``kind`` taken out of ``subject``'s table (a plug-in's, or a test's, once done)."""
    HANDLERS.pop((subject, kind), None)


def kinds(subject: str) -> tuple[str, ...]:
    """The kinds ``subject`` takes, in the order they were registered."""
    return tuple(kind for (named, kind) in HANDLERS if named == subject)


def handler(subject: str, kind: Any, path: str = "op") -> Handler:
    """The handler of ``kind`` on ``subject``, or ``BadOperation`` naming the kinds."""
    found = HANDLERS.get((subject, kind)) if isinstance(kind, str) else None
    if found is None:
        raise BadOperation(f"{path}: one of {', '.join(kinds(subject))}")
    return found


def parse_value(subject: str, kind: Any, operation: Any, path: str) -> tuple[Handler, Any]:
    """The kind's handler and ``operation`` read by it."""
    found = handler(subject, kind)
    return found, found.parse(operation, path)


# -- the envelope -------------------------------------------------------------------------

ENVELOPE = ("key", "base_version", "op", "target", "field", "value", "from")


class _Absent:
    """A field the operation left out (``None`` may be a value it gave: a ``from`` of
    nothing)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Envelope:
    """One operation's shared fields, read by the one rule every subject reads them by:
    ``key`` by the key rule, ``op`` a kind the subject registered, ``base_version`` a whole
    number, 0 or more (None: not given). ``target``, ``field``, ``value`` and ``made_from``
    (the wire's ``from``) are kept as given (``ABSENT`` when not), for the subject and the
    kind's ``parse`` to read; ``rest`` holds the subject's own fields (a list's
    ``section``, the builder's ``typing``). ``path`` is where it sits in the batch."""

    key: str
    op: str
    base_version: int | None = None
    target: Any = ABSENT
    field: Any = ABSENT
    value: Any = ABSENT
    made_from: Any = ABSENT
    rest: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    path: str = ""

    def at(self, name: str) -> str:
        """A field's name as a refusal names it (``operations[2].value``)."""
        return f"{self.path}.{name}" if self.path else name


def read_envelope(
    raw: Any,
    subject: str,
    path: str = "",
    *,
    own: Collection[str] | None = None,
    version_required: bool = False,
    keyed: bool = True,
) -> Envelope:
    """``raw`` (one operation as posted) read as an ``Envelope`` of ``subject``, or the one
    ``BadOperation`` naming the field at fault and what it may be. ``own``: the subject's
    own fields besides the envelope's (None: anything else is ignored, as a queue's record
    carries more than a subject reads); ``version_required``: a missing base version is
    refused; ``keyed=False``: a no-JS form's, which carries no key (read as "")."""
    at = f"{path}." if path else ""
    if not isinstance(raw, Mapping):
        raise BadOperation(f"{path or 'operation'}: an operation is an object")
    if own is not None:
        allowed = (*ENVELOPE, *own)
        unknown = sorted(str(name) for name in raw if name not in allowed)
        if unknown:
            raise BadOperation(f"{at}{unknown[0]}: unknown key; allowed: {', '.join(allowed)}")
    key = raw.get("key", None if keyed else "")
    if not is_once_key(key) and (keyed or key != ""):
        raise BadOperation(f"{at}key: {RULE}")
    op = raw.get("op")
    handler(subject, op, f"{at}op")
    version = raw.get("base_version")
    if (version is not None or version_required) and (type(version) is not int or version < 0):
        raise BadOperation(f"{at}base_version: a whole number, 0 or more")
    given = {name: raw[name] for name in ("target", "field", "value") if name in raw}
    rest = {name: value for name, value in raw.items() if name not in ENVELOPE}
    return Envelope(key, op, version, made_from=raw.get("from", ABSENT), rest=rest, path=path,
                    **given)  # fmt: skip
