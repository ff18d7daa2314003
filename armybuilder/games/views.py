"""The games pages: my games (with those played by a link) and starting one, the companion
page, its forms (work out, apply, rally, remove, next phase, undo, the opponent's links),
the game's file and its summary's PDF.

Every page works without JavaScript: the attacker and target are chosen with a GET form
(the page then offers only the modifiers the engine allows for that pair and phase), a
combat is worked out by a POST that draws the steps with an Apply button, and each change
answers Post/Redirect/Get. A game is its owner's (``/games/<pk>/...``) and the holder's of
one of its links (``/g/<token>/...``): the link to play acts as the owner does, the link
to watch only reads; anyone else gets 404.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import rules
from armybuilder.armies.models import Army
from armybuilder.armies.selectors import armies_for, shared_army_or_404
from armybuilder.games import (
    claims,
    kinds,
    operations,
    opponents,
    presenters,
    seats,
    selectors,
    services,
    summary_sheet,
)
from armybuilder.games.access import Seat, claim_if_free, seat_of
from armybuilder.games.exporting import game_document
from armybuilder.games.models import Game
from armybuilder.games.services import STALE, Refused
from armybuilder.nostore import no_store
from armybuilder.printing.pdf import PrintError
from armybuilder.printing.progress_views import error_page, pdf_charge, progress_at
from rules.document import load_json
from rules.errors import MalformedDocument

SHARE_LINK = re.compile(r"/s/([A-Za-z0-9_-]+)")


def _game_url(game: Game, anchor: str = "") -> str:
    return reverse("games:game", args=[game.pk]) + (f"#{anchor}" if anchor else "")


# the routes a game's page links to, each under the owner's name and the link's
ROUTES = ("game", "work_out", "export", "version", "offers", "operations", "summary_pdf")


CHOOSE = (
    "Choose two of your armies (or one twice, for a solo game), an army revealed at one of "
    "your events, or give the share link of your opponent's army."
)


def _start(request: HttpRequest, armies: list[Army]) -> tuple[Game | None, str]:
    """The game the start form asks for, or why not: side B a share link's army, else
    another source's opponent (an event's revealed army), else one of mine."""
    by_pk = {str(a.pk): a for a in armies}
    first = by_pk.get(request.POST.get("army_a", ""))
    if first is None:
        return None, CHOOSE
    link = request.POST.get("share_link", "").strip()[:500]
    source, chosen = next(
        ((o, v) for o in opponents.SOURCES if (v := request.POST.get(o.field, "").strip())),
        (None, ""),
    )
    seated = request.POST.get("played_on", "two") != "one"
    goes_first = "b" if request.POST.get("first") == "b" else "a"
    try:
        if link or source is None:
            second = _shared(link) if link else by_pk.get(request.POST.get("army_b", ""))
            if second is None:
                gone = "That share link leads to no army: it may have been switched off or renewed."
                return None, gone if link else CHOOSE
            game = services.start_game(request.user, army_a=first, army_b=second)
        else:
            game = source.start(request.user, first, chosen)
            if game is None:
                return None, source.missing
        services.choose_seats(game, seated=seated, first=goes_first)
        return game, ""
    except Refused as exc:
        return None, exc.message


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """My games, and the form to start one between two of my armies."""
    armies = list(armies_for(request))
    error = ""
    if request.method == "POST":
        game, error = _start(request, armies)
        if game is not None:
            return redirect(_game_url(game))
    choices = [(a.pk, f"{a.name} ({_title(a.ruleset)})") for a in armies]
    offered = [(o, o.offered(request.user)) for o in opponents.SOURCES]
    context = {"games": selectors.my_games(request.user), "choices": choices, "error": error,
               "opponent_sources": [(o, groups) for o, groups in offered if groups],
               "played": seats.played_by(request.user)}  # fmt: skip
    return no_store(render(request, "games/mine.html", context, status=400 if error else 200))


def _shared(link: str) -> Army | None:
    """The army an opponent's share link (``.../s/<token>/``, or the token alone) leads to."""
    found = SHARE_LINK.search(link)
    token = found.group(1) if found else link
    try:
        return shared_army_or_404(token)
    except Http404:
        return None


