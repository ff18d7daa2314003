"""Printable sheets: the roster (order of battle) and the QRS, as HTML and as PDF.

One pipeline for every interface (pages, share links, API, CLI): parse and check the
document with ``catalog.services.check_document``, build the sheet's data, render our own
autoescaped template, and hand the HTML to WeasyPrint with :class:`SafeFetcher`, which
serves only the app's own static files. PDFs are cached in Django's cache under a hash of
everything that shapes them, so a second print of the same army costs no rendering.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, Unpack
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

import rules
from armybuilder.catalog import pins
from armybuilder.catalog import services as catalog_services
from armybuilder.catalog.selectors import Lookup, pinned_lookup
from armybuilder.printing import glyphs
from armybuilder.printing.pdf import (  # noqa: F401 (the print errors are this module's too)
    BASE_URL,
    PrintError,
    RenderError,
    SafeFetcher,
    render_pdf,
)
from armybuilder.printing.roster import build_roster
from rules.document import list_revisions
from rules.fields import Field, parse_object
from rules.qrs import Sheet, qrs_sheet

logger = logging.getLogger(__name__)

# Bump when a template or print.css changes in a way the file digest below would miss.
TEMPLATE_VERSION = "1"
PAPERS = {"a4": "A4", "letter": "letter"}
SHEETS = {"roster": "Order of battle", "qrs": "Quick-reference sheet"}
# WeasyPrint resolves our relative links against this; ".invalid" never resolves (RFC 2606).
CACHE_PREFIX = "muster:pdf:"
_ROOT = Path(settings.BASE_DIR)
_TEMPLATE_FILES = (
    "templates/printing",
    "static/css/print.css",
    "static/css/paper-a4.css",
    "static/css/paper-letter.css",
)


@dataclass(frozen=True)
class PrintedSheet:
    pdf: bytes
    filename: str
    cached: bool


# -- request values ---------------------------------------------------------------------------


def check_paper(paper: str | None) -> str:
    value = (paper or "a4").strip().lower()
    if value not in PAPERS:
        raise PrintError(f"paper: {paper!r} is not one of a4, letter", "paper")
    return value


def check_sheet(sheet: str) -> str:
    if sheet not in SHEETS:
        raise PrintError(f"sheet: {sheet!r} is not one of {', '.join(SHEETS)}", "sheet")
    return sheet


def pdf_filename(name: str, *, sheet: str, paper: str = "a4") -> str:
    """An ASCII file name that says army, sheet and paper: ``swiss-pike-block-roster-letter.pdf``."""
    stem = slugify(name)[:80].strip("-_") or "army"
    return f"{stem}-{sheet}-{paper}.pdf"


def content_disposition(filename: str) -> str:
    safe = "".join(c for c in filename if c.isascii() and (c.isalnum() or c in "-_."))
    return f'attachment; filename="{safe or "sheet.pdf"}"'


def options_from_query(ruleset: rules.RuleSet, *, query: Mapping[str, str]) -> dict[str, Any]:
    """Rule-set options from a query string (the rule-set QRS), checked like a document's."""
    known = {f.name: f for f in ruleset.options}
    raw: dict[str, Any] = {}
    for key, value in query.items():
        if key in ("paper", "include"):
            continue
        option = known.get(key)
        if option is None:
            allowed = ", ".join(known) or "none"
            raise PrintError(f"{key}: not an option of {ruleset.title}; options: {allowed}", key)
        raw[key] = _from_text(option, value)
    try:
        return parse_object(ruleset.options, raw, "options")
    except rules.MalformedDocument as exc:
        raise PrintError(exc.message, exc.path) from exc


def _from_text(option: Field, text: str) -> Any:
    text = text.strip()
    where = f"options.{option.name}"
    if option.kind == "boolean":
        if text.lower() in ("1", "true", "on", "yes"):
            return True
        if text.lower() in ("0", "false", "off", "no"):
            return False
        raise PrintError(f"{where}: {text!r} is not on or off", where)
    if option.kind in ("integer", "number"):
        try:
            number = float(text)
        except ValueError:
            raise PrintError(f"{where}: {text!r} is not a number", where) from None
        return int(number) if option.kind == "integer" and number.is_integer() else number
    if option.kind == "choice":
        for choice in option.choices:
            if str(choice.value) == text:
                return choice.value
        if text in ("", "null") and option.nullable:
            return None
        allowed = ", ".join(str(v) for v in option.values)
        raise PrintError(f"{where}: {text!r} is not one of {allowed}", where)
    return text


