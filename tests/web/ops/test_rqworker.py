"""The RQ worker ``muster_worker`` runs stops in a second or two, also when its command
thread has already read the answer to its unsubscribe (the case that held a worker for up
to a minute: supervisord killed it, a two-node test waited 30 s for it in vain)."""

import threading
import time

import pytest
import redis

from armybuilder.ops.rqworker import PUBSUB_WAKE_SECONDS, Worker
from tests.web.ops.redis_server import own_redis

pytestmark = pytest.mark.own_databases


def wait_until(check, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)
    return check()


def test_a_worker_stops_its_command_thread_within_seconds_after_the_unsubscribe_is_read(
    tmp_path,
):
    with own_redis(tmp_path) as (_, queue_url):
        connection = redis.Redis.from_url(queue_url)
        worker = Worker(["default"], connection=connection)
        worker.subscribe()
        assert wait_until(lambda: worker.pubsub.subscribed)
        thread = worker.pubsub_thread
        # the thread reads the answer to an unsubscribe before it is told to stop
        worker.pubsub.unsubscribe()
        assert wait_until(lambda: not worker.pubsub.subscribed)
        time.sleep(0.3)  # it is back waiting for the next command
        stopping = threading.Thread(target=worker.unsubscribe, daemon=True)
        began = time.monotonic()
        stopping.start()
        stopping.join(timeout=10 * PUBSUB_WAKE_SECONDS)
        took = time.monotonic() - began
        assert not stopping.is_alive() and not thread.is_alive(), "the worker's stop still waits"
        assert took < 3 * PUBSUB_WAKE_SECONDS
        connection.close()
