from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "armybuilder.printing"
    label = "printing"

    def ready(self) -> None:
        from armybuilder.armies.models import FOLLOWERS
        from armybuilder.printing.prerender import schedule

        # a player's army made or changed (every save path calls armies.models.army_saved):
        # its sheets are rendered ahead once it is still (printing.prerender)
        FOLLOWERS.append(schedule)
