"""Arbitrary Unicode into every text field of every interface.

Surrogates, controls, bidi and zero-width characters and astral characters go into the
API, file import, the new-army form, the builder's settings, unit and general controls,
sign-up, log-in and the admin. No answer is a 500, and no string stored afterwards (read
as stored, around the model's repair) breaks the text rule.
"""

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.armies import services
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList
from rules.text import text_problem
from tests.support import item_url

pytestmark = pytest.mark.django_db

INTERESTING = [
    "\ud800", "\udfff", "\x00", "\x07", "\x1b", "\x7f", "\x85", "\r", "\n", "\t",
    "\u202e", "\u202a", "\u2066", "\u2069", "\u200b", "\u200d", "\u200f", "\ufeff",
    "\u2028", "\u00ad", "\U0001f40e", "\U0010ffff", "\U000e0001", "\ue000", "Æ", "<", "&",
]  # fmt: skip
ANY_CHARACTER = st.one_of(st.characters(exclude_categories=()), st.sampled_from(INTERESTING))
HOSTILE = st.one_of(
    st.text(ANY_CHARACTER, min_size=1, max_size=24),
    # at least one of the characters the rule is about, somewhere in ordinary text
    st.tuples(
        st.text(max_size=10), st.sampled_from(INTERESTING), st.text(ANY_CHARACTER, max_size=10)
    ).map("".join),
)
FUZZ = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def form_body(fields: dict[str, str]) -> bytes:
    """A urlencoded body as a hostile client sends it (a lone surrogate as its raw bytes)."""
    return "&".join(
        f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in fields.items()
    ).encode()


def post_form(client: Client, url: str, fields: dict[str, str], **extra: Any):
    return client.post(
        url, form_body(fields), content_type="application/x-www-form-urlencoded", **extra
    )


def post_json(client: Client, url: str, document: Any):
    return client.post(url, json.dumps(document), content_type="application/json")


def doc(ruleset: str = "into-the-dark", **changes: Any) -> dict[str, Any]:
    document = {"format": "muster.army/1", "name": "Fuzz", "ruleset": ruleset, "units": []}
    document.update(changes)
    return document


def _strings(value: Any, multiline: bool = False):
    if isinstance(value, str):
        yield value, multiline
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key), False
            yield from _strings(item, multiline=key == "notes")
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def assert_stored_text_keeps_the_rule(*, lists: bool = False) -> None:
    stored: list[tuple[str, bool]] = []
    for document in Army.objects.values_list("document", flat=True):  # as stored
        stored += list(_strings(document))
    army_lists = ArmyList.objects.values_list("name", "period", "source_note", "data")
    for name, period, note, data in army_lists if lists else ():  # only the admin adds lists
        stored += [(name, False), (period, False), (note, True), *_strings(data)]
    for username, email in User.objects.values_list("username", "email"):
        stored += [(username, False), (email, False)]
    for text, multiline in stored:
        assert text_problem(text, multiline=multiline) is None, repr(text)


# -- the interfaces: each sends ``text`` into one text field -----------------------------------

Send = Callable[[Client, Army, str], Any]


def _import(client: Client, army: Army, document: dict[str, Any]):
    data = json.dumps(document).encode()  # \ud800 escapes, as a hand-edited file may hold
    upload = SimpleUploadedFile("army.json", data, content_type="application/json")
    return client.post("/armies/import/", {"document": upload})


def _settings(client: Client, army: Army, **fields: str):
    return post_form(
        client, f"/armies/{army.pk}/settings/", {"version": str(army.version), **fields}
    )


def _unit(client: Client, army: Army, field: str, text: str):
    if not army.document["units"]:
        services.add_item(army, kind="units", version=army.version)
    return post_form(
        client,
        item_url(army, 0),
        {"version": str(army.version), f"f.{field}": text},
        headers={"HX-Request": "true"},
    )


def _general(client: Client, army: Army, text: str):
    if not army.document.get("generals"):
        services.add_item(army, kind="generals", version=army.version)
    return post_form(
        client, item_url(army, 0, "generals"), {"version": str(army.version), "f.name": text}
    )


