"""One account, one counter: every spelling Django would log in as one account (full-width,
mathematical letters, other case) shares that account's lock-out, on Muster's log-in page
and the admin's; sign-up refuses a name that looks the same as an existing one."""

import html
import unicodedata

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.accounts.forms import SignUpForm
from armybuilder.accounts.models import NameLook
from armybuilder.accounts.names import account_key, look_alike, look_alike_keys, skeleton

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-Pass-123"
LOGIN_PAGES = ["/accounts/login/", "/admin/login/"]


@pytest.fixture
def five_strikes(settings):
    """The shipped account lock-out (5 wrong passwords), the address limit out of the way."""
    settings.MUSTER_LOGIN_LOCKOUT = {
        "account_failures": 5,
        "address_failures": 1000,
        "base_seconds": 60,
        "max_seconds": 3600,
    }


def log_in(client: Client, url: str, username: str, password: str = PASSWORD):
    return client.post(url, {"username": username, "password": password})


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_a_locked_account_stays_locked_under_its_full_width_spelling(client, five_strikes, url):
    User.objects.create_user("p1", password=PASSWORD, is_staff=True)
    for _ in range(5):
        assert log_in(client, url, "p1", "wrong").status_code == 200
    refused = log_in(client, url, "ｐ1")  # full-width p: Django would log this in as p1
    assert refused.status_code == 429
    assert "wrong passwords" in refused.content.decode()
    assert not logged_in(client)


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_wrong_guesses_under_look_alike_names_count_against_the_account(client, five_strikes, url):
    User.objects.create_user("carol", password=PASSWORD, is_staff=True)
    for spelling in ["ｃarol", "ｃａｒｏｌ", "𝐜arol", "CAROL", "Ｃarol"]:
        assert log_in(client, url, spelling, "wrong").status_code == 200
    for spelling in ["carol", "ｃarol", "𝐜arol"]:
        assert log_in(client, url, spelling).status_code == 429
    assert not logged_in(client)


def test_a_superusers_lock_on_the_admin_holds_on_the_players_log_in_too(client, five_strikes):
    User.objects.create_superuser("root", password=PASSWORD)
    for spelling in ["ｒｏｏｔ", "𝐫oot", "rooｔ", "ROOT", "root"]:
        log_in(client, "/admin/login/", spelling, "wrong")
    assert log_in(client, "/accounts/login/", "root").status_code == 429
    assert log_in(client, "/admin/login/", "ｒoot").status_code == 429
    assert not logged_in(client)


def test_a_look_alike_spelling_logs_in_as_the_account_while_it_is_not_locked(client, five_strikes):
    User.objects.create_user("p1", password=PASSWORD)
    response = log_in(client, "/accounts/login/", "ｐ1")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="p1").pk)


def test_the_right_password_resets_the_count_for_every_spelling(client, five_strikes):
    User.objects.create_user("carol", password=PASSWORD)
    for _ in range(4):
        log_in(client, "/accounts/login/", "𝐜arol", "wrong")
    assert log_in(client, "/accounts/login/", "ｃarol").status_code == 302
    client.logout()
    for _ in range(4):  # a fresh count of four is still not five
        assert log_in(client, "/accounts/login/", "CAROL", "wrong").status_code == 200
    assert log_in(client, "/accounts/login/", "carol").status_code == 302


# -- sign-up -------------------------------------------------------------------------------


def sign_up(client: Client, username: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data)


# Django's own check refuses a name that NFKC makes the same up to ASCII case ("already
# exists"); ours refuses what only full case folding makes the same ("looks the same").
SAME_NAME = "A user with that username already exists."
LOOK_ALIKE = "looks the same as an existing account"