def _title(slug: str) -> str:
    try:
        return rules.get_ruleset(slug).title
    except KeyError:
        return "a rule set Muster does not know"


def _page(request: HttpRequest, seat: Seat, status: int = 200, **extra: Any) -> HttpResponse:
    game = seat.game
    actions = list(game.actions.order_by("number"))
    state = selectors.state_of(game, actions=actions)
    attacker = extra.pop("attacker", request.GET.get("attacker", ""))
    target = extra.pop("target", request.GET.get("target", ""))
    offered, refusal = (), ""
    if attacker and target and seat.acts:
        try:
            offered = services.offered_modifiers(
                game, attacker_id=attacker, target_id=target, seat=seat.side
            )
        except Refused as exc:
            refusal = exc.message
    asked = selectors.combat_rules(game).numbers_asked
    numbers_error = extra.pop("numbers_error", "")
    drawn = attacker and target and not refusal and "worked" not in extra and seat.acts
    if numbers_error and not (drawn and asked):  # no field to say it at
        extra["error"], numbers_error = numbers_error, ""
    context = {
        "game": game,
        "seat": seat,
        # the page's routes, and each kind of action's form (``urls.do.<kind>``)
        "urls": {
            **{name: seat.url(name) for name in ROUTES},
            "do": {k: seat.url("act", op=k) for k in kinds.KINDS},
        },
        "links": _links(request, seat),
        "play_holder": None if seat.token else claims.holder(game),
        "held_message": claims.HELD if seat.held else "",
        # a seat nobody holds: the button that takes it, with side B's army's name
        "take_seat": (
            {"url": seat.url("take_seat"), "name": selectors.sides(game)["b"].name}
            if seat.free
            else None
        ),
        "links_open": request.GET.get("links") == "open",
        "turn": state.turn,
        "phase": presenters.phase_names(game).get(state.phase, state.phase),
        "phase_key": state.phase,
        "sides": presenters.cards(game, state),
        "attacker": attacker,
        "target": target,
        "offered": offered,
        "refusal": refusal,
        # what the combat form's "Other numbers" may name (none: the field is not shown)
        "numbers_asked": asked,
        "numbers_error": numbers_error,
        "log": presenters.log_lines(game, actions),
        "can_undo": any(seat.side is None or a.seat in ("", seat.side) for a in state.actions),
        **presenters.seat_offer(game, seat.side, state.turn, state),
        # the side holding the Initiative goes first (the one chosen at the start until a
        # roll hands it over): the page's script says whose player turn it is from it
        "goes_first": state.holder,
        # the kinds whose form is a section of its own (its partial), with what it draws
        "kind_forms": _kind_forms(seat, state),
        # (side, name, the verdict that routed it or "", force morale rolls due): the form
        # and the sides' headings
        "morale_sides": [
            (
                k,
                v.name,
                state.routed.get(k, ""),
                sum(1 for c in v.cards if state.of(c.key).lost) - state.rolls.get(k, 0),
            )
            for k, v in selectors.sides(game).items()
        ],  # fmt: skip
        "summary": selectors.summary(game, state=state),
        # the page's script names phases in its queue's words and sends to urls.operations
        "phases_json": json.dumps([{"key": p.key, "name": p.name} for p in selectors.phases(game)]),
        # where the game stands at this drawing: the page's engine works the phone's own
        # actions out from it (rules.page.game), so their hits show at once
        "table_json": json.dumps(state.to_json(), separators=(",", ":")),
        **extra,
    }
    return no_store(render(request, "games/game.html", context, status=status))


def _kind_forms(seat: Seat, state: selectors.GameState) -> list[tuple[Any, Any, str]]:
    """(kind, what its form draws, its URL) for each kind with a partial of its own that
    this page draws (none on the link to watch)."""
    if not seat.acts:
        return []
    drawn = [(k, k.form(seat.game, state, seat.side)) for k in kinds.KINDS.values() if k.partial]
    return [(k, form, seat.url("act", op=k.name)) for k, form in drawn if form is not None]


