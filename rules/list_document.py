"""The strict parser of the ``muster.list/1`` document: one army list as a file.

The same rules as an army document (``rules.document``): strict JSON (``load_json``),
the same opening checks (``read_head``: known keys, format, rule set), a size limit, the
text rule (``rules/text.py``) for every key and string, and every
refusal a ``MalformedDocument`` whose ``path`` names the place at fault. The list's
``data`` is the rule set's own list shape, checked by that rule set's
``validate_army_list``; its problems come back with the path under ``data``. Each item
of ``data`` may carry an optional ``id`` (``rules.list_ids``), kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.document import load_json, read_head
from rules.errors import MalformedDocument
from rules.fields import Field, describe, parse_value
from rules.registry import get_ruleset

LIST_FORMAT = "muster.list/1"

_TOP_KEYS = (
    "format", "ruleset", "slug", "family", "name", "period", "source_note", "revision", "data",
)  # fmt: skip
_REQUIRED = ("format", "ruleset", "slug", "name", "data")
_NAME = Field("name", "List name", "string", required=True, minimum=1, maximum=200)
_PERIOD = Field("period", "Period", "string", default="", maximum=200)
_SOURCE_NOTE = Field("source_note", "Source note", "text", default="", maximum=5000)
_REVISION = Field("revision", "Revision", "integer", nullable=True, minimum=1, maximum=10**9)
_SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
SLUG_MAX = 80
# a validator's message that starts with where it is: "replacements[0]: ...", "columns.t1: ..."
_PROBLEM_PATH = re.compile(r"^([A-Za-z_][\w-]*(?:\[\d+\]|\.[A-Za-z_][\w-]*)*):\s")


@dataclass(frozen=True)
class ListDocument:
    """A parsed, normalised ``muster.list/1`` document."""

    ruleset: str
    slug: str
    name: str
    period: str
    source_note: str
    data: Mapping[str, Any] = field(compare=True)
    revision: int | None = None
    # the slug of the list this one is a copy of (None: a list of its own)
    family: str | None = None

    @property
    def family_slug(self) -> str:
        return self.family or self.slug

    def to_document(self) -> dict[str, Any]:
        return list_document(
            ruleset=self.ruleset,
            slug=self.slug,
            family=self.family,
            name=self.name,
            period=self.period,
            source_note=self.source_note,
            data=self.data,
            revision=self.revision,
        )


def list_document(
    *,
    ruleset: str,
    slug: str,
    name: str,
    period: str,
    source_note: str,
    data: Any,
    revision: int | None = None,
    family: str | None = None,
) -> dict[str, Any]:
    """The document for one list, keys in the format's order (what export writes);
    ``family`` only for a copy."""
    document: dict[str, Any] = {
        "format": LIST_FORMAT,
        "ruleset": ruleset,
        "slug": slug,
    }
    if family and family != slug:
        document["family"] = family
    document |= {
        "name": name,
        "period": period,
        "source_note": source_note,
    }
    if revision is not None:
        document["revision"] = revision
    document["data"] = data
    return document


def load_list_text(text: str | bytes, max_bytes: int) -> ListDocument:
    """Read a list file's text: size limit, UTF-8, strict JSON, then ``parse_list_document``."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise MalformedDocument("", f"the list document is larger than {max_bytes} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise MalformedDocument("", "the list document is not UTF-8 text") from None
    return parse_list_document(load_json(text))


def parse_list_document(raw: Any) -> ListDocument:
    """Parse and normalise a list document, or raise MalformedDocument naming the path."""
    ruleset = read_head(
        raw, what="list", keys=_TOP_KEYS, required=_REQUIRED, expected_format=LIST_FORMAT
    )
    slug = _slug(raw, "slug")
    family = _slug(raw, "family") if raw.get("family") is not None else None
    name = parse_value(_NAME, raw["name"], "name")
    period = parse_value(_PERIOD, raw.get("period", ""), "period") or ""
    source_note = parse_value(_SOURCE_NOTE, raw.get("source_note", ""), "source_note") or ""
    revision = parse_value(_REVISION, raw.get("revision"), "revision")
    data = raw["data"]
    list_problems(ruleset, data)
    return ListDocument(ruleset, slug, name, period, source_note, data, revision, family)


def _slug(raw: Mapping[str, Any], key: str) -> str:
    value = raw[key]
    if not isinstance(value, str) or len(value) > SLUG_MAX or not _SLUG.fullmatch(value):
        raise MalformedDocument(
            key,
            f"{key}: {describe(value)} is not a slug: lower-case letters, digits and single "
            f"hyphens or underscores between them, at most {SLUG_MAX} characters",
        )
    return value


def list_problems(ruleset: str, data: Any) -> None:
    """Raise MalformedDocument for the first problem the rule set finds in ``data``.

    Every problem is in the message (one per line), the first one's place in ``path``.
    """
    if not isinstance(data, Mapping):
        raise MalformedDocument("data", f"data: must be a JSON object, not {describe(data)}")
    try:
        problems = get_ruleset(ruleset).validate_army_list(data)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        # a validator meeting a shape it never expected: a refusal, never a crash
        raise MalformedDocument("data", f"data: not a {ruleset} army list ({exc})") from None
    if problems:
        first = _PROBLEM_PATH.match(problems[0])
        path = f"data.{first.group(1)}" if first else "data"
        lines = [
            f"data.{problem}" if _PROBLEM_PATH.match(problem) else f"data: {problem}"
            for problem in problems
        ]
        raise MalformedDocument(path, "\n".join(lines))
