"""The event's night under `make run`'s own process layout (granian's web processes, the
worker in its own process, SQLite, no Redis), driven over HTTP as players and their
organiser would: each form posted is the one the page rendered, with its CSRF token. A
list shared by link and pinned by the event is built on from the entry page; approving an
army that is not legal warns first; a lowered points limit is re-checked by the worker and
told to the player; returning an on-time army and submitting it again for the player keeps
it on time; and the worker's pack marks which approved armies are not legal.

The tests are one evening in order, on one `make run` (the suite runs a file in one
process): each starts from where the one before it left the event."""

import csv
import io
import json
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from html import unescape
from html.parser import HTMLParser
from http.cookiejar import Cookie, CookieJar

import pytest
from pypdf import PdfReader

from tests.support import ROOT
from tests.web.ops.test_serve import make_run, run_env, wait_for

pytestmark = [
    pytest.mark.skipif(
        not (ROOT / ".venv" / "bin" / "supervisord").exists(),
        reason="make run needs the project's .venv (make install)",
    ),
    pytest.mark.own_databases,
]

# What no page offers: the people and their sessions, an author's list shared by link that
# the organiser opened, and an event whose deadline has passed with bob's and amy's armies
# submitted before it (the clock is frozen for those two submissions only).
SETUP = """
import json
from datetime import timedelta
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time
from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import LINK, SharedList
from armybuilder.events import services
from armybuilder.events.models import Submission
from tests.web.catalog.test_services_access import player_list
from tests.web.events.helpers import make_event, player, saved_army
ann, org, eve, bob, amy = (player(n) for n in ("ann", "org", "eve", "bob", "amy"))
shared = catalog.set_status(ann, army_list=player_list(ann, name="Ann's Wessex"), status=LINK)
SharedList.objects.create(army_list=shared, user=org, token=shared.share_token)
now = timezone.now()
deadline = now - timedelta(hours=1)
event = make_event(
    org, name="Club Night", lists=["viking", shared.slug], restrictions=[], points_limit=1000,
    deadline=deadline, reveal_at=now + timedelta(days=2), date=(now + timedelta(days=3)).date(),
)
entries = {u.username: services.join(event, user=u) for u in (eve, bob, amy)}
with freeze_time(deadline - timedelta(hours=1)):
    big = services.submit(
        entries["bob"], army=saved_army(bob, name="Bob's big host", extra=1), by=bob
    )
    small = services.submit(entries["amy"], army=saved_army(amy, name="Amy's host"), by=amy)
Submission.objects.filter(pk=small.pk).update(state=Submission.APPROVED)
sessions = {}
for user in (org, eve, bob, amy):
    client = Client()
    client.force_login(user)
    sessions[user.username] = client.cookies["sessionid"].value
print(json.dumps({
    "code": event.code, "sessions": sessions, "shared": shared.slug,
    "share_token": shared.share_token, "bob_total": str(big.total_points),
    "amy_total": str(small.total_points),
    "entrants": {name: e.pk for name, e in entries.items()},
}))
"""


class Forms(HTMLParser):
    """Every form of a page with the values a browser would post: hidden and text inputs,
    checked boxes and radios, the selected (or first) option, textareas."""

    def __init__(self, page):
        super().__init__(convert_charrefs=True)
        self.forms, self._select, self._textarea = [], None, None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action") or "", "fields": [], "text": ""})
            self.forms[-1]["class"] = a.get("class") or ""
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                fields.append((a["name"], a.get("value", "on"), kind, "checked" in a))
            elif kind not in ("submit", "button", "file"):
                fields.append((a["name"], a.get("value") or "", kind, True))
        elif tag == "select" and a.get("name"):
            self._select = [a["name"], None, None]  # name, first option, selected option
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            self._select[1] = value if self._select[1] is None else self._select[1]
            if "selected" in a:
                self._select[2] = value
        elif tag == "textarea" and a.get("name"):
            self._textarea = [a["name"], ""]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data
        if self.forms:
            self.forms[-1]["text"] += data

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            name, first, chosen = self._select
            value = chosen if chosen is not None else first
            self.forms[-1]["fields"].append((name, value or "", "select", True))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.forms[-1]["fields"].append((*self._textarea, "textarea", True))
            self._textarea = None


def form_on(page, action=None, text=None):
    """The one form of ``page`` posting to ``action`` (a path's ending) and saying ``text``."""
    found = [
        f
        for f in Forms(page).forms
        if (action is None or urllib.parse.urlparse(f["action"]).path.endswith(action))
        and (text is None or text in f["text"])
    ]
    assert len(found) == 1, (action, text, [(f["action"], f["text"][:80]) for f in found])
    return found[0]


