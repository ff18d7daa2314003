"""Finding armies with their access rules in one place: others get 404, never 403."""

from django.http import Http404, HttpRequest

from armybuilder.armies.models import Army


def owned_army_or_404(request: HttpRequest, pk: int) -> Army:
    """The army with ``pk`` if the request's user owns it (or it is this visitor's draft)."""
    army = Army.objects.filter(pk=pk).select_related("owner").first()
    if army is None or not can_edit(request, army):
        raise Http404("no such army")
    return army


def can_edit(request: HttpRequest, army: Army) -> bool:
    user = request.user
    if army.owner_id is not None:
        return user.is_authenticated and army.owner_id == user.pk
    session_key = request.session.session_key
    return bool(session_key) and army.session_key == session_key


def shared_army_or_404(token: str) -> Army:
    """The army shared under ``token``; 404 for a made-up, revoked or regenerated token."""
    army = Army.objects.filter(share_token=token).first() if token else None
    if army is None:
        raise Http404("no such shared army")
    return army
