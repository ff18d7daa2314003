"""Password rules beyond Django's own validators.

``RepeatedCharacterValidator`` refuses passwords made of few distinct characters or one
short chunk repeated ("uuuuuuuu", "abcabcabc"). ``GuessablePasswordValidator`` refuses
passwords that zxcvbn (offline: its word lists of English words, names and the most common
breached passwords ship inside the package) estimates to be guessable in fewer than 10^8
tries: dictionary words run together ("correcthorse"), keyboard walks, dates, l33t spellings
of common passwords, and the account's own username.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from zxcvbn import zxcvbn

_REPEATED_CHUNK = re.compile(r"(.{1,4}?)\1+", re.DOTALL)


class RepeatedCharacterValidator:
    def __init__(self, min_distinct: int = 5) -> None:
        self.min_distinct = min_distinct

    def validate(self, password: str, user: Any = None) -> None:
        if len(set(password)) < self.min_distinct or _REPEATED_CHUNK.fullmatch(password):
            raise ValidationError(
                "This password repeats the same few characters. Use at least "
                f"{self.min_distinct} different characters.",
                code="password_repeated",
            )

    def get_help_text(self) -> str:
        return f"Your password must use at least {self.min_distinct} different characters."


class GuessablePasswordValidator:
    def __init__(self, min_score: int = 3) -> None:
        self.min_score = min_score

    def validate(self, password: str, user: Any = None) -> None:
        inputs = [
            str(getattr(user, name, "") or "") for name in ("username", "email", "first_name")
        ]
        result = zxcvbn(password[:100], user_inputs=[i for i in inputs if i])
        if result["score"] >= self.min_score:
            return
        feedback = result.get("feedback") or {}
        why = feedback.get("warning") or "It is made of words or patterns that are easy to guess."
        hints = " ".join(feedback.get("suggestions") or [])
        raise ValidationError(
            f"This password is too easy to guess. {why} {hints}".strip(),
            code="password_guessable",
        )

    def get_help_text(self) -> str:
        return (
            "Your password must not be easy to guess: not dictionary words run together, "
            "a keyboard pattern or a commonly used password."
        )
