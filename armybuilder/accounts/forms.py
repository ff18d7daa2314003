"""The sign-up form and the admin's add-user form (log-in and password change are Django's
own forms): both refuse a username that looks the same as an existing one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserCreationForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from armybuilder.accounts.names import claim, look_alike
from armybuilder.textrule import validate_line


class LookAlikeRefused(UserCreationForm):
    """Django refuses a name differing only in ASCII case; a name that differs only in
    width, font or Unicode case (``ｃarol``, ``𝐜arol``, ``ÉRIC`` beside ``éric``) would share
    that account's lock-out and look the same to other players, and one in another script
    (``cаrol`` with a Cyrillic ``а``) would look the same, so they are refused too."""

    def clean_username(self) -> str | None:
        # before Django's own check, whose case-insensitive match differs between databases
        # (PostgreSQL folds É, SQLite only ASCII): one refusal, said the same way everywhere
        username = self.cleaned_data.get("username")
        existing = look_alike(username) if username else None
        if existing is not None and existing.lower() == username.lower() and existing.isascii():
            existing = None  # the same name but for ASCII case: Django's "already exists" says it
        if existing is not None:
            raise self.looks_like(existing)
        return super().clean_username()

    @staticmethod
    def looks_like(existing: str) -> forms.ValidationError:
        return forms.ValidationError(
            f"That username looks the same as an existing account's (“{existing}”): "
            "letters that differ only in case, width, style, accents or script (a Cyrillic "
            "“а” for a Latin “a”), or that are mistaken for each other (“rn” and “m”, “vv” "
            "and “w”, “1” and “l”), count as the same. "
            "Please choose another.",
            code="username_look_alike",
        )

    def save_unless_taken(self) -> User | None:
        """Make the account, unless another sign-up took its name or a look-alike of it
        since the form was checked (then None, and the form says so)."""
        try:
            with transaction.atomic():
                user = self.save()
                existing = claim(user)
                if existing is not None:
                    raise _Taken(existing)
        except _Taken as taken:
            self.add_error("username", self.looks_like(taken.existing))
            return None
        except IntegrityError:  # the very same name, made a moment ago
            self.add_error("username", "A user with that username already exists.")
            return None
        return user


class _Taken(Exception):
    def __init__(self, existing: str) -> None:
        super().__init__(existing)
        self.existing = existing


class SignUpForm(LookAlikeRefused):
    """Username and password; email optional (only for the club's own contact)."""

    email = forms.EmailField(
        required=False,
        label="Email (optional)",
        help_text="Only needed if you want to be reachable; Muster sends no mail.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("username", "email"):  # the text rule
            self.fields[name].validators.append(validate_line)


class AdminAddUserForm(LookAlikeRefused, AdminUserCreationForm):
    """The admin's "Add user" form, with the same refusal."""
