"""PDFs rendered by the background worker, on both queues: the database and Redis (RQ).

Each test queues renders through the real views, then runs the real worker in this process
until the queue is empty (db_worker --batch, or an RQ SimpleWorker in burst mode, which
runs jobs without forking so it sees the test database, with the job class and queues of
``manage.py muster_worker``; tests/web/ops/test_muster_worker_rq.py runs that command).
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command

from armybuilder.printing import pdf as pdf_module
from armybuilder.printing.models import Render
from tests.support import ROOT, army, example
from tests.web.ops.redis_server import module_redis  # noqa: F401 (the rq queue's Redis)


@pytest.fixture(params=["database", "rq"])
def queue(request, settings, monkeypatch):
    """The task backend under test, and a function that runs its worker until idle. The RQ
    queue is on a Redis of the test file's own (a file importing this fixture imports
    ``module_redis`` too), so files run side by side, or two runs at once, share nothing."""
    if request.param == "rq":
        url = request.getfixturevalue("module_redis")[1]
        import django_rq.queues
        import django_rq.settings
        from django.utils.module_loading import import_string
        from rq import SimpleWorker

        from armybuilder.ops.management.commands.muster_worker import RQ_JOB_CLASS, RQ_QUEUES

        job_class = import_string(RQ_JOB_CLASS)

        monkeypatch.setitem(django_rq.settings.QUEUES, "default", {"URL": url})
        monkeypatch.setattr(django_rq.queues, "get_redis_connection", _fresh_connection(url))
        django_rq.get_queue("default").empty()

        def work():
            connection = django_rq.get_connection("default")
            queues = [django_rq.get_queue(name, job_class=job_class) for name in RQ_QUEUES]
            worker = SimpleWorker(queues, connection=connection, job_class=job_class)
            worker.work(burst=True)

    else:

        def work():
            call_command("db_worker", "--batch", "--no-startup-delay", "--queue-name", "default")

    settings.TASKS = {"default": settings.TASK_BACKENDS[request.param]}
    settings.MUSTER_TASK_BACKEND = request.param
    cache.clear()
    return work


def _fresh_connection(url):
    import django_rq.queues

    original = django_rq.queues.get_redis_connection

    def get(config, use_strict_redis=False):
        return original({**config, "URL": url}, use_strict_redis)

    return get


def post_roster(client, document, paper="a4"):
    return client.post(
        f"/api/v1/roster.pdf?paper={paper}", json.dumps(document), content_type="application/json"
    )


@pytest.mark.django_db(transaction=True)
def test_api_render_goes_from_queued_to_a_pdf(client, queue):
    document = example("dewitt-medieval-lance-and-bow.json")
    accepted = post_roster(client, document, "letter")
    assert accepted.status_code == 202
    body = accepted.json()
    assert body["status"] == "queued"
    assert accepted["Location"] == body["status_url"]
    waiting = client.get(body["status_url"])
    assert waiting.status_code == 202
    assert waiting.json()["status"] == "queued"

    queue()

    done = client.get(body["status_url"])
    assert done.status_code == 200
    assert done["Content-Type"] == "application/pdf"
    assert done.content.startswith(b"%PDF")
    assert done["Content-Disposition"].endswith('-roster-letter.pdf"')
    # the same document again: the stored render, at once
    again = post_roster(client, document, "letter")
    assert again.status_code == 200
    assert again["X-Muster-Cache"] == "hit"
    assert again.content == done.content
    assert Render.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_browser_print_shows_progress_then_the_download(client, queue):
    from armybuilder.armies.models import Army, new_share_token

    saved = Army.objects.create(
        session_key="x" * 32,
        document=example("dewitt-medieval-lance-and-bow.json"),
        share_token=new_share_token(),
    )
    first = client.get(f"/s/{saved.share_token}/roster.pdf?paper=a4")
    assert first.status_code == 302
    status_url = first["Location"]
    page = client.get(status_url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Queued" in html and 'http-equiv="refresh"' in html
    partial = client.get(status_url + "?poll=1", headers={"HX-Request": "true"})
    assert 'hx-trigger="load delay:1s"' in partial.content.decode()

    queue()

    ready = client.get(status_url + "?poll=1", headers={"HX-Request": "true"}).content.decode()
    assert "Ready after" in ready and "data-auto-download" in ready
    assert "hx-trigger" not in ready  # polling stops
    download = client.get(status_url + "pdf")
    assert download.status_code == 200
    assert download.content.startswith(b"%PDF")


@pytest.mark.django_db(transaction=True)
def test_a_render_over_the_time_limit_fails_clearly_and_the_worker_goes_on(
    client, queue, settings, monkeypatch
):
    settings.MUSTER_PDF_TIME_LIMIT = 8
    real = pdf_module.html_to_pdf

    def slow_for_slowpoke(html, fetcher=None):
        if "Slowpoke" in html:
            time.sleep(120)  # in the forked render child, which the limit kills
        return real(html, fetcher)

    monkeypatch.setattr(pdf_module, "html_to_pdf", slow_for_slowpoke)
    slow = post_roster(client, army("into-the-dark", [{"name": "Slowpoke"}]))
    fast = post_roster(client, army("into-the-dark", [{"name": "Quick"}]))
    assert slow.status_code == fast.status_code == 202

    queue()  # one worker, both tasks, in order

    failed = client.get(slow.json()["status_url"])
    assert failed.status_code == 400
    assert "took longer than 8 seconds" in failed.json()["error"]
    assert client.get(fast.json()["status_url"]).status_code == 200  # the worker went on
    render = Render.objects.get(status=Render.FAILED)
    page = client.get(f"/prints/{render.pk}/")
    assert page.status_code == 400
    assert "took longer than 8 seconds" in page.content.decode()
    assert "Try again" in page.content.decode()


@pytest.mark.django_db
def test_the_builders_print_panel_is_owner_only_and_unknown_prints_are_404(client, user):
    from django.contrib.auth.models import User

    from armybuilder.armies.models import Army

    saved = Army.objects.create(owner=user, document=example("dewitt-medieval-lance-and-bow.json"))
    client.force_login(User.objects.create_user("mallory", password="a-long-Pass-123"))
    assert client.get(f"/armies/{saved.pk}/print/?sheet=roster&paper=a4").status_code == 404
    missing = "00000000-0000-4000-8000-000000000000"
    assert client.get(f"/prints/{missing}/").status_code == 404
    assert client.get(f"/prints/{missing}/pdf").status_code == 404
    api = client.get(f"/api/v1/prints/{missing}")
    assert api.status_code == 404 and "error" in api.json()


@pytest.mark.django_db
def test_the_print_panel_answers_htmx_with_progress_and_no_js_with_the_pdf(owner_client, user):
    from armybuilder.armies.models import Army

    saved = Army.objects.create(owner=user, document=example("dewitt-medieval-lance-and-bow.json"))
    url = f"/armies/{saved.pk}/print/?sheet=qrs&paper=letter"
    panel = owner_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'id="print-progress"' in panel and "data-auto-download" in panel  # rendered at once
    plain = owner_client.get(url)
    assert plain["Content-Type"] == "application/pdf"
    assert plain["Content-Disposition"].endswith('-qrs-letter.pdf"')
    bad = owner_client.get(f"/armies/{saved.pk}/print/?sheet=poster&paper=letter")
    assert bad.status_code == 400 and "sheet" in bad.content.decode()


def _running(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")  # a zombie has stopped


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
def test_a_render_child_dies_when_its_worker_is_killed():
    # a stand-in worker forks a render child exactly as services.render_pdf's child starts
    code = (
        "import os, time\n"
        "from armybuilder.printing.lifetime import die_with_parent\n"
        "parent = os.getpid()\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    die_with_parent(parent)\n"
        "    time.sleep(120)\n"
        "    os._exit(0)\n"
        "print(child, flush=True)\n"
        "time.sleep(120)\n"
    )
    worker = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    child = int(worker.stdout.readline())
    try:
        assert _running(child)
        worker.kill()  # SIGKILL: the worker gets no chance to stop its child itself
        worker.wait(timeout=10)
        deadline = time.monotonic() + 10
        while _running(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(child), "the render child outlived its worker"
    finally:
        if _running(child):
            os.kill(child, signal.SIGKILL)


def test_lowering_the_workers_priority_raises_its_niceness():
    code = (
        "import os\n"
        "from armybuilder.printing.lifetime import lower_priority\n"
        "before = os.nice(0)\n"
        "print(before, lower_priority(5), os.nice(0))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    before, returned, after = map(int, done.stdout.split())
    assert after == returned == min(before + 5, 19)


@pytest.mark.django_db(transaction=True)
def test_a_failed_render_tried_again_is_queued_once_more_and_rendered(client, queue, monkeypatch):
    from armybuilder.printing import tasks

    real, attempts = tasks.make_pdf, []

    def crashes_the_first_time(spec):
        attempts.append(spec)
        if len(attempts) == 1:
            raise RuntimeError("the renderer fell over")
        return real(spec)

    monkeypatch.setattr(tasks, "make_pdf", crashes_the_first_time)
    accepted = post_roster(client, army("into-the-dark", [{"name": "Unlucky"}]))
    queue()
    render = Render.objects.get()
    assert render.status == Render.FAILED
    page = client.get(f"/prints/{render.pk}/")
    assert page.status_code == 400 and "Try again" in page.content.decode()

    again = client.get(f"/prints/{render.pk}/?retry=1")  # the page's "Try again"
    assert again.status_code == 302
    render.refresh_from_db()
    assert render.status == Render.QUEUED
    queue()
    done = client.get(accepted.json()["status_url"])
    assert done.status_code == 200 and done.content.startswith(b"%PDF")
    assert len(attempts) == 2
