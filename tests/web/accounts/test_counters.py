"""The database counter cache behind rate limits and the lock-out when there is no Redis:
the cache calls the limits make, with Django's meaning, on the app's own database."""

import time

import pytest
from django.core.cache import caches
from django.test import Client

from armybuilder.accounts import counters
from armybuilder.accounts.models import Counter

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-Pass-123"


@pytest.fixture
def cache(settings):
    settings.CACHES = {
        **settings.CACHES,
        "counters": {"BACKEND": "armybuilder.accounts.counters.CounterCache"},
    }
    return caches["counters"]


@pytest.fixture
def clock(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


def test_add_makes_a_key_once_and_incr_counts_it(cache):
    assert cache.add("hits", 0, timeout=60) is True
    assert cache.add("hits", 7, timeout=60) is False
    assert [cache.incr("hits") for _ in range(3)] == [1, 2, 3]
    assert cache.incr("hits", 10) == 13
    assert cache.decr("hits") == 12
    assert cache.get("hits") == 12


def test_count_makes_a_key_counts_it_and_starts_afresh_once_it_expired(cache, clock):
    assert [cache.count("window", timeout=60) for _ in range(3)] == [1, 2, 3]
    assert cache.get("window") == 3
    clock[0] += 30
    assert cache.count("window", timeout=60) == 4  # the window keeps its first end
    clock[0] += 31
    assert cache.get("window") is None
    assert cache.count("window", timeout=60) == 1
    clock[0] += 59
    assert cache.count("window", timeout=60) == 2


def test_incr_of_a_missing_key_raises_as_django_caches_do(cache):
    with pytest.raises(ValueError):
        cache.incr("nothing")


def test_an_expired_key_is_gone_and_can_be_added_afresh(cache, clock):
    cache.add("window", 0, timeout=60)
    cache.incr("window")
    clock[0] += 61
    assert cache.get("window") is None
    with pytest.raises(ValueError):
        cache.incr("window")
    assert cache.add("window", 0, timeout=60) is True
    assert cache.incr("window") == 1


def test_a_lock_out_end_time_is_kept_to_the_fraction(cache):
    cache.set("lock", 1_000_060.25, timeout=61)
    assert cache.get("lock") == 1_000_060.25
    cache.set("lock", 5, timeout=61)
    assert cache.get("lock") == 5 and isinstance(cache.get("lock"), int)


def test_no_timeout_keeps_a_key_and_touch_gives_it_one(cache, clock):
    cache.set("forever", 1, timeout=None)
    clock[0] += 10 * 365 * 86400
    assert cache.get("forever") == 1
    assert cache.touch("forever", 5) is True
    clock[0] += 6
    assert cache.get("forever") is None
    assert cache.touch("forever", 5) is False


def test_delete_delete_many_and_clear(cache):
    for name in ("a", "b", "c"):
        cache.set(name, 1, timeout=60)
    assert cache.delete("a") is True and cache.delete("a") is False
    cache.delete_many(["b", "missing"])
    assert (cache.get("b"), cache.get("c")) == (None, 1)
    cache.clear()
    assert Counter.objects.count() == 0


def test_only_numbers_are_stored(cache):
    for value in ("3", [1], None, True):
        with pytest.raises(TypeError):
            cache.set("x", value, timeout=60)
    assert cache.get("x") is None


def test_expired_rows_are_deleted_now_and_then(cache, clock, monkeypatch):
    monkeypatch.setattr(counters, "CULL_EVERY", 3)
    cache.set("old", 1, timeout=10)
    clock[0] += 11
    cache.set("new", 1, timeout=60)
    assert Counter.objects.filter(key__endswith=":old").exists()  # expired, not yet culled
    cache.set("newer", 1, timeout=60)
    assert not Counter.objects.filter(key__endswith=":old").exists()
    assert Counter.objects.count() == 2


def test_rate_limits_and_the_lock_out_count_in_the_database(cache, settings):
    from django.contrib.auth.models import User

    settings.MUSTER_RATE_LIMIT_CACHE = "counters"
    settings.MUSTER_VISITOR_RATE_LIMITS = {n: (2, 3600) for n in ("import", "create", "signup")}
    settings.MUSTER_LOGIN_LOCKOUT = {"account_failures": 3, "address_failures": 100}
    client = Client()
    imports = [client.post("/armies/import/", {}).status_code for _ in range(3)]
    assert imports[2] == 429 and 429 not in imports[:2]
    User.objects.create_user("dora", password=PASSWORD)
    for spelling in ("dora", "ＤＯＲＡ", "𝐝ora"):
        client.post("/accounts/login/", {"username": spelling, "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert locked.status_code == 429
    assert Counter.objects.filter(key__contains="throttle:lock:").count() == 1
    assert Counter.objects.filter(key__contains="throttle:import:").get().value == 3