# -- HTML -------------------------------------------------------------------------------------


def qr_svg(url: str) -> SafeString:
    """The share link as an inline SVG QR code (no fetch, nothing of the URL in markup)."""
    code = segno.make(url, error="m", micro=False)
    return mark_safe(code.svg_inline(scale=1, omitsize=True, border=4, dark="#000"))  # noqa: S308


def _base_context(sheet: str, paper: str, *, for_pdf: bool) -> dict[str, Any]:
    static_prefix = "/" + urlsplit(settings.STATIC_URL).path.strip("/") + "/"
    return {
        "sheet": sheet,
        "sheet_title": SHEETS[sheet],
        "paper": paper,
        "page_size": PAPERS[paper],
        "for_pdf": for_pdf,
        # the PDF asks our fetcher for the source file; the browser gets the served URL
        "stylesheet_url": static_prefix + "css/print.css" if for_pdf else static("css/print.css"),
        "paper_stylesheet_url": (
            static_prefix + f"css/paper-{paper}.css"
            if for_pdf
            else static(f"css/paper-{paper}.css")
        ),
        "printed_on": timezone.localdate(),
    }


# The roster's options: one card per unit instead of one card per set of identical units.
ONE_CARD_PER_UNIT = "one-card-per-unit"
ROSTER_EXTRAS = (ONE_CARD_PER_UNIT,)


@dataclass(frozen=True)
class _ArmyJob:
    army: rules.Army
    report: rules.Report
    sheet: str
    paper: str
    share_url: str | None
    extras: tuple[str, ...]
    list_name: str
    list_revisions: Mapping[str, int] = dataclasses.field(default_factory=dict)

    def document(self) -> dict[str, Any]:
        """The army's document with the list revisions it was given (for the queue)."""
        named = {"list_revisions": dict(self.list_revisions)} if self.list_revisions else {}
        return {**self.army.to_document(), **named}

    def key(self) -> str:
        return _cache_key(
            {
                "document": self.army.to_document(),
                "list_data": self.army.list_data,
                "list_name": self.list_name,
                "sheet": self.sheet,
                "paper": self.paper,
                "share_url": self.share_url if self.sheet == "roster" else None,
                "extras": list(self.extras),
                "date": str(timezone.localdate()) if self.sheet == "roster" else None,
            }
        )


@dataclass(frozen=True)
class SavedArmy:
    """Who a saved army's sheet is printed for: it is checked as its builder checks it,
    against the revisions it is pinned to and the lists its owner may build on (their own
    and those shared with them), not only the public ones a posted document may name."""

    owner_id: int | None

    def lookup(self, pinned: Mapping[str, int]) -> Lookup:
        return pinned_lookup(self.owner_id, list_pins=pinned)


class SheetOptions(TypedDict, total=False):
    """What an army's sheet is printed with besides the document, its sheet and paper: the
    one list of them every army-sheet function takes (``**options``)."""

    share_url: str | None  # the roster's QR code and link
    extras: Iterable[str]  # the roster's options or the QRS's extra sections
    saved: SavedArmy | None  # a stored army: checked as its builder checks it


def army_job(
    raw: Any, *, sheet: str, paper: str = "a4", **options: Unpack[SheetOptions]
) -> _ArmyJob:
    share_url = options.get("share_url")
    extras = options.get("extras", ())
    saved = options.get("saved")
    sheet = check_sheet(sheet)
    paper = check_paper(paper)
    lookup = None  # a posted document: the public lists, at the revisions it names
    if saved is not None and isinstance(raw, Mapping):  # a stored army: its revisions are known
        lookup = saved.lookup(list_revisions(raw))
    army, report = catalog_services.check_document(
        raw, lookup=lookup
    )  # MalformedDocument for bad input
    wanted = tuple(dict.fromkeys(extras))
    if sheet == "qrs":
        # the print panel's roster option rides along when the QRS is chosen, and so may
        # a section another rule set's sheet offers (one request for several armies): this
        # sheet has no such section, so there is nothing to add; a name no sheet offers
        # stays a 400 naming this sheet's sections
        ignored = {*ROSTER_EXTRAS, *qrs_sections_anywhere()} - set(qrs_sections(army.ruleset))
        wanted = tuple(e for e in wanted if e not in ignored)
        _check_extras(army.ruleset, wanted)
    elif set(wanted) - set(ROSTER_EXTRAS):
        raise PrintError(
            f"include: the roster's only option is {', '.join(ROSTER_EXTRAS)}", "include"
        )
    named = list_revisions(raw) if isinstance(raw, Mapping) else {}
    list_name = ""
    if army.army_list:  # "<name>, revision N" when the document names its revision
        list_name = pins.list_title(army.ruleset, army.army_list, named.get(army.army_list))
    return _ArmyJob(army, report, sheet, paper, share_url, wanted, list_name, named)


