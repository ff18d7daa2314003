"""A game's summary as a one-page PDF: the game's name, both armies, the turns played and,
per side, the units lost by name and (rule sets with points) the points lost.

The page is drawn here, from our own autoescaped template (a name typed by a player prints
as text, never as markup), and made into a PDF by the worker like every other sheet
(``printing.jobs.html_render``): a web process never renders a PDF, so watchers asking for
it do not slow the game's pages. The page depends only on the game as it stands (its
version), so the same game asked again is served from the store.
"""

from __future__ import annotations

from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils.text import slugify

import rules
from armybuilder.games import selectors
from armybuilder.games.models import Game
from armybuilder.printing import jobs
from armybuilder.printing.models import Render
from rules import seats

# The summary is one short page: a render that takes longer than this is not one.
TIME_LIMIT = 20.0


def summary_html(game: Game) -> str:
    summary = selectors.summary(game)
    try:
        title = rules.get_ruleset(game.ruleset).title
    except KeyError:
        title = game.ruleset
    context = {
        "game": game,
        "ruleset_title": title,
        "summary": summary,
        "points": any(s.points_lost is not None for s in summary.sides),
        "as_of": game.updated,  # not the time of asking: one page, one render per version
        "phones": by_phone(game),
    }
    return render_to_string("games/summary_pdf.html", context)


def by_phone(game: Game) -> list[tuple[str, int]]:
    """On two phones, each side's name as an owner ("Normans'") and how many of the
    actions standing its phone made (in side order); on one phone, nothing."""
    if not game.seated:
        return []
    standing = selectors.state_of(game).actions
    return [(seats.of(name), sum(1 for a in standing if a.seat == key))
            for key, name in selectors.side_names(game).items()]  # fmt: skip


def summary_render(
    game: Game, *, retry: bool = False, charge: Callable[[], None] | None = None
) -> Render:
    """The summary's render as the game stands, queued for the worker if not stored yet
    (``charge``: what a render queued for the request costs)."""
    return jobs.html_render(summary_html(game), filename(game), limit=TIME_LIMIT, retry=retry,
                            charge=charge)  # fmt: skip


def filename(game: Game) -> str:
    """An ASCII file name that says which game: ``normans-v-saxons-summary.pdf``."""
    stem = slugify(game.name)[:80].strip("-_") or f"game-{game.pk}"
    return f"{stem}-summary.pdf"
