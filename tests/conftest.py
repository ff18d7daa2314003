import pytest

from armybuilder.catalog.services import load_lists


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database holds every army list from fixtures/, as `make run` loads them."""
    with django_db_blocker.unblock():
        load_lists()
