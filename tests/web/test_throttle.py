"""Rate limits and log-in lock-out: 429 with Retry-After for every limit; a signed-in
player counts per account, a visitor without one per address."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder import throttle
from armybuilder.armies.models import Army

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-Pass-123"
DOC = {"format": "muster.army/1", "name": "Limited", "ruleset": "into-the-dark", "units": []}


@pytest.fixture
def small(settings):
    """Every limit but ``write`` (which every POST counts against too) at 2 per hour, per
    account and per address; lock-out after 3 wrong passwords (account) or 6 (address).
    Renders wait in the queue (none is made)."""
    settings.MUSTER_RATE_LIMITS = {n: (2, 3600) for n in throttle.DEFAULT_LIMITS if n != "write"}
    settings.MUSTER_VISITOR_RATE_LIMITS = {
        n: (2, 3600) for n in throttle.DEFAULT_VISITOR_LIMITS if n != "write"
    }
    settings.MUSTER_LOGIN_LOCKOUT = {
        "account_failures": 3,
        "address_failures": 6,
        "base_seconds": 60,
        "max_seconds": 600,
    }
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    return settings


def assert_limited(response, what: str) -> int:
    assert response.status_code == 429, response.content[:300]
    retry = int(response["Retry-After"])
    assert 0 < retry <= 3600
    text = response.content.decode()
    assert "try again in" in text and "UTC" in text
    assert what in text
    return retry


def _three(send) -> list:
    return [send() for _ in range(3)]


def sheet(client: Client, n: int, path: str = "/api/v1/roster.pdf"):
    """Ask the API for a sheet no one asked for before (the army's name differs)."""
    return client.post(path, {**DOC, "name": f"Army {n}"}, content_type="application/json")


def test_pdf_renders_on_pages_are_limited_per_visitor_address(client, small):
    client.post("/armies/new/", {"ruleset": "into-the-dark", "name": "Draft"})
    draft = Army.objects.get()
    first, second, third = (
        client.get(f"/armies/{draft.pk}/{path}")
        for path in ("roster.pdf", "roster.pdf?paper=letter", "qrs.pdf")
    )
    assert first.status_code == second.status_code == 302  # queued: the progress page
    assert_limited(third, "printable sheets from your address")
    assert "<h1>429" in third.content.decode()


def test_a_sheet_already_rendered_is_served_again_without_counting(client, small):
    client.post("/armies/new/", {"ruleset": "into-the-dark", "name": "Draft"})
    roster = f"/armies/{Army.objects.get().pk}/roster.pdf"
    assert [client.get(roster).status_code for _ in range(6)] == [302] * 6  # one render
    assert client.get(roster + "?paper=letter").status_code == 302  # the second
    assert_limited(client.get(roster.replace("roster", "qrs")), "printable sheets")


def test_pdf_renders_from_the_api_are_limited_and_answer_json(client, small):
    first, second, third = (sheet(client, n) for n in range(3))
    assert first.status_code == second.status_code == 202
    retry = assert_limited(third, "printable sheets")
    assert third.json()["retry_after"] == retry
    assert set(third.json()) == {"error", "path", "retry_after"}
    assert sheet(client, 0).status_code == 202  # asked before: queued already, free


def test_a_visitors_limit_is_per_client_address(small):
    here, there = Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")
    assert [sheet(here, n).status_code for n in range(3)] == [202, 202, 429]
    assert sheet(there, 3).status_code == 202


def test_signed_in_players_behind_one_address_each_have_their_own_pdf_allowance(small):
    one, two = (Client(REMOTE_ADDR="10.0.0.1") for _ in range(2))
    one.force_login(User.objects.create_user("one"))
    two.force_login(User.objects.create_user("two"))
    assert [sheet(one, n).status_code for n in range(2)] == [202, 202]
    assert [sheet(two, n).status_code for n in range(2, 4)] == [202, 202]
    refused = sheet(one, 4)
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("Too many printable sheets from you for now.")
    visitor = Client(REMOTE_ADDR="10.0.0.1")  # the address itself has used none
    assert sheet(visitor, 5).status_code == 202


def test_imports_are_limited(client, small):
    *_, third = _three(lambda: client.post("/armies/import/", {}))
    assert_limited(third, "imports")


def test_army_creation_is_limited_and_nothing_is_made_once_limited(client, small):
    send = lambda: client.post("/armies/new/", {"ruleset": "into-the-dark", "name": "Mine"})  # noqa: E731
    first, second, third = _three(send)
    assert first.status_code == second.status_code == 302
    assert_limited(third, "new armies")
    assert Army.objects.count() == 2


def test_duplicating_counts_as_creating_for_the_account(owner_client, user, small):
    army = Army.objects.create(owner=user, document=DOC)
    url = f"/armies/{army.pk}/duplicate/"
    *_, third = _three(lambda: owner_client.post(url))
    assert_limited(third, "new armies from you")


def sign_up(client: Client, n: int, **extra):
    data = {"username": f"player{n}", "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", {**data, **extra})


def test_sign_ups_are_limited_per_address_counting_only_accounts_made(small):
    visitors = [Client(REMOTE_ADDR="10.0.0.1") for _ in range(3)]
    for visitor in visitors:
        assert visitor.post("/accounts/signup/", {}).status_code == 400  # a form sent back
    assert [sign_up(visitors[n], n).status_code for n in range(2)] == [302, 302]
    assert_limited(sign_up(visitors[2], 2), "sign-ups from your address")
    assert User.objects.count() == 2
    assert sign_up(Client(REMOTE_ADDR="10.0.0.2"), 3).status_code == 302


def test_a_refused_sign_up_keeps_the_page_it_came_from(small):
    visitors = [Client(REMOTE_ADDR="10.0.0.1") for _ in range(3)]
    for n in range(2):
        sign_up(visitors[n], n)
    refused = sign_up(visitors[2], 2, next="/events/ABCDEF/")
    page = assert_limited(refused, "sign-ups") and refused.content.decode()
    assert '<input type="hidden" name="next" value="/events/ABCDEF/">' in page
    assert '<a href="/events/ABCDEF/">Back to where you came from</a>' in page
    assert 'value="player2"' in page  # the name typed, kept for the next try
    assert "Back to the rule sets" not in page


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_wrong_passwords_lock_the_account_then_even_the_right_one_waits(client, small, url):
    User.objects.create_user("alice", password=PASSWORD, is_staff=True)
    for _ in range(3):
        response = client.post(url, {"username": "alice", "password": "wrong"})
        assert response.status_code == 200
    retry = assert_limited(
        client.post(url, {"username": "alice", "password": PASSWORD}), "wrong passwords"
    )
    assert retry == 60
    assert "_auth_user_id" not in client.session


def test_the_lock_out_backs_off_and_a_right_password_afterwards_starts_afresh(
    client, small, monkeypatch
):
    User.objects.create_user("alice", password=PASSWORD)
    clock = [1_000_000.0]
    monkeypatch.setattr(throttle.time, "time", lambda: clock[0])
    waits = []
    for _ in range(3):  # the third failure locks for 60 s, the fourth 120 s, the fifth 240 s
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        waits.append(int(response["Retry-After"]))
        clock[0] += waits[-1]  # wait it out, then fail again
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert waits == [60, 120, 240]
    clock[0] += 480
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )
    client.logout()
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200  # one failure after a reset is not a lock-out


