"""The one core call every interface shares, and every write of an army list.

The only module of the web layer that calls the rules engine's check (``check_document``,
``check_state``, ``recheck_document`` here): every other module, in every app, checks an
army through these (``tests/test_architecture.py`` holds it).

Every saved change of a list (the admin, ``muster load-lists``, an import, a copy, the
editor) goes through ``save_list``, which writes a new immutable revision when the content
changed. Who may do what with a list is answered here (``can``), so pages, the API and
the admin ask the same question.
"""

import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

import rules
from armybuilder.accounts import support
from armybuilder.catalog import pins
from armybuilder.catalog.models import (
    DELETED,
    LINK,
    PRIVATE,
    PUBLISHED,
    SUBMITTED,
    ArmyList,
    ArmyListRevision,
    new_share_token,
)
from armybuilder.catalog.pins import UpgradeDiff, pins_for
from armybuilder.catalog.selectors import (
    LIST_GRANTS,
    Lookup,
    PinnedArmy,
    document_lookup,
    lookup_for,
    readable_lists,
)
from rules.list_document import ListDocument, list_document, parse_list_document
from rules.list_ids import carried, with_ids
from rules.list_trial import lookup_with_list

__all__ = ["pins_for"]

FIXTURES_DIR = Path(settings.BASE_DIR) / "fixtures"
CONTENT = ("name", "period", "source_note", "data")


def check_document(raw: Any, *, lookup: Lookup | None = None) -> tuple[rules.Army, rules.Report]:
    """Parse and check a raw document against the lists in the database (by default the
    public ones, at the revisions the document's ``list_revisions`` names, else their
    latest; ``selectors.army_lookup`` for a saved army's pins).

    Raises ``rules.MalformedDocument`` (with ``path``) for input that is not well formed.
    """
    return rules.check_document(raw, lookup or document_lookup(raw))


def parse_document(raw: Any, *, lookup: Lookup) -> rules.Army:
    """The engine's strict parse of a raw document against ``lookup``'s lists, unchecked
    (what the builder's presets read). Raises ``rules.MalformedDocument``."""
    return rules.parse_document(raw, lookup)


def check_state(raw: Any, *, lookup: Lookup) -> rules.CheckState:
    """Parse and check a raw document, keeping the state a later re-check of one unit
    starts from (``recheck_document``). Raises ``rules.MalformedDocument``."""
    return rules.check_state(rules.parse_document(raw, lookup))


def recheck_document(
    raw: Any, *, lookup: Lookup, previous_raw: Any, previous: rules.CheckState
) -> rules.CheckState:
    """The check of ``raw`` from the check of ``previous_raw`` it changes: only an edited
    unit is re-checked (``rules.recheck_document``). Raises ``rules.MalformedDocument``."""
    return rules.recheck_document(raw, lookup, previous_raw, previous)


def upgrade_diff(army: PinnedArmy) -> UpgradeDiff | None:
    """What accepting the newer revisions of its lists would change for ``army``
    (``pins.upgrade_diff``, checked here), or None when its pins are the latest."""
    return pins.upgrade_diff(army, check_document)


def check_with_list_document(raw: Any, *, listed: ListDocument) -> tuple[rules.Army, rules.Report]:
    """Check an army document against a list given as a ``muster.list/1`` document: the
    list answers for its slug, the database's public lists for the rest."""

    return rules.check_document(raw, lookup_with_list(document_lookup(raw), listed))


# -- access ---------------------------------------------------------------------------------

ACTIONS = ("view", "edit", "export", "copy", "delete", "publish")


def _is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_staff", False))


def _is_author(user: Any, army_list: ArmyList) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and army_list.author_id is not None
        and army_list.author_id == user.pk
    )


def can(
    user: Any, *, action: str, army_list: ArmyList, token: str = "", record: bool = True
) -> bool:
    """May ``user`` (a visitor: AnonymousUser or None) do ``action`` to ``army_list``?

    ``token`` is a share token the request carries: it lets anyone read a list shared by
    link, while sharing is on. Only the author edits and deletes; copying needs an account
    and the right to read. Staff are not authors: they see (and moderate, and publish)
    public lists and the lists submitted to them, never a private or link-shared one,
    unless they hold the support permission, each use of which is logged
    (``accounts.support``; ``record=False`` only asks, e.g. whether to show a button).
    """
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    if army_list.status == DELETED:
        return False  # its author's say: nobody, support included, reads it any more
    if _allowed(user, action, army_list, token):
        return True
    if action == "copy" and not getattr(user, "is_authenticated", False):
        return False
    if army_list.author_id is None or army_list.is_public or not support.may_support(user):
        return False
    if record:
        support.record(user, f"{action} list", army_list, army_list.author)
    return True


