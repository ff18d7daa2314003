"""The pack: every approved roster (and QRS when asked) in entrant order after a cover
page listing the armies and their totals, as one PDF.

Each sheet comes from the printing service, which answers from its PDF cache when the
same army was rendered before (a player's own Print, an earlier pack): only new sheets are
rendered. The sheets are then joined page by page (pypdf), never rendered again.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from pypdf import PdfWriter

from armybuilder.catalog.pins import list_title
from armybuilder.events.models import Event, Submission
from armybuilder.events.presenters import event_words
from armybuilder.events.selectors import approved_submissions, army_file
from armybuilder.printing.pdf import render_pdf
from armybuilder.printing.services import SavedArmy, army_sheet_pdf


def cover_rows(event: Event, submissions: list[Submission]) -> list[dict[str, Any]]:
    rows = []
    for number, submission in enumerate(submissions, start=1):
        slug = submission.document.get("army_list")
        rows.append(
            {
                "number": number,
                "player": submission.entrant.user.get_username(),
                "army": submission.army_name,
                "list": list_title(event.ruleset, slug, submission.list_revisions.get(slug))
                if slug
                else "",
                "points": submission.total_points,
                "late": submission.late,
                "legal": submission.valid,
                "problems": [
                    p["message"] for p in submission.problems if p.get("severity") == "error"
                ],
            }
        )
    return rows


def make_pack_pdf(
    event: Event, *, with_qrs: bool = False, progress: Callable[[int, int, int], None] | None = None
) -> tuple[bytes, int]:
    """(the pack's PDF, how many sheets were taken already rendered). ``progress`` is told
    (done, total, reused) after each sheet."""
    submissions = approved_submissions(event)
    sheets = ("roster", "qrs") if with_qrs else ("roster",)
    total = len(submissions) * len(sheets)
    rows = cover_rows(event, submissions)
    cover = render_pdf(
        render_to_string(
            "events/pack_cover.html",
            {
                "event": event,
                "words": event_words(event),
                "rows": rows,
                "not_legal": sum(1 for row in rows if not row["legal"]),
                "made": timezone.now(),
                "with_qrs": with_qrs,
            },
        )
    )
    writer = PdfWriter()
    writer.append(io.BytesIO(cover))
    done = reused = 0
    for submission in submissions:
        document = army_file(submission)
        for sheet in sheets:
            printed = army_sheet_pdf(
                document, sheet=sheet, paper="a4", saved=SavedArmy(submission.entrant.user_id)
            )
            writer.append(io.BytesIO(printed.pdf))
            done += 1
            reused += int(printed.cached)
            if progress is not None:
                progress(done, total, reused)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), reused
