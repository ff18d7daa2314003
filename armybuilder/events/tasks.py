"""The worker's side of the pack: made in the background task worker, never in a web
process, with its progress written as each sheet is done."""

from __future__ import annotations

import logging

from django.tasks import task
from django.utils import timezone

import rules
from armybuilder.events.models import Pack
from armybuilder.events.pack import make_pack_pdf
from armybuilder.printing.pdf import PrintError

logger = logging.getLogger(__name__)


@task
def make_pack(pack_id: int) -> str:
    claimed = Pack.objects.filter(pk=pack_id, status=Pack.QUEUED).update(status=Pack.RENDERING)
    if not claimed:
        return "skipped"
    pack = Pack.objects.select_related("event").get(pk=pack_id)

    def progress(done: int, total: int, reused: int) -> None:
        Pack.objects.filter(pk=pack_id).update(done=done, total=total, reused=reused)

    try:
        pdf, reused = make_pack_pdf(pack.event, with_qrs=pack.with_qrs, progress=progress)
    except (PrintError, rules.MalformedDocument) as exc:
        Pack.objects.filter(pk=pack_id).update(
            status=Pack.FAILED, error=exc.message, finished=timezone.now()
        )
        return "failed"
    except Exception:
        logger.exception("pack %s failed", pack_id)
        Pack.objects.filter(pk=pack_id).update(
            status=Pack.FAILED,
            error="The pack could not be made; please try again.",
            finished=timezone.now(),
        )
        return "failed"
    Pack.objects.filter(pk=pack_id).update(
        status=Pack.READY, pdf=pdf, reused=reused, finished=timezone.now()
    )
    return "ready"
