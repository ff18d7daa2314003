"""A game between two armies and the log of what happened in it.

Each side keeps a frozen copy of the army it was started from (the document, the list
revisions it was checked against, whose lists they are, the army's name), so editing or
deleting the army later never changes a game under way. The units' hits and removals are
not stored: they are replayed from the log (``games.selectors.state_of``), so Undo is
exact.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

SIDES = ("a", "b")


class Game(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    ruleset = models.CharField(max_length=60)
    name = models.CharField(max_length=300)
    # {"name": the army's name, "document": muster.army/1, "list_revisions": {slug: n},
    #  "lists_of": the user id whose lists the document reads}
    side_a = models.JSONField()
    side_b = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # where the game stands, replayed from the log after each action (for lists of games)
    turn = models.PositiveIntegerField(default=1)
    phase = models.CharField(max_length=40)
    # every action adds one: a form drawn at an older version is refused, not applied twice
    version = models.PositiveIntegerField(default=1)
    # the opponent's links (secrets.token_urlsafe(24), as armies' share links): one to
    # watch, one to play; None while switched off, and a new one makes the old a 404
    view_token = models.CharField(max_length=64, unique=True, null=True, blank=True, default=None)
    play_token = models.CharField(max_length=64, unique=True, null=True, blank=True, default=None)
    # two phones, each holding one side's seat (the owner's page side A, the link to play
    # side B: ``rules.seats``); False: one phone plays both sides (solo, chosen at start)
    seated = models.BooleanField(default=False)
    # the side that plays the first player turn where the source's turns are one-sided
    first = models.CharField(max_length=1, default="a", choices=[("a", "A"), ("b", "B")])
    # the device that first opened the link to play holds its seat (``games.claims``): the
    # SHA-256 of the token its cookie carries ("" while nobody holds it), the account that
    # was signed in then (any of its devices plays), and since when
    play_claim = models.CharField(max_length=64, blank=True, default="")
    play_claim_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    play_claimed_at = models.DateTimeField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["-updated", "-pk"]
        indexes = [models.Index(fields=["owner", "-updated"], name="game_owner_updated")]
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="game_version_positive"),
            models.CheckConstraint(condition=Q(turn__gte=1), name="game_turn_positive"),
            models.CheckConstraint(condition=Q(first__in=["a", "b"]), name="game_first_side"),
            # a link switched off is null, never an empty (guessable) token
            models.CheckConstraint(
                condition=Q(view_token__isnull=True) | ~Q(view_token=""),
                name="game_view_token_not_blank",
            ),
            models.CheckConstraint(
                condition=Q(play_token__isnull=True) | ~Q(play_token=""),
                name="game_play_token_not_blank",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def side(self, key: str) -> dict[str, Any]:
        return self.side_a if key == "a" else self.side_b


class GameAction(models.Model):
    COMBAT, RALLY, REMOVE, NEXT_PHASE, UNDO = "combat", "rally", "remove", "next_phase", "undo"
    FORCE_MORALE = "force_morale"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    # one of the kinds in ``games.kinds.KINDS``, a rule set's own too: no list of choices
    # here that a kind added there would have to be copied into
    kind = models.CharField(max_length=32)
    # what was done, in full: a combat keeps its units (by side and id), modifiers, dice,
    # seed and the engine's worked result, so the log reads back without the engine
    payload = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)
    undone = models.BooleanField(default=False)
    # the one-time key the page's script made the action under (None: a form's): what an
    # Undo names it by. Applying a key once is the operation kernel's ledger's
    # (``armybuilder.operations``), not this.
    key = models.CharField(max_length=64, null=True, blank=True, default=None)
    # the seat ("a" or "b") whose phone made it; "": a solo game's (or from before seats)
    seat = models.CharField(max_length=1, blank=True, default="")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="game_action_number_once"),
            models.CheckConstraint(condition=Q(seat__in=["", "a", "b"]), name="game_action_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.number} {self.kind}"


class GameSeat(models.Model):
    """A signed-in player (not the owner) opened a game by one of its links: the game is in
    their My games while that very link works. A new link or one switched off ends it with
    no row to change: ``token`` no longer matches the game's (the link is the key, never
    the seat), so the row keeps only what the player did: whose link, when."""

    PLAY, VIEW = "play", "view"
    KINDS = [(PLAY, "To play"), (VIEW, "To watch")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=4, choices=KINDS)
    token = models.CharField(max_length=64, help_text="The link it was last opened with.")
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "-last_seen"], name="game_seat_user_seen")]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="game_seat_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat of {self.user_id}"

    @staticmethod
    def live() -> Q:
        """Seats whose link still opens the game: the same token, of the same kind."""
        return Q(kind="play", token=models.F("game__play_token")) | Q(
            kind="view", token=models.F("game__view_token")
        )
