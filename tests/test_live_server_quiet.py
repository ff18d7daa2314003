"""The live server on a database with a connection per thread serves requests at once, but
a test's end waits for those in hand and holds new ones until the tables are emptied: a
request left behind by a closed browser would otherwise deadlock the flush."""

from __future__ import annotations

import io
import threading

from tests.conftest import _Quiet


def started(target) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def test_requests_are_served_at_once_the_end_of_a_test_waits_for_them_and_holds_new_ones():
    let_finish = threading.Event()
    inside = threading.Semaphore(0)
    served = []

    def app(environ, start_response):
        inside.release()
        if environ["PATH_INFO"] == "/slow":
            let_finish.wait(10)
        served.append(environ["PATH_INFO"])
        return [b"ok"]

    quiet = _Quiet()
    serve = quiet.serving(app)

    def request(path):
        return lambda: serve({"PATH_INFO": path, "wsgi.input": io.BytesIO()}, None)

    slow = started(request("/slow"))
    assert inside.acquire(timeout=5)
    started(request("/quick")).join(5)
    assert served == ["/quick"], "a request is served while another is in hand"

    ended = started(quiet.hold_when_quiet)
    ended.join(0.3)
    assert ended.is_alive(), "the end of the test waits for the request in hand"
    let_finish.set()
    slow.join(5)
    ended.join(5)
    assert not ended.is_alive()

    late = started(request("/late"))
    late.join(0.3)
    assert late.is_alive() and served == ["/quick", "/slow"], "held until the tables are empty"
    quiet.release()
    late.join(5)
    assert served == ["/quick", "/slow", "/late"]
