from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "armybuilder.events"
    label = "events"
    verbose_name = "Club events"

    def ready(self) -> None:
        from armybuilder.armies.selectors import SHARE_GUARDS
        from armybuilder.catalog.list_lifecycle import LIST_KEEPERS
        from armybuilder.catalog.selectors import LIST_GRANTS
        from armybuilder.events.game_sources import REVEALED
        from armybuilder.events.list_access import lists_granted
        from armybuilder.events.selectors import army_under_embargo, list_checks_entries
        from armybuilder.games.opponents import SOURCES

        # an army submitted to an event is not shown by its own share link before the reveal
        SHARE_GUARDS.append(army_under_embargo)
        # a club event checks its armies against a revision of the list: the list stays
        LIST_KEEPERS.append(list_checks_entries)
        # everyone in an event reads and builds on the lists it pins, while it lasts
        LIST_GRANTS.append(lists_granted)
        # a game against an army an event revealed, offered on My games
        SOURCES.append(REVEALED)
