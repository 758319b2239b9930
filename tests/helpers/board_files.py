"""The files a board reads, as `chancery deploy` writes them, for the tests that hand a board's
code a layout (under MicroPython, or the backends on the host): each track placed on the
arrangement (hardware/arrangement.json) as the strip's indices of its LEDs, without the prose."""

import os

from chancery import ROOT
from chancery.deploy import flash as deploy

GAMES = ("chancellors", "kings_dilemma", "the_council", "yes_your_grace")


def layout_file(game, folder):
    """hardware/layouts/GAME.json as the board reads it, written into folder; its path."""
    path = os.path.join(str(folder), game + ".json")
    deploy.board_layout(os.path.join(ROOT, "hardware", "layouts", game + ".json"), path)
    return path


def layouts_folder(folder):
    """Every game's board layout under folder/hardware/layouts/ (as on a board's flash); folder."""
    for game in GAMES:
        layout_file(game, os.path.join(str(folder), "hardware", "layouts"))
    return folder