def test_many_accounts_tried_from_one_address_lock_the_address(small):
    attacker, player = Client(REMOTE_ADDR="10.9.9.9"), Client(REMOTE_ADDR="10.1.1.1")
    User.objects.create_user("zoe", password=PASSWORD)
    for n in range(6):
        attacker.post("/accounts/login/", {"username": f"user{n}", "password": "x"})
    assert_limited(
        attacker.post("/accounts/login/", {"username": "zoe", "password": PASSWORD}),
        "wrong passwords",
    )
    ok = player.post("/accounts/login/", {"username": "zoe", "password": PASSWORD})
    assert ok.status_code == 302


def test_an_ipv6_client_is_counted_by_its_64_network(rf):
    a = rf.get("/", REMOTE_ADDR="2001:db8:1:2::1")
    b = rf.get("/", REMOTE_ADDR="2001:db8:1:2:ffff::9")
    assert throttle.client_address(a) == throttle.client_address(b) == "2001:db8:1:2::/64"


def test_counters_that_do_not_answer_refuse_requests_rather_than_let_them_through(client, small):
    small.CACHES = {
        **small.CACHES,
        "ratelimit": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        },
    }
    small.MUSTER_RATE_LIMIT_CACHE = "ratelimit"
    page = client.get("/rulesets/into-the-dark/qrs.pdf")
    assert page.status_code == 503
    assert int(page["Retry-After"]) == throttle.UNAVAILABLE_SECONDS
    assert "cannot check its limits" in page.content.decode()
    api = sheet(client, 0)
    assert api.status_code == 503 and "cannot check its limits" in api.json()["error"]
    signup = sign_up(client, 0)
    assert signup.status_code == 503 and "cannot check its limits" in signup.content.decode()
    assert not User.objects.exists()
    User.objects.create_user("alice", password=PASSWORD)
    login = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert login.status_code == 503
    assert "_auth_user_id" not in client.session


def test_the_shipped_counters_live_in_the_database_whatever_the_cache():
    import armybuilder.settings as shipped  # the module: the suite's fixtures patch settings
    from armybuilder.accounts.counters import CounterCache

    assert shipped.CACHES[shipped.MUSTER_RATE_LIMIT_CACHE]["BACKEND"] == (
        f"{CounterCache.__module__}.{CounterCache.__name__}"
    )