def _allowed(user: Any, action: str, army_list: ArmyList, token: str) -> bool:
    """``can`` without the support permission."""
    author = _is_author(user, army_list)
    # what staff look after: the public catalogue and the lists submitted to it
    moderated = _is_staff(user) and (army_list.is_public or army_list.status == SUBMITTED)
    readable = (
        army_list.is_public
        or author
        or moderated
        or bool(
            token
            and army_list.status == LINK
            and army_list.share_token
            and secrets.compare_digest(token, army_list.share_token)
        )
    )
    if action in ("view", "export"):
        return readable or _granted(user, army_list)
    if action == "copy":
        return readable and bool(getattr(user, "is_authenticated", False))
    if action in ("edit", "delete"):
        return author or moderated
    return moderated  # publish


def _granted(user: Any, army_list: ArmyList) -> bool:
    """Read through an app's grant (``LIST_GRANTS``: an event the user is in pins it). To
    read and build on only: copying it would keep it past the grant."""
    if not LIST_GRANTS or not getattr(user, "is_authenticated", False):
        return False
    found = ArmyList.objects.filter(pk=army_list.pk).exclude(status=DELETED)
    return any(found.filter(grant(user.pk)).exists() for grant in LIST_GRANTS)


class ListRefused(Exception):
    """A change of a list that cannot be made: message for the player."""


# -- saving -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Saved:
    army_list: ArmyList
    revision: ArmyListRevision
    created: bool  # a new revision was written (False: the content was already the latest)


def _content_of(source: Any) -> dict[str, Any]:
    return {name: getattr(source, name) for name in CONTENT}


@transaction.atomic
def save_list(
    army_list: ArmyList,
    *,
    by: Any = None,
    kind: str = "edit",
    restores: int | None = None,
    **content: Any,
) -> Saved:
    """Save ``army_list`` with ``content`` (any of name, period, source_note, data) set,
    validated by its rule set (``ValidationError``: nothing saved), and write revision
    N+1 when the content differs from revision N (an undo, redo or restore, ``kind``, of
    revision ``restores`` is always written: it moves the list's undo history on).
    Revisions already written never change.
    """
    unknown = set(content) - set(CONTENT)
    if unknown:
        raise TypeError(f"not list content: {', '.join(sorted(unknown))}")
    if "data" in content:
        # every item gets its stable id here, on the way in: an import keeps its own, a
        # list loaded again from a file without ids keeps the ids its items had
        content["data"] = with_ids(carried(content["data"], army_list.data))
    for name, value in content.items():
        setattr(army_list, name, value)
    army_list.full_clean()
    if army_list.pk is not None:
        # the row locked: two saves of one list never both write revision N+1
        locked = ArmyList.objects.select_for_update().only("latest_revision").get(pk=army_list.pk)
        army_list.latest_revision = locked.latest_revision
    latest = (
        ArmyListRevision.objects.filter(
            army_list_id=army_list.pk, number=army_list.latest_revision
        ).first()
        if army_list.pk is not None and army_list.latest_revision
        else None
    )
    if kind == "edit" and latest is not None and _content_of(latest) == _content_of(army_list):
        return Saved(army_list, latest, False)  # nothing written: pages keep their ETags
    army_list.latest_revision += 1
    army_list.save()
    revision = ArmyListRevision.objects.create(
        army_list=army_list,
        number=army_list.latest_revision,
        author=by if getattr(by, "is_authenticated", False) else None,
        kind=kind,
        restores=restores,
        **_content_of(army_list),
    )
    return Saved(army_list, revision, True)


def _user_slug(ruleset: str, wish: str) -> str:
    """A player's list slug: their wish plus a random suffix, so it never takes (or guesses)
    a slug of Muster's or of another player, and shipped lists keep their addresses."""
    base = slugify(wish)[:60].strip("-") or "list"
    while True:
        slug = f"{base}-{secrets.token_hex(4)}"
        if not ArmyList.objects.filter(ruleset=ruleset, slug=slug).exists():
            return slug


MY_COPY = " — my copy"


def create_list(user: Any, *, listed: ListDocument, family: str = "") -> Saved:
    """A new private list of ``user`` with the document's content (revision 1).

    ``family``: the slug of the list this one copies (a copy of a copy joins the first
    list's family), so the rules see one list in both; empty for a list of its own. A copy
    is named as the player's own ("Irish — my copy") when its name is one the player
    already sees in the rule set's menus."""
    if not getattr(user, "is_authenticated", False):
        raise ListRefused("sign in to keep army lists of your own")
    army_list = ArmyList(
        ruleset=listed.ruleset,
        slug=_user_slug(listed.ruleset, listed.slug),
        author=user,
        status=PRIVATE,
        family=_family_root(listed.ruleset, family),
    )
    name = listed.name
    if family:
        name = _own_name(user, listed.ruleset, name)
    return save_list(
        army_list,
        by=user,
        name=name,
        period=listed.period,
        source_note=listed.source_note,
        data=listed.data,
    )


def _family_root(ruleset: str, family: str) -> str:
    if not family:
        return ""
    found = ArmyList.objects.filter(ruleset=ruleset, slug=family).values_list("family").first()
    return (found[0] if found else "") or family


