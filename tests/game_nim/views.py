"""Nim's legal actions."""

from game_nim.actions import SCHEMAS


def legal(state, seat=None):
    if state["step"] == "over" or (seat is not None and seat != state["turn"]):
        return []
    return list(SCHEMAS)