def values(form, **changes):
    """What posting ``form`` sends: its current values, with ``changes`` put in."""
    data = [(n, v) for n, v, _, on in form["fields"] if on and n not in changes]
    for name, value in changes.items():
        data.extend((name, v) for v in (value if isinstance(value, list) else [value]))
    return data


class Player:
    """A browser without JavaScript: its own cookies, following redirects as browsers do."""

    def __init__(self, base, session):
        self.base, self.jar = base, CookieJar()
        self._cookie("sessionid", session)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def _cookie(self, name, value):
        host = urllib.parse.urlparse(self.base).hostname
        self.jar.set_cookie(
            Cookie(
                0,
                name,
                value,
                None,
                False,
                host,
                False,
                False,
                "/",
                True,
                False,
                None,
                False,
                None,
                None,
                {},
            )  # fmt: skip
        )

    def open(self, path, data=None):
        url = path if path.startswith("http") else self.base + path
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(url, body, timeout=30) as response:
                return response.status, response.geturl(), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, url, exc.read()

    def get(self, path):
        status, url, body = self.open(path)
        assert status == 200, (path, status, body[:300])
        return url, body.decode()

    def post(self, form, **changes):
        """Post ``form`` as rendered (its CSRF token too), with ``changes``; the page
        the redirect leads to."""
        status, url, body = self.open(form["action"], values(form, **changes))
        assert status == 200, (form["action"], status, body[:500])
        return url, body.decode()


def setup_night(tmp_path, base):
    port = base.rsplit(":", 1)[1]
    env = run_env(tmp_path, port, DJANGO_SETTINGS_MODULE="armybuilder.settings_production")
    env["DJANGO_HTTPS"] = "0"
    out = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "shell", "-c", SETUP],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def text_of(page):
    """A page's words, as read: tags out, spaces folded."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("night")
    with make_run(tmp_path, REDIS_URL="") as base:
        made = setup_night(tmp_path, base)
        people = {name: Player(base, s) for name, s in made["sessions"].items()}
        yield {"base": base, "tmp": tmp_path, **made, **people}


def desk_row(night, name):
    """The organiser's desk, and the row of the entrant called ``name``."""
    _, desk = night["org"].get(f"/events/{night['code']}/desk/")
    rows = re.findall(r"<tr\b.*?</tr>", desk, re.S)
    mine = [r for r in rows if re.search(rf">\s*{name}\s*<", r)]
    assert len(mine) == 1, name
    return desk, mine[0]


def test_an_entrant_builds_on_a_link_shared_list_from_the_entry_page(night):
    eve, code = night["eve"], night["code"]
    _, entry = eve.get(f"/events/{code}/entry/")
    start = re.search(r'No army yet\? <a href="([^"]+)">Start one</a>', entry)
    assert start, "the entry page offers to start an army on the event's lists"
    _, page = eve.get(unescape(start.group(1)))
    assert "Lists of my events" in page and night["share_token"] not in page
    form = form_on(page, "/armies/new/")
    offered = [v for n, v, kind, _ in form["fields"] if n == "army_list"]
    assert night["shared"] in offered
    builder, page = eve.post(form, army_list=night["shared"], name="Eve's fyrd")
    for _ in range(10):  # the list's required units, one press each, as its picker offers them
        required = re.search(r'name="preset" value="([^"]+)"[^>]*class="entry required"', page)
        if required is None:
            break
        picker = [f for f in Forms(page).forms if f["class"] == "entries"]
        _, page = eve.post(picker[0], preset=unescape(required.group(1)))
    assert required is None, "the builder offered the shared list's entries until none is due"

    _, entry = eve.get(f"/events/{code}/entry/")
    choose = form_on(entry, f"/events/{code}/entry/", "Check it for this event")
    armies = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', entry)
    assert [unescape(name) for _, name in armies] == ["Eve's fyrd"]
    _, entry = eve.get(f"/events/{code}/entry/?" + urllib.parse.urlencode(values(choose)))
    words = text_of(entry)
    assert "Legal for this event" in words, words[words.find("Submit an army") :][:1500]
    submit = form_on(entry, f"/events/{code}/entry/submit/")
    assert "Submit Eve's fyrd" in text_of(submit["text"])
    _, after = eve.post(submit)
    words = text_of(after)
    assert "Submission 1" in words and "Eve's fyrd" in words, words[-1500:]