@pytest.mark.parametrize(
    ("existing", "look_alike", "refusal"),
    [
        ("carol", "ｃａｒｏｌ", SAME_NAME),  # full width: NFKC makes it carol
        ("carol", "𝐜arol", SAME_NAME),  # mathematical bold
        ("éric", "ÉRIC", LOOK_ALIKE),  # case beyond ASCII (SQLite's iexact folds ASCII only)
        ("straße", "STRASSE", LOOK_ALIKE),  # case folding, not lower-casing: ß folds to ss
        ("οδος", "ΟΔΟΣ", LOOK_ALIKE),  # Greek capital sigma folds to σ
        ("ﬁnn", "FINN", SAME_NAME),  # the fi ligature: NFKC makes it finn
        ("carol", "cаrol", LOOK_ALIKE),  # a Cyrillic а among Latin letters
        ("coco", "сосо", LOOK_ALIKE),  # every letter Cyrillic
        ("cаrol", "carol", LOOK_ALIKE),  # the other way round: the look-alike came first
        ("paul", "Ρaul", LOOK_ALIKE),  # a Greek capital rho
        ("arnold", "amold", LOOK_ALIKE),  # rn and m
        ("bill", "biII", LOOK_ALIKE),  # capital I and small l
        ("bob", "b0b", LOOK_ALIKE),  # digit zero and letter o
        ("alice", "ᴀlice", LOOK_ALIKE),  # a small capital A (no decomposition, no confusable)
        ("ᴀlice", "alice", LOOK_ALIKE),  # the other way round
        ("bob", "ʙᴏʙ", LOOK_ALIKE),  # small capitals throughout
    ],
)
def test_sign_up_refuses_a_look_alike_of_an_existing_username(
    client, existing, look_alike, refusal
):
    User.objects.create_user(existing, password=PASSWORD)
    response = sign_up(client, look_alike)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert refusal in page
    assert User.objects.count() == 1
    assert not logged_in(client)


def test_the_look_alike_refusal_names_the_existing_account_and_says_why(client):
    User.objects.create_user("straße", password=PASSWORD)
    page = html.unescape(sign_up(client, "STRASSE").content.decode())
    assert "That username looks the same as an existing account's (“straße”)" in page
    assert "differ only in case, width, style, accents or script" in page


def test_sign_up_takes_a_name_that_only_resembles_another(client):
    User.objects.create_user("carol", password=PASSWORD)
    assert sign_up(client, "carol2").status_code == 302
    assert sign_up(Client(), "karol").status_code == 302
    assert sign_up(Client(), "сarl").status_code == 302  # Cyrillic с, but no "carl" yet
    assert User.objects.count() == 4


def test_the_cyrillic_look_alike_is_refused_by_its_script_not_by_normalisation(client):
    assert unicodedata.normalize("NFKC", "cаrol") != "carol"  # NFKC alone lets it through
    User.objects.create_user("carol", password=PASSWORD)
    page = html.unescape(sign_up(client, "cаrol").content.decode())
    assert "That username looks the same as an existing account's (“carol”)" in page
    assert "script" in page


@pytest.mark.parametrize(
    ("existing", "look_alike"),
    [
        ("carol", "carol\u0301"),  # a combining acute added (NFKC makes it caroĺ)
        ("carol", "caro\u04cf"),  # a Cyrillic palochka for the l
        ("louise", "1ouise"),  # the digit one for the l
        ("walter", "vvalter"),  # two v for the w
    ],
)
def test_sign_up_refuses_an_accent_a_palochka_a_digit_or_a_pair_of_letters_for_another(
    client, existing, look_alike
):
    User.objects.create_user(existing, password=PASSWORD)
    response = sign_up(client, look_alike)
    assert response.status_code == 400
    assert f"looks the same as an existing account's (“{existing}”)" in html.unescape(
        response.content.decode()
    )
    assert User.objects.count() == 1


# What readers mistake each small Latin letter for: other scripts' letters, digits, pairs.
SUBSTITUTES = {
    "a": ["а", "ɑ", "α"], "b": ["Ь"], "c": ["с"], "d": ["ԁ"], "e": ["е"], "g": ["ɡ"],
    "h": ["һ"], "i": ["і"], "j": ["ј"], "l": ["1", "ӏ", "I", "Ӏ"], "m": ["rn"], "n": ["ո"],
    "o": ["о", "0", "ο"], "p": ["р"], "q": ["ԛ"], "r": ["г"], "s": ["ѕ"], "u": ["υ"],
    "v": ["ν"], "w": ["vv", "ѡ"], "x": ["х"], "y": ["у"], "z": ["ᴢ"],
}  # fmt: skip
MARKS = ["\u0301", "\u0300", "\u0308", "\u0303", "\u0327"]  # acute, grave, diaeresis...


@st.composite
def look_alikes(draw) -> tuple[str, str]:
    """A name, and that name with some letters swapped for look-alikes or given accents."""
    name = draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=12))
    letters = list(name)
    for at in draw(st.lists(st.integers(0, len(name) - 1), min_size=1, max_size=3, unique=True)):
        letter = name[at]
        letters[at] = draw(
            st.sampled_from(SUBSTITUTES.get(letter, []) + [letter + m for m in MARKS])
        )
    return name, "".join(letters)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=look_alikes())
