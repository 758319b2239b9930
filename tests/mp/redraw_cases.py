"""The board's partial redraw (firmware/board/leds.py's Redraw) against a whole render, for
CPython and MicroPython alike.

    micropython redraw_cases.py LAYOUT.json GAME SEED ACTIONS

Plays a random game (random_game.py's draws) with the board's in-place fold, so the view's
lists are the very objects the rules change. After every entry the frame is drawn as a board
draws it (only the tracks whose fields moved, on the frame before), then at the next phase
(a seats_at layout's tick), and each time through the current limiter at a budget that the
seed sometimes makes small (a scaled frame is drawn whole next). Each must equal a whole
render of the same view on a cleared frame, limited alike. Prints "frames N partial P" at
the end (P: frames drawn in part); raises AssertionError at the first frame that differs.
"""

import json
import sys

import framebuf  # the board's own on MicroPython; tests/fakes' on CPython
import random_game as rg

from firmware.board.leds import Redraw, plan_kept
from shared_rules import engine, power, render
from shared_rules.errors import RuleError


def run(layout_path, game, seed, cap):
    with open(layout_path) as f:
        layout = json.load(f)
    tracks = plan_kept(layout)
    size = render.frame_size(layout)
    frame, whole = bytearray(size), bytearray(size)
    redraw = Redraw(tracks, framebuf.FrameBuffer(frame, size, 1, framebuf.GS8), layout["leds"])
    level = layout.get("level", 255)
    rnd = rg.Draw(seed)
    g = engine.game_module(game)
    d = [s["domain"] for s in g.SETTINGS if s["name"] == "players"][0]
    m = engine.new_match(game, {"players": d["max"] - seed % (d["max"] - d["min"] + 1)}, seed)
    state, seats, box = m["state"], engine.seats(m["state"]), {}
    frames = partial = phase = 0
    steps = 0
    while not g.is_over(state) and steps < cap:
        steps += 1
        b = state.get("ballot")
        act = rg.board_ballot(rnd, state, box) if b is not None and b["result"] is None else None
        if act is None:
            act = rg.action(rnd, rnd.pick(g.legal(state, None)), seats, g.card_names(state))
        try:
            state = engine.decide(game, state, act, True)[2]
        except RuleError:
            continue
        for tick in (0, 1):
            phase += tick
            view = g.view(state, None, True)  # as the board reads it: no copy
            budget = 60 + rnd.below(200) if rnd.below(4) == 0 else 2000
            drawn = redraw.changed(view, phase)
            if drawn is not tracks:
                partial += 1
            render.render(view, layout, frame, level, phase, False, drawn)
            redraw.whole = power.limit(frame, budget) < 255
            render.render(view, layout, whole, level, phase, None, tracks)
            power.limit(whole, budget)
            frames += 1
            if frame != whole:
                raise AssertionError("entry %d, phase %d: the redrawn frame differs from a whole render at LED %d" % (
                    steps, phase, [i for i in range(size) if frame[i] != whole[i]][0] // 3))
    print("frames %d partial %d" % (frames, partial))
    return frames, partial


if __name__ == "__main__":
    a = sys.argv[1:]
    run(a[0], a[1], int(a[2]), int(a[3]))
