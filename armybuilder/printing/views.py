"""Printable sheets over HTTP: thin shells over ``printing.services``.

Saved armies (owner or the visitor's own draft; everyone else 404), shared armies (anyone
with the link), the rule-set QRS, and the JSON API (a posted document, validated exactly as
``/api/v1/check``). Every failure is a 4xx with a message a player understands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from armybuilder.armies.making.files import exported
from armybuilder.armies.models import Army
from armybuilder.armies.selectors import owned_army_or_404, shared_army_or_404
from armybuilder.catalog.views import ruleset_or_404
from armybuilder.jsonbody import BadBody, read_json_body
from armybuilder.nostore import no_store
from armybuilder.printing import access, jobs, services
from armybuilder.printing.progress_views import (
    api_response,
    army_share_url,
    browser_response,
    guarded,
    pdf_charge,
    saved_army_render,
)
from rules.qrs import qrs_sheet

OTHER_SHEET = {"roster": ("qrs", "Quick-reference sheet"), "qrs": ("roster", "Order of battle")}


def _html_response(html: str) -> HttpResponse:
    response = HttpResponse(html)
    return no_store(response)


def _extras(request: HttpRequest) -> list[str]:
    return request.GET.getlist("include")


def _query(request: HttpRequest, **changes: str | None) -> str:
    """This request's query string with some parameters replaced (None: removed)."""
    params = [(k, v) for k, values in request.GET.lists() if k not in changes for v in values]
    params += [(k, v) for k, v in changes.items() if v is not None]
    return "?" + urlencode(params) if params else ""


def _links(
    request: HttpRequest, pdf_url: str, back: str, back_label: str, **more: Any
) -> dict[str, Any]:
    """A preview's links: its PDF on either paper (keeping this query), the way back, more."""
    return {
        "pdf_a4": pdf_url + _query(request, paper="a4"),
        "pdf_letter": pdf_url + _query(request, paper="letter"),
        "back": back,
        "back_label": back_label,
        **more,
    }


def _extra_links(request: HttpRequest, slug: str, sheet: str) -> list[dict[str, str]]:
    """Links that add or remove each optional QRS section (e.g. Dewitt's sieges)."""
    if sheet != "qrs":
        return []
    wanted = _extras(request)
    base = [(k, v) for k, values in request.GET.lists() if k != "include" for v in values]
    links = []
    for key, label in qrs_sheet(slug, None).optional_extras:
        include = [e for e in wanted if e != key] if key in wanted else [*wanted, key]
        links.append(
            {
                "url": "?" + urlencode(base + [("include", e) for e in include]),
                "label": f"{'Without' if key in wanted else 'Add'} {label.split(' (')[0].lower()}",
            }
        )
    return links


# -- saved armies (owner or own draft) and shared armies (anyone with the link) -------------


@dataclass(frozen=True)
class _Where:
    """How a view finds its army from the URL's key, and the URLs around it."""

    find: Callable[[HttpRequest, Any], Army]
    # who may fetch the render again by its id (printing.access): the owner, or the link
    grant: Callable[[Any, Army, Any], Any]
    url_name: str  # printing:<url_name>_<sheet> and printing:<url_name>_<sheet>_pdf
    back: str  # the army's page: a URL name taking the key
    back_label: str


_OWNED = _Where(
    owned_army_or_404,
    lambda render, army, pk: access.for_owner(render, army),
    "army",
    "armies:builder",
    "Back to the army",
)
_SHARED = _Where(
    lambda request, token: shared_army_or_404(token),
    access.for_link,
    "shared",
    "armies:shared",
    "Back to the shared army",
)


def _army_pdf(request: HttpRequest, where: _Where, key: Any, sheet: str) -> HttpResponse:
    army = where.find(request, key)
    return guarded(
        request,
        lambda: browser_response(
            request,
            where.grant(
                saved_army_render(request, army, sheet, _extras(request)),
                army,
                key,
            ),
        ),
    )


