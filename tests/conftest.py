import pytest
from django.contrib.auth.models import User

from armybuilder.catalog.services import load_lists


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database holds every army list from fixtures/, as `make run` loads them."""
    with django_db_blocker.unblock():
        load_lists()


@pytest.fixture
def user(db):
    """A player with an account (alice)."""
    return User.objects.create_user("alice", password="a-long-Pass-123")


@pytest.fixture
def owner_client(client, user):
    """The test client logged in as ``user``."""
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings):
    """Queued tasks (PDF renders) run at once inside the request in most tests.

    tests/test_print_queue.py runs the real database and Redis queues with a worker.
    """
    settings.TASKS = {"default": settings.TASK_BACKENDS["immediate"]}