def _links(request: HttpRequest, seat: Seat) -> list[tuple[str, str, str]]:
    """The opponent's links as the owner's page offers them: (which, what it is, the URL
    or "" while switched off); none on a page reached by a link."""
    if seat.token:
        return []
    game = seat.game
    made = []
    for which, what in (("view", "To watch"), ("play", "To play")):
        token = getattr(game, f"{which}_token")
        where = reverse("games:shared", args=[token]) if token else ""
        made.append((which, what, request.build_absolute_uri(where) if where else ""))
    return made


@require_safe
def game_page(request: HttpRequest, game: int | None = None, token: str = "") -> HttpResponse:
    # opening the link to play never claims its seat (a chat app's link preview opens it
    # too): a seat nobody holds shows read-only with the button that takes it (take_seat)
    seat = seat_of(request, game, token, acting=False)
    if seat.token:  # a signed-in opponent keeps the game in their My games (seats.py)
        seats.take_seat(seat.game, request.user, seat.token, seat.acts or seat.held or seat.free)
    return _page(request, seat)


@require_POST
def take_seat(request: HttpRequest, token: str) -> HttpResponse:
    """The link to play's seat taken by this device (the button of a seat nobody holds),
    then its page, now playable; a seat another device took first answers the page that
    says so (409), and one this device already plays, or that no device holds (a solo
    game, the owner), is just its page."""
    seat = seat_of(request, None, token, acting=False)
    page = seat.url("game")
    if seat.free:
        made = claim_if_free(Seat(seat.game, token), request)
        if made:
            return claims.remember(redirect(page), game=seat.game, token=made)
        seat = seat_of(request, None, token, acting=False)  # lost to another device just now
    if seat.held:
        return _page(request, seat, status=409)
    return redirect(page)


def _version(request: HttpRequest) -> int | None:
    value = request.POST.get("version", "")
    return int(value) if value.isdigit() and len(value) < 10 else None


def _refused(request: HttpRequest, seat: Seat, exc: Refused, **extra: Any) -> HttpResponse:
    status = 409 if exc.message == STALE else 400
    if getattr(exc, "field", "") == "numbers":  # said at the field it is about
        return _page(request, seat, status, numbers_error=exc.message, **extra)
    return _page(request, seat, status, error=exc.message, **extra)


@require_POST
def work_out(request: HttpRequest, game: int | None = None, token: str = "") -> HttpResponse:
    """The combat worked out, nothing saved: the page with its steps and an Apply button."""
    seat = seat_of(request, game, token, acting=True)
    given = kinds.KINDS["combat"].from_form(request.POST, seat.game)  # the Apply form's fields
    pair = {"attacker": given["attacker"], "target": given["target"]}
    try:
        dice = presenters.read_dice(given["die"])
        numbers = presenters.read_numbers(given["numbers"])
        worked = services.work_out(
            seat.game,
            attacker_id=given["attacker"],
            target_id=given["target"],
            modifiers=given["modifiers"],
            die=dice,
            numbers=numbers,
            seat=seat.side,
        )
    except Refused as exc:
        return _refused(request, seat, exc, ticked=given["modifiers"], given=given, **pair)
    return _page(request, seat, worked=worked, given=given, ticked=given["modifiers"], **pair)


@require_POST
def act(request: HttpRequest, op: str, game: int | None = None, token: str = "") -> HttpResponse:
    """One action by its kind's form (``games.kinds``: ``op`` is its name): the post read
    into the value the page's script would send, parsed as the batch parses it, applied at
    the version the page was drawn at, then Post/Redirect/Get; refused, the page again
    with the refusal (and the form as sent, where the kind draws it again)."""
    seat = seat_of(request, game, token, acting=True)
    kind = kinds.KINDS.get(op)
    if kind is None:  # unregistered since the URL was matched
        raise Http404("no such action")
    value: dict[str, Any] = {}
    try:
        value = kind.from_form(request.POST, seat.game)
        raw = {"op": op, "value": value, "base_version": _version(request)}
        operation = operations.read_operation(raw, "form", value_path="form")
        action = operations.apply_form(seat.game, operation, seat.side)
    except operations.BadOperation as exc:  # a post no form of the page makes
        return _refused(request, seat, Refused(f"This form was not sent as the page draws it "
                                               f"({exc.message})."), **kind.redraw(value))  # fmt: skip
    except Refused as exc:
        return _refused(request, seat, exc, **kind.redraw(value))
    messages.success(request, kind.done(action))
    return redirect(seat.url("game", kind.anchor))


