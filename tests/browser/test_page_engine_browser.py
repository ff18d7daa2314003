"""The rules engine in the page: the same ``rules/`` package, in Pyodide in a Web Worker,
answers a page's calls under the site's content security policy, online and offline."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from rules.page.status import ping
from tests.browser.conftest import OFFLINE_LOAD_FAILURES, engine_ready

pytestmark = [pytest.mark.browser]


def test_a_page_runs_the_servers_rules_in_a_worker_under_the_sites_csp(live_server, page_engine):
    page: Page = page_engine
    page.goto(live_server.url + "/")
    assert page.locator('meta[name="muster-engine"]').count() == 1
    info = engine_ready(page)
    server = ping()
    assert info["rulesets"] == server["rulesets"]
    assert info["python"].startswith("3.")
    answer = page.evaluate("MusterEngine.call('rules.page.status:ping', {})")
    assert answer == info
    refused = page.evaluate(
        "MusterEngine.call('os:system', {command: 'true'}).then(() => 'ran', e => e.message)"
    )
    assert refused.startswith("UnknownTarget: 'os:system' is not a function")
    assert page.evaluate("MusterEngine.readyMs") > 0


def test_pages_carry_no_engine_when_it_is_turned_off(live_server, page):
    page.goto(live_server.url + "/")
    assert page.locator('meta[name="muster-engine"]').count() == 0
    assert page.evaluate("window.MusterEngine === undefined")


@OFFLINE_LOAD_FAILURES
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_the_engine_starts_offline_from_the_copy_kept_on_the_device(live_server, page_engine):
    page: Page = page_engine
    page.goto(live_server.url + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker, which keeps the engine's files it serves
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    engine_ready(page)
    page.context.set_offline(True)
    try:
        page.reload()
        info = engine_ready(page)
        assert "feudal-2017" in info["rulesets"]
        assert page.evaluate("navigator.onLine") is False
    finally:
        page.context.set_offline(False)


KEPT = """async () => {
  const meta = JSON.parse(document.querySelector('meta[name="muster-engine"]').content);
  const urls = [meta.worker, meta.rules, meta.runtime + "pyodide.asm.wasm",
                meta.runtime + "python_stdlib.zip"];
  const found = await Promise.all(urls.map((url) => caches.match(url)));
  return found.every(Boolean);
}"""


@OFFLINE_LOAD_FAILURES
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_an_engine_started_before_the_service_worker_is_kept_for_offline_all_the_same(
    live_server, page_engine
):
    page: Page = page_engine
    page.goto(live_server.url + "/")  # a first visit: no service worker controls the page yet
    engine_ready(page)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_function(KEPT, polling=250, timeout=30_000)
    page.context.set_offline(True)
    try:
        page.reload()
        assert "into-the-dark" in engine_ready(page)["rulesets"]
    finally:
        page.context.set_offline(False)
