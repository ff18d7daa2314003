"""A game on two phones: the owner's page holds side A's seat and the link to play side
B's; each records its own units' actions, only the phasing side's units inflict hits in a
Feudal player turn (3.1), only the phasing player moves the turn on, Undo takes back one's
own actions, and the log says whose phone did what. A game on one phone is unchanged."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.games import selectors, services, summary_sheet
from armybuilder.games.exporting import game_document
from armybuilder.games.models import Game, GameAction
from tests.web.games.conftest import route, take_seat, to_phase, unit
from tests.web.games.operations import operation, results, send
from tests.web.games.test_views_links import links, shared

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(user, feudal_armies) -> Game:
    """Normans (side A, the owner's phone) v Saxons (side B, the link to play)."""
    return services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1], seated=True)


def page_of(client: Client, where: str) -> str:
    return client.get(where).content.decode()


def melee(game: Game, attacker: str, target: str, turn: int, die: str = "3") -> dict:
    return operation("combat", {"attacker": attacker, "target": target, "modifiers": [],
                                "die": die, "numbers": "", "seed": "", "turn": turn,
                                "phase": "melee"})  # fmt: skip


def test_the_start_form_plays_on_two_phones_unless_one_is_chosen(owner_client, feudal_armies):
    mine, theirs = feudal_armies
    start = reverse("games:mine")
    owner_client.post(start, {"army_a": mine.pk, "army_b": theirs.pk, "played_on": "two"})
    owner_client.post(start, {"army_a": mine.pk, "army_b": theirs.pk, "played_on": "one",
                              "first": "b"})  # fmt: skip
    two, one = Game.objects.order_by("pk")
    assert (two.seated, two.first) == (True, "a")
    assert (one.seated, one.first) == (False, "b")
    page = page_of(owner_client, start)
    assert 'name="played_on" value="two" checked' in page and "One phone plays both sides" in page


def test_who_plays_is_chosen_before_anything_is_done(seated):
    services.next_phase(seated, version=seated.version)
    with pytest.raises(services.Refused, match="chosen at its start"):
        services.choose_seats(seated, seated=False, first="a")
    assert Game.objects.get(pk=seated.pk).seated


def test_the_opponents_phone_inflicts_no_hits_in_the_owners_player_turn(seated, owner_client):
    to_phase(seated, "melee")
    play = links(owner_client, seated, "play")
    opponent = Client()
    theirs, mine = unit(seated, "b", "Knights"), unit(seated, "a", "Serjeants")
    answer = opponent.post(shared("combat", play), {"attacker": theirs, "target": mine,
                                                   "die": "3", "version": seated.version})  # fmt: skip
    said = answer.content.decode()
    assert answer.status_code == 400
    assert "It is Normans&#x27; player turn" in said and "3.1 One-Sided Mêlée" in said
    refused = results(send(opponent, shared("operations", play), melee(seated, theirs, mine, 1)))
    assert refused[0]["status"] == "refused" and "3.1 One-Sided Mêlée" in refused[0]["message"]
    assert not seated.actions.filter(kind=GameAction.COMBAT).exists()
    # nor does the owner's phone record the Saxons' combats, nor move on their turn
    applied = owner_client.post(route("combat", seated),
                                {"attacker": theirs, "target": mine, "die": "3",
                                 "version": seated.version})  # fmt: skip
    assert "This phone plays Normans: Saxons&#x27; combats" in applied.content.decode()


def test_in_their_own_player_turn_each_phone_fights_and_the_log_names_it(seated, owner_client):
    to_phase(seated, "melee")
    play = links(owner_client, seated, "play")
    opponent = Client()
    knights_a, serjeants_b = unit(seated, "a", "Knights"), unit(seated, "b", "Serjeants")
    ok = results(send(owner_client, reverse("games:operations", args=[seated.pk]),
                      melee(seated, knights_a, serjeants_b, 1)))  # fmt: skip
    assert ok[0]["status"] == "applied"
    # the owner's phone ends its player turn; the opponent's cannot do it for them
    refused = opponent.post(
        shared("next_phase", play), {"version": Game.objects.get(pk=seated.pk).version}
    )
    assert (
        refused.status_code == 400 and "It is Normans&#x27; player turn" in refused.content.decode()
    )
    seated.refresh_from_db()
    to_phase_by(seated, "a", "rally")
    services.next_phase(seated, version=seated.version, seat="a")  # turn 2: the Saxons'
    to_phase_by(seated, "b", "melee")
    knights_b, serjeants_a = unit(seated, "b", "Knights"), unit(seated, "a", "Serjeants")
    ok = results(
        send(opponent, shared("operations", play), melee(seated, knights_b, serjeants_a, 2))
    )
    assert ok[0]["status"] == "applied"
    page = page_of(owner_client, reverse("games:game", args=[seated.pk]))
    assert "Knights against Serjeants" in page
    assert page.count("— Normans&#x27; phone") == 3 and page.count("— Saxons&#x27; phone") == 3
    assert (
        'id="whose">Saxons&#x27; player turn' in page and "This phone plays <strong>Normans" in page
    )


