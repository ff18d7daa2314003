"""The list editor: one generic page for every rule set that describes its list shape
(``RuleSet.list_shape``), its controls generated from that description.

Each control posts one change (``static/js/list-editor.js`` queues them field by field as
the player leaves each one; a Save button without JavaScript); each change is a new
revision (``services.edit_list``) after the rule set's list validator accepts it. A
refusal saves nothing and is shown at the field it concerns, with what the player typed,
the values allowed there and the nearest one (``list_refusals``). Undo and redo save an
earlier revision's content again, as a new revision (``list_history``).
"""

from __future__ import annotations

import copy

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods

import rules
from armybuilder.catalog import list_history, services
from armybuilder.catalog.list_changes import META, Place, Refusal, apply, meta_change
from armybuilder.catalog.list_page_controls import editor_context
from armybuilder.catalog.list_refusals import explain, rebalanced
from armybuilder.catalog.list_views import authored_list_or_404, editor_url
from armybuilder.catalog.models import ArmyList
from rules.list_document import ListDocument
from rules.list_shape import ListShape

TEMPLATE = "catalog/list_editor.html"
RESENT = ("csrfmiddlewaretoken", "then", "then_text")


def shape_or_404(slug: str) -> tuple[rules.RuleSet, ListShape]:
    try:
        ruleset = rules.get_ruleset(slug)
    except KeyError:
        raise Http404("no such rule set") from None
    shape = ruleset.list_shape()
    if shape is None:
        raise Http404("this rule set has no list editor yet")
    return ruleset, shape


@login_required
@require_http_methods(["GET", "POST"])
def new_list(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset, shape = shape_or_404(slug)
    error = ""
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        listed = ListDocument(
            ruleset=slug,
            slug=slugify(name)[:60] or "list",
            name=name,
            period=request.POST.get("period", "").strip(),
            source_note=request.POST.get("source_note", "").strip(),
            data=copy.deepcopy(shape.empty),
        )
        try:
            saved = services.create_list(request.user, listed)
        except ValidationError as exc:
            error = _said(exc)
        else:
            return redirect(editor_url(saved.army_list))
    return render(
        request,
        "catalog/list_new.html",
        {"ruleset": ruleset, "error": error},
        status=400 if error else 200,
    )


def _said(exc: ValidationError) -> str:
    if hasattr(exc, "message_dict"):
        return " ".join(
            f"{META.get(k, k)}: {m}" if k != "__all__" else m
            for k, ms in exc.message_dict.items()
            for m in ms
        )
    return " ".join(exc.messages)


@require_http_methods(["GET", "POST"])
def edit_list(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    ruleset, shape = shape_or_404(slug)
    refusal, status, done = None, 200, ""
    if request.method == "POST":
        try:
            done = _save(request, army_list, ruleset, shape)
        except Refusal as exc:
            refusal, status = exc, 400
        army_list.refresh_from_db()
        partial = request.htmx or request.headers.get("X-List-Editor")
        if status == 200 and not partial:
            return redirect(editor_url(army_list))
    context = editor_context(ruleset, shape, army_list, refusal, done)
    if refusal is not None:
        context["resend"] = [
            (k, v) for k in request.POST for v in request.POST.getlist(k) if k not in RESENT
        ]
    if request.headers.get("X-List-Editor"):
        # the editor's own script: a refusal is drawn like any answer (a 400 would be a
        # console error on every refusal), and said in a header
        response = render(request, f"{TEMPLATE}#editor", context)
        if refusal is not None:
            response["X-List-Refused"] = "true"
        return response
    if request.htmx:
        return render(request, f"{TEMPLATE}#editor", context, status=status)
    return render(request, TEMPLATE, context, status=status)


def _save(
    request: HttpRequest, army_list: ArmyList, ruleset: rules.RuleSet, shape: ListShape
) -> str:
    """Make the posted change as one revision (under the list's lock, so changes posted
    at once each land on the one before), or raise ``Refusal``; what was done, in words."""
    post = request.POST
    op = post.get("op", "")
    with transaction.atomic():
        locked = ArmyList.objects.select_for_update().get(pk=army_list.pk)
        kind, restores, done = "edit", None, "Saved."
        if op in ("undo", "redo"):
            steps = list_history.steps_of(locked)
            target = steps.undo if op == "undo" else steps.redo
            if target is None:
                why = "this is the list as first written" if op == "undo" else "nothing was undone"
                raise Refusal(f"Nothing to {op}: {why}.", Place(op))
            found = locked.revisions.get(number=target)
            content, kind, restores = list_history.content_of(found), op, target
            done = f"{op.capitalize()}: the list is as in revision {target} again."
        elif op == "meta":
            content, place = meta_change(post)
        else:
            data = locked.data if isinstance(locked.data, dict) else {}
            changed, place = apply(data, shape, post, lambda d: not ruleset.validate_army_list(d))
            if post.get("then"):
                chosen = rebalanced(shape, changed, place, post["then"], post.get("then_text", ""))
                if chosen is None:
                    raise Refusal("The list changed meanwhile: choose again.", place)
                changed, done = chosen, f"Saved, and {post.get('then_text', '')[5:]}"
            problems = ruleset.validate_army_list(changed)
            if problems:
                raise explain(ruleset, shape, data, changed, place, post, problems)
            content = {"data": changed}
        try:
            services.edit_list(request.user, locked, kind=kind, restores=restores, **content)
        except ValidationError as exc:
            raise Refusal(_said(exc), place if op == "meta" else Place(op)) from None
        except services.ListRefused as exc:
            raise Refusal(str(exc), Place(op)) from None
    return done