INTERFACES: dict[str, Send] = {
    "api name": lambda c, a, t: post_json(c, "/api/v1/check", doc(name=t)),
    "api notes": lambda c, a, t: post_json(c, "/api/v1/check", doc(notes=t)),
    "api unit name": lambda c, a, t: post_json(c, "/api/v1/check", doc(units=[{"name": t}])),
    "api division": lambda c, a, t: post_json(
        c, "/api/v1/check", doc(units=[{"name": "U", "division": t}])
    ),
    "api key": lambda c, a, t: post_json(c, "/api/v1/check", doc(units=[{"name": "U", t: 1}])),
    "api pdf name": lambda c, a, t: post_json(c, "/api/v1/qrs.pdf", doc(name=t)),
    "import name": lambda c, a, t: _import(c, a, doc(name=t)),
    "import notes": lambda c, a, t: _import(c, a, doc(notes=t)),
    "import unit name": lambda c, a, t: _import(c, a, doc(units=[{"name": t}])),
    "import general name": lambda c, a, t: _import(c, a, doc(generals=[{"name": t}])),
    "import key": lambda c, a, t: _import(c, a, {**doc(), t: "x"}),
    "import d5 ally": lambda c, a, t: _import(
        c, a, doc("dark-ages-d5", units=[{"name": "U", "ally": t}])
    ),
    "new army name": lambda c, a, t: post_form(
        c, "/armies/new/", {"ruleset": "into-the-dark", "name": t}
    ),
    "new army list": lambda c, a, t: post_form(
        c, "/armies/new/", {"ruleset": "feudal-2017", "army_list": t}
    ),
    "settings name": lambda c, a, t: _settings(c, a, name=t),
    "settings notes": lambda c, a, t: _settings(c, a, notes=t),
    "settings army list": lambda c, a, t: _settings(c, a, army_list=t),
    "unit name": lambda c, a, t: _unit(c, a, "name", t),
    "unit division": lambda c, a, t: _unit(c, a, "division", t),
    "general name": lambda c, a, t: _general(c, a, t),
    "sign-up username": lambda c, a, t: post_form(
        Client(),
        "/accounts/signup/",
        {"username": t, "password1": "Tr0ub4dor&3-x", "password2": "Tr0ub4dor&3-x"},
    ),
    "sign-up email": lambda c, a, t: post_form(
        Client(),
        "/accounts/signup/",
        {
            "username": "fuzzy",
            "email": t,
            "password1": "Tr0ub4dor&3-x",
            "password2": "Tr0ub4dor&3-x",
        },
    ),
    "log-in": lambda c, a, t: post_form(
        Client(), "/accounts/login/", {"username": t, "password": t}
    ),
}


@pytest.fixture
def player(user) -> tuple[Client, User]:
    client = Client()
    client.force_login(user)
    return client, user


@pytest.mark.parametrize("where", sorted(INTERFACES))
@FUZZ
@given(text=HOSTILE)
def test_arbitrary_unicode_into_any_text_field_is_never_a_500_nor_stored_broken(
    player, where, text
):
    client, user = player
    with transaction.atomic():  # each example starts from the same database
        army = services.create_army(doc(), owner=user)
        response = INTERFACES[where](client, army, text)
        assert response.status_code < 500, (where, text, response.content[:300])
        assert_stored_text_keeps_the_rule()
        for page in (f"/armies/{army.pk}/", "/armies/"):
            assert client.get(page).status_code == 200
        transaction.set_rollback(True)


@settings(FUZZ, max_examples=40)
@given(text=HOSTILE, field=st.sampled_from(["name", "period", "source_note", "data"]))
def test_arbitrary_unicode_into_the_admin_is_never_a_500_nor_stored_broken(
    admin_client, admin_user, text, field
):
    form = {
        "ruleset": "feudal-2017",
        "slug": "fuzzed",
        "name": "Fuzzed list",
        "period": "",
        "source_note": "",
        "data": json.dumps(
            {"columns": {"core": "knights", "t1": "bowmen", "t2": "brigans", "t3": "freemen"}}
        ),
    }
    if field == "data":
        form["data"] = json.dumps(
            {
                "columns": {"core": "knights", "t1": "bowmen", "t2": "brigans", "t3": "freemen"},
                "note": text,
            }
        )
    else:
        form[field] = text
    with transaction.atomic():  # each example starts from the same database
        _admin_example(admin_client, admin_user, form, text)
        transaction.set_rollback(True)


def _admin_example(admin_client: Client, admin_user: User, form: dict, text: str) -> None:
    response = post_form(admin_client, "/admin/catalog/armylist/add/", form)
    assert response.status_code < 500
    response = post_form(
        admin_client,
        "/admin/armies/army/add/",
        {
            "owner": str(admin_user.pk),
            "document": json.dumps(doc(name=text)),
            "share_token": "t" * 32,
        },
    )
    assert response.status_code < 500
    assert_stored_text_keeps_the_rule(lists=True)