@functools.cache
def qrs_sections(slug: str) -> tuple[str, ...]:
    """The optional sections a rule set's quick-reference sheet offers (e.g. a siege)."""
    return tuple(key for key, _ in qrs_sheet(slug, None).optional_extras)


def qrs_sections_anywhere() -> tuple[str, ...]:
    """Every optional section some rule set's sheet offers, in the registry's order."""
    found: dict[str, None] = {}
    for ruleset in rules.all_rulesets():
        found.update(dict.fromkeys(qrs_sections(ruleset.slug)))
    return tuple(found)


def _check_extras(slug: str, extras: tuple[str, ...]) -> None:
    try:
        qrs_sheet(slug, None, extras=extras)
    except KeyError as exc:
        raise PrintError(str(exc.args[0]), "include") from None


def _army_context(job: _ArmyJob, *, for_pdf: bool) -> dict[str, Any]:
    context = _base_context(job.sheet, job.paper, for_pdf=for_pdf)
    context["army_name"] = job.army.name
    context["list_name"] = job.list_name
    if for_pdf:  # the PDF names any character of the army's text no font can print
        texts = [*glyphs.strings_in(job.army.to_document()), job.list_name]
        context["unprintable"] = glyphs.unprintable(texts)
    if job.sheet == "roster":
        context["roster"] = build_roster(
            job.army,
            job.report,
            list_name=job.list_name,
            group_identical=ONE_CARD_PER_UNIT not in job.extras,
        )
        context["share_url"] = job.share_url
        context["qr_svg"] = qr_svg(job.share_url) if job.share_url else ""
    else:
        context["qrs"] = qrs_sheet(job.army.ruleset, job.army, extras=job.extras)
        context["ruleset"] = rules.get_ruleset(job.army.ruleset)
    return context


def army_sheet_html(
    raw: Any,
    *,
    sheet: str,
    paper: str = "a4",
    links: Mapping[str, Any] | None = None,
    for_pdf: bool = False,
    **options: Unpack[SheetOptions],
) -> str:
    """The sheet as HTML: the browser preview (``for_pdf=False``) or WeasyPrint's input."""
    job = army_job(raw, sheet=sheet, paper=paper, **options)
    context = _army_context(job, for_pdf=for_pdf)
    context["links"] = links or {}
    return render_to_string(f"printing/{job.sheet}.html", context)


def army_sheet_pdf(
    raw: Any, *, sheet: str, paper: str = "a4", **options: Unpack[SheetOptions]
) -> PrintedSheet:
    """The PDF of one sheet of an army document, from the cache when it is there.

    Raises ``rules.MalformedDocument`` for a document that does not parse and
    :class:`PrintError` for a bad paper, sheet or section, or a failed render.
    """
    job = army_job(raw, sheet=sheet, paper=paper, **options)
    filename = pdf_filename(job.army.name, sheet=job.sheet, paper=job.paper)
    key = job.key()
    pdf = _cache_get(key)
    if pdf is not None:
        return PrintedSheet(pdf, filename, cached=True)
    html = render_to_string(f"printing/{job.sheet}.html", _army_context(job, for_pdf=True))
    pdf = render_pdf(html)
    _cache_set(key, pdf)
    return PrintedSheet(pdf, filename, cached=False)


def _ruleset_or_error(slug: str) -> rules.RuleSet:
    try:
        return rules.get_ruleset(slug)
    except KeyError:
        raise PrintError(f"ruleset: {slug!r} is not a rule set", "ruleset") from None


def _ruleset_context(
    slug: str, paper: str, options: Mapping[str, Any] | None, extras: Iterable[str], for_pdf: bool
) -> tuple[dict[str, Any], Sheet, rules.RuleSet]:
    ruleset = _ruleset_or_error(slug)
    chosen = ruleset.default_options()
    chosen.update(options or {})
    try:
        sheet = qrs_sheet(slug, None, options=chosen, extras=tuple(extras))
    except KeyError as exc:
        raise PrintError(str(exc.args[0]), "include") from None
    context = _base_context("qrs", check_paper(paper), for_pdf=for_pdf)
    context.update({"qrs": sheet, "ruleset": ruleset, "army_name": None, "options": chosen})
    return context, sheet, ruleset


