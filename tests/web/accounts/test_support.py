"""Staff are not owners: a player's private (or link-shared) list is 404 to a staff account
by every route that names a list, pages and API alike, and absent from the admin; only the
support permission opens it, and every use of that permission is logged. An army is 404 to
staff on every page; only the admin shows it, and only with the permission."""

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from armybuilder.accounts.models import SupportAccess
from armybuilder.armies.models import Army
from armybuilder.catalog import services
from armybuilder.catalog.models import LINK, PRIVATE, ArmyList
from tests.support import army
from tests.web.routes import (
    OWNER,
    UNDELETE,
    all_routes,
    make_samples,
    routes_of,
    sample_kwargs,
    signed_in,
    url_for,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
# what a staff member might post to each route: a new status, a name, a field's value
FORM = {"status": "published", "name": "Taken over", "field": "name", "value": "Taken over"}
NAME = "Aelfric secret muster"


def support_permission() -> Permission:
    return Permission.objects.get(codename="support_private", content_type__app_label="accounts")


def staff_client(username: str, *, support: bool) -> Client:
    """A staff account holding every permission there is, but the support one unless asked."""
    person = User.objects.create_user(username, is_staff=True)
    person.user_permissions.set(Permission.objects.exclude(pk=support_permission().pk))
    if support:
        person.user_permissions.add(support_permission())
    client = Client()
    client.force_login(person)
    return client


@pytest.fixture(params=[PRIVATE, LINK])
def private_list(request) -> ArmyList:
    author = User.objects.create_user("aelfric")
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    own = services.copy_list(author, army_list=shipped).army_list
    services.edit_list(author, army_list=own, name=NAME)
    return services.set_status(author, army_list=own, status=request.param)


def list_routes() -> list:
    """Every route that names one army list by its rule set and slug."""
    return [r for r in all_routes() if "list_slug" in r.params or "ruleset" in r.params]


def url_of(route, army_list: ArmyList) -> str:
    if "ruleset" in route.params:  # the API: /api/v1/lists/<ruleset>/<slug>
        return url_for(route, {"ruleset": army_list.ruleset, "slug": army_list.slug})
    values = {"slug": army_list.ruleset, "list_slug": army_list.slug}
    if "number" in route.params:  # a revision of the list: its first
        values["number"] = 1
    return url_for(route, values)


def stored(army_list: ArmyList) -> tuple:
    row = ArmyList.objects.values().get(pk=army_list.pk)
    return row, ArmyList.objects.count(), army_list.revisions.count()


def test_the_routes_that_name_a_list_are_all_tried():
    names = {r.key for r in list_routes()}
    assert names >= {
        "catalog:army_list",
        "catalog:list_copy",
        "catalog:list_edit",
        "catalog:list_status",
        "catalog:list_revoke",
        "catalog:list_delete",
        "api:list",
        "api:list_copy",
    }


def test_a_staff_account_without_the_support_permission_gets_404_by_every_route(private_list):
    staff = staff_client("moderator", support=False)
    before = stored(private_list)
    for route in list_routes():
        url = url_of(route, private_list)
        answers = {
            staff.get(url).status_code,
            staff.get(url, **HX).status_code,
            staff.post(url, FORM).status_code,
            staff.post(url, FORM, **HX).status_code,
            staff.post(url, "{}", content_type="application/json").status_code,
        }
        assert answers <= {404, 405}, (route.key, answers)
        assert 404 in answers, route.key
    assert stored(private_list) == before, "a staff account changed or copied the list"
    assert NAME not in staff.get(f"/rulesets/{private_list.ruleset}/").content.decode()
    assert not SupportAccess.objects.exists()


def test_the_admin_leaves_private_lists_and_armies_out_without_the_permission(private_list):
    Army.objects.create(
        owner=private_list.author, document=army("into-the-dark", [], name="Hidden host")
    )
    staff = staff_client("moderator", support=False)
    listed = staff.get("/admin/catalog/armylist/?q=secret")
    assert listed.status_code == 200
    assert NAME not in listed.content.decode()
    change = staff.get(f"/admin/catalog/armylist/{private_list.pk}/change/", follow=True)
    assert NAME not in change.content.decode()
    assert "doesn’t exist" in change.content.decode()
    revisions = staff.get("/admin/catalog/armylistrevision/?q=secret")
    assert NAME not in revisions.content.decode()
    armies = staff.get("/admin/armies/army/")
    assert armies.status_code == 200 and "Hidden host" not in armies.content.decode()
    assert not SupportAccess.objects.exists()


def test_the_support_permission_opens_a_private_list_and_every_use_is_logged(private_list):
    support = staff_client("helpdesk", support=True)
    page = support.get(f"/rulesets/{private_list.ruleset}/lists/{private_list.slug}/")
    assert page.status_code == 200 and NAME in page.content.decode()
    api = support.get(f"/api/v1/lists/{private_list.ruleset}/{private_list.slug}")
    assert api.status_code == 200
    admin = support.get(f"/admin/catalog/armylist/{private_list.pk}/change/")
    assert admin.status_code == 200 and NAME in admin.content.decode()
    used = SupportAccess.objects.filter(user__username="helpdesk")
    # what was done, and only that: reading shows the author's buttons without using them
    assert set(used.values_list("action", flat=True)) == {"view list", "admin view"}
    assert set(used.values_list("owner", flat=True)) == {"aelfric"}
    assert used.filter(what__contains=NAME).exists()


def test_the_support_permission_opens_an_army_in_the_admin_and_is_logged(user):
    hidden = Army.objects.create(owner=user, document=army("into-the-dark", [], name="Hidden"))
    support = staff_client("helpdesk", support=True)
    page = support.get(f"/admin/armies/army/{hidden.pk}/change/")
    assert page.status_code == 200 and "Hidden" in page.content.decode()
    logged = SupportAccess.objects.get(action="admin view")
    assert logged.owner == user.username and "Hidden" in logged.what


def test_an_army_is_404_to_a_staff_account_on_every_owner_route():
    owner = signed_in("owner")
    samples = make_samples(owner)
    staff = staff_client("moderator", support=True)  # even the support permission: pages
    before = Army.objects.values().get(pk=samples.army_pk)
    for route in routes_of(OWNER):
        if route.route == UNDELETE:
            continue  # its army would have to be deleted first; the same view as the others
        url = url_for(route, sample_kwargs(route, samples))
        answers = {staff.get(url).status_code, staff.post(url, FORM).status_code}
        assert answers <= {404, 405}, (route.key, answers)
        assert 404 in answers, route.key
    assert Army.objects.values().get(pk=samples.army_pk) == before
