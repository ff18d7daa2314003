"""Real-browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Never ``playwright install``: the Makefile installs the ``chromium`` Debian package when it
is missing and it runs as root; without /usr/bin/chromium these tests skip. A failing test
leaves a screenshot of every open page in ``test-artifacts/``.
"""

import os
import re
from contextlib import suppress
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Browser tests run last. Once Playwright has started, its event loop stays current in
    this thread until the session ends, so Django's ORM needs DJANGO_ALLOW_ASYNC_UNSAFE from
    then on; running them last keeps that variable out of the subprocesses (``manage.py
    check --deploy`` and the like) that earlier tests start. Under pytest-xdist a process
    may run other files after these, so those subprocesses leave the variable out too."""
    browser = [item for item in items if HERE in Path(item.path).resolve().parents]
    if browser:
        chosen = set(map(id, browser))
        items[:] = [item for item in items if id(item) not in chosen] + browser


@pytest.fixture(scope="session", autouse=True)
def _allow_the_orm_beside_playwrights_event_loop():
    # Playwright's sync API keeps an event loop current in this thread; the ORM calls of
    # the test bodies and fixtures are still synchronous and safe. Left set on purpose:
    # the loop stays current until the session ends (see pytest_collection_modifyitems).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """No service worker unless a test asks for one (the offline journeys do, with the
    ``browser_context_args(service_workers="allow")`` marker): a worker caches the app
    shell in the background when a page first opens, and a journey that is not about
    working offline has no reason to start one in each of its contexts. Contexts come from
    the ``context`` and ``new_context`` fixtures, which take these arguments, never from
    ``browser`` directly."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(autouse=True)
def _require_chromium():
    if not CHROMIUM.exists():
        pytest.skip(
            "Chromium is not installed at /usr/bin/chromium (make test installs it as root)"
        )


# Offline on purpose: loads fail (the browser's own message, or the worker's 503 "offline"
# answer), and htmx logs each request it could not send. Script and CSP errors still fail.
OFFLINE_LOAD_FAILURES = pytest.mark.expected_console_errors(
    r"^Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)$",
    r"^Failed to load resource: the server responded with a status of 503 \(\)$",
    r"^htmx:(sendError|afterRequest), \[object HTML\w*Element\]$",
)

# A card's editor asked for just as its unit went (a delete sent from this page landing
# between the builder drawn with the card and the editor fetched again, a roll, another
# device): the server answers 404 and the page leaves the card to the next drawing.
EDITOR_OF_A_UNIT_GONE = pytest.mark.expected_console_errors(
    r"^Failed to load resource: the server responded with a status of 404 \(Not Found\)$",
    r"^Response Status Error Code 404 from /armies/\d+/unit/[a-z0-9]+/editor/, ",
)

BROWSER_FIXTURES = {"browser", "new_context", "context", "page"}


@pytest.fixture(autouse=True)
def _fail_on_browser_console_errors(request, _require_chromium):
    """Fails the test, at teardown, on any console error (a script error, a CSP violation,
    a failed load) or uncaught page error in any page of any context the test opened,
    whether from the ``context``/``new_context`` fixtures or ``browser.new_context()``.

    A test that makes loads fail on purpose (taking the browser offline) names the messages
    it expects with ``@pytest.mark.expected_console_errors(r"regex", ...)``; only console
    messages matching one of them are let through, never uncaught page errors."""
    if not BROWSER_FIXTURES & set(request.fixturenames):
        yield
        return
    expected = [
        re.compile(pattern)
        for marker in request.node.iter_markers("expected_console_errors")
        for pattern in marker.args
    ]
    browser = request.getfixturevalue("browser")
    seen: list[str] = []

    def watch(context):
        def on_console(message):
            if message.type != "error" or any(p.search(message.text) for p in expected):
                return
            where = message.page.url if message.page else message.location.get("url", "?")
            source = message.location or {}
            at = (
                f" (at {source.get('url')}:{source.get('lineNumber')})" if source.get("url") else ""
            )
            seen.append(f"console error on {where}{at}: {message.text}")

        def on_page_error(error):
            where = error.page.url if error.page else "?"
            seen.append(f"uncaught error on {where}: {error.error.message}")

        context.on("console", on_console)
        context.on("weberror", on_page_error)
        return context

    new_context = browser.new_context
    browser.new_context = lambda *args, **kwargs: watch(new_context(*args, **kwargs))
    try:
        yield
    finally:
        browser.new_context = new_context
    if seen:
        pytest.fail("the browser logged errors:\n" + "\n".join(seen), pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        _screenshots(item)


def _screenshots(item: pytest.Item) -> None:
    """Every page of every open context, while the fixtures are still alive."""
    browser = getattr(item, "funcargs", {}).get("browser")
    if browser is None:
        return
    stem = re.sub(r"[^\w.-]+", "_", item.nodeid)
    for c, context in enumerate(browser.contexts):
        # a page the test never opened (the fixture's own, when it drives other contexts)
        shoot([p for p in context.pages if p.url != "about:blank"], f"{stem}-{c}")


def shoot(pages, stem: str) -> None:
    """A full-page screenshot of each page in ``test-artifacts/`` (``stem-N.png``); a test
    that closes its own contexts on failure calls it first."""
    ARTIFACTS.mkdir(exist_ok=True)
    for p, page in enumerate(pages):
        try:
            page.screenshot(path=str(ARTIFACTS / f"{stem}-{p}.png"), full_page=True)
        except Exception as exc:  # a closed page must not hide the real failure
            print(f"no screenshot of {stem} page {p}: {exc}")


@pytest.fixture
def worker_settled(page):
    """For journeys with a service worker: the context closes once the page's worker is
    ready (at most 5 s), not in the middle of its install (the app shell's requests are
    done, not cut off)."""
    yield
    from playwright.sync_api import Error

    with suppress(Error):
        page.evaluate(
            "Promise.race([navigator.serviceWorker.ready,"
            " new Promise(done => setTimeout(done, 5000))]).then(() => true)"
        )


@pytest.fixture
def page_engine(settings, page):
    """A ``page`` whose pages carry the rules engine (static/js/engine/): the live server
    names the vendored runtime and the rules archive in each page. Fails, never skips,
    when the runtime is missing: ``make test`` vendors it (``make vendor``)."""
    from armybuilder.pageengine import runtime_available

    if not runtime_available():
        pytest.fail("the page engine's runtime is not vendored: run `make vendor`")
    settings.MUSTER_PAGE_ENGINE = True
    return page


def engine_ready(page, timeout_ms: int = 60000) -> dict:
    """Starts the page's engine if it has not started and waits until it is ready; its
    ``ping`` (Python version and rule sets)."""
    page.wait_for_function(
        "() => window.MusterEngine && (MusterEngine.start(), MusterEngine.status === 'ready'"
        " || MusterEngine.status === 'failed')",
        timeout=timeout_ms,
    )
    status = page.evaluate("MusterEngine.status")
    assert status == "ready", f"the page engine is {status}"
    return page.evaluate("MusterEngine.info")
