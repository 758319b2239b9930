"""The board draws only what changed (firmware/board/leds.py's Redraw): the tracks whose view
keys (shared_rules/render.py's reads) hold other values than at the last draw, each track's LEDs
cleared first, and the tracks whose seats take turns when the phase moves. Its frame must be the
frame render() draws whole, byte for byte, at every entry of random play of every game, with
the state folded in place as the board folds it (the view's lists are the state's own, changed
under the copy Redraw keeps), the phase moving, a frame drawn ahead for another state between
two draws, and the board's forget() (a frame put on it that was not drawn here).
"""

import copy
import os
import random
import sys

import paths
import pytest

from chancery.hardware import files as hardware_files
from firmware.board import leds
from shared_rules import canon, engine, render
from shared_rules.errors import RuleError
from shared_rules.games import GAMES

sys.path.insert(0, os.path.join(paths.ROOT, "tests", "mp"))
import random_game  # noqa: E402  (tests/mp/random_game.py: the tests' random actions)


class Row:
    """What Redraw asks of the board's framebuf over the frame: fill(0)."""

    def __init__(self, frame):
        self.frame = frame

    def fill(self, v):
        self.frame[:] = bytes([v]) * len(self.frame)


def most_players(g):
    most = [s["domain"]["max"] for s in g.SETTINGS if s["name"] == "players"]
    return {"players": most[0]} if most else {}


@pytest.mark.parametrize("game", GAMES)
def test_drawing_what_changed_is_drawing_it_whole(game):
    g = engine.game_module(game)
    whole_layout = hardware_files.layout(game)  # placed on the arrangement, as a board reads it
    board_layout = copy.deepcopy(whole_layout)
    redraw = leds.Redraw(leds.plan_kept(board_layout))  # the board's plan: its layout lets the tracks go
    level = whole_layout.get("level", 255)
    size = render.frame_size(whole_layout)
    checked = partial = 0
    for seed in (1, 2, 3):
        rnd, draw = random.Random(seed), random_game.Draw(seed)
        state = engine.new_match(game, most_players(g), seed)["state"]
        frame, phase = bytearray(size), 0
        row = Row(frame)
        redraw.forget()  # another frame: not what the last draw left
        for _ in range(120):
            if g.is_over(state):
                break
            schema = rnd.choice(g.legal(state, None))
            act = random_game.action(draw, schema, engine.seats(state), g.card_names(state))
            try:
                state = engine.decide(game, state, act, True)[2]  # folded in place, as the board does
            except (RuleError, engine.Spoiled):
                state = engine.new_match(game, most_players(g), seed)["state"] if g.is_over(state) else state
                continue
            r = rnd.random()
            if r < 0.15:
                phase += 1  # the layout's turns move on
            elif r < 0.25:  # a frame drawn ahead, for another state, between two draws
                other = canon.copy(state)
                offered = g.legal(other, None)
                try:
                    other = engine.decide(game, other, random_game.action(
                        draw, rnd.choice(offered), engine.seats(other), g.card_names(other)), True)[2]
                    redraw.draw(g.view(other, None, True), board_layout, frame, level, phase, row)
                except (RuleError, engine.Spoiled):
                    pass
            elif r < 0.3:
                redraw.forget()
            partial += redraw.seen is not None
            redraw.draw(g.view(state, None, True), board_layout, frame, level, phase, row)
            want = render.render(g.view(state, None), whole_layout, bytearray(size), level, phase)
            assert frame == want, (game, seed, act)
            checked += 1
    assert checked >= 60 and partial >= checked // 2, (checked, partial)