def _own_name(user: Any, ruleset: str, name: str) -> str:
    """``name``, or "<name> — my copy" (then " 2", " 3" ...) when a list the player sees
    in the rule set already has that name: they can tell theirs at a glance."""
    visible = readable_lists(user.pk)
    taken = set(ArmyList.objects.filter(visible, ruleset=ruleset).values_list("name", flat=True))
    if name not in taken:
        return name
    base = name.removesuffix(MY_COPY)[: 200 - len(MY_COPY) - 4]
    candidate, n = base + MY_COPY, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}{MY_COPY} {n}"
    return candidate


def import_list(user: Any, *, raw: Any) -> Saved:
    """Import a ``muster.list/1`` document (already read as JSON) as a new list of ``user``:
    a copy of the list the document is (its ``family``, else its ``slug``).

    ``MalformedDocument`` names the path at fault; nothing is saved on any refusal.
    """
    listed = parse_list_document(raw)
    return create_list(user, listed=listed, family=listed.family_slug)


def copy_list(user: Any, *, army_list: ArmyList, token: str = "") -> Saved:
    """A private copy for ``user`` of a list they may read (its latest revision), in the
    list's family."""
    if not can(user, action="copy", army_list=army_list, token=token):
        raise ListRefused("you cannot copy this list")
    listed = parse_list_document(export_document(army_list))
    return create_list(user, listed=listed, family=army_list.family_slug)


def edit_list(
    user: Any,
    *,
    army_list: ArmyList,
    kind: str = "edit",
    restores: int | None = None,
    **content: Any,
) -> Saved:
    if not can(user, action="edit", army_list=army_list):
        raise ListRefused("only the list's author can change it")
    return save_list(army_list, by=user, kind=kind, restores=restores, **content)


def set_status(user: Any, *, army_list: ArmyList, status: str) -> ArmyList:
    """Private, shared by link (a new unguessable token), submitted, or (staff) published."""
    if status == PUBLISHED:
        allowed = can(user, action="publish", army_list=army_list)
    elif status in (PRIVATE, LINK, SUBMITTED):
        allowed = can(user, action="edit", army_list=army_list) and army_list.author_id is not None
    else:
        raise ListRefused(f"{status!r} is not a list status")
    if not allowed:
        raise ListRefused("you cannot change who sees this list")
    army_list.status = status
    if status == LINK:
        army_list.share_token = army_list.share_token or new_share_token()
    else:
        army_list.share_token = None  # a revoked link stays dead, even if shared again
    ArmyList.objects.filter(pk=army_list.pk).update(
        status=army_list.status, share_token=army_list.share_token
    )
    return army_list


def revoke_link(user: Any, *, army_list: ArmyList) -> ArmyList:
    """Sharing by link starts afresh: the old link stops working at once."""
    if not can(user, action="edit", army_list=army_list):
        raise ListRefused("only the list's author can change its link")
    army_list.share_token = new_share_token() if army_list.status == LINK else None
    ArmyList.objects.filter(pk=army_list.pk).update(share_token=army_list.share_token)
    return army_list


def export_document(army_list: ArmyList, *, revision: ArmyListRevision | None = None) -> dict:
    """The ``muster.list/1`` document of a list's revision (default: the latest)."""
    source: Any = revision if revision is not None else army_list
    number = revision.number if revision is not None else army_list.latest_revision
    return list_document(
        ruleset=army_list.ruleset,
        slug=army_list.slug,
        family=army_list.family or None,
        revision=number or None,
        **_content_of(source),
    )


def lookup_of(user: Any) -> Lookup:
    """What a new army of ``user`` may be built on (the web layer's create and import)."""
    return lookup_for(user)


# -- the fixtures loader ----------------------------------------------------------------------


class ListFileError(ValueError):
    pass


def read_list_file(path: Path) -> list[dict[str, Any]]:
    """The army lists of one fixture file (Django fixture format, natural keys)."""
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ListFileError(f"{path.name}: cannot read: {exc}") from exc
    if not isinstance(records, list):
        raise ListFileError(f"{path.name}: must be a JSON list of fixture records")
    lists = []
    for n, record in enumerate(records):
        if not isinstance(record, dict) or record.get("model") != "catalog.armylist":
            raise ListFileError(f"{path.name}[{n}]: not a catalog.armylist record")
        lists.append(record.get("fields", {}))
    return lists


@transaction.atomic
def load_lists(directory: Path = FIXTURES_DIR) -> int:
    """Create or update every army list in ``directory``, each validated by its rule set.

    Idempotent; all or nothing: one invalid list aborts the load with its message. A list
    whose content changed gets a new revision; armies pinned to an older one keep it.
    """
    count = 0
    for path in sorted(directory.glob("*.json")):
        for fields in read_list_file(path):
            key = {"ruleset": fields.get("ruleset"), "slug": fields.get("slug")}
            army_list = ArmyList.objects.filter(**key).first() or ArmyList(**key, status=PUBLISHED)
            if army_list.author_id is not None:
                raise ListFileError(
                    f"{path.name}: {key['ruleset']}/{key['slug']} is a player's list"
                )
            content = {name: fields[name] for name in CONTENT if name in fields}
            try:
                save_list(army_list, **content)
            except ValidationError as exc:
                raise ListFileError(f"{path.name}: {key['ruleset']}/{key['slug']}: {exc}") from exc
            count += 1
    return count