def to_phase_by(game: Game, seat: str, key: str) -> None:
    while game.phase != key:
        services.next_phase(game, version=game.version, seat=seat)


def test_undo_takes_back_only_the_phones_own_actions(seated, owner_client):
    to_phase_by(seated, "a", "melee")
    play = links(owner_client, seated, "play")
    opponent = Client()
    combat = melee(seated, unit(seated, "a", "Knights"), unit(seated, "b", "Serjeants"), 1)
    send(owner_client, reverse("games:operations", args=[seated.pk]), combat)
    taken = results(send(opponent, shared("operations", play),
                         operation("undo", {"of": combat["key"]})))  # fmt: skip
    assert taken[0]["status"] == "refused"
    assert "made on Normans' phone: only their player takes it back" in taken[0]["message"]
    answer = opponent.post(
        shared("undo", play), {"version": Game.objects.get(pk=seated.pk).version}
    )
    assert "Nothing to undo: no action of this phone&#x27;s stands." in answer.content.decode()
    assert not seated.actions.filter(undone=True).exists()
    owner_client.post(route("undo", seated),
                      {"version": Game.objects.get(pk=seated.pk).version})  # fmt: skip
    assert seated.actions.get(key=combat["key"]).undone


def test_removals_and_force_morale_are_each_players_own(seated):
    saxon = unit(seated, "b", "Knights")
    with pytest.raises(services.Refused, match="Saxons' removals are recorded on their player"):
        services.remove_unit(seated, version=None, unit_id=saxon, why="routed", seat="a")
    services.remove_unit(seated, version=None, unit_id=saxon, why="routed", seat="b")
    assert selectors.state_of(seated).of(saxon).removed


def test_each_phone_is_offered_only_what_it_may_do(seated, owner_client):
    to_phase(seated, "melee")
    play = links(owner_client, seated, "play")
    mine = page_of(owner_client, reverse("games:game", args=[seated.pk]))
    phone = Client()
    take_seat(phone, play)
    theirs = page_of(phone, shared("game", play))
    assert mine.count('aria-label="Attacker: ') == 2  # the Normans' two units, their turn
    # a target only on the cards an attacker of the phone's may fight: the other side's
    assert mine.count('aria-label="Target: ') == 2
    assert "Target: Knights" in mine.split('id="side-b"')[1]
    assert "Target: " not in mine.split('id="side-b"')[0]
    assert theirs.count('aria-label="Attacker: ') == 0 and theirs.count('aria-label="Target: ') == 0
    assert theirs.count('class="unit-picks"') == 0  # nothing to pick in the other's turn
    assert "This phone plays <strong>Saxons" in theirs
    assert 'data-op="next_phase" hidden' in theirs and 'data-op="next_phase" hidden' not in mine
    assert mine.count("Remove Knights") == 1 and mine.count("Remove Serjeants") == 1


def test_a_game_on_one_phone_plays_both_sides_as_before(game, owner_client):
    to_phase(game, "melee")
    page = page_of(owner_client, reverse("games:game", args=[game.pk]))
    assert page.count('aria-label="Attacker: ') == 4 and "This phone plays" not in page
    assert 'id="whose">Normans&#x27; player turn' in page
    services.apply_combat(game, version=game.version, attacker_id=unit(game, "b", "Knights"),
                          target_id=unit(game, "a", "Serjeants"), die=3)  # fmt: skip
    assert "phone</span>" not in page_of(owner_client, reverse("games:game", args=[game.pk]))


def test_the_summary_and_the_game_file_say_whose_phone_did_what(seated, game):
    services.next_phase(seated, version=seated.version, seat="a")
    services.remove_unit(
        seated, version=None, unit_id=unit(seated, "b", "Knights"), why="fled", seat="b"
    )
    sheet = summary_sheet.summary_html(seated)
    assert (
        "Played on two phones: Normans&#x27; phone made 1 action; Saxons&#x27; phone made 1"
        in sheet
    )
    assert "Played on one phone." in summary_sheet.summary_html(game)
    document = game_document(seated, by_link=True)
    assert (document["seated"], document["first"]) == (True, "a")
    assert [a["seat"] for a in document["log"]] == ["a", "b"]
