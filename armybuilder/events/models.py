"""Club events: an organiser collects, checks, locks and reveals the players' armies.

A ``Submission`` is a locked snapshot, written once: the army document, the list
revisions it was checked against, a content hash, the time and the check's verdict. The
player's army may change afterwards; what was submitted never does.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud and typed
CODE_LENGTH = 10  # 50 bits: short enough to type, too many to guess


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Event(models.Model):
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events"
    )
    co_organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="co_organised_events"
    )
    code = models.CharField(max_length=16, unique=True, default=new_code)
    name = models.CharField(max_length=200)
    date = models.DateField()
    place = models.CharField(max_length=200)
    time_zone = models.CharField(max_length=64, default="Europe/London")
    ruleset = models.CharField(max_length=40)
    points_limit = models.PositiveIntegerField(null=True, blank=True)
    restrictions = models.JSONField(default=list, blank=True)
    deadline = models.DateTimeField(help_text="Submissions close (stored in UTC).")
    reveal_at = models.DateTimeField(help_text="Approved armies are shown to all entrants.")
    accept_late = models.BooleanField(default=False)
    cap = models.PositiveIntegerField(null=True, blank=True, help_text="Entrants at most.")
    public_after_reveal = models.BooleanField(default=False)
    forces_rolled = models.BooleanField(default=False)
    # From the reveal every submission is final; the organiser may reopen the event
    # explicitly (recorded here and in each entrant's thread, shown on the event's page).
    reopened_at = models.DateTimeField(null=True, blank=True)
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Re-checks asked for (a change of the rules) and finished by the worker: while more are
    # asked than done, the verdicts are changing and the pages say "re-checking…".
    rechecks_asked = models.PositiveIntegerField(default=0)
    rechecks_done = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(cap__isnull=True) | Q(cap__gte=1), name="event_cap_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rechecking(self) -> bool:
        return self.rechecks_asked > self.rechecks_done


class AllowedList(models.Model):
    """An army list the event allows, pinned to the revision that is its data cut-off."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="allowed_lists")
    # A list deleted by its author goes from the event with nothing submitted on it; once
    # submissions were checked against it, the catalog keeps it (DELETED) for them.
    army_list = models.ForeignKey("catalog.ArmyList", on_delete=models.CASCADE, related_name="+")
    revision = models.PositiveIntegerField()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "army_list"], name="event_list_once"),
        ]

    def __str__(self) -> str:
        return f"{self.army_list_id} r{self.revision}"


class Entrant(models.Model):
    ENTERED, WAITING, WITHDRAWN = "entered", "waiting", "withdrawn"
    STATES = [(ENTERED, "Entered"), (WAITING, "Waiting list"), (WITHDRAWN, "Withdrawn")]
    # "": the deadline decides; open: the organiser let this entrant submit past it;
    # locked: the organiser closed this entrant's submissions before it
    FOLLOWS, OPEN, LOCKED = "", "open", "locked"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=10, choices=STATES, default=ENTERED)
    joined = models.DateTimeField(auto_now_add=True)
    lock = models.CharField(max_length=10, blank=True, default=FOLLOWS)
    checked_in = models.BooleanField(default=False)

    class Meta:
        ordering = ["joined", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="entrant_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.event_id}"


class Submission(models.Model):
    """One submitted army, written once and kept (every resubmission is a new one)."""

    SUBMITTED, NEEDS_CHANGES, APPROVED, RETURNED = (
        "submitted",
        "needs_changes",
        "approved",
        "returned",
    )
    STATES = [
        (SUBMITTED, "Submitted"),
        (NEEDS_CHANGES, "Needs changes"),
        (APPROVED, "Approved"),
        (RETURNED, "Returned to draft"),
    ]

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="submissions")
    number = models.PositiveIntegerField()
    army = models.ForeignKey(
        "armies.Army", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    document = models.JSONField()
    list_revisions = models.JSONField(default=dict)
    content_hash = models.CharField(max_length=64)
    submitted_at = models.DateTimeField()
    late = models.BooleanField(default=False)
    valid = models.BooleanField(default=False)
    total_points = models.IntegerField(null=True, blank=True)
    problems = models.JSONField(default=list, blank=True)
    state = models.CharField(max_length=16, choices=STATES, default=SUBMITTED)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    roll_seed = models.BigIntegerField(null=True, blank=True)
    # The snapshot never changes, but its state and verdict may (an organiser's decision, a
    # re-check after the event's rules changed): each such change counts up the version,
    # and an organiser's action names the version it was decided on.
    version = models.PositiveIntegerField(default=1)
    changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entrant", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["entrant", "number"], name="submission_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant_id} #{self.number}"

    @property
    def army_name(self) -> str:
        return str(self.document.get("name", "")) if isinstance(self.document, dict) else ""


class Note(models.Model):
    """One message of a submission's thread, or a recorded action of an organiser
    (``action`` set): who did what to whose entry, shown to the player."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="notes")
    submission = models.ForeignKey(
        Submission, null=True, blank=True, on_delete=models.CASCADE, related_name="notes"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=80, blank=True, default="")
    text = models.TextField(blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.entrant_id}: {self.action or 'message'}"


class Roll(models.Model):
    """A mystery army's roll: one per entrant, ever (the unique constraint refuses a
    second), with the seed the server chose and kept."""

    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="roll")
    seed = models.BigIntegerField()
    army_list = models.CharField(max_length=80)
    document = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.entrant_id} seed {self.seed}"


class Flyer(models.Model):
    """An event's flyer PDF, made by the worker and kept in the database so that every web
    process sees it (never a process's own cache). ``key`` digests everything it shows."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="flyers")
    key = models.CharField(max_length=64, unique=True)
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    queued = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"flyer of {self.event_id} ({'ready' if self.pdf else 'queued'})"


class Pack(models.Model):
    """The organiser's pack: one PDF of every approved roster (and QRS when asked), with a
    cover page, made by the background worker (``events.tasks.make_pack``)."""

    QUEUED, RENDERING, READY, FAILED = "queued", "rendering", "ready", "failed"
    STATES = [(QUEUED, "Queued"), (RENDERING, "Making"), (READY, "Ready"), (FAILED, "Failed")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="packs")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    with_qrs = models.BooleanField(default=False)
    status = models.CharField(max_length=12, choices=STATES, default=QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    reused = models.PositiveIntegerField(default=0, help_text="Sheets taken already rendered.")
    error = models.TextField(blank=True, default="")
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"pack {self.pk} of {self.event_id} ({self.status})"

    @property
    def pending(self) -> bool:
        return self.status in (self.QUEUED, self.RENDERING)


class EventGame(models.Model):
    """A game at the table attached to an event: shown on the event's page with its summary.

    Only the attachment lives here; the game stays its owner's (private, in the games app),
    and deleting it takes it off the event. Pairing and scoring are not kept: they stay with
    the organiser's own tools."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    # one event per game: a game is played at one event
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="event_link")
    attached_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"game {self.game_id} at {self.event_id}"
