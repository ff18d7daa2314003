"""The builder under the strict Content-Security-Policy, in Chromium: htmx needs no eval or
inline styles, nothing is blocked, and printing from the builder's panel shows progress
and downloads a PDF named for army, sheet and paper."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from armybuilder.armies.models import Army
from tests.browser.conftest import ARTIFACTS
from tests.support import example

pytestmark = pytest.mark.browser

TIMEOUT = 20_000


def watch_csp(page: Page) -> list[str]:
    """Every CSP violation the page reports (console errors and the DOM event)."""
    seen: list[str] = []
    page.on(
        "console",
        lambda msg: seen.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e =>"
        " (window.__csp = (window.__csp || []).concat([e.violatedDirective + ' ' + e.blockedURI])));"
    )
    return seen


def test_builder_prints_under_the_csp_with_progress_and_a_download(live_server, page: Page, client):
    page.set_default_timeout(TIMEOUT)
    user = User.objects.create_user("csp", password="a-long-Pass-123")
    document = example("dewitt-medieval-lance-and-bow.json")
    document["name"] = "Swiss Pike Block"
    army = Army.objects.create(owner=user, document=document)
    client.force_login(user)
    session = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    violations = watch_csp(page)

    response = page.goto(f"{live_server.url}/armies/{army.pk}/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    assert page.evaluate("htmx.config.allowEval") is False
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False

    panel = page.locator("form.print-panel")
    panel.get_by_label("US Letter").check()
    with page.expect_download(timeout=TIMEOUT) as download_info:
        panel.get_by_role("button", name="Print").click()
        expect(page.locator("#print-progress")).to_contain_text("Ready after")
    download = download_info.value
    assert download.suggested_filename == "swiss-pike-block-roster-letter.pdf"
    expect(page.locator("#print-progress .print-steps")).to_contain_text("Queued")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#files").screenshot(path=str(ARTIFACTS / "builder-print-panel.png"))

    assert violations == []
    assert page.evaluate("window.__csp || []") == []
