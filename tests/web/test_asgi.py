"""The ASGI layer of ``make run``: the body is read in the event loop under a deadline and
a size limit before any thread runs the app (armybuilder/asgi.py)."""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

from armybuilder.asgi import ThreadedWSGI


class Recorder:
    """A WSGI app that records what it was given and answers with its body length."""

    def __init__(self):
        self.calls = []
        self.lengths = []
        self.closed = 0

    def __call__(self, environ, start_response):
        body = environ["wsgi.input"].read()
        self.calls.append((environ["REQUEST_METHOD"], environ["PATH_INFO"], body))
        self.lengths.append(environ.get("CONTENT_LENGTH"))
        start_response("200 OK", [("Content-Type", "text/plain")])
        recorder = self

        class Result:
            def __iter__(self):
                yield b"got "
                yield str(len(body)).encode()

            def close(self):
                recorder.closed += 1

        return Result()


def scope(headers=()):
    return {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "path": "/api/v1/check",
        "raw_path": b"/api/v1/check",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }


def run(app, messages, *, gap=0.0, headers=(), reads=None):
    """Feed ``messages`` to ``app`` (``gap`` seconds apart, then silence); what it sent.
    ``reads`` (a list) gets one item per ``receive()`` the app made."""
    sent = []
    reads = [] if reads is None else reads

    async def main():
        queue = list(messages)

        async def receive():
            reads.append(1)
            if not queue:
                await asyncio.sleep(3600)  # the client sends nothing more
            if gap:
                await asyncio.sleep(gap)
            return queue.pop(0)

        async def send(message):
            sent.append(message)

        await asyncio.wait_for(app(scope(headers), receive, send), timeout=30)

    # a loop of its own in a thread of its own: an earlier test (Playwright's sync API) may
    # have left an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()
    return sent


def status_and_body(sent):
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], body


def test_a_chunked_body_reaches_the_app_in_one_piece_with_its_length_and_is_closed():
    recorder = Recorder()
    app = ThreadedWSGI(recorder, seconds=5, threads=2)
    parts = [b"ab", b"cd", b"ef"]
    messages = [
        {"type": "http.request", "body": p, "more_body": i < len(parts) - 1}
        for i, p in enumerate(parts)
    ]
    sent = run(app, messages)
    assert status_and_body(sent) == (200, b"got 6")
    assert recorder.calls == [("POST", "/api/v1/check", b"abcdef")]
    assert recorder.lengths == ["6"]  # sent without Content-Length: the length is known now
    assert recorder.closed == 1  # Django's request_finished runs on close()


def test_a_body_that_trickles_past_the_deadline_gets_408_and_never_reaches_the_app():
    recorder = Recorder()
    app = ThreadedWSGI(recorder, seconds=0.5, threads=2)
    # one byte every 0.2 s of a body that never ends: each read is quick, the whole is late
    trickle = [{"type": "http.request", "body": b"x", "more_body": True}] * 100
    sent = run(app, trickle, gap=0.2, headers=[(b"content-length", b"100000")])
    status, body = status_and_body(sent)
    assert status == 408
    assert json.loads(body)["error"] == "the request body did not arrive within 0.5 seconds"
    assert (b"connection", b"close") in sent[0]["headers"]
    assert recorder.calls == []


def test_a_body_declared_over_the_limit_is_refused_before_it_is_read():
    recorder = Recorder()
    app = ThreadedWSGI(recorder, seconds=5, threads=2, max_bytes=1024)
    reads = []
    body = [{"type": "http.request", "body": b"x" * 512, "more_body": True}] * 10
    sent = run(app, body, headers=[(b"content-length", str(10**9).encode())], reads=reads)
    assert status_and_body(sent)[0] == 413
    assert recorder.calls == [] and reads == []


def test_a_body_passing_the_limit_while_it_streams_is_refused_at_that_point():
    recorder = Recorder()
    app = ThreadedWSGI(recorder, seconds=5, threads=2, max_bytes=1024)
    chunk = {"type": "http.request", "body": b"x" * 600, "more_body": True}
    sent = run(app, [chunk, chunk, chunk, chunk])  # chunked: no Content-Length
    status, body = status_and_body(sent)
    assert status == 413
    assert b"larger than 1 KiB" in body
    assert recorder.calls == []


def test_a_client_that_goes_away_mid_body_gets_no_answer_and_runs_no_view():
    recorder = Recorder()
    app = ThreadedWSGI(recorder, seconds=5, threads=2)
    messages = [
        {"type": "http.request", "body": b"part", "more_body": True},
        {"type": "http.disconnect"},
    ]
    assert run(app, messages) == []
    assert recorder.calls == []