@require_POST
def operations_batch(
    request: HttpRequest, game: int | None = None, token: str = ""
) -> JsonResponse:
    """The page's script's actions as a batch of operations (``games.operations``), applied
    in order, each once: ``{"version", "results": [{"key", "status", "number"?,
    "message"?}]}``; a body that is not a batch is 400 naming the field."""
    try:
        batch = operations.parse_operations(load_json(request.body.decode("utf-8")))
    except (UnicodeDecodeError, MalformedDocument, operations.BadOperation) as exc:
        seat_of(request, game, token, acting=True)  # someone else's game: 404, whatever the body
        said = "the body is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc.message
        return no_store(JsonResponse({"error": said}, status=400))
    seat = seat_of(request, game, token, acting=True)
    done = operations.apply_operations(seat.game, batch, seat=seat.side)
    answer = {"version": seat.game.version, "results": [operations.answer_of(o) for o in done]}
    return no_store(JsonResponse(answer))


@require_POST
def links(request: HttpRequest, game: int) -> HttpResponse:
    """The owner's: one of the opponent's links made anew (the old one stops working) or
    switched off."""
    found = selectors.game_or_404(request, game)
    which, on = request.POST.get("link", ""), request.POST.get("do", "") == "new"
    try:
        services.set_link(found, which=which, on=on)
    except Refused as exc:
        return _refused(request, Seat(found), exc)
    what = "watch" if which == "view" else "play"
    messages.success(request, f"A new link to {what}." if on else f"The link to {what} is off.")
    # the links' panel drawn open, the new link in sight to copy
    return redirect(reverse("games:game", args=[found.pk]) + "?links=open#links")


@require_POST
def release_seat(request: HttpRequest, game: int) -> HttpResponse:
    """The owner's: the link to play's seat released from the device that holds it, so the
    next device to take it claims it; the game and its log stay as they are."""
    found = selectors.game_or_404(request, game)
    claims.release(found)
    messages.success(
        request, "The seat is free: the next phone to take it on the link to play holds it."
    )
    return redirect(reverse("games:game", args=[found.pk]) + "?links=open#links")


@require_safe
def export(request: HttpRequest, game: int | None = None, token: str = "") -> JsonResponse:
    """The game as a ``muster.game/1`` file: both armies, where it stands, and its log."""
    found = seat_of(request, game, token, acting=False).game
    document = game_document(found, by_link=bool(token))
    response = JsonResponse(document, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="game-{found.pk}.json"'
    return no_store(response)


@require_safe
def version(request: HttpRequest, game: int | None = None, token: str = "") -> JsonResponse:
    """The game's version alone: what the other phone's page asks every second, to follow
    the game without drawing it again until it moved on."""
    found = seat_of(request, game, token, acting=False).game
    return no_store(JsonResponse({"version": found.version}))


@require_safe
def summary_pdf(request: HttpRequest, game: int | None = None, token: str = "") -> HttpResponse:
    """The game's summary as a one-page PDF, the owner's or by either link, so the opponent
    keeps it too (rate-limited as every PDF: throttle's "pdf")."""
    seat = seat_of(request, game, token, acting=False)
    url = seat.url("summary_pdf")
    retry = bool(request.GET.get("retry"))
    try:
        made = summary_sheet.summary_render(seat.game, retry=retry, charge=pdf_charge(request))
    except PrintError as exc:  # the queue is away: nothing was made
        return error_page(request, exc.message, exc.status)
    if retry:  # queued once more: watch the plain URL (a refresh never queues it again)
        return redirect(url)
    return progress_at(request, made, url)


@require_POST
def forget_seat(request: HttpRequest, seat: int) -> HttpResponse:
    """A game played by a link taken out of the player's My games: their own seat only
    (anyone else's, or none, is 404, signed in or not: a URL does not tell whether the seat
    exists), and never the game, which stays its owner's."""
    if not seats.forget(request.user, seat):
        raise Http404("no such game in your history")
    messages.success(request, "Taken out of your games. The game itself goes on.")
    return redirect(reverse("games:mine") + "#played")
