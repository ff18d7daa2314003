"""A game's summary as a one-page PDF: the game's name, both armies, the turns played and,
per side, the units lost by name and (rule sets with points) the points lost.

The sheet is small and fixed in size (two sides, their units' names), so it is rendered
in the request, through the same ``render_pdf`` (its time limit, its fetcher that reads
nothing but our static files) as every other sheet, from our own autoescaped template:
a name typed by a player prints as text, never as markup.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify

import rules
from armybuilder.games import selectors
from armybuilder.games.models import Game
from armybuilder.printing.pdf import render_pdf

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
        "printed_on": timezone.now(),
    }
    return render_to_string("games/summary_pdf.html", context)


def summary_pdf(game: Game) -> bytes:
    return render_pdf(summary_html(game), limit=TIME_LIMIT)


def filename(game: Game) -> str:
    """An ASCII file name that says which game: ``normans-v-saxons-summary.pdf``."""
    stem = slugify(game.name)[:80].strip("-_") or f"game-{game.pk}"
    return f"{stem}-summary.pdf"
