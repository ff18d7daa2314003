"""A print asked while the queue (Redis) is away answers 503 "try again" and is never
stored as failed: once Redis is back, the same URL queues it and it renders. On a Redis
this test starts, stops and starts again on the same port."""

import shutil
import subprocess

import pytest
import redis
from django.core.cache import cache
from django.test import Client

from armybuilder.printing.models import Render
from tests.web.ops.redis_server import free_port

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
URL = "/rulesets/into-the-dark/qrs.pdf?paper=letter"


class Redis:
    def __init__(self, directory):
        self.port, self.directory, self.process = free_port(), directory, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        for _ in range(200):
            try:
                client.ping()
                return
            except redis.RedisError:
                subprocess.run(["sleep", "0.1"], check=True)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def rq_queue(tmp_path, settings, monkeypatch):
    import django_rq.queues
    import django_rq.settings
    from django.utils.module_loading import import_string
    from rq import SimpleWorker

    from armybuilder.ops.management.commands.muster_worker import RQ_JOB_CLASS, RQ_QUEUES

    server = Redis(tmp_path)
    server.start()
    original = django_rq.queues.get_redis_connection
    for name in RQ_QUEUES:
        monkeypatch.setitem(django_rq.settings.QUEUES, name, {"URL": server.url})
    monkeypatch.setattr(
        django_rq.queues,
        "get_redis_connection",
        lambda config, use_strict_redis=False: original({**config, "URL": server.url}),
    )
    settings.TASKS = {"default": settings.TASK_BACKENDS["rq"]}
    settings.MUSTER_TASK_BACKEND = "rq"
    cache.clear()
    job_class = import_string(RQ_JOB_CLASS)

    def work():
        connection = django_rq.get_connection("default")
        queues = [django_rq.get_queue(name, job_class=job_class) for name in RQ_QUEUES]
        SimpleWorker(queues, connection=connection, job_class=job_class).work(burst=True)

    server.work = work
    yield server
    if server.process.poll() is None:
        server.stop()


@pytest.mark.django_db(transaction=True)
def test_a_pdf_asked_while_redis_is_down_renders_from_the_same_url_once_it_is_back(rq_queue):
    client = Client(raise_request_exception=False)
    rq_queue.stop()  # Redis goes away
    down = client.get(URL)
    assert down.status_code == 503
    assert int(down["Retry-After"]) > 0
    assert "not answering" in down.content.decode()
    (render,) = Render.objects.all()
    assert render.status == Render.QUEUED  # not failed: the outage is not its result
    again = client.get(URL)  # still down: still 503, still not failed
    assert again.status_code == 503
    assert Render.objects.get().status == Render.QUEUED

    rq_queue.start()  # back (empty)
    asked = client.get(URL)
    assert asked.status_code in (202, 302)  # queued now: the progress page or its redirect
    rq_queue.work()
    render = Render.objects.get()
    assert render.status == Render.READY, render.error
    done = client.get(URL)
    assert done.status_code == 200 and done.content.startswith(b"%PDF")