def test_a_name_with_look_alike_letters_swapped_in_is_refused_beside_it(pair):
    name, alike = pair
    User.objects.all().delete()
    User.objects.create_user(name)
    assert look_alike(alike) == name


# Letters no reader takes for one another (not i, l, m, n, o, r, u, v, w: rn, vv, 1...).
DISTINCT = "abcdefghjkpqstxyz"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.text(alphabet=DISTINCT, min_size=2, max_size=12), data=st.data())
def test_names_that_differ_by_a_real_letter_do_not_look_alike(name, data):
    at = data.draw(st.integers(0, len(name) - 1))
    other = name[:at] + data.draw(st.sampled_from(DISTINCT.replace(name[at], ""))) + name[at + 1 :]
    User.objects.all().delete()
    User.objects.create_user(name)
    assert look_alike(other) is None


def test_two_names_that_differ_by_a_real_letter_both_sign_up(client):
    assert sign_up(client, "carol").status_code == 302
    assert sign_up(Client(), "caros").status_code == 302
    assert User.objects.count() == 2


def test_of_two_look_alike_sign_ups_checked_at_once_only_the_first_is_made():
    data = {"password1": PASSWORD, "password2": PASSWORD}
    first = SignUpForm({"username": "carol", **data})
    second = SignUpForm({"username": "cаrol", **data})  # Cyrillic а
    assert first.is_valid() and second.is_valid()  # neither name taken yet
    assert first.save_unless_taken() is not None
    assert second.save_unless_taken() is None
    (refusal,) = second.errors["username"]
    assert "looks the same as an existing account's (“carol”)" in refusal
    assert list(User.objects.values_list("username", flat=True)) == ["carol"]


def test_an_account_renamed_in_the_admin_gives_up_its_old_names_looks(admin_client):
    user = User.objects.create_user("walter")
    assert look_alike("vvalter") == "walter"
    response = admin_client.post(
        f"/admin/auth/user/{user.pk}/change/",
        {
            "username": "hilda",
            "is_active": "on",
            "date_joined_0": "2026-12-01",
            "date_joined_1": "10:00:00",
        },  # fmt: skip
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert look_alike("vvalter") is None
    assert look_alike("hiIda") == "hilda"


def test_the_data_migration_stores_the_looks_of_accounts_made_before():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("armybuilder.accounts.migrations.0004_fill_name_looks")
    walter = User.objects.create_user("walter")
    User.objects.create_user("wаlter")  # Cyrillic а: both made before looks were stored
    hilda = User.objects.create_user("hilda")
    assert not NameLook.objects.exists()
    migration.fill_name_looks(apps, None)
    assert {look.user for look in NameLook.objects.all()} == {walter, hilda}  # the older keeps
    assert NameLook.objects.filter(user=hilda).count() == len(look_alike_keys("hilda"))
    assert look_alike("vvalter") == "walter"


# -- the key itself ------------------------------------------------------------------------

FULL_WIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_the_key_is_stable_and_ignores_compatibility_forms(name):
    key = account_key(name)
    assert account_key(key) == key
    assert account_key(unicodedata.normalize("NFKC", name)) == key
    assert unicodedata.is_normalized("NFKC", key)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@+-"))
def test_full_width_and_capital_spellings_of_an_ascii_name_share_its_key(name):
    full_width = "".join(FULL_WIDTH.get(c, c) for c in name)
    assert account_key(full_width) == account_key(name.upper()) == name.lower()


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_a_skeleton_is_its_own_skeleton(name):
    assert skeleton(skeleton(name)) == skeleton(name)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=20))
def test_a_latin_name_written_with_cyrillic_look_alikes_looks_like_it(name):
    cyrillic = name.translate(str.maketrans("aceopxy", "асеорху"))
    assert look_alike_keys(cyrillic) & look_alike_keys(name)


def test_the_admins_add_user_form_refuses_a_look_alike_too(admin_client):
    User.objects.create_user("éric", password=PASSWORD)
    response = admin_client.post(
        "/admin/auth/user/add/",
        {
            "username": "ÉRIC",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert "looks the same as an existing account" in html.unescape(response.content.decode())
    assert not User.objects.filter(username="ÉRIC").exists()
    response = admin_client.post(
        "/admin/auth/user/add/",
        {
            "username": "erica",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert response.status_code == 302
    assert User.objects.filter(username="erica").exists()