def test_a_lowered_points_limit_is_rechecked_by_the_worker_and_told_to_the_player(night):
    org, bob, code = night["org"], night["bob"], night["code"]
    _, entry = bob.get(f"/events/{code}/entry/")
    assert "is now not legal" not in entry
    _, edit = org.get(f"/events/{code}/edit/")
    form = form_on(edit, None, "Points limit")
    form["action"] = form["action"] or f"/events/{code}/edit/"  # no action: its own page
    limit = int(night["bob_total"].split("/")[0]) - 1  # a total is a whole number of points
    assert int(night["amy_total"]) <= limit, "amy's army stays legal"
    org.post(form, points_limit=str(limit))

    def rechecked():
        desk = org.get(f"/events/{code}/desk/")[1]
        return "re-checking" not in desk and "Event points limit" in desk and desk

    desk = wait_for(rechecked, 90)
    assert desk, "the worker re-checked the submissions and the desk shows the new verdicts"
    _, told = bob.get(f"/events/{code}/entry/")
    words = text_of(told)
    assert f"points limit now {limit}" in words, words[words.find("Your entry") :][:2500]
    assert "Submission 1 is now not legal" in words, words[words.find("Messages") :][:2500]
    assert "Event points limit" in words
    for name in ("amy", "eve"):  # eve's army on the shared list, re-checked by the worker too
        _, entry = night[name].get(f"/events/{code}/entry/")
        assert "points limit now" not in text_of(entry), f"{name}'s verdict did not change"
    _, row = desk_row(night, "eve")
    assert "Event points limit" not in row and "Choosing Your Army" not in row


def test_approving_an_army_that_is_not_legal_warns_and_needs_a_second_step(night):
    org, code = night["org"], night["code"]
    _, row = desk_row(night, "bob")  # made not legal by the lower points limit
    link = re.search(rf'href="(/events/{code}/armies/\d+/)"', row)
    assert link, row
    _, page = org.get(link.group(1))
    assert "Event points limit" in text_of(page)
    decide = form_on(page, "/note/", "Set submission")
    warned_url, warned = org.post(decide, state="approved", text="Bring it as it is")
    assert "?confirm=approve" in warned_url, warned_url
    words = text_of(warned)
    assert "Submission 1 is not legal" in words and "Nothing was changed" in words
    _, desk = org.get(f"/events/{code}/desk/")
    assert "approved, not legal" not in desk, "the first step approved nothing"
    confirm = form_on(warned, "/note/", "although it is not legal")
    assert "Bring it as it is" in dict(values(confirm))["text"]
    org.post(confirm)
    _, row = desk_row(night, "bob")
    assert "approved, not legal" in row


def test_the_pack_made_by_the_worker_marks_the_armies_that_are_not_legal(night):
    org, code = night["org"], night["code"]
    _, page = org.get(f"/events/{code}/pack/")
    org.post(form_on(page, f"/events/{code}/pack/"))

    def ready():
        page = org.get(f"/events/{code}/pack/")[1]
        return re.search(rf'href="(/events/{code}/pack/\d+\.pdf)"', page)

    link = wait_for(ready, 180)
    assert link, "the worker's pack reached the web processes"
    status, _, pdf = org.open(link.group(1))
    assert status == 200 and pdf.startswith(b"%PDF")
    cover = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "2 approved armies" in cover and "1 of them is not legal" in cover
    bob_row = cover[cover.index("Bob's big host") : cover.index("Amy's host")]  # entrant order
    amy_row = cover[cover.index("Amy's host") :]
    assert "NOT LEGAL" in bob_row and "NOT LEGAL" not in amy_row and "legal" in amy_row
    assert "Eve's fyrd" not in cover, "only approved armies are in the pack"


def test_returning_an_on_time_army_and_resubmitting_it_for_the_player_keeps_it_on_time(night):
    org, code = night["org"], night["code"]
    desk, row = desk_row(night, "bob")
    assert "late" not in text_of(row), "bob submitted before the deadline"
    assert "Unlock" in text_of(row), "the deadline has passed"
    entrant = night["entrants"]["bob"]
    org.post(form_on(desk, f"/entrants/{entrant}/return/"))
    desk, row = desk_row(night, "bob")
    behalf = form_on(desk, f"/entrants/{entrant}/submit/")
    assert "Bob's big host" in behalf["text"]
    org.post(behalf)
    status, _, body = org.open(f"/events/{code}/desk.csv")
    assert status == 200
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(body.decode()))}
    assert rows["bob"]["late"] == "no" and rows["bob"]["submitted by"] == "org"
    assert rows["eve"]["late"] == "yes", "eve submitted past the deadline herself"
    _, entry = night["bob"].get(f"/events/{code}/entry/")
    assert "Submission 2" in text_of(entry)