def ruleset_qrs_html(
    slug: str,
    *,
    paper: str = "a4",
    options: Mapping[str, Any] | None = None,
    extras: Iterable[str] = (),
    links: Mapping[str, Any] | None = None,
    controls: Iterable[Mapping[str, Any]] = (),
    for_pdf: bool = False,
) -> str:
    context, _, _ = _ruleset_context(slug, paper, options, extras, for_pdf)
    context["links"] = links or {}
    context["controls"] = list(controls)
    return render_to_string("printing/qrs.html", context)


def ruleset_qrs_pdf(
    slug: str,
    *,
    paper: str = "a4",
    options: Mapping[str, Any] | None = None,
    extras: Iterable[str] = (),
) -> PrintedSheet:
    """The rule-set-only QRS (no army), for the given options or the defaults."""
    extras = tuple(dict.fromkeys(extras))
    context, sheet, ruleset = _ruleset_context(slug, paper, options, extras, True)
    filename = pdf_filename(ruleset.slug, sheet="qrs", paper=context["paper"])
    key = _cache_key(_ruleset_spec(slug, context["options"], context["paper"], extras))
    pdf = _cache_get(key)
    if pdf is not None:
        return PrintedSheet(pdf, filename, cached=True)
    pdf = render_pdf(render_to_string("printing/qrs.html", context))
    _cache_set(key, pdf)
    return PrintedSheet(pdf, filename, cached=False)


def _ruleset_spec(
    slug: str, options: Mapping[str, Any], paper: str, extras: tuple[str, ...]
) -> dict[str, Any]:
    return {"ruleset": slug, "options": dict(options), "paper": paper, "extras": list(extras)}


def ruleset_qrs_key(
    slug: str,
    *,
    paper: str = "a4",
    options: Mapping[str, Any] | None = None,
    extras: Iterable[str] = (),
) -> tuple[str, dict[str, Any]]:
    """The rule-set QRS's cache key and spec, checked (a bad option or section raises)."""
    extras = tuple(dict.fromkeys(extras))
    context, _, _ = _ruleset_context(slug, paper, options, extras, True)
    spec = _ruleset_spec(slug, context["options"], context["paper"], extras)
    return _cache_key(spec), spec


def option_controls(ruleset: rules.RuleSet, *, chosen: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The option form of the rule-set QRS preview: one control per option."""
    controls = []
    for f in ruleset.options:
        value = chosen.get(f.name, f.default)
        control: dict[str, Any] = {"name": f.name, "label": f.label, "kind": f.kind}
        if f.kind == "boolean":
            control["choices"] = [("true", "on", bool(value)), ("false", "off", not value)]
        elif f.kind == "choice":
            control["choices"] = [(str(c.value), c.label, c.value == value) for c in f.choices]
        else:
            control["value"] = "" if value is None else str(value)
            control["minimum"] = f.minimum
            control["maximum"] = f.maximum
        controls.append(control)
    return controls


# -- the PDF cache ----------------------------------------------------------------------------


@functools.cache
def _template_digest() -> str:
    """A digest of the print templates and CSS, read once per process."""
    digest = hashlib.sha256()
    for name in _TEMPLATE_FILES:
        path = _ROOT / name
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.is_file():
                digest.update(file.name.encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def _cache_key(parts: Mapping[str, Any]) -> str:
    payload = dict(parts)
    payload["template_version"] = TEMPLATE_VERSION
    payload["templates"] = _template_digest()
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return CACHE_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _cache_seconds() -> int:
    return int(getattr(settings, "MUSTER_PDF_CACHE_SECONDS", 24 * 60 * 60))


def _cache_get(key: str) -> bytes | None:
    try:
        value = cache.get(key)
    except Exception:  # a cache outage must not stop printing
        logger.warning("PDF cache unavailable for get", exc_info=True)
        return None
    return value if isinstance(value, bytes) else None


def _cache_set(key: str, pdf: bytes) -> None:
    try:
        cache.set(key, pdf, _cache_seconds())
    except Exception:
        logger.warning("PDF cache unavailable for set", exc_info=True)
