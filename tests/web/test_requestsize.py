"""Bodies refused as soon as their size is known; chunked bodies read to their end.

In process (a WSGI environ as a dechunking server builds it, and the ASGI application
`make run` serves) and against the real server started on a free port as `make run` starts it.
"""

import asyncio
import http.client
import io
import json
import os
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import RequestFactory
from django.test.client import ClientHandler
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.armies.models import Army
from armybuilder.asgi import application as asgi_application
from armybuilder.requestsize import CHUNK, FORM_ALLOWANCE, BodyTooLarge, read_body
from tests.support import ROOT, example

pytestmark = pytest.mark.django_db

DOCUMENT = json.dumps(example("into-the-dark-source-examples.json")).encode()
LIMIT = 512 * 1024  # MUSTER_MAX_DOCUMENT_BYTES
BOUNDARY = "muster-test-boundary"
GIGABYTE = 1024**3


def multipart(content: bytes, filename: str = "army.json") -> bytes:
    return (
        (
            f"--{BOUNDARY}\r\n"
            f'Content-Disposition: form-data; name="document"; filename="{filename}"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{BOUNDARY}--\r\n".encode()
    )


class CountingStream:
    """A client's body as the server hands it on: counts what the application reads.

    It reads as a file or a socket does: ``read(0)`` is empty, and an endless body read to
    its end never returns (here: fails the test)."""

    def __init__(self, body: bytes = b"", endless: bool = False) -> None:
        self.body = io.BytesIO(body)
        self.endless = endless
        self.read_bytes = 0

    def read(self, size=-1):
        if self.endless:
            assert size >= 0, "an endless body was read to its end"
            data = b"x" * size
        else:
            data = self.body.read(size)
        self.read_bytes += len(data)
        return data

    def readline(self, size=-1):
        return self.read(size)


def wsgi(path, stream, *, length=None, chunked=False, terminated=True, content_type=None):
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": stream,
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": content_type or "application/json",
        "REMOTE_ADDR": "127.0.0.1",
    }
    if length is not None:
        environ["CONTENT_LENGTH"] = str(length)
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        if terminated:  # the server dechunks and ends the stream, as gunicorn does
            environ["wsgi.input_terminated"] = True
    # the real middleware chain; CSRF is not what these tests are about
    return ClientHandler(enforce_csrf_checks=False)(environ)


FORM = f"multipart/form-data; boundary={BOUNDARY}"


# -- chunked bodies ------------------------------------------------------------------------------


def test_a_chunked_check_is_read_to_its_end_and_answered():
    response = wsgi("/api/v1/check", CountingStream(DOCUMENT), chunked=True)
    assert response.status_code == 200, response.content
    assert json.loads(response.content)["total_points"] == 581


def test_a_chunked_check_past_the_limit_is_413_and_not_read_further():
    stream = CountingStream(endless=True)
    response = wsgi("/api/v1/check", stream, chunked=True)
    assert response.status_code == 413
    assert json.loads(response.content)["error"] == f"the document is larger than {LIMIT} bytes"
    assert stream.read_bytes <= LIMIT + 1


def test_a_finite_chunked_check_past_the_limit_is_413_one_byte_past_it():
    # a real stream: read(0) is empty and the body ends, so only the limit can refuse it
    stream = io.BytesIO(b"x" * (LIMIT + 1000))
    response = wsgi("/api/v1/check", stream, chunked=True)
    assert response.status_code == 413
    assert json.loads(response.content)["error"] == f"the document is larger than {LIMIT} bytes"
    assert stream.tell() == LIMIT + 1


def test_a_finite_chunked_body_exactly_at_the_limit_is_read_whole(settings):
    settings.MUSTER_MAX_DOCUMENT_BYTES = len(DOCUMENT)
    stream = io.BytesIO(DOCUMENT)
    response = wsgi("/api/v1/check", stream, chunked=True)
    assert response.status_code == 200, response.content
    assert json.loads(response.content)["total_points"] == 581


def test_a_chunked_body_is_left_alone_where_the_server_does_not_end_the_stream():
    # Django's runserver hands on the raw socket: reading to its end would wait forever
    stream = CountingStream(DOCUMENT)
    response = wsgi("/api/v1/check", stream, chunked=True, terminated=False)
    assert response.status_code == 400
    assert stream.read_bytes == 0


def test_a_chunked_import_is_imported(client):
    response = wsgi("/armies/import/", CountingStream(multipart(DOCUMENT)), chunked=True,
                    content_type=FORM)  # fmt: skip
    assert response.status_code == 302, response.content
    assert Army.objects.get().name == example("into-the-dark-source-examples.json")["name"]