def _army_preview(request: HttpRequest, where: _Where, key: Any, sheet: str) -> HttpResponse:
    army = where.find(request, key)
    other, other_label = OTHER_SHEET[sheet]
    links = _links(
        request,
        reverse(f"printing:{where.url_name}_{sheet}_pdf", args=[key]),
        reverse(where.back, args=[key]),
        where.back_label,
        other_sheet=reverse(f"printing:{where.url_name}_{other}", args=[key]),
        other_sheet_label=other_label,
        extras=_extra_links(request, army.ruleset, sheet),
    )
    return guarded(
        request,
        lambda: _html_response(
            services.army_sheet_html(
                exported(army),  # with the list revisions it is checked against
                sheet=sheet,
                paper=request.GET.get("paper", "a4"),
                share_url=army_share_url(request, army),
                extras=_extras(request),
                links=links,
                saved=services.SavedArmy(army.owner_id),
            )
        ),
    )


# The sheet ("roster" or "qrs") comes from the URLconf's extra kwargs.
@require_safe
def army_pdf(request: HttpRequest, pk: int, sheet: str) -> HttpResponse:
    return _army_pdf(request, _OWNED, pk, sheet)


@require_safe
def army_preview(request: HttpRequest, pk: int, sheet: str) -> HttpResponse:
    return _army_preview(request, _OWNED, pk, sheet)


@require_safe
def shared_pdf(request: HttpRequest, token: str, sheet: str) -> HttpResponse:
    return _army_pdf(request, _SHARED, token, sheet)


@require_safe
def shared_preview(request: HttpRequest, token: str, sheet: str) -> HttpResponse:
    return _army_preview(request, _SHARED, token, sheet)


# -- the rule set's own QRS ------------------------------------------------------------------


@require_safe
def ruleset_qrs_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset = ruleset_or_404(slug)

    def make() -> HttpResponse:
        options = services.options_from_query(ruleset, query=request.GET.dict())
        return browser_response(
            request,
            access.for_anyone(
                jobs.ruleset_render(
                    slug,
                    request.GET.get("paper", "a4"),
                    options=options,
                    extras=_extras(request),
                    charge=pdf_charge(request),
                )
            ),
        )

    return guarded(request, make)


@require_safe
def ruleset_qrs(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset = ruleset_or_404(slug)

    def make() -> HttpResponse:
        options = services.options_from_query(ruleset, query=request.GET.dict())
        pdf_url = reverse("printing:ruleset_qrs_pdf", args=[slug])
        wanted = _extras(request)
        links = _links(
            request,
            pdf_url,
            reverse("catalog:ruleset", args=[slug]),
            f"Back to {ruleset.title}",
            extras=_extra_links(request, slug, "qrs"),
        )
        chosen = ruleset.default_options()
        chosen.update(options)
        return _html_response(
            services.ruleset_qrs_html(
                slug,
                paper=request.GET.get("paper", "a4"),
                options=options,
                extras=wanted,
                links=links,
                controls=services.option_controls(ruleset, chosen=chosen),
            )
        )

    return guarded(request, make)


# -- JSON API: POST a document, get the PDF (or 202 and a status URL while it renders) ---------


def _api_pdf(request: HttpRequest, sheet: str) -> HttpResponse:
    def make() -> HttpResponse:
        try:
            raw = read_json_body(request)
        except BadBody as exc:
            return exc.response()
        return api_response(
            access.for_anyone(
                jobs.army_render(
                    raw,
                    sheet,
                    request.GET.get("paper", "a4"),
                    extras=_extras(request),
                    charge=pdf_charge(request),
                )
            )
        )

    return guarded(request, make, api=True)


@csrf_exempt  # stateless like /api/v1/check: reads no cookies, changes nothing
@require_POST
def api_roster_pdf(request: HttpRequest) -> HttpResponse:
    return _api_pdf(request, "roster")


@csrf_exempt
@require_POST
def api_qrs_pdf(request: HttpRequest) -> HttpResponse:
    return _api_pdf(request, "qrs")
