import pytest


@pytest.fixture(autouse=True)
def _sessions_reach_the_frozen_days(settings):
    """The tests freeze the clock on days of next year's event (helpers.DEADLINE): a test
    client's session, signed in today, must still be live then."""
    settings.SESSION_COOKIE_AGE = 3 * 365 * 24 * 3600