@settings(max_examples=60, deadline=None)
@given(
    body=st.binary(max_size=3000),
    limit=st.integers(min_value=0, max_value=2500),
    piece=st.integers(min_value=1, max_value=700),
)
def test_a_chunked_body_is_read_whole_or_refused_one_byte_past_the_limit(body, limit, piece):
    class Trickle(CountingStream):  # a server handing on the body a few bytes at a time
        def read(self, size=-1):
            return super().read(min(size, piece))

    stream = Trickle(body)
    request = RequestFactory().post("/api/v1/check", b"", content_type="application/json")
    request.META.pop("CONTENT_LENGTH", None)
    request.META.update(
        {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": stream, "wsgi.input_terminated": True}
    )
    if len(body) <= limit:
        assert read_body(request, limit) == body
    else:
        with pytest.raises(BodyTooLarge):
            read_body(request, limit)
        assert stream.read_bytes == limit + 1


# -- sizes known up front, or passed on the way --------------------------------------------------


def test_a_1_gb_import_is_refused_from_its_content_length_without_reading_it():
    stream = CountingStream(endless=True)
    response = wsgi("/armies/import/", stream, length=GIGABYTE, content_type=FORM)
    assert response.status_code == 413
    page = response.content.decode()
    assert "The file is 1048576 KiB; an army document is at most 512 KiB." in page
    assert stream.read_bytes == 0
    assert Army.objects.count() == 0


def test_a_chunked_import_past_the_limit_is_refused_when_it_passes_it():
    stream = CountingStream(endless=True)
    response = wsgi("/armies/import/", stream, chunked=True, content_type=FORM)
    assert response.status_code == 413
    assert "The file is over 512 KiB; an army document is at most 512 KiB." in (
        response.content.decode()
    )
    assert stream.read_bytes <= LIMIT + FORM_ALLOWANCE + 1


def test_an_import_just_under_the_limit_still_gets_the_forms_own_answer(settings):
    settings.MUSTER_MAX_DOCUMENT_BYTES = 100
    body = multipart(b" " * 200 + DOCUMENT)  # over the document limit, within the allowance
    response = wsgi("/armies/import/", CountingStream(body), length=len(body), content_type=FORM)
    assert response.status_code == 400
    assert "an army document is at most 0 KiB" in response.content.decode()


def test_a_large_body_to_any_other_page_is_413_before_it_is_read():
    stream = CountingStream(endless=True)
    response = wsgi("/accounts/login/", stream, length=50 * 1024 * 1024, content_type=FORM)
    assert response.status_code == 413
    assert stream.read_bytes == 0


def test_a_large_api_document_is_413_in_the_api_s_words_without_reading_it():
    stream = CountingStream(endless=True)
    response = wsgi("/api/v1/roster.pdf", stream, length=GIGABYTE)
    assert response.status_code == 413
    assert json.loads(response.content) == {
        "error": f"the document is larger than {LIMIT} bytes",
        "path": "",
    }
    assert stream.read_bytes == 0


# -- ASGI: Django reads the whole body first, so the wrapper stops it ----------------------------


def asgi(path, chunks, headers=(), *, trickle=False):
    """One request through armybuilder.asgi's application; (status, body, messages read).

    ``trickle``: after ``chunks`` the client sends one byte at a time, never ending.
    """
    app = asgi_application
    pending = [
        {"type": "http.request", "body": c, "more_body": trickle or i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]
    taken = []
    sent = []

    async def receive():
        if pending:
            taken.append(pending[0])
            return pending.pop(0)
        if trickle:
            await asyncio.sleep(0.01)
            taken.append(b"x")
            return {"type": "http.request", "body": b"x", "more_body": True}
        await asyncio.sleep(3600)  # the client waits for its answer

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    # a loop of its own in a thread of its own: an earlier test (Playwright's sync API) may
    # have left an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start, body, len(taken)


def test_asgi_refuses_a_declared_1_gb_import_without_receiving_it():
    headers = [(b"content-length", str(GIGABYTE).encode()), (b"content-type", FORM.encode())]
    start, body, taken = asgi("/armies/import/", [b"x" * 4096] * 10, headers)
    assert start["status"] == 413
    assert (b"connection", b"close") in start["headers"]
    assert b"an army document is at most 512 KiB" in body
    assert taken == 0


def test_asgi_stops_receiving_a_stream_past_the_limit():
    chunks = [b"x" * CHUNK] * 40  # 2.5 MiB, no Content-Length
    start, body, taken = asgi("/api/v1/check", chunks, [(b"transfer-encoding", b"chunked")])
    assert start["status"] == 413
    assert json.loads(body)["error"] == f"the document is larger than {LIMIT} bytes"
    assert taken <= LIMIT // CHUNK + 1


def test_asgi_answers_a_chunked_check():
    chunks = [DOCUMENT[i : i + 1000] for i in range(0, len(DOCUMENT), 1000)]
    start, body, _ = asgi("/api/v1/check", chunks, [(b"transfer-encoding", b"chunked")])
    assert start["status"] == 200, body
    assert json.loads(body)["total_points"] == 581


def test_asgi_answers_408_to_a_body_that_trickles_past_the_deadline(settings, monkeypatch, caplog):
    # the application reads its deadline once, when the server imports it
    settings.MUSTER_BODY_READ_SECONDS = 0.5
    monkeypatch.setattr(asgi_application, "seconds", 0.5)
    headers = [(b"content-length", b"100000"), (b"content-type", b"application/json")]
    start, body, _ = asgi("/api/v1/check", [b"{"], headers, trickle=True)
    assert start["status"] == 408
    assert json.loads(body)["error"] == "the request body did not arrive within 0.5 seconds"
    assert (b"connection", b"close") in start["headers"]
    # cut off by the application at that deadline (its log says which it kept to)
    assert "took longer than 0.5 s: 408" in caplog.text


# -- against a real server -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVERS = {
    # the web server as `make run` starts it (granian in front of armybuilder.asgi)
    "granian": ["python", "-m", "armybuilder.ops.serve"],
}


@pytest.fixture(scope="module", params=sorted(SERVERS))
def server(request, tmp_path_factory):
    """A real server on a free loopback port with its own database."""
    command = SERVERS[request.param]
    program = ROOT / ".venv" / "bin" / command[0]
    if not program.exists():
        pytest.skip(f"{command[0]} is not installed in the project's .venv")
    tmp = tmp_path_factory.mktemp(request.param)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings",
        DJANGO_DEBUG="0",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        MUSTER_BIND=f"127.0.0.1:{port}",
        MUSTER_ACCESS_LOG="",
        WEB_CONCURRENCY="1",
        MUSTER_TASK_BACKEND="immediate",
    )
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    arguments = [str(program), *command[1:]]
    log = (tmp / "server.log").open("w")
    process = subprocess.Popen(arguments, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(120):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.25)
        else:
            pytest.fail((tmp / "server.log").read_text()[-2000:])
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def exchange(port, head: str, body: bytes = b"") -> tuple[int, bytes]:
    """Send a request's head and some body bytes, then read the server's answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(head.encode("latin1") + b"\r\n" + body)
        answer = http.client.HTTPResponse(conn)
        answer.begin()
        return answer.status, answer.read()


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def test_a_real_server_answers_a_chunked_check(server):
    body = b"".join(chunk(DOCUMENT[i : i + 4096]) for i in range(0, len(DOCUMENT), 4096))
    head = (
        "POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n"
    )
    status, answer = exchange(server, head, body + b"0\r\n\r\n")
    assert status == 200, answer[:500]
    assert json.loads(answer)["total_points"] == 581


def test_a_real_server_refuses_a_declared_1_gb_upload_from_its_first_few_kilobytes(server):
    head = (
        "POST /armies/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: {FORM}\r\nContent-Length: {GIGABYTE}\r\n"
    )
    # only the part head and 4 KB of the promised gigabyte are ever sent
    status, answer = exchange(server, head, multipart(b"x" * 4096)[:4200])
    assert status == 413, answer[:500]
    assert b"The file is 1048576 KiB; an army document is at most 512 KiB." in answer


def test_a_real_server_refuses_a_chunked_upload_when_it_passes_the_limit(server):
    head = (
        "POST /armies/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: {FORM}\r\nTransfer-Encoding: chunked\r\n"
    )
    # past the limit, and the body never ends: the answer cannot wait for its end
    body = chunk(multipart(b"x" * (LIMIT + FORM_ALLOWANCE))[:-20])
    status, answer = exchange(server, head, body)
    assert status == 413, answer[:500]
    assert b"The file is over 512 KiB; an army document is at most 512 KiB." in answer


def chunked(data: bytes, size: int = 4096) -> bytes:
    """``data`` as a whole chunked body: its chunks, then the last (empty) chunk."""
    return b"".join(chunk(data[i : i + size]) for i in range(0, len(data), size)) + b"0\r\n\r\n"


def test_a_real_server_refuses_a_finite_chunked_check_past_the_limit(server):
    head = (
        "POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n"
    )
    # it ends, one kilobyte past the limit: cut at the limit, it must not be checked
    status, answer = exchange(server, head, chunked(b" " * (LIMIT + 1024 - 2) + b"{}"))
    assert status == 413, answer[:500]
    assert json.loads(answer)["error"] == f"the document is larger than {LIMIT} bytes"


def test_a_real_server_refuses_a_finite_chunked_upload_past_the_limit(server):
    head = (
        "POST /armies/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: {FORM}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
    )
    status, answer = exchange(server, head, chunked(multipart(b" " * (LIMIT + FORM_ALLOWANCE))))
    assert status == 413, answer[:500]
    assert b"The file is over 512 KiB; an army document is at most 512 KiB." in answer
