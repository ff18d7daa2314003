from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "armybuilder.games"
    label = "games"
    verbose_name = "Games at the table"
