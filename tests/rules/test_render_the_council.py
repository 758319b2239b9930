"""The Council's LED layout (hardware/layouts/the_council.json) on real positions: six
suit tracks with every seat's rank and the empire's, seats sharing a rank taking turns,
the event's suits, whose bid it is, the step and the winners."""


import paths

from chancery.hardware import files as hardware_files
from shared_rules import engine, render

ROOT = paths.ROOT
LAYOUT = hardware_files.layout("the_council")  # placed on the arrangement, as every renderer reads it
SEATS = LAYOUT["seat_colours"]
EMPIRE = LAYOUT["colours"]["empire"]
EVENT = LAYOUT["colours"]["event"]
DARK = [0, 0, 0]
SUITS = ["moons", "suns", "waves", "leaves", "wyrms", "knots"]


def track(name):
    return [t for t in LAYOUT["tracks"] if t["name"] == name][0]


def led(frame, name, k):
    """The colour of LED k (0 = the track's first) of a track, at full level."""
    t = track(name)
    i = t["idx"][k]  # the strip index of the track's k-th LED
    return list(frame[3 * i:3 * i + 3])


def draw(state, phase=0):
    view = engine.game_module("the_council").view(state, None)
    return render.render(view, LAYOUT, bytearray(render.frame_size(LAYOUT)), 255, phase)


def play(settings, actions):
    m = engine.new_match("the_council", settings, 0)
    for a in actions:
        engine.apply(m, a)
    return m["state"]


DRAFTS = [{"type": "draft", "seat": 0, "cards": ["Ace of Moons", "Author", "Journey", "Mountain", "Huntress"]},
          {"type": "draft", "seat": 1, "cards": ["Ace of Suns", "Desert", "Painter", "Sailor", "Bard"]},
          {"type": "draft", "seat": 2, "cards": ["Ace of Waves", "Origin", "Savage", "Battle", "Sea"]}]


def test_every_seat_and_the_empire_on_each_suit_track():
    state = play({"players": 3, "ranks": [[2, 0, 0, 0, 0, 6], [2, 1, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0]],
                  "empire": [4, 6, 6, 6, 6, 6]}, DRAFTS)
    frame = draw(state)
    assert led(frame, "moons", 5) == SEATS[2] and led(frame, "moons", 4) == EMPIRE
    assert led(frame, "suns", 1) == SEATS[1]
    # Moons rank 2: seats 0 and 1 take turns; Knots rank 6: seat 0 and the empire
    assert [led(draw(state, p), "moons", 2) for p in range(4)] == [SEATS[0], SEATS[1], SEATS[0], SEATS[1]]
    assert [led(draw(state, p), "knots", 6) for p in range(2)] == [SEATS[0], EMPIRE]
    assert [led(frame, "moons", k) for k in (1, 3, 6)] == [DARK] * 3


def test_the_event_suits_and_the_bidder_while_it_is_bid():
    state = play({"players": 3}, DRAFTS + [{"type": "event", "card": "Mill"}])  # Waves and Leaves
    frame = draw(state)
    assert [led(frame, "event_suits", k) == EVENT for k in range(6)] == [False, False, True, True, False, False]
    assert led(frame, "bidder", state["turn"]) == SEATS[state["turn"]]
    assert led(frame, "step", 2) != DARK  # bid
    done = play({"players": 3}, DRAFTS[:2])
    assert not any(led(draw(done), "event_suits", k) != DARK for k in range(6))
