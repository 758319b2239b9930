"""Yes, Your Grace's LED layout (hardware/layouts/yes_your_grace.json): the Annals of History
coloured by Record type, the King card's face, the King and the Heir, each seat's Damaged
Holdings, the round's phase and the victors, from scenario positions."""

import glob
import os

import paths
import scenario_checks

from chancery.hardware import files as hardware_files
from shared_rules import engine, render

ROOT = paths.ROOT
LAYOUT = hardware_files.layout("yes_your_grace")  # placed on the arrangement, as every renderer reads it
COLOURS = LAYOUT["colours"]
SEATS = LAYOUT["seat_colours"]
DARK = [0, 0, 0]
SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "yes-your-grace")


def led(frame, name, k):
    t = [t for t in LAYOUT["tracks"] if t["name"] == name][0]
    i = t["idx"][k]  # the strip index of the track's k-th LED
    return list(frame[3 * i:3 * i + 3])


def final(name):
    """The state at the end of a scenario file (its refused actions skipped)."""
    return scenario_checks.match_of(os.path.join(SCENARIOS, name))["state"]


def draw(state):
    view = engine.game_module("yes_your_grace").view(state, None)
    return render.render(view, LAYOUT, bytearray(render.frame_size(LAYOUT)), 255)


def test_the_annals_in_order_by_type():
    for path in sorted(glob.glob(os.path.join(SCENARIOS, "*.jsonl"))):
        state = final(os.path.basename(path))
        frame = draw(state)
        annals = state["annals"]
        for k in range(12):
            want = COLOURS[annals[k]] if k < len(annals) else DARK
            assert led(frame, "annals", k) == want, (path, k, annals)


def test_the_court_and_the_damage():
    state = final("y4-damage-what-is-left.jsonl")
    frame = draw(state)
    king = state["king"]
    assert led(frame, "king", king) == SEATS[king]
    assert led(frame, "face", 0 if state["face"] == "loyalist" else 1) == COLOURS[state["face"]]
    for seat in range(state["settings"]["players"]):
        n = sum(state["damaged"][seat])
        assert [led(frame, "damaged_%d" % seat, k) != DARK for k in range(4)] == [k < n for k in range(4)]
    assert any(sum(d) for d in state["damaged"])  # the scenario damages something
