"""Each test run has a test database of its own on a database server (tests/database_names.py),
so two runs at once on one PostgreSQL share nothing."""

import os
import subprocess
import sys

import pytest
from django.db import connection

from tests.database_names import LONGEST, own_test_names, run_part
from tests.support import ROOT

ONE_PROCESS = """
from tests.database_names import own_test_names, run_part
databases = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "muster"}}
own_test_names(databases, run_part())
print(databases["default"]["TEST"]["NAME"])
"""


def test_two_processes_name_their_test_databases_apart():
    names = {
        subprocess.run([sys.executable, "-c", ONE_PROCESS], cwd=ROOT, check=True,
                       capture_output=True, text=True).stdout.strip()
        for _ in range(2)
    }  # fmt: skip
    assert len(names) == 2
    assert all(name.startswith("test_muster_") for name in names)


def test_a_parallel_workers_name_keeps_its_suffix_and_gains_the_runs():
    databases = {
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": "muster",
            "TEST": {"NAME": "test_muster_gw1"},
        }
    }
    own_test_names(databases, "123_abcd")
    assert databases["default"]["TEST"]["NAME"] == "test_muster_gw1_123_abcd"


def test_a_long_name_is_cut_before_the_runs_part_not_through_it():
    databases = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "m" * 80}}
    part = run_part()
    own_test_names(databases, part)
    name = databases["default"]["TEST"]["NAME"]
    assert len(name) == LONGEST and name.endswith(f"_{part}")


def test_sqlite_test_databases_are_left_as_django_names_them():
    databases = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}}
    own_test_names(databases, run_part())
    assert "TEST" not in databases["default"]


@pytest.mark.django_db
def test_the_server_database_this_run_tests_on_is_named_for_this_process():
    if connection.vendor == "sqlite":
        pytest.skip("SQLite's test database is this checkout's own already")
    assert f"_{os.getpid()}_" in connection.settings_dict["NAME"]
