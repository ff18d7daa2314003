"""Password rules beyond Django's own (accounts/passwords.py): repeated characters and
guessable passwords are refused, on their own and at sign-up."""

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client

from armybuilder.accounts.passwords import GuessablePasswordValidator, RepeatedCharacterValidator

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("password", ["uuuuuuuu", "abcabcabcabc", "1212121212", "aaaabbbb"])
def test_repeated_character_passwords_are_refused(password):
    with pytest.raises(ValidationError, match="repeats the same few characters"):
        RepeatedCharacterValidator().validate(password)


@pytest.mark.parametrize(
    "password", ["correcthorse", "password123", "qwertyuiop", "dragonmaster", "monkey2024"]
)
def test_dictionary_and_breached_passwords_are_refused(password):
    with pytest.raises(ValidationError, match="too easy to guess"):
        GuessablePasswordValidator().validate(password)


def test_a_password_made_of_the_username_is_refused():
    user = User(username="harold.godwinson")
    with pytest.raises(ValidationError):
        GuessablePasswordValidator().validate("harold.godwinson1", user)


@pytest.mark.parametrize("password", ["uuuuuuuu", "correcthorse"])
def test_sign_up_refuses_the_reported_passwords(password):
    response = Client().post(
        "/accounts/signup/", {"username": "newbie", "password1": password, "password2": password}
    )
    assert response.status_code == 400
    assert not User.objects.filter(username="newbie").exists()


def test_a_strong_password_signs_up():
    password = "Tr0ub4dor&3-hastings"
    response = Client().post(
        "/accounts/signup/", {"username": "newbie", "password1": password, "password2": password}
    )
    assert response.status_code == 302
